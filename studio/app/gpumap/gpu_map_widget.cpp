#include "gpumap/gpu_map_widget.h"

#include "core/topology_paths.h"
#include "model/cluster.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include <cmath>

namespace gantry::studio {

GpuMapWidget::GpuMapWidget(QWidget* parent) : QAbstractScrollArea(parent) {
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setMouseTracking(true);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    scene_.geometry = &geometry_;
    scene_.colors = GpuMapColors::forPalette(palette());
    scene_.font = font();
    verticalScrollBar()->setSingleStep(24);
    horizontalScrollBar()->setSingleStep(24);
}

void GpuMapWidget::setData(const Cluster* cluster, GpuMapLayout layout,
                           std::shared_ptr<const GpuOccupancy> occupancy) {
    cluster_ = cluster;
    nodeStates_.clear();
    if (cluster_) {
        nodeStates_.reserve(cluster_->nodes.size());
        for (const auto& n : cluster_->nodes)
            nodeStates_.push_back(!n.ready          ? NodeState::NotReady
                                  : n.unschedulable ? NodeState::Cordoned
                                                    : NodeState::Ready);
    }
    scene_.nodeStates = &nodeStates_;
    matches_.clear();
    scene_.matches = nullptr;
    scene_.currentNode = -1;
    geometry_.setViewportWidth(viewport()->width());
    QFontMetrics metrics(font());
    for (auto& g : layout.groups) g.titleWidth = metrics.horizontalAdvance(g.title) + 4;
    QFont bold = font();
    bold.setBold(true);
    bold.setPointSizeF(font().pointSizeF() * 1.15); // as the renderer draws section titles
    QFontMetrics boldMetrics(bold);
    layout.sectionTitleWidths.clear();
    for (const auto& s : layout.sections)
        layout.sectionTitleWidths.push_back(boldMetrics.horizontalAdvance(s) + 6);
    geometry_.setLayout(std::move(layout));
    setOccupancy(std::move(occupancy));
    updateScrollBars();
}

void GpuMapWidget::setOccupancy(std::shared_ptr<const GpuOccupancy> occupancy) {
    occupancy_ = std::move(occupancy);
    scene_.occupancy = occupancy_.get();
    viewport()->update();
}

void GpuMapWidget::setColorMode(GpuColorMode mode) {
    scene_.mode = mode;
    viewport()->update();
}

void GpuMapWidget::setMatches(std::vector<uint8_t> matches) {
    matches_ = std::move(matches);
    scene_.matches = matches_.empty() ? nullptr : &matches_;
    viewport()->update();
}

void GpuMapWidget::setCurrentNode(int node) {
    scene_.currentNode = node;
    QRect r = geometry_.nodeRect(node);
    if (!r.isEmpty()) {
        QRect visible(contentOrigin(), viewport()->size());
        if (!visible.contains(r)) {
            horizontalScrollBar()->setValue(r.center().x() - viewport()->width() / 2);
            verticalScrollBar()->setValue(r.center().y() - viewport()->height() / 2);
        }
    }
    viewport()->update();
}

void GpuMapWidget::setZoom(double zoom, QPoint anchor) {
    if (anchor.x() < 0) anchor = QPoint(viewport()->width() / 2, viewport()->height() / 2);
    // Keep the GPU (or point) under the anchor where it is.
    QPoint content = anchor + contentOrigin();
    GpuRef ref = geometry_.gpuAt(content);
    double oldZoom = geometry_.zoom();
    double fx = double(content.x()) / std::max(1, geometry_.contentSize().width());
    double fy = double(content.y()) / std::max(1, geometry_.contentSize().height());
    geometry_.setZoom(zoom);
    if (geometry_.zoom() == oldZoom) return;
    updateScrollBars();
    QPoint target;
    if (ref.valid())
        target = geometry_.cellRect(ref).center();
    else
        target =
            QPoint(int(fx * geometry_.contentSize().width()), int(fy * geometry_.contentSize().height()));
    horizontalScrollBar()->setValue(target.x() - anchor.x());
    verticalScrollBar()->setValue(target.y() - anchor.y());
    viewport()->update();
    emit zoomChanged(geometry_.zoom());
}

void GpuMapWidget::zoomToFit() {
    // Content height falls monotonically with zoom: bisect for the largest zoom that fits.
    double lo = GpuMapGeometry::MinZoom, hi = GpuMapGeometry::MaxZoom;
    GpuMapGeometry probe = geometry_;
    probe.setViewportWidth(viewport()->width());
    for (int i = 0; i < 12; ++i) {
        double mid = (lo + hi) / 2;
        probe.setZoom(mid);
        if (probe.contentSize().height() <= viewport()->height())
            lo = mid;
        else
            hi = mid;
    }
    setZoom(std::min(lo, 1.5));
    horizontalScrollBar()->setValue(0);
    verticalScrollBar()->setValue(0);
}

QPoint GpuMapWidget::contentOrigin() const {
    return {horizontalScrollBar()->value(), verticalScrollBar()->value()};
}

void GpuMapWidget::updateScrollBars() {
    QSize content = geometry_.contentSize();
    QSize view = viewport()->size();
    horizontalScrollBar()->setRange(0, std::max(0, content.width() - view.width()));
    horizontalScrollBar()->setPageStep(view.width());
    verticalScrollBar()->setRange(0, std::max(0, content.height() - view.height()));
    verticalScrollBar()->setPageStep(view.height());
}

void GpuMapWidget::paintEvent(QPaintEvent*) {
    QPainter painter(viewport());
    if (!occupancy_ || geometry_.layout().groups.empty()) {
        painter.fillRect(viewport()->rect(), palette().base());
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(viewport()->rect(), Qt::AlignCenter,
                         cluster_ && !cluster_->nodes.empty() ? tr("No node in this cluster has GPUs.")
                                                              : tr("No cluster loaded."));
        return;
    }
    const double dpr = devicePixelRatioF();
    QSize device(int(std::ceil(viewport()->width() * dpr)), int(std::ceil(viewport()->height() * dpr)));
    if (frame_.size() != device) frame_ = QImage(device, QImage::Format_RGB32);
    frame_.setDevicePixelRatio(dpr);
    renderGpuMap(frame_, contentOrigin(), scene_);
    painter.drawImage(0, 0, frame_);
}

void GpuMapWidget::resizeEvent(QResizeEvent* event) {
    QAbstractScrollArea::resizeEvent(event);
    geometry_.setViewportWidth(viewport()->width());
    updateScrollBars();
}

void GpuMapWidget::wheelEvent(QWheelEvent* event) {
    if (event->modifiers() & Qt::ControlModifier) {
        double steps = event->angleDelta().y() / 120.0;
        setZoom(zoom() * std::pow(1.15, steps), event->position().toPoint());
        event->accept();
        return;
    }
    QAbstractScrollArea::wheelEvent(event);
}

void GpuMapWidget::mousePressEvent(QMouseEvent* event) {
    int node = geometry_.nodeAt(event->position().toPoint() + contentOrigin());
    if (node >= 0) {
        scene_.currentNode = node;
        viewport()->update();
        emit nodeActivated(node);
    }
    QAbstractScrollArea::mousePressEvent(event);
}

void GpuMapWidget::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Plus || event->key() == Qt::Key_Equal)
        zoomIn();
    else if (event->key() == Qt::Key_Minus)
        zoomOut();
    else if (event->key() == Qt::Key_0)
        zoomToFit();
    else
        QAbstractScrollArea::keyPressEvent(event);
}

