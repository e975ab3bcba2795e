#include "gpumap/gpu_map_legend.h"

#include <QEvent>
#include <QPainter>
#include <algorithm>

namespace gantry::studio {

GpuMapLegend::GpuMapLegend(QWidget* parent) : QWidget(parent) {
    // As many rows as the entries need at the width it gets (the idle mode with MIG has eight).
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    rebuild();
}

void GpuMapLegend::setMode(GpuColorMode mode, const std::vector<std::string>& names, bool mig) {
    mode_ = mode;
    names_ = names;
    mig_ = mig;
    rebuild();
}

void GpuMapLegend::rebuild() {
    auto c = GpuMapColors::forPalette(palette());
    entries_.clear();
    switch (mode_) {
    case GpuColorMode::Occupancy:
        entries_ = {{c.free, tr("Free")},
                    {c.occupancy[3], tr("Partly shared")},
                    {c.occupancy[10], tr("Fully allocated")}};
        break;
    case GpuColorMode::Queue:
    case GpuColorMode::Job: {
        entries_.push_back({c.free, tr("Free")});
        size_t shown = std::min<size_t>(names_.size(), mode_ == GpuColorMode::Queue ? 12 : 0);
        for (size_t i = 0; i < shown; ++i)
            entries_.push_back({c.category(int(i)), QString::fromStdString(names_[i])});
        if (mode_ == GpuColorMode::Job) entries_.push_back({c.categorical[0], tr("each job its own colour")});
        if (mode_ == GpuColorMode::Queue && names_.empty())
            entries_.push_back({c.categorical[0], tr("no queues on bound pods")});
        break;
    }
    case GpuColorMode::Fragmentation:
        entries_ = {{c.fragmentation[0], tr("Idle, usable by the job mix")},
                    {c.fragmentation[5], tr("partly fragmented")},
                    {c.fragmentation[10], tr("Idle but unusable (fragmented)")},
                    {c.allocatedNeutral, tr("Allocated")}};
        break;
    case GpuColorMode::IdleWhy:
        entries_ = {{c.usable, tr("Idle, usable")},
                    {c.fractional, tr("fractional (partly shared GPU)")},
                    {c.scattered, tr("scattered (no job shape fits the node)")},
                    {c.stranded, tr("stranded (node's CPU used up)")},
                    {c.allocatedNeutral, tr("Allocated")}};
        break;
    }
    if (mig_ && mode_ == GpuColorMode::IdleWhy)
        entries_.push_back({c.migLayout, tr("MIG layout (free instance no pod's profile fits)")});
    if (mig_) entries_.push_back({c.migUnused, tr("MIG: slices no instance can use")});
    entries_.push_back({c.cordoned, tr("Cordoned / not ready")});
    updateGeometry();
    update();
}

QSize GpuMapLegend::sizeHint() const {
    return {400, heightForWidth(std::max(width(), 400))};
}

// Where each entry goes at a width: one after another, a new row when the next would not fit.
std::vector<QPoint> GpuMapLegend::positions(int width) const {
    const int h = fontMetrics().height(), sw = h - 4;
    std::vector<QPoint> at;
    int x = 2, y = 4;
    for (const auto& e : entries_) {
        const int w = sw + 5 + fontMetrics().horizontalAdvance(e.label);
        if (x > 2 && x + w > width) {
            x = 2;
            y += h + 4;
        }
        at.push_back({x, y});
        x += w + 16;
    }
    return at;
}

int GpuMapLegend::heightForWidth(int width) const {
    const auto at = positions(width);
    return (at.empty() ? 4 : at.back().y()) + fontMetrics().height() + 4;
}

void GpuMapLegend::resizeEvent(QResizeEvent* event) {
    if (heightForWidth(width()) != height()) updateGeometry();
    QWidget::resizeEvent(event);
}

void GpuMapLegend::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const int h = fontMetrics().height();
    const int sw = h - 4;
    const auto at = positions(width());
    for (size_t i = 0; i < entries_.size(); ++i) {
        const auto& e = entries_[i];
        const int x = at[i].x(), y = at[i].y();
        const int textW = fontMetrics().horizontalAdvance(e.label);
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(e.color));
        p.drawRoundedRect(QRectF(x, y + 2, sw, sw), 2, 2);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(x + sw + 5, y, textW + 2, h), Qt::AlignVCenter | Qt::AlignLeft, e.label);
    }
}

void GpuMapLegend::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange) rebuild();
    QWidget::changeEvent(event);
}

} // namespace gantry::studio
