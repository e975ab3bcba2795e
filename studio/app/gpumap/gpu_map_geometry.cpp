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
    nodeGap_ = cell_ >= 8 ? 3 : 2;
    columnGap_ = std::max(4, cell_ / 2);
    pad_ = std::max(4, cell_ / 2);
    groupGap_ = std::max(6, cell_);

    size_t nodeCount = layout_.gpuCount.size();
    nodeGroup_.assign(nodeCount, -1);
    nodeSlot_.assign(nodeCount, -1);
    placed_.assign(layout_.groups.size(), PlacedGroup{});
    shelves_.clear();
    sectionTitles_.assign(layout_.sections.size(), QRect());

    int y = margin_;
    int widest = 0;
    int usable = viewportWidth_ - 2 * margin_;
    int currentSection = -1;
    Shelf shelf;
    int x = margin_;
    bool shelfOpen = false;
    auto closeShelf = [&] {
        if (!shelfOpen) return;
        shelves_.push_back(shelf);
        y = shelf.bottom + 1 + groupGap_;
        shelfOpen = false;
    };

    for (size_t g = 0; g < layout_.groups.size(); ++g) {
        const auto& group = layout_.groups[g];
        auto& pg = placed_[g];
        int maxGpus = 0;
        int drawn = 0;
        for (int n : group.nodes)
            if (n >= 0 && size_t(n) < nodeCount && layout_.gpuCount[size_t(n)] > 0) {
                maxGpus = std::max(maxGpus, layout_.gpuCount[size_t(n)]);
                ++drawn;
            }
        if (group.section != currentSection) {
            closeShelf();
            currentSection = group.section;
            if (currentSection >= 0 && size_t(currentSection) < sectionTitles_.size()) {
                sectionTitles_[size_t(currentSection)] = QRect(margin_, y, usable, SectionHeight);
                y += SectionHeight;
            }
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
        w = std::max(w, cell_ >= 6 ? group.titleWidth + 2 * pad_ : 2 * pad_ + 4 * cell_);
        int h = TitleHeight + 2 * pad_ + pg.perColumn * pg.nodeH + (pg.perColumn - 1) * nodeGap_;
        if (drawn == 0) h = TitleHeight + 2 * pad_; // a group of GPU-less nodes keeps its title

        if (shelfOpen && x + w > margin_ + usable) closeShelf();
        if (!shelfOpen) {
            shelf = Shelf{y, y, int(g), int(g)};
            x = margin_;
            shelfOpen = true;
        }
        pg.rect = QRect(x, shelf.top, w, h);
        shelf.bottom = std::max(shelf.bottom, pg.rect.bottom());
        shelf.last = int(g) + 1;
        x += w + groupGap_;
        widest = std::max(widest, pg.rect.right() + 1);

        int slot = 0;
        for (int node : group.nodes) {
            if (node >= 0 && size_t(node) < nodeCount && nodeGroup_[size_t(node)] < 0) {
                nodeGroup_[size_t(node)] = int(g);
                nodeSlot_[size_t(node)] = slot;
            }
            ++slot;
        }
    }
    closeShelf();
    width_ = std::max(widest + margin_, viewportWidth_);
    height_ = y + margin_;
}

QPoint GpuMapGeometry::nodeOrigin(int node) const {
    const auto& pg = placed_[size_t(nodeGroup_[size_t(node)])];
    int slot = nodeSlot_[size_t(node)];
    int c = slot / pg.perColumn, r = slot % pg.perColumn;
    return {pg.rect.x() + pad_ + c * (pg.nodeW + columnGap_), pg.rect.y() + TitleHeight + pad_ + r * (pg.nodeH + nodeGap_)};
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
    return QRect(r.x() + pad_, r.y() + 2, r.width() - 2 * pad_, TitleHeight - 2);
}

QRect GpuMapGeometry::sectionTitleRect(int section) const {
    return section >= 0 && size_t(section) < sectionTitles_.size() ? sectionTitles_[size_t(section)] : QRect();
}

int GpuMapGeometry::groupAt(QPoint p) const {
    // Shelves are sorted by y and groups within a shelf by x: two binary searches.
    auto shelf = std::lower_bound(shelves_.begin(), shelves_.end(), p.y(),
                                  [](const Shelf& s, int y) { return s.bottom < y; });
    if (shelf == shelves_.end() || p.y() < shelf->top) return -1;
    int lo = shelf->first, hi = shelf->last;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (placed_[size_t(mid)].rect.right() < p.x())
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < shelf->last && placed_[size_t(lo)].rect.contains(p)) return lo;
    return -1;
}

int GpuMapGeometry::nodeAt(QPoint p) const {
    int g = groupAt(p);
    if (g < 0) return -1;
    const auto& pg = placed_[size_t(g)];
    int x0 = pg.rect.x() + pad_, y0 = pg.rect.y() + TitleHeight + pad_;
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
