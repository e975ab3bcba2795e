#pragma once
// A trace turned into what placement works on: one NodeState per node (in the trace's order), one
// TaskShape per task, and the table of GPU models the nodes name.
#include "fragmentation/gpu_node.h"
#include "fragmentation/task_shape.h"
#include "trace/trace.h"

#include <string>
#include <vector>

namespace gantry::frag {

struct TraceCluster {
    GpuModelTable models;
    std::vector<NodeState> nodes;
    std::vector<TaskShape> shapes;  // per task, same order as Trace::tasks
    std::vector<int64_t> memoryMiB; // per task
    int32_t totalGpus = 0;
    int64_t totalGpuMilli = 0;
    int64_t totalCpuMilli = 0;
};

// Throws std::invalid_argument when a node has more than kMaxGpusPerNode devices or the cluster
// names more than kMaxGpuModels models (the importer reports both as located errors first).
TraceCluster buildTraceCluster(const Trace& trace);

} // namespace gantry::frag
