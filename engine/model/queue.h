#pragma once
// One queue tree that holds what Volcano, Kueue and YuniKorn each know about queues and quotas.
// Every scheduler's own fields are kept side by side (nothing imported is lost); the exporters map
// between them as docs/quota-mapping.md describes.
#include "model/diagnostic.h"
#include "model/resources.h"
#include "model/selectors.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gantry {

enum class QueueState { Open, Closed, Closing, Unknown };
const char* toString(QueueState state);
std::optional<QueueState> queueStateFromString(const std::string& text);

// Kueue: quota of one resource in one flavor.
struct ResourceQuota {
    std::string resource;
    int64_t nominal = 0;
    std::optional<int64_t> borrowingLimit; // absent = unlimited borrowing inside the cohort
    std::optional<int64_t> lendingLimit;   // absent = all of nominal may be lent
    bool operator==(const ResourceQuota&) const = default;
};

struct FlavorQuotas {
    std::string flavor;
    std::vector<ResourceQuota> resources; // same order as the group's coveredResources
    bool operator==(const FlavorQuotas&) const = default;
};

struct ResourceGroup {
    std::vector<std::string> coveredResources;
    std::vector<FlavorQuotas> flavors;
    bool operator==(const ResourceGroup&) const = default;
};

// Kueue's preemption block of a ClusterQueue (strings are Kueue's own enum values).
struct KueuePreemption {
    std::string withinClusterQueue = "Never";  // Never | LowerPriority | LowerOrNewerEqualPriority
    std::string reclaimWithinCohort = "Never"; // Never | LowerPriority | Any
    std::string borrowWithinCohort = "Never";  // Never | LowerPriority
    std::optional<int32_t> borrowMaxPriorityThreshold;
    bool operator==(const KueuePreemption&) const = default;
};

// YuniKorn's per-user / per-group limits.
struct QueueLimit {
    std::string description;
    std::vector<std::string> users;
    std::vector<std::string> groups;
    ResourceList maxResources;
    uint64_t maxApplications = 0;
    bool operator==(const QueueLimit&) const = default;
};

// YuniKorn's childtemplate of a parent queue: what a leaf the placement rules create below it
// starts with (a parent without one passes its nearest ancestor's on).
struct ChildTemplate {
    uint64_t maxApplications = 0;
    std::map<std::string, std::string> properties;
    ResourceList guaranteed, max;
    bool operator==(const ChildTemplate&) const = default;
    bool empty() const { return *this == ChildTemplate{}; }
};

// Volcano's spec.affinity: node groups (the nodes' volcano.sh/nodegroup-name label values) the
// queue's pods may or should run in, or must or should avoid (the nodegroup plugin reads it).
struct NodeGroupAffinity {
    std::vector<std::string> required, preferred;         // nodeGroupAffinity
    std::vector<std::string> antiRequired, antiPreferred; // nodeGroupAntiAffinity
    bool operator==(const NodeGroupAffinity&) const = default;
};

struct Queue {
    // Which object it came from, so an export back to the same scheduler is faithful.
    enum class Kind {
        Queue,             // Volcano Queue, or a queue designed in Gantry
        KueueClusterQueue, // leaf of Kueue's tree; parent = cohort
        KueueCohort,       // inner node of Kueue's tree
        YuniKornQueue,     // a queue of YuniKorn's queues.yaml (name is the leaf name, parent the parent's)
    };
    std::string name;
    std::string parent; // empty = top level (under the implicit root)
    Kind kind = Kind::Queue;
    int32_t weight = 1;
    int32_t priority = 0;
    QueueState state = QueueState::Open;

    // Volcano
    ResourceList guarantee;  // never lent
    ResourceList deserved;   // fair/entitled share (capacity plugin)
    ResourceList capability; // hard cap; absent resource = no cap
    bool reclaimable = true;
    std::string dequeueStrategy;                        // "fifo" | "traverse" | ""
    std::optional<NodeGroupAffinity> nodeGroupAffinity; // absent = spec.affinity not set

