#pragma once
// Kueue's preemptor (pkg/scheduler/preemption): which admitted workloads to evict so that a workload
// fits, and why. Classical mode takes candidates from the ClusterQueue (withinClusterQueue) and from
// cohort members over their nominal quota (reclaimWithinCohort, borrowWithinCohort), lowest first,
// removes them one by one until the workload fits, then gives back the ones not needed. Fair
// sharing instead walks the cohort tree from the node with the highest dominant resource share and
// keeps a preemption only when the strategies allow it.
#include "profiles/kueue/context.h"

#include <string>
#include <utility>
#include <vector>

namespace gantry::engine::kueue {

struct Target {
    uint32_t wl;
    const char*
        reason; // InClusterQueue, InCohortReclamation, InCohortReclaimWhileBorrowing, InCohortFairSharing
};

// Targets for admitting the workload with the assignment (empty: preemption cannot make it fit).
std::vector<Target> getTargets(Context& ctx, uint32_t wl, const Assignment& a);

// The flavor assigner's oracle: whether preempting can make `quantity` of the flavor-resource fit,
// and how far up the cohort tree the workload would still borrow afterwards.
std::pair<PMode, int> simulatePreemption(Context& ctx, uint32_t wl, int fr, Amount quantity);

// Candidate order: already evicted first, other ClusterQueues first, lower priority, more recent
// quota reservation, then UID.
// afs: classical preemption with Admission Fair Sharing on (CandidatesOrdering's afsEnabled; fair
// sharing's ordering passes false).
bool candidateBefore(const Context& ctx, uint32_t a, uint32_t b, int preemptorCq, bool afs = false);

} // namespace gantry::engine::kueue
