#pragma once
// A GPU cluster trace in the shape of the Alibaba GPU trace v2023 ("openb"): a node list and a task
// (pod) list. Plain data filled by importers/trace; the FGD experiment and the simulator read it.
#include "model/diagnostic.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gantry {

struct TraceNode {
    std::string name;
    int64_t cpuMilli = 0;
    int64_t memoryMiB = 0;
    int32_t gpuCount = 0;
    std::string gpuModel; // empty when the node has no GPU (or the model is unknown)
    SourceRef source;
};

struct TraceTask {
    std::string name;
    int64_t cpuMilli = 0;
    int64_t memoryMiB = 0;
    int32_t gpuCount = 0;               // devices
    int32_t gpuMilli = 0;               // per device, 1..1000 when gpuCount > 0; 0 for CPU-only tasks
    std::string gpuSpec;                // allowed models, '|'-joined without empty parts; empty = any model
    std::vector<std::string> gpuModels; // gpuSpec split
    std::string qos;
    std::string phase;
    std::optional<int64_t> creationTime, deletionTime, scheduledTime; // seconds, trace-relative
    SourceRef source;

    int64_t totalGpuMilli() const { return int64_t(gpuCount) * gpuMilli; }
};

struct Trace {
    std::vector<TraceNode> nodes;
    std::vector<TraceTask> tasks;
};

} // namespace gantry
