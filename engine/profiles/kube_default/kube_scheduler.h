#pragma once
// The default kube-scheduler, for contrast with Volcano: pending pods one by one (priority, then the
// order they were created in), filtered by NodeUnschedulable, TaintToleration, NodeAffinity,
// NodeResourcesFit, PodTopologySpread and InterPodAffinity, scored by NodeResourcesFit's strategy
// (LeastAllocated, MostAllocated, RequestedToCapacityRatio), BalancedAllocation, TaintToleration,
// NodeAffinity, PodTopologySpread and InterPodAffinity with the profile's weights over the nodes its
// search found; DynamicResources allocates the pods' ResourceClaims (k8s/dra_allocator.h)
// (percentageOfNodesToScore: k8s/feasible_nodes.h), and bound to the best at once. No gang: a job may start
// partly. A pod no node fits preempts lower-priority pods as DefaultPreemption does: the victims are evicted
// and the pod is nominated to their node, where it is bound once they are gone (a later cycle).
#include "k8s/dra_allocator.h"
#include "k8s/feasible_nodes.h"
#include "model/scheduler_conf.h"
#include "profile/cycle_result.h"
#include "state/cluster_state.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace gantry::engine {

// Pods of every scheduler name are taken: the contrast asks what kube-scheduler would do with them;
// workloads of every queue.
BuildOptions kubeBuildOptions();

// What the filters that read only a pod's shape and a node object (NodeUnschedulable,
// TaintToleration, NodeAffinity) answer, worked out once per shape and node: a profile keeps one for
// the life of its state, whose nodes do not change.
class StaticNodeChecks {
  public:
    enum class Result : uint8_t { Passes, Unschedulable, Taint, NodeAffinity };
    Result check(const ClusterState& st, uint32_t shape, uint32_t node);

  private:
    static constexpr size_t kNoRow = SIZE_MAX;
    std::vector<size_t> rowOf_; // per shape: where its nodes' results start
    std::vector<Result> results_;
};

// What kube-scheduler keeps from one scheduling cycle to the next for one state.
struct KubeSchedulerMemory {
    StaticNodeChecks checks;
    k8s::NodeSearch search; // where the next search for feasible nodes starts
    // The DRA devices in use and the pods' claims (null: no pod uses a claim); the claims each cycle
    // allocated, in binding order.
    k8s::DraAllocator* dra = nullptr;
    std::vector<k8s::ClaimResult> claims;
    // Whether each task of the state uses or holds claims, with the (name, shape) it was worked out
    // for (a task slot is reused by another pod), and the tasks that do by key.
    std::vector<uint8_t> claimTask;
    std::vector<uint64_t> claimTaskId;
    std::unordered_map<std::string, uint32_t> claimTaskIndex;
};

// Schedules every pending pod of the state, or only `pods` (CycleOptions::pendingPods) when given
// (the state is restored before returning). `compact`: the simulator's form (CycleOptions::compact),
// without the PodGroup phases and gangs by name. `memory`: kept across the cycles of one state (one
// for this call when null). `answerLikePods`: a pod like one that found no node and no victims
// since the cycle last changed gets that pod's answer without filters or a dry run of its own (off
// only to check that shortcut against full cycles).
CycleResult runKubeDefault(ClusterState& state, const KubeSchedulerProfile& profile, bool scores = false,
                           bool compact = false, KubeSchedulerMemory* memory = nullptr,
                           const std::vector<uint32_t>* pods = nullptr, bool answerLikePods = true);

} // namespace gantry::engine
