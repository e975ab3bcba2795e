#pragma once
// The GPU map's colour schemes, as plain QRgb so the renderer writes pixels without QColor churn.
#include <QPalette>
#include <QRgb>
#include <QString>
#include <vector>

namespace gantry::studio {

enum class GpuColorMode { Occupancy, Queue, Job, Fragmentation, IdleWhy };
QString toDisplayString(GpuColorMode mode);

struct GpuMapColors {
    QRgb background, groupFill, groupBorder, sectionText, groupText;
    QRgb free, cordoned, notReadyBorder, highlight, dimmed;
    QRgb occupancy[11]; // 0 %, 10 % ... 100 % of one device
    QRgb fragmentation[11];
    QRgb allocatedNeutral;                        // fragmentation and idle modes: GPUs in use
    QRgb usable, fractional, scattered, stranded; // idle mode: why an idle GPU is idle
    QRgb migUnused;                               // MIG: slices of a GPU no instance holds
    QRgb migLayout; // idle mode: a free MIG instance whose profile no pod of the job mix asks for
    std::vector<QRgb> categorical;

    static GpuMapColors forPalette(const QPalette& palette);
    QRgb category(int index) const {
        return index < 0 ? free : categorical[size_t(index) % categorical.size()];
    }
    QRgb occupancyColor(int milli) const {
        return milli <= 0 ? free : occupancy[std::min(10, (milli + 99) / 100)];
    }
    QRgb fragmentationColor(float f) const;
};

} // namespace gantry::studio
