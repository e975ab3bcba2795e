#include "model/scheduler_conf.h"

namespace gantry {

// Sessions ask for every switch of every plugin each cycle; the maps hold the few written in the
// file, so a scan without building a key string is the cheaper lookup.
bool PluginOption::enabled(std::string_view switchName) const {
    for (const auto& [key, on] : switches)
        if (key == switchName) return on;
    return switchName != "enableHierarchy";
}

std::optional<std::string> PluginOption::argument(std::string_view key) const {
    for (const auto& [written, value] : arguments)
        if (written == key) return value;
    return std::nullopt;
}

const PluginOption* SchedulerConf::plugin(std::string_view name) const {
    for (const auto& tier : tiers)
        for (const auto& p : tier.plugins)
            if (p.name == name) return &p;
    return nullptr;
}

SchedulerConf defaultVolcanoConf() {
    SchedulerConf conf;
    conf.actions = {"enqueue", "allocate", "backfill"};
    auto plugin = [](const char* name, std::map<std::string, bool> switches = {}) {
        PluginOption p;
        p.name = name;
        p.switches = std::move(switches);
        return p;
    };
    conf.tiers.push_back(
        Tier{{plugin("priority"), plugin("gang", {{"enablePreemptable", false}}), plugin("conformance")}});
    conf.tiers.push_back(
        Tier{{plugin("overcommit"), plugin("drf", {{"enablePreemptable", false}}), plugin("predicates"),
              plugin("proportion"), plugin("nodeorder"), plugin("binpack")}});
    return conf;
}

const char* toString(KubeSchedulerProfile::Strategy strategy) {
    switch (strategy) {
    case KubeSchedulerProfile::Strategy::LeastAllocated:
        return "LeastAllocated";
    case KubeSchedulerProfile::Strategy::MostAllocated:
        return "MostAllocated";
    case KubeSchedulerProfile::Strategy::RequestedToCapacityRatio:
        return "RequestedToCapacityRatio";
    }
    return "LeastAllocated";
}

std::string percentageOfNodesToScoreProblem(int32_t percentage) {
    if (percentage >= 0 && percentage <= 100) return {};
    return "percentageOfNodesToScore " + std::to_string(percentage) + " is not in valid range [0-100]";
}

std::optional<std::pair<std::string, std::string>>
defaultPreemptionArgsProblem(int32_t minCandidateNodesPercentage, int32_t minCandidateNodesAbsolute) {
    if (minCandidateNodesPercentage < 0 || minCandidateNodesPercentage > 100)
        return std::pair<std::string, std::string>{"minCandidateNodesPercentage",
                                                   "minCandidateNodesPercentage must be in 0..100"};
    if (minCandidateNodesAbsolute < 0)
        return std::pair<std::string, std::string>{"minCandidateNodesAbsolute",
                                                   "minCandidateNodesAbsolute must not be negative"};
    if (minCandidateNodesPercentage == 0 && minCandidateNodesAbsolute == 0)
        return std::pair<std::string, std::string>{
            "", "minCandidateNodesPercentage and minCandidateNodesAbsolute must not both be 0"};
    return std::nullopt;
}

std::optional<KubeSchedulerProfile::Strategy> strategyFromString(const std::string& text) {
    using S = KubeSchedulerProfile::Strategy;
    for (auto s : {S::LeastAllocated, S::MostAllocated, S::RequestedToCapacityRatio})
        if (text == toString(s)) return s;
    return std::nullopt;
}

} // namespace gantry
