#pragma once
// A Kueue Workload object (kueue.x-k8s.io Workload) as far as Kueue's scheduler reads it: its pod
// sets with their containers (requests and limits as written, so LimitRange defaults and the
// requests-above-limits check can be applied the way Kueue applies them), its priority, queue-order
// times and the status it already has (a quota reservation, admission checks, an eviction).
// A PodGroup made from a Workload points to one of these (PodGroup::kueue).
#include "model/dra.h"
#include "model/resources.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gantry {

struct KueueContainer {
    ResourceList requests, limits;
    bool sidecar = false; // an init container with restartPolicy Always
    bool operator==(const KueueContainer&) const = default;
};

// podSet.topologyRequest: at most one of required / preferred / unconstrained.
struct KueueTopologyRequest {
    std::string required;  // node label of the level all pods must share
    std::string preferred; // node label of the level they should share
    bool unconstrained = false;
    std::string sliceRequired; // podSetSliceRequiredTopology
    int32_t sliceSize = 0;     // podSetSliceSize
    std::string podSetGroup;   // podSetGroupName
    bool any() const { return !required.empty() || !preferred.empty() || unconstrained; }
    bool operator==(const KueueTopologyRequest&) const = default;
};

struct KueuePodSet {
    std::string name;
    int32_t count = 1;
    std::optional<int32_t> minCount; // partial admission down to this many pods
    std::vector<KueueContainer> containers, initContainers;
    ResourceList overhead;
    std::optional<ResourceList> podRequests, podLimits; // pod-level resources
    KueueTopologyRequest topology;
    std::vector<PodResourceClaim> resourceClaims; // the template's spec.resourceClaims (DRA)
    bool operator==(const KueuePodSet&) const = default;
};

// A topology assignment: for each domain (values of the levels, top first) how many pods it gets.
struct KueueTopologyAssignment {
    std::vector<std::string> levels;
    struct Domain {
        std::vector<std::string> values;
        int32_t count = 0;
        bool operator==(const Domain&) const = default;
    };
    std::vector<Domain> domains;
    bool operator==(const KueueTopologyAssignment&) const = default;
};

struct KueuePodSetAssignment {
    std::string name;
    std::map<std::string, std::string> flavors; // resource -> flavor
    ResourceList resourceUsage;                 // the whole pod set's
    std::optional<int32_t> count;
    std::optional<KueueTopologyAssignment> topology;
    bool operator==(const KueuePodSetAssignment&) const = default;
};

struct KueueAdmission {
    std::string clusterQueue;
    std::vector<KueuePodSetAssignment> podSets;
    bool operator==(const KueueAdmission&) const = default;
};

struct KueueWorkload {
    std::string queueName; // the LocalQueue, in the workload's namespace
    std::string uid;
    // Seconds since the epoch; absent = the zero time (older than any set time), as an object that
    // never had a creationTimestamp.
    std::optional<double> creationSeconds;
    std::optional<int32_t> priority; // spec.priority
    std::string priorityClassName;   // spec.priorityClassRef name, when priority is not set
    bool active = true;              // spec.active
    std::vector<KueuePodSet> podSets;
    std::optional<KueueAdmission> admission; // status.admission
    bool quotaReserved = false;              // QuotaReserved=True
    std::optional<double> quotaReservedSeconds;
    bool admittedCondition = false; // Admitted=True
    // Evicted=True, with its reason and time (queue order uses it for some reasons).
    std::string evictedReason;
    std::optional<double> evictedSeconds;
    std::optional<double> requeueAtSeconds; // status.requeueState.requeueAt
    int32_t requeueCount = 0;
    bool requeuedFalse = false; // Requeued=False: waits outside the queue
    // status.admissionChecks: name -> Pending | Ready | Retry | Rejected
    std::map<std::string, std::string> admissionChecks;
    bool operator==(const KueueWorkload&) const = default;
};

} // namespace gantry