void GpuMapWidget::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
        scene_.colors = GpuMapColors::forPalette(palette());
        scene_.font = font();
        viewport()->update();
    }
    QAbstractScrollArea::changeEvent(event);
}

QString GpuMapWidget::toolTipFor(GpuRef ref) const {
    if (!ref.valid() || !cluster_ || !occupancy_ || size_t(ref.node) >= cluster_->nodes.size()) return {};
    const Node& node = cluster_->nodes[size_t(ref.node)];
    int g = occupancy_->gpuIndex(ref.node, ref.gpu);
    int used = occupancy_->usedMilli[size_t(g)];
    QStringList lines;
    lines << QStringLiteral("<b>%1</b> · GPU %2")
                 .arg(QString::fromStdString(node.name).toHtmlEscaped())
                 .arg(ref.gpu);
    QString where = QString::fromStdString(topologyDescription(*cluster_, node));
    if (!where.isEmpty()) lines << where.toHtmlEscaped();
    QString model = QString::fromStdString(node.gpus.model.empty() ? std::string("GPU") : node.gpus.model);
    if (node.gpus.memoryBytes > 0) model += QStringLiteral(" · %1 GiB").arg(node.gpus.memoryBytes >> 30);
    lines << model.toHtmlEscaped();
    if (!node.ready)
        lines << tr("<span style='color:#d63b3b'>Node not ready</span>");
    else if (node.unschedulable)
        lines << tr("Node cordoned (unschedulable)");
    if (used == 0) {
        lines << tr("Free");
    } else {
        lines << tr("In use: %1 %").arg(used / 10.0, 0, 'f', used % 10 ? 1 : 0);
        int job = occupancy_->job[size_t(g)], queue = occupancy_->queue[size_t(g)];
        if (job >= 0)
            lines << tr("Job: %1").arg(QString::fromStdString(occupancy_->jobs[size_t(job)]).toHtmlEscaped());
        if (queue >= 0)
            lines << tr("Queue: %1")
                         .arg(QString::fromStdString(occupancy_->queues[size_t(queue)]).toHtmlEscaped());
        if (occupancy_->holders[size_t(g)] > 1)
            lines << tr("Shared by %1 pods").arg(occupancy_->holders[size_t(g)]);
    }
    float frag = occupancy_->fragmentation[size_t(g)];
    if (!std::isnan(frag)) lines << tr("Fragmentation: %1 %").arg(double(frag) * 100, 0, 'f', 0);
    if (!occupancy_->idleWhy.empty()) {
        switch (occupancy_->idleWhy[size_t(g)]) {
        case frag::IdleClass::None:
            break;
        case frag::IdleClass::Usable:
            lines << tr("Idle: a job shape of the mix fits this node");
            break;
        case frag::IdleClass::Fractional:
            lines << tr("Idle share: fractional (only shares fit on this device)");
            break;
        case frag::IdleClass::Scattered:
            lines << tr("Idle: scattered (too few free GPUs together for any job shape of the mix)");
            break;
        case frag::IdleClass::Stranded:
            lines << tr("Idle: stranded (the node's CPU is used up; no GPU pod fits)");
            break;
        }
    }
    int nodeUsed = 0, nodeCount = occupancy_->gpuCount(ref.node);
    for (int i = 0; i < nodeCount; ++i)
        nodeUsed += occupancy_->usedMilli[size_t(occupancy_->gpuIndex(ref.node, i))];
    lines << tr("Node: %1 of %2 GPUs in use").arg(nodeUsed / 1000.0, 0, 'g', 4).arg(nodeCount);
    return lines.join("<br>");
}

bool GpuMapWidget::viewportEvent(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        QString text = toolTipFor(geometry_.gpuAt(help->pos() + contentOrigin()));
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, viewport());
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

} // namespace gantry::studio
