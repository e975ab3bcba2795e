#pragma once
// Where every GPU cell of the GPU map sits, and which GPU is under a point. Pure geometry, no
// painting. Sections (zones, blocks) are boxes that flow left to right and wrap at the viewport;
// inside a section its groups (racks) flow the same way; inside a group each node is a row of GPU
// cells, nodes stacked in columns.
#include <QRect>
#include <QString>
#include <vector>

namespace gantry::studio {

struct GpuRef {
    int node = -1;
    int gpu = -1;
    bool valid() const { return node >= 0 && gpu >= 0; }
    bool operator==(const GpuRef&) const = default;
};

struct GpuMapLayout {
    struct Group {
        QString title;
        int section = 0;
        std::vector<int> nodes; // node indices, drawn in this order
        int titleWidth = 0;     // pixels the title needs (set by the widget from its font)
    };
    std::vector<QString> sections;
    std::vector<int> sectionTitleWidths; // pixels each section title needs (set by the widget)
    std::vector<Group> groups;           // grouped by section, sections in order
    std::vector<int> gpuCount;           // per node index; nodes with 0 GPUs are not drawn
};

class GpuMapGeometry {
  public:
    static constexpr double MinZoom = 0.25; // 3 px cells
    static constexpr double MaxZoom = 5.0;  // 60 px cells
    static constexpr int BaseCell = 12;
    static constexpr int GpusPerRow = 8;
    static constexpr int MaxNodesPerColumn = 16;
    static constexpr int TitleHeight = 16; // group titles, drawn from 6 px cells up
    static constexpr int SectionHeight = 26;
    static constexpr int CompactSectionHeight = 16;
    bool showsTitles() const { return cell_ >= 6; }

    void setLayout(GpuMapLayout layout);
    void setZoom(double zoom);        // clamped to [MinZoom, MaxZoom]
    void setViewportWidth(int width); // groups wrap to this width
    double zoom() const { return zoom_; }
    int cellSize() const { return cell_; }
    int cellGap() const { return cellGap_; }

    QSize contentSize() const { return {width_, height_}; }
    QRect cellRect(GpuRef ref) const; // empty rect when the GPU is not drawn
    QRect nodeRect(int node) const;
    QRect groupRect(int group) const;
    QRect groupTitleRect(int group) const;
    QRect sectionTitleRect(int section) const; // empty when the section has no groups
    GpuRef gpuAt(QPoint p) const;              // invalid when p is between cells
    int nodeAt(QPoint p) const;                // node whose tile holds p (gaps inside a tile count)
    int groupAt(QPoint p) const;

    const GpuMapLayout& layout() const { return layout_; }
    int groupOfNode(int node) const;
    // Calls f(group) for every group intersecting rect, in layout order.
    template <class F> void forGroupsIn(const QRect& rect, F&& f) const {
        for (size_t g = 0; g < placed_.size(); ++g)
            if (placed_[g].rect.intersects(rect)) f(int(g));
    }
    // Nodes of a group whose tile may intersect rect (a contiguous slice per node column).
    template <class F> void forNodesIn(int group, const QRect& rect, F&& f) const {
        const auto& pg = placed_[size_t(group)];
        const auto& nodes = layout_.groups[size_t(group)].nodes;
        int stepY = pg.nodeH + nodeGap_, stepX = pg.nodeW + columnGap_;
        int x0 = pg.rect.x() + pad_, y0 = pg.rect.y() + titleH_ + pad_;
        int c0 = std::max(0, (rect.left() - x0) / stepX),
            c1 = std::min(pg.columns - 1, (rect.right() - x0) / stepX);
        int r0 = std::max(0, (rect.top() - y0) / stepY),
            r1 = std::min(pg.perColumn - 1, (rect.bottom() - y0) / stepY);
        for (int c = c0; c <= c1; ++c)
            for (int r = r0; r <= r1; ++r) {
                size_t k = size_t(c) * size_t(pg.perColumn) + size_t(r);
                if (k < nodes.size()) f(nodes[k]);
            }
    }

  private:
    struct PlacedGroup {
        QRect rect;
        int columns = 1;   // node columns
        int perColumn = 1; // nodes per column
        int gpuCols = 1;   // cells per node row
        int rowsPerNode = 1;
        int nodeW = 0, nodeH = 0;
    };
    void relayout();
    QPoint nodeOrigin(int node) const;

    GpuMapLayout layout_;
    std::vector<PlacedGroup> placed_;
    std::vector<QRect> sectionTitles_;
    std::vector<int> nodeGroup_; // node -> group (-1 = not drawn)
    std::vector<int> nodeSlot_;  // node -> position inside its group
    double zoom_ = 1.0;
    int viewportWidth_ = 1200;
    int cell_ = BaseCell, cellGap_ = 1, nodeGap_ = 3, columnGap_ = 6, pad_ = 6, groupGap_ = 10, margin_ = 10;
    int titleH_ = TitleHeight, sectionH_ = SectionHeight;
    int width_ = 0, height_ = 0;
};

} // namespace gantry::studio
