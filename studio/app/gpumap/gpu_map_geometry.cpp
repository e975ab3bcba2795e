#include "gpumap/gpu_map_geometry.h"

#include <algorithm>
#include <cmath>

namespace gantry::studio {

void GpuMapGeometry::setLayout(GpuMapLayout layout) {
    layout_ = std::move(layout);
    relayout();
}

void GpuMapGeometry::setZoom(double zoom) {
    zoom = std::clamp(zoom, MinZoom, MaxZoom);
    if (zoom == zoom_ && !placed_.empty()) return;
    zoom_ = zoom;
    relayout();
}

void GpuMapGeometry::setViewportWidth(int width) {
    width = std::max(width, 100);
    if (width == viewportWidth_) return;
    viewportWidth_ = width;
    relayout();
}

void GpuMapGeometry::relayout() {
    cell_ = std::max(3, int(std::lround(BaseCell * zoom_)));
    cellGap_ = cell_ >= 5 ? 1 : 0;
    nodeGap_ = cell_ >= 8 ? 3 : cell_ >= 5 ? 2 : 1;
    // Zoomed far out the map is an overview: no group titles, tighter frames, small section rows.
    const bool compact = cell_ < 6;
    columnGap_ = compact ? 3 : std::max(4, cell_ / 2);
    pad_ = compact ? 2 : std::max(4, cell_ / 2);
    groupGap_ = compact ? 3 : std::max(6, cell_);
    titleH_ = compact ? 0 : TitleHeight;
    sectionH_ = compact ? CompactSectionHeight : SectionHeight;

    size_t nodeCount = layout_.gpuCount.size();
    nodeGroup_.assign(nodeCount, -1);
    nodeSlot_.assign(nodeCount, -1);
    placed_.assign(layout_.groups.size(), PlacedGroup{});
    sectionTitles_.assign(layout_.sections.size(), QRect());
    const int usable = std::max(50, viewportWidth_ - 2 * margin_);

    // Size every group.
    for (size_t g = 0; g < layout_.groups.size(); ++g) {
        const auto& group = layout_.groups[g];
        auto& pg = placed_[g];
        int maxGpus = 0, drawn = 0;
        for (int n : group.nodes)
            if (n >= 0 && size_t(n) < nodeCount && layout_.gpuCount[size_t(n)] > 0) {
                maxGpus = std::max(maxGpus, layout_.gpuCount[size_t(n)]);
                ++drawn;
            }
        pg.gpuCols = std::clamp(maxGpus, 1, GpusPerRow);
        pg.rowsPerNode = std::max(1, (maxGpus + GpusPerRow - 1) / GpusPerRow);
        pg.nodeW = pg.gpuCols * cell_ + (pg.gpuCols - 1) * cellGap_;
        pg.nodeH = pg.rowsPerNode * cell_ + (pg.rowsPerNode - 1) * cellGap_;
        int n = std::max(1, int(group.nodes.size()));
        int fit = std::max(1, (usable - 2 * pad_ + columnGap_) / (pg.nodeW + columnGap_));
        pg.columns = std::min((n + MaxNodesPerColumn - 1) / MaxNodesPerColumn, fit);
        pg.perColumn = (n + pg.columns - 1) / pg.columns;
        int w = 2 * pad_ + pg.columns * pg.nodeW + (pg.columns - 1) * columnGap_;
        // Room for the title when titles are drawn (cells of 6 px and more).
        w = std::max(w, showsTitles() ? group.titleWidth + 2 * pad_ : 2 * pad_ + 4 * cell_);
        int h = titleH_ + 2 * pad_ + pg.perColumn * pg.nodeH + (pg.perColumn - 1) * nodeGap_;
        if (drawn == 0) h = titleH_ + 2 * pad_;
        pg.rect = QRect(0, 0, std::min(w, usable), h);
        int slot = 0;
        for (int node : group.nodes) {
            if (node >= 0 && size_t(node) < nodeCount && nodeGroup_[size_t(node)] < 0) {
                nodeGroup_[size_t(node)] = int(g);
                nodeSlot_[size_t(node)] = slot;
            }
            ++slot;
        }
    }

    // Flow groups inside each section box, and the boxes across the view. A section's groups are
    // consecutive in the layout.
    struct Box {
        int firstGroup = 0, lastGroup = 0, section = -1;
        int w = 0, h = 0;
    };
    std::vector<Box> boxes;
    for (size_t g = 0; g < layout_.groups.size();) {
        Box box;
        box.firstGroup = int(g);
        box.section = layout_.groups[g].section;
        while (g < layout_.groups.size() && layout_.groups[g].section == box.section) ++g;
        box.lastGroup = int(g);
        // Lay the groups out relative to the box, wrapping at the usable width.
        int x = 0, y = sectionH_, rowH = 0, widest = 0;
        for (int k = box.firstGroup; k < box.lastGroup; ++k) {
            QRect& r = placed_[size_t(k)].rect;
            if (x > 0 && x + r.width() > usable) {
                x = 0;
                y += rowH + groupGap_;
                rowH = 0;
            }
            r.moveTo(x, y);
            x += r.width() + groupGap_;
            rowH = std::max(rowH, r.height());
            widest = std::max(widest, r.right() + 1);
        }
        box.w = widest;
        if (box.section >= 0 && size_t(box.section) < layout_.sectionTitleWidths.size())
            box.w = std::min(usable, std::max(box.w, layout_.sectionTitleWidths[size_t(box.section)]));
        box.h = y + rowH;
        boxes.push_back(box);
    }
    int x = margin_, y = margin_, rowH = 0, widest = 0;
    const int boxGap = groupGap_ * 2;
    for (const Box& box : boxes) {
        if (x > margin_ && x + box.w > margin_ + usable) {
            x = margin_;
            y += rowH + boxGap;
            rowH = 0;
        }
        for (int k = box.firstGroup; k < box.lastGroup; ++k) placed_[size_t(k)].rect.translate(x, y);
        if (box.section >= 0 && size_t(box.section) < sectionTitles_.size())
            sectionTitles_[size_t(box.section)] = QRect(x, y, std::max(box.w, 1), sectionH_);
        x += box.w + boxGap;
        rowH = std::max(rowH, box.h);
        widest = std::max(widest, x - boxGap);
    }
    width_ = std::max(widest + margin_, viewportWidth_);
    height_ = y + rowH + margin_;
}

QPoint GpuMapGeometry::nodeOrigin(int node) const {
    const auto& pg = placed_[size_t(nodeGroup_[size_t(node)])];
    int slot = nodeSlot_[size_t(node)];
    int c = slot / pg.perColumn, r = slot % pg.perColumn;
    return {pg.rect.x() + pad_ + c * (pg.nodeW + columnGap_),
            pg.rect.y() + titleH_ + pad_ + r * (pg.nodeH + nodeGap_)};
}

int GpuMapGeometry::groupOfNode(int node) const {
    return node >= 0 && size_t(node) < nodeGroup_.size() ? nodeGroup_[size_t(node)] : -1;
}

QRect GpuMapGeometry::nodeRect(int node) const {
    if (groupOfNode(node) < 0 || layout_.gpuCount[size_t(node)] <= 0) return {};
    const auto& pg = placed_[size_t(nodeGroup_[size_t(node)])];
    QPoint o = nodeOrigin(node);
    int rows = (layout_.gpuCount[size_t(node)] + GpusPerRow - 1) / GpusPerRow;
    int cols = std::min(layout_.gpuCount[size_t(node)], GpusPerRow);
    (void)pg;
    return QRect(o.x(), o.y(), cols * cell_ + (cols - 1) * cellGap_, rows * cell_ + (rows - 1) * cellGap_);
}

QRect GpuMapGeometry::cellRect(GpuRef ref) const {
    if (groupOfNode(ref.node) < 0 || ref.gpu < 0 || ref.gpu >= layout_.gpuCount[size_t(ref.node)]) return {};
    QPoint o = nodeOrigin(ref.node);
    int c = ref.gpu % GpusPerRow, r = ref.gpu / GpusPerRow;
    return QRect(o.x() + c * (cell_ + cellGap_), o.y() + r * (cell_ + cellGap_), cell_, cell_);
}

QRect GpuMapGeometry::groupRect(int group) const {
    return group >= 0 && size_t(group) < placed_.size() ? placed_[size_t(group)].rect : QRect();
}

QRect GpuMapGeometry::groupTitleRect(int group) const {
    QRect r = groupRect(group);
    if (r.isEmpty()) return r;
    if (titleH_ == 0) return {};
    return QRect(r.x() + pad_, r.y() + 2, r.width() - 2 * pad_, titleH_ - 2);
}

QRect GpuMapGeometry::sectionTitleRect(int section) const {
    return section >= 0 && size_t(section) < sectionTitles_.size() ? sectionTitles_[size_t(section)]
                                                                   : QRect();
}

int GpuMapGeometry::groupAt(QPoint p) const {
    for (size_t g = 0; g < placed_.size(); ++g)
        if (placed_[g].rect.contains(p)) return int(g);
    return -1;
}

int GpuMapGeometry::nodeAt(QPoint p) const {
    int g = groupAt(p);
    if (g < 0) return -1;
    const auto& pg = placed_[size_t(g)];
    int x0 = pg.rect.x() + pad_, y0 = pg.rect.y() + titleH_ + pad_;
    if (p.x() < x0 || p.y() < y0) return -1;
    int stepX = pg.nodeW + columnGap_, stepY = pg.nodeH + nodeGap_;
    int c = (p.x() - x0) / stepX, r = (p.y() - y0) / stepY;
    if (c >= pg.columns || r >= pg.perColumn) return -1;
    if ((p.x() - x0) % stepX >= pg.nodeW || (p.y() - y0) % stepY >= pg.nodeH) return -1;
    size_t k = size_t(c) * size_t(pg.perColumn) + size_t(r);
    const auto& nodes = layout_.groups[size_t(g)].nodes;
    if (k >= nodes.size()) return -1;
    int node = nodes[k];
    return nodeRect(node).contains(p) ? node : -1;
}

GpuRef GpuMapGeometry::gpuAt(QPoint p) const {
    int node = nodeAt(p);
    if (node < 0) return {};
    QPoint o = nodeOrigin(node);
    int step = cell_ + cellGap_;
    int dx = p.x() - o.x(), dy = p.y() - o.y();
    if (dx % step >= cell_ || dy % step >= cell_) return {};
    int gpu = (dy / step) * GpusPerRow + dx / step;
    if (dx / step >= GpusPerRow || gpu >= layout_.gpuCount[size_t(node)]) return {};
    return {node, gpu};
}

} // namespace gantry::studio
