#pragma once
// The default kube-scheduler, for contrast with Volcano: pending pods one by one (priority, then the
// order they were created in), filtered by NodeUnschedulable, TaintToleration, NodeAffinity,
// NodeResourcesFit, PodTopologySpread and InterPodAffinity, scored by NodeResourcesFit's strategy
// (LeastAllocated, MostAllocated, RequestedToCapacityRatio), BalancedAllocation, TaintToleration,
// NodeAffinity, PodTopologySpread and InterPodAffinity with the profile's weights, and bound to the
// best node at once. No gang: a job may start partly. No preemption.
#include "model/scheduler_conf.h"
#include "profile/cycle_result.h"
#include "state/cluster_state.h"

namespace gantry::engine {

// Pods of every scheduler name are taken: the contrast asks what kube-scheduler would do with them.
BuildOptions kubeBuildOptions();

// Schedules every pending pod of the state (the state is restored before returning). `compact`: the
// simulator's form (CycleOptions::compact), without the PodGroup phases and gangs by name.
CycleResult runKubeDefault(ClusterState& state, const KubeSchedulerProfile& profile, bool scores = false,
                           bool compact = false);

} // namespace gantry::engine
