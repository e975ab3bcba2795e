#pragma once
// The key to the GPU map's colours for the current mode: swatches with labels, painted in one row.
#include "gpumap/gpu_map_colors.h"

#include <QWidget>

namespace gantry::studio {

class GpuMapLegend : public QWidget {
    Q_OBJECT
  public:
    explicit GpuMapLegend(QWidget* parent = nullptr);
    // names: queue or job names for the categorical modes (first few are shown); mig: some GPU is
    // drawn as its MIG instances.
    void setMode(GpuColorMode mode, const std::vector<std::string>& names = {}, bool mig = false);
    QSize sizeHint() const override;

  protected:
    void paintEvent(QPaintEvent*) override;
    void changeEvent(QEvent* event) override;

  private:
    struct Entry {
        QRgb color;
        QString label;
        bool gradientStart = false; // joins with the next swatch as a ramp
    };
    void rebuild();
    GpuColorMode mode_ = GpuColorMode::Occupancy;
    std::vector<std::string> names_;
    bool mig_ = false;
    std::vector<Entry> entries_;
};

} // namespace gantry::studio
