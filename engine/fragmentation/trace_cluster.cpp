#include "fragmentation/trace_cluster.h"

#include <algorithm>
#include <stdexcept>

namespace gantry::frag {

TaskShape taskShape(const TraceTask& task, const std::vector<std::string>& models) {
    TaskShape s;
    s.cpuMilli = task.cpuMilli;
    s.gpuCount = task.gpuCount;
    s.gpuMilli = task.gpuCount > 0 ? task.gpuMilli : 0;
    // The authors' converter writes no GPU constraint for tasks that need no GPU.
    if (s.gpuCount > 0 && !task.gpuModels.empty()) {
        s.gpuSpec = task.gpuSpec;
        s.models.any = false;
        for (const auto& m : task.gpuModels) {
            auto it = std::find(models.begin(), models.end(), m);
            if (it != models.end()) s.models.mask |= uint64_t(1) << (it - models.begin());
        }
    }
    return s;
}

TraceCluster buildTraceCluster(const Trace& trace) {
    TraceCluster c;
    c.nodes.reserve(trace.nodes.size());
    for (const auto& n : trace.nodes) {
        if (n.gpuCount > kMaxGpusPerNode)
            throw std::invalid_argument("node " + n.name + " has more than " +
                                        std::to_string(kMaxGpusPerNode) + " GPUs");
        ModelId model = -1;
        if (!n.gpuModel.empty()) {
            auto it = std::find(c.models.begin(), c.models.end(), n.gpuModel);
            if (it == c.models.end()) {
                if (c.models.size() >= size_t(kMaxGpuModels))
                    throw std::invalid_argument("more than " + std::to_string(kMaxGpuModels) + " GPU models");
                c.models.push_back(n.gpuModel);
                it = c.models.end() - 1;
            }
            model = ModelId(it - c.models.begin());
        }
        c.nodes.push_back(makeNode(n.cpuMilli, n.memoryMiB, n.gpuCount, model));
        c.totalGpus += n.gpuCount;
        c.totalCpuMilli += n.cpuMilli;
    }
    c.totalGpuMilli = int64_t(c.totalGpus) * kMilliPerGpu;
    c.shapes.reserve(trace.tasks.size());
    c.memoryMiB.reserve(trace.tasks.size());
    for (const auto& t : trace.tasks) {
        c.shapes.push_back(taskShape(t, c.models));
        c.memoryMiB.push_back(t.memoryMiB);
    }
    return c;
}

} // namespace gantry::frag
