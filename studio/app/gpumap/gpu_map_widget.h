#pragma once
// The GPU map: one cell per GPU, grouped by topology, coloured by occupancy, queue, job or
// fragmentation. Ctrl+wheel (or +/-) zooms around the pointer; hovering shows the node's and GPU's
// state; clicking selects the node.
#include "gpumap/gpu_map_geometry.h"
#include "gpumap/gpu_map_renderer.h"

#include <QAbstractScrollArea>
#include <QImage>
#include <memory>

namespace gantry {
struct Cluster;
}

namespace gantry::studio {

class GpuMapWidget : public QAbstractScrollArea {
    Q_OBJECT
  public:
    explicit GpuMapWidget(QWidget* parent = nullptr);

    // The cluster must outlive the widget's use of it (the document owns it).
    void setData(const Cluster* cluster, GpuMapLayout layout, std::shared_ptr<const GpuOccupancy> occupancy);
    void setOccupancy(std::shared_ptr<const GpuOccupancy> occupancy);
    void setColorMode(GpuColorMode mode);
    GpuColorMode colorMode() const { return scene_.mode; }
    // Nodes not matching the node table's filter are dimmed; empty = every node shown.
    void setMatches(std::vector<uint8_t> matches);
    void setCurrentNode(int node); // highlights it and scrolls it into view
    int currentNode() const { return scene_.currentNode; }

    double zoom() const { return geometry_.zoom(); }
    void setZoom(double zoom, QPoint anchor = QPoint(-1, -1)); // anchor in viewport coordinates
    void zoomIn() { setZoom(zoom() * 1.25); }
    void zoomOut() { setZoom(zoom() / 1.25); }
    void zoomToFit(); // the largest zoom at which every GPU is visible without scrolling, if any

    const GpuMapGeometry& geometry() const { return geometry_; }
    const GpuOccupancy* occupancy() const { return occupancy_.get(); }
    QString toolTipFor(GpuRef ref) const;

  signals:
    void nodeActivated(int node);
    void zoomChanged(double zoom);

  protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    bool viewportEvent(QEvent* event) override;
    void changeEvent(QEvent* event) override;

  private:
    void updateScrollBars();
    QPoint contentOrigin() const;

    const Cluster* cluster_ = nullptr;
    std::shared_ptr<const GpuOccupancy> occupancy_;
    std::vector<NodeState> nodeStates_;
    std::vector<uint8_t> matches_;
    GpuMapGeometry geometry_;
    GpuMapScene scene_;
    QImage frame_;
};

} // namespace gantry::studio
