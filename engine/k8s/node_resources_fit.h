#pragma once
// NodeResourcesFit's score: LeastAllocated, MostAllocated or RequestedToCapacityRatio.
#include "k8s/node_info.h"
#include "model/scheduler_conf.h"
#include "state/cluster_state.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace gantry::engine::k8s {

// NodeResourcesFit's scoring strategy: the one KubeSchedulerConfiguration names.
using FitStrategy = KubeSchedulerProfile::Strategy;
struct FitScorer {
    FitStrategy strategy = FitStrategy::LeastAllocated;
    std::vector<std::pair<int, int64_t>> resources; // (dim, weight)
    std::vector<std::pair<int64_t, int64_t>> shape; // RequestedToCapacityRatio points, score 0..10
    bool useRequested = false; // false = NonZeroRequested for cpu/memory (NodeResourcesFit)
};
// The raw score of the node for the task, before normalization.
int64_t fitScore(const ClusterState& s, const FitScorer& f, uint32_t task, uint32_t node);

} // namespace gantry::engine::k8s
