#pragma once
// YuniKorn's partition configuration as the core reads it from queues.yaml (yunikorn-core
// pkg/common/configs: PartitionConfig, QueueConfig): what the shared mapping writes for the
// exporter and what the profile schedules with. Resource names are YuniKorn's (vcore is CPU);
// amounts are the model's canonical integers (vcore in millicores, memory in bytes).
#include "model/cluster.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gantry::yunikorn {

struct QueueConfig {
    std::string name;
    bool parent = false; // "parent: true"
    ResourceList guaranteed, max;
    uint64_t maxApplications = 0;
    std::map<std::string, std::string> properties;
    std::string submitAcl, adminAcl;
    std::vector<QueueLimit> limits;
    ChildTemplate childTemplate;
    std::vector<QueueConfig> queues;
    SourceRef source;
};

struct PartitionConfig {
    std::string name = "default";
    QueueConfig root; // named root
    std::vector<PlacementRule> placementRules;
    bool placementGenerated = false; // Gantry wrote the rules (queues.yaml then spells create: false)
    std::vector<QueueLimit> limits;  // partition limits (YuniKorn applies them to root)
    std::optional<bool> preemptionEnabled, quotaPreemptionEnabled;
    std::string nodeSortPolicy;                                  // fair | binpacking | "" (fair)
    std::vector<std::pair<std::string, double>> nodeSortWeights; // in the order written
    std::map<std::string, std::string> settings;                 // other keys of the ConfigMap
    std::string unmodelled; // partition keys Gantry does not model, as JSON (YuniKornPartition)
    SourceRef source;
};

// The configuration as queues.yaml held it: the partition settings and the queues in the order the
// importer read them (root first, depth first; a queue's parent is named by its nearest ancestor).
PartitionConfig partitionConfigOf(const YuniKornPartition& partition, const std::vector<Queue>& queues);
// What YuniKorn runs when it is given no configuration (yunikorn-core pkg/common/configs/config.go,
// DefaultSchedulerConfig): partition default, root open to all (submitacl '*'), and one placement
// rule, tag namespace with create: an application lands in root.<its namespace>.
PartitionConfig builtInPartitionConfig();
// The same for a cluster's own YuniKorn configuration (its YuniKornQueue queues and partition);
// nullopt when it has none.
std::optional<PartitionConfig> yunikornConfigOf(const Cluster& cluster);

} // namespace gantry::yunikorn
