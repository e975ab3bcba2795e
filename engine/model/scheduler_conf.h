#pragma once
// Scheduler configurations as data: Volcano's volcano-scheduler.conf and the kube-scheduler profile
// used for contrast. Parsing the text lives in importers/; the engine reads these structs.
#include "model/diagnostic.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gantry {

// One plugin entry of a tier. Switches keep upstream's spelling (enableJobOrder, enabledVictim, ...);
// only switches written in the file are stored. Arguments keep their text; nested maps are flattened
// with dots ("resources.nvidia.com/gpu.weight").
struct PluginOption {
    std::string name;
    std::map<std::string, bool> switches;
    std::map<std::string, std::string> arguments;
    SourceRef source;

    // Volcano's rule: an omitted switch is on, except enableHierarchy which is off.
    bool enabled(std::string_view switchName) const;
    std::optional<std::string> argument(std::string_view key) const;
    bool operator==(const PluginOption& o) const {
        return name == o.name && switches == o.switches && arguments == o.arguments;
    }
};

struct Tier {
    std::vector<PluginOption> plugins;
    bool operator==(const Tier&) const = default;
};

struct ActionConfiguration {
    std::string name;
    std::map<std::string, std::string> arguments;
    SourceRef source; // where the configuration's name is written
    bool operator==(const ActionConfiguration& o) const { return name == o.name && arguments == o.arguments; }
};

struct SchedulerConf {
    std::vector<std::string> actions;
    std::vector<Tier> tiers;
    std::vector<ActionConfiguration> configurations;
    std::map<std::string, std::string> metrics;
    SourceRef source;
    std::vector<SourceRef> actionSources; // parallel to actions when read from a file: each name's location

    const PluginOption* plugin(std::string_view name) const; // first occurrence in any tier
    bool operator==(const SchedulerConf& o) const {
        return actions == o.actions && tiers == o.tiers && configurations == o.configurations &&
               metrics == o.metrics;
    }
};

// Volcano's default configuration (helm chart volcano-scheduler.conf).
SchedulerConf defaultVolcanoConf();

// kube-scheduler's profile as far as Gantry models it: NodeResourcesFit's scoring strategy, the
// score plugins' weights and DefaultPreemption (on unless plugins.postFilter disables it) with its
// DefaultPreemptionArgs. No gang; pods are scheduled one by one.
struct KubeSchedulerProfile {
    enum class Strategy { LeastAllocated, MostAllocated, RequestedToCapacityRatio };
    std::string schedulerName = "default-scheduler";
    Strategy strategy = Strategy::LeastAllocated;
    std::vector<std::pair<std::string, int64_t>> resourceWeights{{"cpu", 1}, {"memory", 1}};
    std::vector<std::pair<int32_t, int32_t>> shape; // RequestedToCapacityRatio: (utilization, score)
    std::map<std::string, int32_t> pluginWeights;   // enabled score plugins and their weights
    std::vector<std::string> disabledPlugins;
    bool preemption = true;
    int32_t minCandidateNodesPercentage = 10;
    int32_t minCandidateNodesAbsolute = 100;
    // The profile's percentageOfNodesToScore, else the configuration's; unset or 0: adaptive.
    std::optional<int32_t> percentageOfNodesToScore;
    SourceRef source;
    bool operator==(const KubeSchedulerProfile& o) const {
        return schedulerName == o.schedulerName && strategy == o.strategy &&
               resourceWeights == o.resourceWeights && shape == o.shape && pluginWeights == o.pluginWeights &&
               disabledPlugins == o.disabledPlugins && preemption == o.preemption &&
               minCandidateNodesPercentage == o.minCandidateNodesPercentage &&
               minCandidateNodesAbsolute == o.minCandidateNodesAbsolute &&
               percentageOfNodesToScore == o.percentageOfNodesToScore;
    }
};
const char* toString(KubeSchedulerProfile::Strategy strategy);
std::optional<KubeSchedulerProfile::Strategy> strategyFromString(const std::string& text);

// kube-scheduler's configuration validation of the fields Gantry keeps (validation.go): what is
// wrong with the value, empty when nothing is. Every reader of these fields asks these.
std::string percentageOfNodesToScoreProblem(int32_t percentage);
// DefaultPreemptionArgs: as (field, problem); the field is empty when the pair is wrong together.
std::optional<std::pair<std::string, std::string>>
defaultPreemptionArgsProblem(int32_t minCandidateNodesPercentage, int32_t minCandidateNodesAbsolute);

} // namespace gantry
