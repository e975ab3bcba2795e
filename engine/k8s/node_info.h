#pragma once
// The k8s NodeInfo view of a node that the plugins read: the pods counted in ClusterState::k8s*
// (evicted pods leave it, pipelined ones join it, as Volcano's event handlers do), and the requests
// as NodeResourcesFit and BalancedAllocation count them.
#include "state/cluster_state.h"

#include <cstdint>

namespace gantry::engine::k8s {

inline constexpr int64_t kMaxNodeScore = 100;

// Each pod in the node's view.
template <class Fn> void forEachPod(const ClusterState& s, uint32_t node, Fn fn) {
    for (uint32_t t : s.nodeTasks[node])
        if (s.tasks[t].inK8sView) fn(t);
}

inline bool terminating(const ClusterState& s, uint32_t t) {
    return s.tasks[t].status == TaskStatus::Releasing;
}

// The pod's request of `dim`; without useRequested, cpu and memory the pod leaves unset count as
// the non-zero defaults (100m, 200 MiB), as NodeResourcesFit's scores do.
int64_t podRequest(const ClusterState& s, uint32_t task, int dim, bool useRequested);
// What the node's pods request of `dim`, the same way.
int64_t nodeRequested(const ClusterState& s, uint32_t node, int dim, bool useRequested);

} // namespace gantry::engine::k8s
