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

namespace {

// Whether some GPU shape of the workload fits the node as it is.
bool gpuShapeFits(const NodeState& node, const TargetWorkload& workload) {
    for (const auto& ws : workload.shapes)
        if (ws.shape.gpuCount > 0 && classify(node, ws.shape) == FragClass::Fits) return true;
    return false;
}

} // namespace

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
    if (whole > 0) (gpuShapeFits(node, workload) ? b.usable : b.scattered) = whole;
    return b;
}

void idleClasses(const NodeState& node, const TargetWorkload& workload, const GpuPodFloor& floor,
                 std::span<IdleClass> out) {
    const bool stranded = strandsGpus(node, floor);
    bool anyWhole = false;
    for (int g = 0; g < node.gpuCount; ++g) anyWhole = anyWhole || node.gpuLeft[g] == kMilliPerGpu;
    const IdleClass whole = stranded                                   ? IdleClass::Stranded
                            : anyWhole && gpuShapeFits(node, workload) ? IdleClass::Usable
                                                                       : IdleClass::Scattered;
    for (int g = 0; g < node.gpuCount && size_t(g) < out.size(); ++g) {
        const int left = node.gpuLeft[g];
        out[size_t(g)] = left <= 0             ? IdleClass::None
                         : stranded            ? IdleClass::Stranded
                         : left < kMilliPerGpu ? IdleClass::Fractional
                                               : whole;
    }
}

} // namespace gantry::frag
