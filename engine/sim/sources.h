#pragma once
// Where a simulation's jobs come from:
//   - workload templates (a project's or an inventory's), expanded from the seed;
//   - the what-if jobs of a cluster (Kubernetes Jobs, PyTorchJobs, ... expanded by the snapshot
//     importer into pods and a gang, and PodGroups whose pods are all unplaced), with the arrival
//     and duration their gantry.io/arrival and gantry.io/duration annotations give, or drawn from
//     defaults when they give none;
//   - a GPU trace (the Alibaba "openb" lists): nodes become a cluster, every task a one-pod job
//     arriving at its creation time and running until its deletion time.
#include "model/cluster.h"
#include "model/workload.h"
#include "sim/workload.h"
#include "trace/trace.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace gantry::sim {

SimWorkload fromTemplates(const std::vector<WorkloadTemplate>& templates, const Cluster& cluster,
                          uint64_t seed);

// Timing for jobs whose source does not give it: arrivals in the order the jobs are listed, one
// duration drawn per job (streams "default-arrival" / "default-duration" of the seed).
struct TimingDefaults {
    ArrivalProcess arrival;                       // default: all at time 0
    std::optional<DurationDistribution> duration; // none = such jobs run until the end
};

// Moves the cluster's what-if jobs out of `cluster` (which keeps nodes, queues, bound and running
// pods, and pods that belong to no job) into a workload. Warnings: jobs that had no arrival or no
// duration (counted, one diagnostic each kind, at the first such job).
SimWorkload takeClusterJobs(Cluster& cluster, const TimingDefaults& defaults, uint64_t seed);

// A trace as a cluster plus a workload. Nodes keep their names, CPU, memory and GPUs (labelled
// nvidia.com/gpu.product with their model); tasks keep their requests, GPU shares and allowed
// models; arrival = creation time minus the earliest creation time, duration = deletion minus
// creation. Tasks without those times take the defaults; counted warnings say how many.
struct TraceConversion {
    Cluster cluster;
    SimWorkload workload;
};
TraceConversion fromTrace(const Trace& trace, const TimingDefaults& defaults, uint64_t seed);

// The queue every job of a cluster without queues goes to ("default", weight 1, open).
void ensureDefaultQueue(Cluster& cluster);

} // namespace gantry::sim
