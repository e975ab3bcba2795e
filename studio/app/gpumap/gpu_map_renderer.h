#pragma once
// Paints the GPU map into an image: group frames and titles with QPainter, the GPU cells by writing
// pixels directly (tens of thousands of small rects would otherwise dominate a repaint).
#include "gpumap/gpu_map_colors.h"
#include "gpumap/gpu_map_geometry.h"
#include "gpumap/gpu_occupancy.h"

#include <QFont>
#include <QImage>
#include <cstdint>
#include <vector>

namespace gantry::studio {

enum class NodeState : uint8_t { Ready = 0, Cordoned = 1, NotReady = 2 };

struct GpuMapScene {
    const GpuMapGeometry* geometry = nullptr;
    const GpuOccupancy* occupancy = nullptr;
    const std::vector<NodeState>* nodeStates = nullptr; // per node; may be null
    const std::vector<uint8_t>* matches = nullptr;      // per node: 1 = shown, 0 = dimmed; null = all shown
    int currentNode = -1;
    GpuColorMode mode = GpuColorMode::Occupancy;
    GpuMapColors colors;
    QFont font;
};

// Renders the content rectangle that starts at `origin` (content coordinates) and is as large as
// `target` (in device-independent pixels; target's devicePixelRatio is honoured).
void renderGpuMap(QImage& target, QPoint origin, const GpuMapScene& scene);

} // namespace gantry::studio
