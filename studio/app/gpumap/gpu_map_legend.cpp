#include "gpumap/gpu_map_legend.h"

#include <QEvent>
#include <QPainter>

namespace gantry::studio {

GpuMapLegend::GpuMapLegend(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
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
    if (mig_) entries_.push_back({c.migUnused, tr("MIG: slices no instance can use")});
    entries_.push_back({c.cordoned, tr("Cordoned / not ready")});
    updateGeometry();
    update();
}

QSize GpuMapLegend::sizeHint() const {
    return {400, fontMetrics().height() + 8};
}

void GpuMapLegend::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const int h = fontMetrics().height();
    const int sw = h - 4;
    int x = 2;
    const int y = (height() - h) / 2;
    for (const auto& e : entries_) {
        int textW = fontMetrics().horizontalAdvance(e.label);
        if (x + sw + 6 + textW > width()) break;
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(e.color));
        p.drawRoundedRect(QRectF(x, y + 2, sw, sw), 2, 2);
        x += sw + 5;
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(x, y, textW + 2, h), Qt::AlignVCenter | Qt::AlignLeft, e.label);
        x += textW + 16;
    }
}

void GpuMapLegend::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange) rebuild();
    QWidget::changeEvent(event);
}

} // namespace gantry::studio
