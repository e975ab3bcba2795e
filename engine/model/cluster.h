#pragma once
// Everything known about one cluster: the objects of a snapshot or an inventory, in flat vectors.
// Cross references are by name (as in Kubernetes); the engine builds its indexes per session.
#include "model/diagnostic.h"
#include "model/disruption_budget.h"
#include "model/dra.h"
#include "model/fairshare_state.h"
#include "model/kueue_config.h"
#include "model/limit_range.h"
#include "model/node.h"
#include "model/pod.h"
#include "model/pod_group.h"
#include "model/priority.h"
#include "model/queue.h"
#include "model/scheduler_conf.h"
#include "model/topology.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gantry {

struct Namespace {
    std::string name;
    Labels labels;
    Labels annotations;
    bool operator==(const Namespace& o) const {
        return name == o.name && labels == o.labels && annotations == o.annotations;
    }
};

// YuniKorn partition-level settings (the queues themselves are in Cluster::queues).
struct PlacementRule {
    std::string name; // provided | user | fixed | tag
    bool create = false;
    std::string value;
    std::string filterType; // allow | deny | ""
    std::vector<std::string> filterUsers, filterGroups;
    std::vector<PlacementRule> parent; // zero or one: the rule that builds the parent path
    bool operator==(const PlacementRule&) const = default;
};

struct YuniKornPartition {
    std::string name = "default";
    std::vector<PlacementRule> placementRules;
    std::string nodeSortPolicy; // fair | binpacking | ""
    std::map<std::string, double> nodeSortWeights;
    std::optional<bool> preemptionEnabled;
    std::optional<bool> quotaPreemptionEnabled;
    std::vector<QueueLimit> limits;
    std::map<std::string, std::string> settings; // flat keys of yunikorn-configs (service.*, ...)
    // Partition keys YuniKorn reads and Gantry does not model (usergroupresolver,
    // statedumpfilepath), as a JSON object, written back as they were; empty: none.
    std::string unmodelled;
    bool operator==(const YuniKornPartition&) const = default;
};

// A YuniKorn queues.yaml read on its own: the partition and its queues (root first, parents before
// children), as they would join a cluster.
struct YuniKornConfig {
    YuniKornPartition partition;
    std::vector<Queue> queues;
    bool operator==(const YuniKornConfig&) const = default;
};

struct Cluster {
    std::string name;
    std::vector<Node> nodes;
    std::vector<Namespace> namespaces;
    std::vector<Pod> pods;
    std::vector<PodGroup> podGroups;
    std::vector<Queue> queues;
    std::vector<LocalQueue> localQueues;
    std::vector<ResourceFlavor> resourceFlavors;
    std::vector<PriorityClass> priorityClasses;
    std::vector<TopologyLevel> topologyLevels; // label-defined tree, top level first
    std::vector<HyperNode> hyperNodes;
    std::vector<KueueTopology> kueueTopologies;
    std::vector<LimitRange> limitRanges;
    std::vector<std::string> admissionChecks; // Kueue AdmissionCheck objects, by name
    std::vector<PodDisruptionBudget> disruptionBudgets;
    std::optional<YuniKornPartition> yunikorn;
    std::optional<SchedulerConf> volcanoConf;       // from Volcano's scheduler ConfigMap, when imported
    std::optional<KueueConfig> kueueConf;           // from Kueue's kueue-manager-config, when imported
    std::vector<FairshareStateMap> fairshareStates; // ConfigMaps holding Volcano fairshare's state.json
    DraObjects dra;                                 // resource.k8s.io: classes, slices, claims

    const Node* findNode(const std::string& name) const;
    const Queue* findQueue(const std::string& name) const;
    const PodGroup* findPodGroup(const std::string& ns, const std::string& name) const;
    const PriorityClass* findPriorityClass(const std::string& name) const;

    bool operator==(const Cluster&) const = default;
};

// The well-known topology labels Gantry uses when a user does not name others.
std::vector<TopologyLevel> defaultTopologyLevels();

} // namespace gantry