    // Kueue
    std::vector<ResourceGroup> resourceGroups;
    KueuePreemption preemption;
    std::optional<double> fairSharingWeight;
    std::string queueingStrategy;                   // StrictFIFO | BestEffortFIFO | ""
    std::optional<LabelSelector> namespaceSelector; // absent = no namespace (Kueue's null)
    std::string stopPolicy;                         // None | Hold | HoldAndDrain | ""
    std::string whenCanBorrow, whenCanPreempt;      // flavorFungibility
    std::string fungibilityPreference;              // BorrowingOverPreemption | PreemptionOverBorrowing | ""
    // spec.admissionScope.admissionMode: UsageBasedAdmissionFairSharing orders the ClusterQueue's
    // workloads by their LocalQueue's usage (Admission Fair Sharing); NoAdmissionFairSharing or "" does not.
    std::string admissionMode;
    // admissionChecks, and admissionChecksStrategy's checks with the flavors they apply to (empty = all)
    std::vector<std::pair<std::string, std::vector<std::string>>> admissionChecks;

    // YuniKorn
    ResourceList guaranteed; // resources.guaranteed
    ResourceList max;        // resources.max
    uint64_t maxApplications = 0;
    std::map<std::string, std::string> properties;
    std::string submitAcl, adminAcl;
    bool parentFlag = false; // "parent: true" (a leaf-less parent for dynamic queues)
    std::vector<QueueLimit> limits;
    ChildTemplate childTemplate;

    Labels labels;
    Labels annotations;
    SourceRef source;

    bool operator==(const Queue& o) const {
        return name == o.name && parent == o.parent && kind == o.kind && weight == o.weight &&
               priority == o.priority && state == o.state && guarantee == o.guarantee &&
               deserved == o.deserved && capability == o.capability && reclaimable == o.reclaimable &&
               dequeueStrategy == o.dequeueStrategy && nodeGroupAffinity == o.nodeGroupAffinity &&
               resourceGroups == o.resourceGroups && preemption == o.preemption &&
               fairSharingWeight == o.fairSharingWeight && queueingStrategy == o.queueingStrategy &&
               namespaceSelector == o.namespaceSelector && stopPolicy == o.stopPolicy &&
               whenCanBorrow == o.whenCanBorrow && whenCanPreempt == o.whenCanPreempt &&
               fungibilityPreference == o.fungibilityPreference && admissionMode == o.admissionMode &&
               admissionChecks == o.admissionChecks && guaranteed == o.guaranteed && max == o.max &&
               maxApplications == o.maxApplications && properties == o.properties &&
               submitAcl == o.submitAcl && adminAcl == o.adminAcl && parentFlag == o.parentFlag &&
               limits == o.limits && childTemplate == o.childTemplate && labels == o.labels &&
               annotations == o.annotations;
    }
};
const char* toString(Queue::Kind kind);

// Kueue LocalQueue: a namespace's handle on a ClusterQueue.
struct LocalQueue {
    std::string name;
    std::string ns;
    std::string clusterQueue;
    std::optional<double> fairSharingWeight;
    std::string stopPolicy;
    // status.fairSharing.admissionFairSharingStatus.consumedResources: the decayed usage Kueue's
    // LocalQueue controller keeps for Admission Fair Sharing (and seeds its ledger from on start).
    ResourceList consumed;
    SourceRef source;
    bool operator==(const LocalQueue& o) const {
        return name == o.name && ns == o.ns && clusterQueue == o.clusterQueue &&
               fairSharingWeight == o.fairSharingWeight && stopPolicy == o.stopPolicy &&
               consumed == o.consumed;
    }
};

// Kueue ResourceFlavor: a class of nodes (typically one GPU model) selected by labels.
struct ResourceFlavor {
    std::string name;
    Labels nodeLabels;
    std::vector<Taint> nodeTaints;
    std::vector<Toleration> tolerations;
    std::string topologyName;
    SourceRef source;
    bool operator==(const ResourceFlavor& o) const {
        return name == o.name && nodeLabels == o.nodeLabels && nodeTaints == o.nodeTaints &&
               tolerations == o.tolerations && topologyName == o.topologyName;
    }
};

} // namespace gantry
