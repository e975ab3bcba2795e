#include "gpumap/gpu_map_colors.h"

#include <QColor>
#include <QObject>
#include <algorithm>
#include <cmath>

namespace gantry::studio {

QString toDisplayString(GpuColorMode mode) {
    switch (mode) {
    case GpuColorMode::Occupancy:
        return QObject::tr("Occupancy");
    case GpuColorMode::Queue:
        return QObject::tr("Queue");
    case GpuColorMode::Job:
        return QObject::tr("Job");
    case GpuColorMode::Fragmentation:
        return QObject::tr("Fragmentation");
    case GpuColorMode::IdleWhy:
        return QObject::tr("Idle, by why");
    }
    return {};
}

namespace {
QRgb mix(QRgb a, QRgb b, double t) {
    auto m = [t](int x, int y) { return int(std::lround(x + (y - x) * t)); };
    return qRgb(m(qRed(a), qRed(b)), m(qGreen(a), qGreen(b)), m(qBlue(a), qBlue(b)));
}
} // namespace

GpuMapColors GpuMapColors::forPalette(const QPalette& palette) {
    bool dark = palette.color(QPalette::Window).lightness() < 128;
    GpuMapColors c{};
    c.background = palette.color(QPalette::Base).rgb();
    c.groupFill = dark ? qRgb(0x2b, 0x2f, 0x34) : qRgb(0xf4, 0xf6, 0xf8);
    c.groupBorder = dark ? qRgb(0x44, 0x4a, 0x52) : qRgb(0xd5, 0xdb, 0xe1);
    c.sectionText = palette.color(QPalette::WindowText).rgb();
    c.groupText = dark ? qRgb(0xb0, 0xb8, 0xc0) : qRgb(0x55, 0x5f, 0x6a);
    c.free = dark ? qRgb(0x4a, 0x52, 0x5a) : qRgb(0xdc, 0xe2, 0xe8);
    c.cordoned = dark ? qRgb(0x12, 0x13, 0x15)
                      : qRgb(0x9a, 0x9a, 0x9a); // dark: holes in the box, apart from free cells
    c.notReadyBorder = qRgb(0xd6, 0x3b, 0x3b);
    c.highlight = dark ? qRgb(0xff, 0xd5, 0x4f) : qRgb(0xff, 0x9f, 0x1c);
    c.dimmed = dark ? qRgb(0x33, 0x37, 0x3c) : qRgb(0xee, 0xf0, 0xf2);
    c.migUnused = dark ? qRgb(0x8a, 0x6d, 0x3b) : qRgb(0xc9, 0xa2, 0x5f); // amber: lost to the layout
    c.migLayout = dark ? qRgb(0x6a, 0x4a, 0xa8) : qRgb(0x7e, 0x57, 0xc2); // violet, as the idle chart's band
    // Occupancy: a single-hue ramp, light for a sliver of a device, deep blue for the whole device.
    QRgb lo = dark ? qRgb(0x3d, 0x6f, 0x9e) : qRgb(0xa8, 0xcf, 0xf0);
    QRgb hi = dark ? qRgb(0x6c, 0xb4, 0xff) : qRgb(0x1f, 0x5f, 0xa8);
    for (int i = 0; i <= 10; ++i) c.occupancy[i] = mix(lo, hi, i / 10.0);
    c.occupancy[0] = c.free;
    // Fragmentation of idle GPUs: neutral when usable, orange to red as it becomes unusable.
    QRgb f0 = dark ? qRgb(0x3f, 0x7d, 0x5a) : qRgb(0xb8, 0xe0, 0xc2);
    QRgb f5 = qRgb(0xf2, 0xb1, 0x34);
    QRgb f10 = qRgb(0xd3, 0x2f, 0x2f);
    for (int i = 0; i <= 10; ++i)
        c.fragmentation[i] = i <= 5 ? mix(f0, f5, i / 5.0) : mix(f5, f10, (i - 5) / 5.0);
    c.allocatedNeutral = dark ? qRgb(0x6b, 0x72, 0x7a) : qRgb(0x8a, 0x94, 0x9e);
    // Why idle GPUs are idle: green where a job of the mix could start, warm hues for the three ways
    // capacity is lost (the same hues as the Idle GPUs chart of Results).
    c.usable = qRgb(0x7c, 0xb3, 0x7c);
    c.fractional = qRgb(0xef, 0x8a, 0x1f);
    c.scattered = qRgb(0xe5, 0xc1, 0x3a);
    c.stranded = qRgb(0xc6, 0x28, 0x28);
    // A qualitative palette readable on both backgrounds (Okabe-Ito and Tableau hues).
    c.categorical = {qRgb(0x4e, 0x79, 0xa7), qRgb(0xf2, 0x8e, 0x2b), qRgb(0x59, 0xa1, 0x4f),
                     qRgb(0xe1, 0x57, 0x59), qRgb(0x76, 0xb7, 0xb2), qRgb(0xed, 0xc9, 0x48),
                     qRgb(0xb0, 0x7a, 0xa1), qRgb(0xff, 0x9d, 0xa7), qRgb(0x9c, 0x75, 0x5f),
                     qRgb(0x3b, 0x8e, 0xa5), qRgb(0x8c, 0xd1, 0x7d), qRgb(0xd3, 0x72, 0xc6)};
    return c;
}

QRgb GpuMapColors::fragmentationColor(float f) const {
    if (std::isnan(f)) return free;
    return fragmentation[std::clamp(int(std::lround(f * 10)), 0, 10)];
}

} // namespace gantry::studio
