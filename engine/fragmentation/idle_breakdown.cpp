#include "fragmentation/idle_breakdown.h"

namespace gantry::frag {

IdleBreakdown& IdleBreakdown::operator+=(const IdleBreakdown& o) {
    stranded += o.stranded;
    fractional += o.fractional;
    scattered += o.scattered;
    usable += o.usable;
    return *this;
}

IdleBreakdown& IdleBreakdown::operator-=(const IdleBreakdown& o) {
    stranded -= o.stranded;
    fractional -= o.fractional;
    scattered -= o.scattered;
    usable -= o.usable;
    return *this;
}

bool strandsGpus(const NodeState& node, const GpuPodFloor& floor) {
    return node.cpuLeft < floor.cpuMilli || node.memoryLeft < floor.memoryMiB;
}

IdleBreakdown idleBreakdown(const NodeState& node, const TargetWorkload& workload, const GpuPodFloor& floor) {
    IdleBreakdown b;
    if (node.gpuCount == 0) return b;
    if (strandsGpus(node, floor)) {
        b.stranded = node.gpuLeftTotal();
        return b;
    }
    int64_t whole = 0;
    for (int g = 0; g < node.gpuCount; ++g) {
        if (node.gpuLeft[g] == kMilliPerGpu)
            whole += kMilliPerGpu;
        else
            b.fractional += node.gpuLeft[g];
    }
    bool someShapeFits = false;
    for (const auto& ws : workload.shapes)
        if (ws.shape.gpuCount > 0 && classify(node, ws.shape) == FragClass::Fits) {
            someShapeFits = true;
            break;
        }
    (someShapeFits ? b.usable : b.scattered) = whole;
    return b;
}

} // namespace gantry::frag
