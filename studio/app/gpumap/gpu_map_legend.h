#pragma once
// The key to the GPU map's colours for the current mode: swatches with labels, in as many rows as
// the width needs.
#include "gpumap/gpu_map_colors.h"

#include <QPoint>
#include <QWidget>
#include <vector>

namespace gantry::studio {

class GpuMapLegend : public QWidget {
    Q_OBJECT
  public:
    explicit GpuMapLegend(QWidget* parent = nullptr);
    // names: queue or job names for the categorical modes (first few are shown); mig: some GPU is
    // drawn as its MIG instances.
    void setMode(GpuColorMode mode, const std::vector<std::string>& names = {}, bool mig = false);
    QSize sizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

  protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

  private:
    struct Entry {
        QRgb color;
        QString label;
        bool gradientStart = false; // joins with the next swatch as a ramp
    };
    void rebuild();
    std::vector<QPoint> positions(int width) const;
    GpuColorMode mode_ = GpuColorMode::Occupancy;
    std::vector<std::string> names_;
    bool mig_ = false;
    std::vector<Entry> entries_;
};

} // namespace gantry::studio
