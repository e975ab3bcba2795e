#pragma once
// What one Kueue scheduling cycle works with: the compiled objects with their usage (the cache and
// the cycle's snapshot are one here: an admission updates both; what is only simulated is undone),
// the workloads, the topology view of the nodes, and the cycle's settings.
#include "profiles/kueue/assignment.h"
#include "profiles/kueue/workloads.h"
#include "profiles/kueue/world.h"
#include "state/cluster_state.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gantry::engine::kueue {

class TasIndex;

struct Context {
    World& w;
    std::vector<Workload>& wls;
    const ClusterState& st;
    TasIndex* tas = nullptr;
    int64_t cycle = 0;
    double now = 0;
    bool fairSharing = false;
    std::vector<int> strategies;     // 0 LessThanOrEqualToFinalShare, 1 LessThanInitialShare
    std::vector<int64_t> generation; // per ClusterQueue: bumped when a workload leaves it
    // Workloads taken out of the snapshot while a preemption is simulated (kept by the scheduler
    // from cycle to cycle: every removal is undone before the cycle ends).
    std::vector<uint8_t>& removed;
    std::vector<uint8_t>& admittedThisCycle; // not preemption candidates until the next cycle

    bool gate(const char* name) const { return w.config.gate(name); }
    // The snapshot without the workload (its usage and candidacy), and back.
    void removeWorkload(uint32_t wl);
    void addWorkload(uint32_t wl);
    bool inSnapshot(uint32_t wl) const { return !removed[wl] && !admittedThisCycle[wl]; }
};

// Kueue's effective priority and the timestamp it queues by.
inline int64_t priorityOf(const Workload& wl) {
    return wl.priority;
}

} // namespace gantry::engine::kueue
