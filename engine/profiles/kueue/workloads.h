#pragma once
// Kueue's view of a job of the cluster state: a Workload with pod sets (per-pod requests by
// resource, placement constraints, topology request), priority, queue-order time, its ClusterQueue,
// and what Kueue has done with it (quota reserved with flavors and counts, evicted, requeued).
#include "model/kueue_workload.h"
#include "profiles/kueue/quota.h"
#include "profiles/kueue/world.h"
#include "state/cluster_state.h"

#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gantry::engine::kueue {

inline constexpr double kZeroTime = -std::numeric_limits<double>::infinity();

struct PodSet {
    std::string name;
    int32_t count = 1;
    int32_t minCount = 1;
    // Per-pod requests: (resource id or -1, amount); names kept for resources no queue covers.
    std::vector<std::pair<int, Amount>> perPod;
    std::vector<std::string> uncovered; // names of requested resources with no id (amount > 0)
    std::vector<Amount> uncoveredAmounts;
    uint32_t shape = UINT32_MAX; // a pod's shape in the state: node selector, affinity, tolerations
    KueueTopologyRequest topology;
};

// One pod set's part of an admission.
struct PodSetAdmission {
    std::vector<int> flavorOf; // resource id -> flavor, -1 when the resource got none
    int32_t count = 0;
    std::optional<KueueTopologyAssignment> topology;
    int topologyFlavor = -1; // the topology-aware flavor the placement is in
};

enum class WlState : uint8_t { Pending, Admitted, Finished };

struct Workload {
    uint32_t job = UINT32_MAX; // cluster state job
    uint32_t jobOrder = 0;     // JobRec::order when created (detects a reused job slot)
    std::string key, ns, name, uid, queueName;
    int32_t priority = 0;
    double created = kZeroTime; // queue-order timestamp base
    double orderTime = kZeroTime;
    int cq = -1; // ClusterQueue it queues in (or is admitted to)
    // Its LocalQueue's Admission Fair Sharing usage when its ClusterQueue orders by it, as of its
    // last push into the queue (the heap's key while it waits there).
    double afsUsage = 0;
    bool untouched = false; // no LocalQueue / no ClusterQueue: Kueue never looks at it
    bool unmanaged = false; // not Kueue's at all (no queue-name label): its pods are placed as they come
    // What keeps its queues from admitting it (the workload controller's getQueueBlocker): a missing
    // or stopped LocalQueue, a missing or inactive ClusterQueue. QuotaReserved=False reason and message.
    std::string blockedReason, blockedMessage;
    uint32_t task = UINT32_MAX; // the one pod of a workload Kueue admits pod by pod (else all the job's)
    std::vector<PodSet> podSets;
    std::string misconfigured; // LimitRange or requests-above-limits message: never admissible
    std::string hash;          // scheduling equivalence
    bool inactive = false;     // spec.active false
    std::shared_ptr<const KueueWorkload> spec;

    WlState state = WlState::Pending;
    // Admission (state Admitted).
    std::vector<PodSetAdmission> admission;
    Usage usage;                   // quota it holds
    double reservedAt = kZeroTime; // QuotaReserved time
    bool admittedCondition = false;
    bool evicted = false; // Evicted=True (preempted, waiting for its pods to go)
    std::string evictedReason;
    std::string preemptionReason;
    double evictedAt = kZeroTime;
    // Queueing.
    bool queued = false;       // in its ClusterQueue's active or inadmissible set
    bool inadmissible = false; // in the inadmissible set
    double requeueAt = kZeroTime;
    int32_t requeueCount = 0;
    bool everAdmitted = false;
    double firstAdmitted = -1;
    // Flavor scan progress (FlavorFungibilityPreserveScanProgress): per pod set, per resource, the
    // last flavor index tried (-1 = start over), with the cycle and tree generation it was made in.
    std::vector<std::vector<int>> lastTried;
    int64_t lastCycle = -1, lastGeneration = -1;
    std::string pendingReason; // last QuotaReserved=False reason
    std::string pendingMessage;
    size_t admittedSlot = 0; // position in its ClusterQueue's admitted list
};

// Builds the workload of a state job (resolving its ClusterQueue, requests, LimitRange checks), or of
// one pod of it (`task`) when Kueue admits the job's pods one by one. Warnings for bad references are
// appended to *warnings (one per job).
Workload makeWorkload(const World& w, const ClusterState& st, uint32_t job, Diagnostics* warnings,
                      uint32_t task = UINT32_MAX);

// The pods of a workload: its one pod, or its job's.
inline std::span<const uint32_t> tasksOf(const ClusterState& st, const Workload& wl) {
    if (wl.task != UINT32_MAX) return {&wl.task, 1};
    if (wl.job >= st.jobs.size()) return {};
    return st.jobs[wl.job].tasks;
}

// Whether the namespace of the workload matches the ClusterQueue's namespaceSelector.
bool namespaceMatches(const World& w, const ClusterQueue& cq, const std::string& ns);

// Whether a workload holding quota is Admitted: every admission check its ClusterQueue requires for
// the flavors it got is on the workload, and all of its checks are Ready (SyncAdmittedCondition).
bool checksReady(const World& w, const Workload& wl);

// Usage of the whole workload (scaled to the admitted counts) from an admission.
Usage usageOf(const World& w, const Workload& wl, const std::vector<PodSetAdmission>& admission);

} // namespace gantry::engine::kueue
