#include "kube_scheduler_config_reader.h"

#include "yaml/yaml_source.h"

#include <algorithm>
#include <set>

namespace gantry {

namespace {

const std::set<std::string> kScorePlugins = {"NodeResourcesFit",  "NodeResourcesBalancedAllocation",
                                             "TaintToleration",   "NodeAffinity",
                                             "PodTopologySpread", "InterPodAffinity",
                                             "ImageLocality",     "VolumeBinding"};

void readScoringStrategy(const Y& strategy, KubeSchedulerProfile& p) {
    strategy.checkKeys("scoringStrategy", {"type", "resources", "requestedToCapacityRatio"});
    if (strategy["type"].present()) {
        auto s = strategyFromString(strategy["type"].str());
        if (!s)
            strategy["type"].fail(
                "expected LeastAllocated, MostAllocated or RequestedToCapacityRatio, got '" +
                strategy["type"].str() + "'");
        p.strategy = *s;
    }
    if (strategy["resources"].present()) {
        p.resourceWeights.clear();
        std::set<std::string> seen;
        for (const auto& r : strategy["resources"].items()) {
            r.checkKeys("resource", {"name", "weight"});
            std::string name = r["name"].str();
            if (name.empty()) r["name"].fail("a resource needs a name");
            if (!seen.insert(name).second) r["name"].fail("resource '" + name + "' is listed twice");
            int64_t w = r["weight"].i64(1);
            if (w < 1 || w > 100) r["weight"].fail("weight must be in 1..100, got " + std::to_string(w));
            p.resourceWeights.emplace_back(name, w);
        }
    }
    auto rtcr = strategy["requestedToCapacityRatio"];
    if (rtcr.present()) {
        rtcr.checkKeys("requestedToCapacityRatio", {"shape"});
        p.shape.clear();
        int32_t last = -1;
        for (const auto& pt : rtcr["shape"].items()) {
            pt.checkKeys("shape point", {"utilization", "score"});
            int32_t u = pt["utilization"].i32(0), s = pt["score"].i32(0);
            if (u < 0 || u > 100) pt["utilization"].fail("utilization must be in 0..100");
            if (u <= last) pt["utilization"].fail("utilization values must increase");
            if (s < 0 || s > 10) pt["score"].fail("score must be in 0..10");
            last = u;
            p.shape.emplace_back(u, s);
        }
    }
    if (p.strategy == KubeSchedulerProfile::Strategy::RequestedToCapacityRatio && p.shape.empty())
        strategy.fail("RequestedToCapacityRatio needs requestedToCapacityRatio.shape");
}

// validatePercentageOfNodesToScore: 0 (adaptive) to 100, for the configuration and each profile.
std::optional<int32_t> readPercentageOfNodesToScore(const Y& value) {
    auto percentage = value.optI32();
    if (percentage)
        if (auto problem = percentageOfNodesToScoreProblem(*percentage); !problem.empty())
            value.fail(problem);
    return percentage;
}

KubeSchedulerProfile readProfile(const Y& prof) {
    KubeSchedulerProfile p;
    p.source = prof.where();
    prof.checkKeys("profile", {"schedulerName", "plugins", "pluginConfig", "percentageOfNodesToScore"});
    p.schedulerName = prof["schedulerName"].str("default-scheduler");
    p.percentageOfNodesToScore = readPercentageOfNodesToScore(prof["percentageOfNodesToScore"]);
    auto score = prof["plugins"]["score"];
    for (const auto& e : score["enabled"].items()) {
        std::string name = e["name"].str();
        if (name != "*" && !kScorePlugins.count(name))
            e["name"].warn("score plugin '" + name + "' is not modelled by Gantry; it is ignored");
        int32_t w = e["weight"].i32(0);
        if (w < 0) e["weight"].fail("weight must not be negative");
        auto& weights = p.pluginWeights;
        weights[name] = w == 0 ? 1 : w;
    }
    for (const auto& d : score["disabled"].items()) p.disabledPlugins.push_back(d["name"].str());
    // DefaultPreemption is kube-scheduler's one PostFilter plugin: disabled at postFilter or
    // multiPoint (by name or "*"), it is off unless that extension point enables it again.
    for (const char* point : {"multiPoint", "postFilter"}) {
        auto ext = prof["plugins"][point];
        for (const auto& d : ext["disabled"].items()) {
            const std::string name = d["name"].str();
            if (name == "*" || name == "DefaultPreemption") p.preemption = false;
        }
        for (const auto& e : ext["enabled"].items())
            if (e["name"].str() == "DefaultPreemption") p.preemption = true;
    }
    for (const auto& pc : prof["pluginConfig"].items()) {
        std::string name = pc["name"].str();
        if (name == "DefaultPreemption") {
            auto args = pc["args"];
            args.checkKeys("DefaultPreemptionArgs",
                           {"minCandidateNodesPercentage", "minCandidateNodesAbsolute"},
                           {"apiVersion", "kind"});
            // ValidateDefaultPreemptionArgs.
            p.minCandidateNodesPercentage =
                args["minCandidateNodesPercentage"].i32(p.minCandidateNodesPercentage);
            p.minCandidateNodesAbsolute = args["minCandidateNodesAbsolute"].i32(p.minCandidateNodesAbsolute);
            if (auto problem =
                    defaultPreemptionArgsProblem(p.minCandidateNodesPercentage, p.minCandidateNodesAbsolute))
                (problem->first.empty() ? args : args[problem->first]).fail(problem->second);
            continue;
        }
        if (name != "NodeResourcesFit") {
            pc["name"].warn("pluginConfig for '" + name + "' is not modelled by Gantry; it is ignored");
            continue;
        }
        auto args = pc["args"];
        if (args["scoringStrategy"].present()) readScoringStrategy(args["scoringStrategy"], p);
    }
    return p;
}

KubeSchedulerProfile readRoot(const Y& root, const std::string& schedulerName) {
    const std::string api = root["apiVersion"].str();
    if (api != "kubescheduler.config.k8s.io/v1")
        root["apiVersion"].fail("expected apiVersion kubescheduler.config.k8s.io/v1, got '" + api + "'");
    if (root["kind"].str() != "KubeSchedulerConfiguration")
        root["kind"].fail("expected kind KubeSchedulerConfiguration, got '" + root["kind"].str() + "'");
    const auto global = readPercentageOfNodesToScore(root["percentageOfNodesToScore"]);
    std::vector<KubeSchedulerProfile> profiles;
    for (const auto& prof : root["profiles"].items()) profiles.push_back(readProfile(prof));
    // A profile without its own percentage takes the configuration's (numFeasibleNodesToFind).
    for (auto& p : profiles)
        if (!p.percentageOfNodesToScore) p.percentageOfNodesToScore = global;
    if (profiles.empty()) {
        KubeSchedulerProfile p;
        p.source = root.where();
        p.percentageOfNodesToScore = global;
        return p; // kube-scheduler's defaults
    }
    for (const auto& p : profiles)
        if (p.schedulerName == schedulerName) return p;
    return profiles.front();
}

} // namespace

KubeSchedulerProfile parseKubeSchedulerConfig(const std::string& text, const std::string& name,
                                              Diagnostics* warnings, const std::string& schedulerName) {
    auto docs = loadDocuments(text, name);
    if (docs.empty()) throw InputError(SourceRef{name, 0, 0, 0}, "the KubeSchedulerConfiguration is empty");
    FieldNotes notes;
    auto root = readerFor(docs[0], warnings, &notes);
    auto p = readRoot(root, schedulerName);
    if (warnings) notes.appendTo(*warnings);
    return p;
}

KubeSchedulerProfile readKubeSchedulerConfigFile(const std::string& path, Diagnostics* warnings,
                                                 const std::string& schedulerName) {
    return parseKubeSchedulerConfig(readTextFile(path), path, warnings, schedulerName);
}

} // namespace gantry
