#pragma once
// Kueue's objects compiled for scheduling: resource flavors, the tree of ClusterQueues and cohorts
// with their quotas and usage (flat arrays indexed by flavor-resource), LocalQueues, topologies.
// Built once per profile from the Kueue objects of the cluster (mapping.h); usage changes as
// workloads are admitted and released.
#include "model/cluster.h"
#include "model/kueue_config.h"
#include "model/kueue_mapping.h"
#include "profiles/kueue/amount.h"

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace gantry::engine::kueue {

struct Flavor {
    std::string name;
    Labels nodeLabels;
    std::vector<Taint> taints;
    std::vector<Toleration> tolerations;
    int topology = -1;        // index into World::topologies when the flavor is topology-aware
    std::string topologyName; // as written (may name a missing Topology)
};

struct Topology {
    std::string name;
    std::vector<std::string> levels; // node labels, top first
};

struct Group {
    std::vector<int> resources; // covered resources
    std::vector<int> flavors;   // in the group's order
};

// A ClusterQueue or a cohort: its quotas and usage by flavor-resource (World::fr).
struct QuotaNode {
    std::string name;
    bool clusterQueue = false;
    bool declared = true; // a Cohort object exists (cohorts may be implicit)
    int parent = -1;      // cohort node index
    std::vector<int> childCqs, childCohorts;
    std::vector<Amount> nominal, borrowLimit, lendLimit; // limits: kNoLimit when absent
    std::vector<Amount> subtree, usage;
    double weight = 1.0; // fair sharing
    int cq = -1;         // index into World::cqs for a ClusterQueue
    SourceRef source;
};

enum class Strategy { BestEffortFIFO, StrictFIFO };
enum class Policy { Never, LowerPriority, LowerOrNewerEqualPriority, Any };

struct ClusterQueue {
    int node = -1;
    std::string name;
    std::vector<Group> groups;
    std::vector<int> groupOf;                       // resource -> group index, -1 when not covered
    std::optional<LabelSelector> namespaceSelector; // absent matches no namespace
    Strategy strategy = Strategy::BestEffortFIFO;
    Policy withinClusterQueue = Policy::Never;
    Policy reclaimWithinCohort = Policy::Never;
    bool borrowWithinCohort = false;
    std::optional<int32_t> borrowMaxPriorityThreshold;
    bool whenCanBorrowTryNext = false; // flavorFungibility.whenCanBorrow: TryNextFlavor
    bool whenCanPreemptTryNext = true; // flavorFungibility.whenCanPreempt: TryNextFlavor (the default)
    int preference = 0;                // 0 none, 1 BorrowingOverPreemption, 2 PreemptionOverBorrowing
    std::vector<std::pair<std::string, std::vector<int>>>
        checks; // admission checks, on flavors (empty = all)
    bool stopped = false;
    // Admission Fair Sharing: its workloads are ordered by their LocalQueue's usage (the
    // Configuration has admissionFairSharing, the gate is on, and its admission mode asks for it).
    bool admissionFairSharing = false;
    bool active = true;   // its heads are taken (Kueue's active status)
    bool inCycle = false; // below a cohort cycle: taken, then refused as inactive
    std::string inactiveReason;
    bool tasOnly = false;           // every flavor is topology-aware
    std::vector<uint32_t> admitted; // workloads holding quota here
};

struct LocalQueue {
    std::string ns, name;
    int cq = -1; // -1: names a ClusterQueue that does not exist
    std::string clusterQueue;
    bool stopped = false; // stopPolicy Hold or HoldAndDrain: the queue manager holds none of its workloads
    // Admission Fair Sharing's usage: consumed resources weighted by resourceWeights, over the
    // LocalQueue's fair-sharing weight (+inf for a weight of 0 or less).
    double afsUsage = 0;
    // Its ledger entry (afs_ledger.h): consumed resources in their plain units (cores, bytes), the
    // fair-sharing weight, and when the consumed resources were last brought up to date (NaN: not
    // seeded yet).
    std::map<std::string, double> consumed;
    double weight = 1;
    double lastUpdate = std::numeric_limits<double>::quiet_NaN();
};

struct World {
    KueueConfig config;
    std::vector<std::string> resources;
    std::unordered_map<std::string, int> resourceIndex;
    std::vector<Flavor> flavors;
    std::unordered_map<std::string, int> flavorIndex;
    std::vector<Topology> topologies;
    std::vector<QuotaNode> nodes; // ClusterQueues and cohorts
    std::unordered_map<std::string, int> cohortIndex;
    std::vector<ClusterQueue> cqs;
    std::unordered_map<std::string, int> cqIndex;
    std::map<std::pair<std::string, std::string>, LocalQueue> localQueues; // (ns, name)
    std::map<std::string, Labels> namespaces;                              // labels of existing namespaces
    bool anyNamespace =
        false; // a project's queues: every namespace exists (the export's LocalQueues need it)
    std::map<std::string, int32_t> priorityClasses;                 // WorkloadPriorityClass / PriorityClass
    std::map<std::string, std::vector<LimitRangeItem>> limitRanges; // namespace -> items
    // DRA: ResourceClaimTemplates by (namespace, name), and the claims of the pods that use any, by
    // "ns/name" (a job's pod sets read theirs there).
    std::map<std::pair<std::string, std::string>, DeviceClaimSpec> claimTemplates;
    // DeviceClasses' selectors and the ResourceSlices: what counter-based quota and the check of a
    // request's CEL selectors against published devices read.
    std::map<std::string, std::vector<std::string>> deviceClassSelectors;
    std::vector<ResourceSlice> resourceSlices;
    std::unordered_map<std::string, std::vector<PodResourceClaim>> podClaims;
    Diagnostics warnings; // located: bad references, cycles

    int R() const { return int(resources.size()); }
    int F() const { return int(flavors.size()); }
    int fr(int flavor, int resource) const { return flavor * R() + resource; }
    int flavorOf(int fr) const { return fr / R(); }
    int resourceOf(int fr) const { return fr % R(); }
    int resource(const std::string& name) const {
        auto it = resourceIndex.find(name);
        return it == resourceIndex.end() ? -1 : it->second;
    }
    int flavor(const std::string& name) const {
        auto it = flavorIndex.find(name);
        return it == flavorIndex.end() ? -1 : it->second;
    }
    const QuotaNode& nodeOf(int cq) const { return nodes[size_t(cqs[size_t(cq)].node)]; }
    bool namespaceExists(const std::string& ns) const { return anyNamespace || namespaces.count(ns) > 0; }
    int root(int node) const {
        while (nodes[size_t(node)].parent >= 0) node = nodes[size_t(node)].parent;
        return node;
    }
};

// Compiles Kueue's policy objects (ClusterQueues, cohorts, flavors, LocalQueues, topologies: the
// cluster's own or a project's mapped ones) with the cluster's namespaces, priority classes,
// LimitRanges and admission checks. ClusterQueues that cannot admit (a missing flavor or admission
// check, stopPolicy, a cohort cycle) are kept, inactive, with the reason. A project's queue names
// find the ClusterQueues they became.
// CalculateUsage (pkg/util/admissionfairsharing): the sum over the consumed resources of their
// weight (1 unless resourceWeights names them) times the amount in its plain unit, over the
// LocalQueue's weight; a weight of 0 or less gives +inf, so the queue goes last.
double afsUsage(const LocalQueue& lq, const KueueConfig& config);
// A canonical amount in the resource's plain unit (cores, bytes, devices), as Kueue's
// AsApproximateFloat64 reads a quantity.
inline double plainAmount(const std::string& resource, int64_t amount) {
    return unitOf(resource) == ResourceUnit::Milli ? double(amount) / 1000 : double(amount);
}
// The Admission Fair Sharing usage of the workload's LocalQueue, when its ClusterQueue orders by it.
std::optional<double> afsUsageOf(const World& w, const std::string& ns, const std::string& queueName, int cq);
World buildWorld(const Cluster& cluster, const gantry::kueue::PolicyObjects& objects,
                 const KueueConfig& config);

} // namespace gantry::engine::kueue
