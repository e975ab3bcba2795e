#pragma once
// kube-scheduler's own scheduling cycle, as a library: the kube-default profile runs it, and so does
// Kueue's placement of admitted workloads' pods. Pending pods one by one (priority, then the order
// they were created in), filtered by NodeUnschedulable, TaintToleration, NodeAffinity,
// NodeResourcesFit, PodTopologySpread and InterPodAffinity, scored by NodeResourcesFit's strategy
// (LeastAllocated, MostAllocated, RequestedToCapacityRatio), BalancedAllocation, TaintToleration,
// NodeAffinity, PodTopologySpread and InterPodAffinity with the profile's weights over the nodes its
// search found (percentageOfNodesToScore: k8s/feasible_nodes.h); DynamicResources allocates the pods'
// ResourceClaims (k8s/dra_allocator.h); the pod is bound to the best node at once. No gang: a job may
// start partly. A pod no node fits preempts lower-priority pods as DefaultPreemption does: the
// victims are evicted and the pod is nominated to their node, where it is bound once they are gone
// (a later cycle).
#include "k8s/claim_tasks.h"
#include "k8s/dra_allocator.h"
#include "k8s/feasible_nodes.h"
#include "model/diagnostic.h"
#include "model/scheduler_conf.h"
#include "profile/scheduler_profile.h"
#include "state/cluster_state.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gantry::engine::k8s {

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
    NodeSearch search; // where the next search for feasible nodes starts
    // The pods' claims and the DRA devices in use (null: no pod uses a claim); the claims each cycle
    // allocated, in binding order.
    ClaimTasks* claimTasks = nullptr;
    std::vector<ClaimResult> claims;
};

// Schedules every pending pod of the state, or only `pods` (CycleOptions::pendingPods) when given
// (the state is restored before returning). `compact`: the simulator's form (CycleOptions::compact),
// without the PodGroup phases and gangs by name. `memory`: kept across the cycles of one state (one
// for this call when null). `answerLikePods`: a pod like one that found no node and no victims
// since the cycle last changed gets that pod's answer without filters or a dry run of its own (off
// only to check that shortcut against full cycles).
CycleResult runKubeScheduler(ClusterState& state, const KubeSchedulerProfile& profile, bool scores = false,
                             bool compact = false, KubeSchedulerMemory* memory = nullptr,
                             const std::vector<uint32_t>* pods = nullptr, bool answerLikePods = true);

// kube-scheduler for one state over its life: the profile, the DRA allocator where pods use claims
// or a DeviceClass serves an extended resource, and what it keeps from one cycle to the next.
class KubeScheduler {
  public:
    // Problems with the cluster's DRA objects are appended to *warnings (may be null).
    KubeScheduler(const KubeSchedulerProfile& profile, const Cluster& cluster, Diagnostics* warnings);
    ~KubeScheduler();
    KubeScheduler(const KubeScheduler&) = delete;
    KubeScheduler& operator=(const KubeScheduler&) = delete;

    // One cycle over the pending pods (options.pendingPods when given). In the compact form each
    // job's reason is its first pod's that stayed pending, in the job's pod order.
    CycleResult cycle(ClusterState& state, const CycleOptions& options);
    // The ResourceClaims the last cycle allocated, in binding order.
    const std::vector<ClaimResult>& claims() const { return memory_.claims; }
    // What the claims allocated hold (DraAllocator::gpuMilliInUse); 0 without DRA.
    int64_t gpuMilliHeldThroughClaims() const { return dra_ ? dra_->gpuMilliInUse() : 0; }
    ClaimGpus claimGpus() const { return dra_ ? dra_->gpus() : ClaimGpus{}; }

  private:
    const KubeSchedulerProfile profile_;
    std::unique_ptr<DraAllocator> dra_;
    std::unique_ptr<ClaimTasks> claimTasks_;
    KubeSchedulerMemory memory_;
};

} // namespace gantry::engine::k8s
