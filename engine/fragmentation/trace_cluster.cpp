#include "fragmentation/trace_cluster.h"

#include <stdexcept>

namespace gantry::frag {

TraceCluster buildTraceCluster(const Trace& trace) {
    TraceCluster c;
    c.nodes.reserve(trace.nodes.size());
    for (const auto& n : trace.nodes) {
        if (n.gpuCount > kMaxGpusPerNode)
            throw std::invalid_argument("node " + n.name + " has more than " +
                                        std::to_string(kMaxGpusPerNode) + " GPUs");
        const ModelId model = c.models.add(n.gpuModel);
        if (model < 0 && !n.gpuModel.empty())
            throw std::invalid_argument("more than " + std::to_string(kMaxGpuModels) + " GPU models");
        c.nodes.push_back(makeNode(n.cpuMilli, n.memoryMiB, n.gpuCount, model));
        c.totalGpus += n.gpuCount;
        c.totalCpuMilli += n.cpuMilli;
    }
    c.totalGpuMilli = int64_t(c.totalGpus) * kMilliPerGpu;
    c.shapes.reserve(trace.tasks.size());
    c.memoryMiB.reserve(trace.tasks.size());
    for (const auto& t : trace.tasks) {
        c.shapes.push_back(taskShape(t.cpuMilli, t.gpuCount, t.gpuMilli, t.gpuModels, c.models));
        c.memoryMiB.push_back(t.memoryMiB);
    }
    return c;
}

} // namespace gantry::frag
