#pragma once
// NodeResourcesBalancedAllocation: how evenly the pod leaves the node's resources used.
#include "k8s/node_info.h"
#include "model/scheduler_conf.h"
#include "state/cluster_state.h"

#include <cstdint>
#include <vector>

namespace gantry::engine::k8s {

// BalancedAllocation; returns false when the pod requests nothing (the plugin skips it).
bool balancedScore(const ClusterState& s, const std::vector<int>& dims, uint32_t task, uint32_t node,
                   int64_t* score);

} // namespace gantry::engine::k8s
