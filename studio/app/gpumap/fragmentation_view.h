#pragma once
// GPU fragmentation for the GPU map and the summaries, measured with the engine's FGD measure
// (engine/fragmentation): the target workload is the project's job mix (what-if templates and
// pending pods; the running pods when there is nothing else), each GPU's value is the share of its
// idle capacity that this workload cannot use.
#include "fragmentation/fragmentation.h"
#include "fragmentation/task_shape.h"
#include "gpumap/gpu_occupancy.h"
#include "model/project.h"

#include <QString>
#include <vector>

namespace gantry::studio {

struct FragmentationSummary {
    bool measured = false;
    double overTotalPct = 0; // fragmented GPU capacity / all GPU capacity
    double overIdlePct = 0;  // fragmented / idle
    int shapes = 0;          // task shapes in the target workload
    QString basis;           // what the target workload was taken from
};

// The task shapes of the job mix, one per pod (frag::taskShape of its GPU request as the map reads
// it, podGpuRequest), against the cluster's GPU model table.
std::vector<frag::TaskShape> jobMixShapes(const Project& project, const frag::GpuModelTable& models,
                                          QString* basis);
// GPU models of the cluster's nodes, in first-seen order.
frag::GpuModelTable gpuModelTable(const Cluster& cluster);

// Fills occupancy.fragmentation and occupancy.idleWhy (why each idle GPU is idle: engine
// fragmentation/idle_breakdown.h, with the CPU the job mix's GPU pods need at least; memory is not
// tracked per node here) and returns the cluster figures. `cpuUsed` is the CPU (milli) held
// per node; empty = none.
FragmentationSummary measureFragmentation(const Project& project, GpuOccupancy& occupancy,
                                          const std::vector<int64_t>& cpuUsed);

// CPU requested by the pods bound to each node of the cluster.
std::vector<int64_t> boundCpuPerNode(const Cluster& cluster);

} // namespace gantry::studio
