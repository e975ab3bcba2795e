#include "gpumap/gpu_map_renderer.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace gantry::studio {

namespace {

// The colour of GPU g (flat index) of a node that is shown and ready.
inline QRgb cellColor(const GpuMapScene& s, int g) {
    const auto& c = s.colors;
    const int used = s.occupancy->usedMilli[size_t(g)];
    switch (s.mode) {
    case GpuColorMode::Occupancy:
        return c.occupancyColor(used);
    case GpuColorMode::Queue:
        return used == 0 ? c.free : c.category(s.occupancy->queue[size_t(g)]);
    case GpuColorMode::Job:
        return used == 0 ? c.free
                         : c.category(int((uint32_t(s.occupancy->job[size_t(g)]) * 2654435761u) >> 8));
    case GpuColorMode::Fragmentation:
        if (used >= 1000) return c.allocatedNeutral;
        return c.fragmentationColor(s.occupancy->fragmentation[size_t(g)]);
    case GpuColorMode::IdleWhy:
        if (s.occupancy->idleWhy.empty()) return used == 0 ? c.free : c.allocatedNeutral;
        switch (s.occupancy->idleWhy[size_t(g)]) {
        case frag::IdleClass::None:
            return c.allocatedNeutral;
        case frag::IdleClass::Usable:
            return c.usable;
        case frag::IdleClass::Fractional:
            return c.fractional;
        case frag::IdleClass::Scattered:
            return c.scattered;
        case frag::IdleClass::Stranded:
            return c.stranded;
        }
    }
    return c.free;
}

// Raw access to a 32-bit image, taken once per frame (QImage::bits() checks for sharing each call).
struct Pixels {
    QRgb* base;
    qsizetype stride;
    int width, height;
    explicit Pixels(QImage& img)
        : base(reinterpret_cast<QRgb*>(img.bits())), stride(img.bytesPerLine() / 4), width(img.width()),
          height(img.height()) {}
    // Fills a device-pixel rectangle, clipped to the image.
    void fill(int x, int y, int w, int h, QRgb color) const {
        int x0 = std::max(0, x), y0 = std::max(0, y);
        int x1 = std::min(width, x + w), y1 = std::min(height, y + h);
        if (x0 >= x1 || y0 >= y1) return;
        QRgb* row = base + qsizetype(y0) * stride;
        for (int yy = y0; yy < y1; ++yy, row += stride) std::fill(row + x0, row + x1, color);
    }
};

// A MIG-partitioned GPU as its instances: one column per instance, as wide as its compute slices
// (of 7), filled with its holder's colour or left free; slices no instance can use are amber. In
// the idle mode a free instance is usable when a pod of the job mix asks for its profile, else
// the layout's (violet, as in the idle chart).
bool drawMig(const Pixels& px, const GpuMapScene& s, int g, int x, int y, int size) {
    const auto& occ = *s.occupancy;
    const int from = occ.migOffset[size_t(g)], to = occ.migOffset[size_t(g) + 1];
    if (from == to) return false;
    const auto& c = s.colors;
    const int gap = size >= 10 ? 1 : 0;
    int slices = 0;
    for (int i = from; i < to; ++i) {
        const MigSlot& slot = occ.migSlots[size_t(i)];
        const int x0 = x + slices * size / 7, x1 = x + (slices + slot.computeSlices) * size / 7;
        slices += slot.computeSlices;
        QRgb color = c.free;
        if (s.mode == GpuColorMode::IdleWhy) {
            color = slot.job >= 0 ? c.allocatedNeutral : slot.asked ? c.usable : c.migLayout;
        } else if (slot.job >= 0) {
            switch (s.mode) {
            case GpuColorMode::Queue:
                color = c.category(slot.queue);
                break;
            case GpuColorMode::Job:
                color = c.category(int((uint32_t(slot.job) * 2654435761u) >> 8));
                break;
            default:
                color = c.occupancyColor(1000);
            }
        }
        px.fill(x0, y, std::max(1, x1 - x0 - gap), size, color);
    }
    if (slices < 7) px.fill(x + slices * size / 7, y, size - slices * size / 7, size, c.migUnused);
    return true;
}

} // namespace

void renderGpuMap(QImage& target, QPoint origin, const GpuMapScene& s) {
    const auto& geo = *s.geometry;
    const auto& c = s.colors;
    const double dpr = target.devicePixelRatio();
    const QRect view(origin,
                     QSize(int(std::ceil(target.width() / dpr)), int(std::ceil(target.height() / dpr))));
    target.fill(c.background);

    const bool titles = geo.showsTitles();
    std::vector<int> groups;
    geo.forGroupsIn(view, [&](int g) { groups.push_back(g); });
    // Group frames: a border and a fill, written as pixels (thousands of them when zoomed out).
    const bool unitScale = dpr == 1.0;
    auto dev = [&](int v, int o) { return unitScale ? v - o : int(std::lround((v - o) * dpr)); };
    {
        Pixels px(target);
        const int b = std::max(1, int(std::lround(dpr)));
        for (int g : groups) {
            QRect r = geo.groupRect(g);
            int x0 = dev(r.left(), origin.x()), y0 = dev(r.top(), origin.y());
            int x1 = dev(r.right() + 1, origin.x()), y1 = dev(r.bottom() + 1, origin.y());
            px.fill(x0, y0, x1 - x0, y1 - y0, c.groupBorder);
            px.fill(x0 + b, y0 + b, x1 - x0 - 2 * b, y1 - y0 - 2 * b, c.groupFill);
        }
    }
    {
        QPainter p(&target);
        p.translate(-origin);
        p.setFont(s.font);
        if (titles) {
            p.setPen(QColor(c.groupText));
            for (int g : groups)
                p.drawText(geo.groupTitleRect(g), Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine,
                           geo.layout().groups[size_t(g)].title);
        }
        QFont bold = s.font;
        bold.setBold(true);
        if (titles) bold.setPointSizeF(s.font.pointSizeF() * 1.15);
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
    Pixels px(target);
    for (int g : groups) {
        geo.forNodesIn(g, view, [&](int node) {
            const int count = s.occupancy->gpuCount(node);
            if (count <= 0) return;
            QRect nr = geo.nodeRect(node);
            if (!nr.intersects(view)) return;
            const int first = s.occupancy->gpuOffset[size_t(node)];
            const bool dimmed = s.matches && !(*s.matches)[size_t(node)];
            const bool down = s.nodeStates && (*s.nodeStates)[size_t(node)] != NodeState::Ready;
            for (int gpu = 0; gpu < count; ++gpu) {
                int cx = nr.x() + (gpu % GpuMapGeometry::GpusPerRow) * step;
                int cy = nr.y() + (gpu / GpuMapGeometry::GpusPerRow) * step;
                QRgb color = dimmed ? c.dimmed
                             : down && s.occupancy->usedMilli[size_t(first + gpu)] == 0
                                 ? c.cordoned
                                 : cellColor(s, first + gpu);
                const int x = dev(cx, origin.x()), y = dev(cy, origin.y());
                if (!dimmed && !s.occupancy->migOffset.empty() && drawMig(px, s, first + gpu, x, y, cellDev))
                    continue;
                px.fill(x, y, cellDev, cellDev, color);
            }
            if (node == s.currentNode ||
                (s.nodeStates && (*s.nodeStates)[size_t(node)] == NodeState::NotReady))
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
