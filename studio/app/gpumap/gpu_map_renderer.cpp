#include "gpumap/gpu_map_renderer.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace gantry::studio {

QRgb gpuColor(const GpuMapScene& s, int node, int gpu) {
    const auto& c = s.colors;
    if (s.matches && !(*s.matches)[size_t(node)]) return c.dimmed;
    if (s.nodeStates && (*s.nodeStates)[size_t(node)] != NodeState::Ready) {
        int g = s.occupancy->gpuIndex(node, gpu);
        if (s.occupancy->usedMilli[size_t(g)] == 0) return c.cordoned;
    }
    int g = s.occupancy->gpuIndex(node, gpu);
    int used = s.occupancy->usedMilli[size_t(g)];
    switch (s.mode) {
    case GpuColorMode::Occupancy: return c.occupancyColor(used);
    case GpuColorMode::Queue: return used == 0 ? c.free : c.category(s.occupancy->queue[size_t(g)]);
    case GpuColorMode::Job:
        return used == 0 ? c.free : c.category(int((uint32_t(s.occupancy->job[size_t(g)]) * 2654435761u) >> 8));
    case GpuColorMode::Fragmentation:
        if (used >= 1000) return c.allocatedNeutral;
        return c.fragmentationColor(s.occupancy->fragmentation[size_t(g)]);
    }
    return c.free;
}

namespace {

// Fills a device-pixel rectangle, clipped to the image.
inline void fillPixels(QImage& img, int x, int y, int w, int h, QRgb color) {
    int x0 = std::max(0, x), y0 = std::max(0, y);
    int x1 = std::min(img.width(), x + w), y1 = std::min(img.height(), y + h);
    if (x0 >= x1 || y0 >= y1) return;
    const qsizetype stride = img.bytesPerLine() / 4;
    auto* row = reinterpret_cast<QRgb*>(img.bits()) + qsizetype(y0) * stride;
    for (int yy = y0; yy < y1; ++yy, row += stride) std::fill(row + x0, row + x1, color);
}

} // namespace

void renderGpuMap(QImage& target, QPoint origin, const GpuMapScene& s) {
    const auto& geo = *s.geometry;
    const auto& c = s.colors;
    const double dpr = target.devicePixelRatio();
    const QRect view(origin, QSize(int(std::ceil(target.width() / dpr)), int(std::ceil(target.height() / dpr))));
    target.fill(c.background);

    const bool titles = geo.cellSize() >= 6;
    std::vector<int> groups;
    geo.forGroupsIn(view, [&](int g) { groups.push_back(g); });
    {
        QPainter p(&target);
        p.translate(-origin);
        p.setFont(s.font);
        p.setPen(QColor(c.groupBorder));
        p.setBrush(QColor(c.groupFill));
        for (int g : groups) p.drawRect(geo.groupRect(g).adjusted(0, 0, -1, -1));
        if (titles) {
            p.setPen(QColor(c.groupText));
            for (int g : groups)
                p.drawText(geo.groupTitleRect(g), Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine,
                           geo.layout().groups[size_t(g)].title);
        }
        QFont bold = s.font;
        bold.setBold(true);
        bold.setPointSizeF(s.font.pointSizeF() * 1.15);
        p.setFont(bold);
        p.setPen(QColor(c.sectionText));
        for (size_t sec = 0; sec < geo.layout().sections.size(); ++sec) {
            QRect r = geo.sectionTitleRect(int(sec));
            if (r.isEmpty() || !r.intersects(view)) continue;
            p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine, geo.layout().sections[sec]);
        }
    }

    // The cells: straight pixel writes in device pixels.
    const int cell = geo.cellSize();
    const int step = cell + geo.cellGap();
    const int cellDev = std::max(1, int(std::lround(cell * dpr)));
    std::vector<int> outlined;
    for (int g : groups) {
        geo.forNodesIn(g, view, [&](int node) {
            int count = s.occupancy->gpuCount(node);
            if (count <= 0) return;
            QRect nr = geo.nodeRect(node);
            if (!nr.intersects(view)) return;
            for (int gpu = 0; gpu < count; ++gpu) {
                int cx = nr.x() + (gpu % GpuMapGeometry::GpusPerRow) * step - origin.x();
                int cy = nr.y() + (gpu / GpuMapGeometry::GpusPerRow) * step - origin.y();
                fillPixels(target, int(std::lround(cx * dpr)), int(std::lround(cy * dpr)), cellDev, cellDev,
                           gpuColor(s, node, gpu));
            }
            if (node == s.currentNode || (s.nodeStates && (*s.nodeStates)[size_t(node)] == NodeState::NotReady))
                outlined.push_back(node);
        });
    }
    if (!outlined.empty()) {
        QPainter p(&target);
        p.translate(-origin);
        p.setBrush(Qt::NoBrush);
        for (int node : outlined) {
            bool current = node == s.currentNode;
            p.setPen(QPen(QColor(current ? c.highlight : c.notReadyBorder), current ? 2 : 1));
            p.drawRect(geo.nodeRect(node).adjusted(-2, -2, 1, 1));
        }
    }
}

} // namespace gantry::studio
