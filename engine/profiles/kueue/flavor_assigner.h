#pragma once
// Kueue's flavor assigner (pkg/scheduler/flavorassigner): for each pod set (or group of pod sets
// sharing a topology), each resource group gets the first flavor that fits in quota, trying the
// ClusterQueue's flavors in order and stopping or going on by its flavorFungibility; a flavor whose
// taints the pods do not tolerate, or whose node labels their node selector or affinity rule out, is
// skipped. Quota that would need preemption is checked with a preemption simulation; a topology
// request must find a placement in the flavor's topology.
#include "profiles/kueue/context.h"

#include <optional>
#include <vector>

namespace gantry::engine::kueue {

// counts: pod counts per pod set (partial admission); empty = the full counts.
Assignment assignFlavors(Context& ctx, uint32_t wl, const std::vector<int32_t>& counts);

// The usage an assignment would add (pod set requests by assigned flavor; zero requests left out).
Usage totalRequests(const Context& ctx, const Assignment& a);

// FNV-1a 64-bit hash of a resource name: the order Kueue's vectorized requests iterate in.
uint64_t resourceHash(const std::string& name);

} // namespace gantry::engine::kueue
