#pragma once
// Pods after admission. Kueue admits a workload and unsuspends its job with each pod set's flavor
// node labels added to the pods' node selector and the flavor's tolerations added to theirs;
// kube-scheduler then places the pods. Here kube-scheduler's own cycle (k8s/kube_scheduler.h)
// places them; the pods of workloads Kueue has not admitted (a suspended job has none yet) are kept
// out of its sight, and so are the pods above the count a partial admission granted.
#include "k8s/kube_scheduler.h"
#include "profile/scheduler_profile.h"
#include "profiles/kueue/workloads.h"

#include <vector>

namespace gantry::engine::kueue {

class Placement {
  public:
    Placement(const Cluster& cluster, const SchedulerPolicies& policies);

    // The workload's pods take their flavors' node labels and tolerations; the first `count` pods
    // of each pod set may be placed.
    void admit(ClusterState& st, const World& w, uint32_t wi, const Workload& wl);
    // A workload Kueue does not manage: every pod of it may be placed, as it is.
    void unmanaged(ClusterState& st, uint32_t wi, const Workload& wl);
    // The pending pods no emulated scheduler takes (their schedulerName names another one):
    // kube-scheduler lists them as not its own. For a single cycle's report only (walks every pod).
    void foreign(const ClusterState& st);
    // Its pods lose them again (evicted, or finished) and may not be placed. The job may be gone
    // from the state already (finished), its task slots taken by others.
    void release(ClusterState& st, uint32_t wi, const Workload& wl);

    // kube-scheduler's cycle over the pending pods that may be placed (bindings by index).
    CycleResult place(ClusterState& st, CycleOptions options);
    int64_t gpuMilliHeldThroughClaims() const { return kube_.gpuMilliHeldThroughClaims(); }
    ClaimGpus claimGpus() const { return kube_.claimGpus(); }

  private:
    void track(const ClusterState& st, uint32_t wi);
    k8s::KubeScheduler kube_;
    std::vector<uint32_t> ownShape_; // per task: its shape before admission (UINT32_MAX: unchanged)
    std::vector<uint8_t> placeable_; // per task: admitted
    std::vector<uint8_t> listed_;    // per task: in candidates_
    std::vector<std::vector<uint32_t>> tasksOf_; // per workload: its tasks made placeable
    // Tasks made placeable and not yet seen placed. A placed pod of an admitted workload is pending
    // again only when its workload is preempted, which releases it; admitting it again lists it again.
    std::vector<uint32_t> candidates_;
    std::vector<uint32_t> pending_; // scratch: the candidates pending now, ascending
};

} // namespace gantry::engine::kueue
