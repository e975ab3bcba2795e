#include "model/go_text.h"
#include "profiles/volcano/framework/registry.h"
#include "profiles/volcano/framework/session.h"
#include "profiles/volcano/volcano_profile.h"

#include <algorithm>
#include <map>
#include <set>

namespace gantry {

namespace {

using engine::parseGoBool;
using engine::parseGoDuration;
using engine::parseGoFloat;
using engine::parseGoInt;
using engine::trim;

enum class ArgType { Int, Float, Bool, Duration, String };

struct ArgSpec {
    std::string key; // ends with '*' = prefix
    ArgType type;
};

const std::map<std::string, std::vector<ArgSpec>>& pluginArguments() {
    static const std::map<std::string, std::vector<ArgSpec>> specs = {
        {"nodeorder",
         {{"leastrequested.weight", ArgType::Int},
          {"mostrequested.weight", ArgType::Int},
          {"balancedresource.weight", ArgType::Int},
          {"nodeaffinity.weight", ArgType::Int},
          {"podaffinity.weight", ArgType::Int},
          {"tainttoleration.weight", ArgType::Int},
          {"imagelocality.weight", ArgType::Int},
          {"podtopologyspread.weight", ArgType::Int}}},
        {"binpack",
         {{"binpack.weight", ArgType::Int},
          {"binpack.cpu", ArgType::Int},
          {"binpack.memory", ArgType::Int},
          {"binpack.resources", ArgType::String},
          {"binpack.resources.*", ArgType::Int}}},
        {"predicates",
         {{"predicate.NodeAffinityEnable", ArgType::Bool},
          {"predicate.NodePortsEnable", ArgType::Bool},
          {"predicate.TaintTolerationEnable", ArgType::Bool},
          {"predicate.PodAffinityEnable", ArgType::Bool},
          {"predicate.NodeVolumeLimitsEnable", ArgType::Bool},
          {"predicate.VolumeZoneEnable", ArgType::Bool},
          {"predicate.PodTopologySpreadEnable", ArgType::Bool},
          {"predicate.VolumeBindingEnable", ArgType::Bool},
          {"predicate.DynamicResourceAllocationEnable", ArgType::Bool},
          {"predicate.CacheEnable", ArgType::Bool},
          {"volumebinding.weight", ArgType::Int},
          {"volumebinding.bindTimeoutSeconds", ArgType::Int},
          {"volumebinding.shape*", ArgType::String},
          {"dynamicresources.filterTimeoutSeconds", ArgType::Int}}},
        {"overcommit", {{"overcommit-factor", ArgType::Float}}},
        {"sla", {{"sla-waiting-time", ArgType::Duration}}},
        {"fgd", {{"fgd.weight", ArgType::Int}}}, // Gantry's own (docs/fragmentation.md)
        {"capacity",
         {{"ancestorReclaimLevel", ArgType::Int},
          {"capacity.DynamicResourceAllocationEnable", ArgType::Bool},
          {"capacity.DRAConsumableCapacityEnable", ArgType::Bool}}},
        {"network-topology-aware",
         {{"weight", ArgType::Int},
          {"hypernode.binpack.cpu", ArgType::Int},
          {"hypernode.binpack.memory", ArgType::Int},
          {"hypernode.binpack.resources", ArgType::String},
          {"hypernode.binpack.resources.*", ArgType::Int},
          {"hypernode.binpack.normal-pod.enable", ArgType::Bool},
          {"hypernode.binpack.normal-pod.fading", ArgType::Float},
          {"hypernode.gradient.evict.max-hypernodes", ArgType::Int}}},
        {"deviceshare",
         {{"deviceshare.GPUSharingEnable", ArgType::Bool},
          {"deviceshare.NodeLockEnable", ArgType::Bool},
          {"deviceshare.GPUNumberEnable", ArgType::Bool},
          {"deviceshare.VGPUEnable", ArgType::Bool},
          {"deviceshare.SchedulePolicy", ArgType::String},
          {"deviceshare.ScheduleWeight", ArgType::Int}}},
        {"nodegroup", {{"strict", ArgType::Bool}, {"enablePreferredOrder", ArgType::Bool}}},
        {"resource-strategy-fit",
         {{"resourceStrategyFitWeight", ArgType::Int},
          {"resources.*", ArgType::String},
          {"sra.enable", ArgType::Bool},
          {"sra.resources", ArgType::String},
          {"sra.weight", ArgType::Int},
          {"sra.resourceWeight.*", ArgType::Int},
          {"proportional.enable", ArgType::Bool},
          {"proportional.resources", ArgType::String},
          {"proportional.resourceProportion.*", ArgType::Float}}},
        {"gang", {}},
        {"priority", {}},
        {"conformance", {}},
        {"drf", {}},
        {"proportion", {}},
    };
    return specs;
}

const std::map<std::string, std::vector<ArgSpec>>& actionArguments() {
    static const std::map<std::string, std::vector<ArgSpec>> specs = {
        {"allocate", {{"predicateErrorCacheEnable", ArgType::Bool}}},
        {"backfill", {{"predicateErrorCacheEnable", ArgType::Bool}}},
        {"reclaim", {{"predicateErrorCacheEnable", ArgType::Bool}}},
        {"enqueue", {}},
        {"preempt",
         {{"predicateErrorCacheEnable", ArgType::Bool},
          {"enableTopologyAwarePreemption", ArgType::Bool},
          {"topologyAwarePreemptWorkerNum", ArgType::Int},
          {"minCandidateNodesPercentage", ArgType::Int},
          {"minCandidateNodesAbsolute", ArgType::Int},
          {"maxCandidateNodesAbsolute", ArgType::Int}}},
    };
    return specs;
}

const char* typeName(ArgType t) {
    switch (t) {
    case ArgType::Int:
        return "an integer";
    case ArgType::Float:
        return "a number";
    case ArgType::Bool:
        return "a boolean";
    case ArgType::Duration:
        return "a duration such as \"3m\" or \"1h30m\"";
    case ArgType::String:
        return "a string";
    }
    return "a value";
}

bool valid(ArgType t, const std::string& raw) {
    const std::string v = trim(raw);
    switch (t) {
    case ArgType::Int:
        return parseGoInt(v).has_value();
    case ArgType::Float:
        return parseGoFloat(v).has_value();
    case ArgType::Bool:
        return parseGoBool(v).has_value();
    case ArgType::Duration:
        return parseGoDuration(v).has_value();
    case ArgType::String:
        return true;
    }
    return true;
}

const ArgSpec* findSpec(const std::vector<ArgSpec>& specs, const std::string& key) {
    for (const auto& s : specs) {
        if (!s.key.empty() && s.key.back() == '*') {
            std::string prefix = s.key.substr(0, s.key.size() - 1);
            if (key.rfind(prefix, 0) == 0 && key.size() > prefix.size()) return &s;
        } else if (s.key == key) {
            return &s;
        }
    }
    return nullptr;
}

void checkArguments(Diagnostics& out, const std::map<std::string, std::string>& args,
                    const std::vector<ArgSpec>& specs, const std::string& owner, const SourceRef& where) {
    for (const auto& [key, value] : args) {
        const ArgSpec* spec = findSpec(specs, key);
        if (!spec) {
            out.push_back({Severity::Warning, where,
                           owner + " does not read argument '" + key + "'; it has no effect"});
            continue;
        }
        if (!valid(spec->type, value))
            out.push_back({Severity::Error, where,
                           owner + " argument '" + key + "' must be " + typeName(spec->type) + ", got '" +
                               value + "'"});
    }
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

} // namespace

Diagnostics checkSchedulerConf(const SchedulerConf& conf) {
    Diagnostics out;
    auto error = [&](const SourceRef& where, std::string msg) {
        out.push_back({Severity::Error, where, std::move(msg)});
    };
    auto warning = [&](const SourceRef& where, std::string msg) {
        out.push_back({Severity::Warning, where, std::move(msg)});
    };

    // Actions.
    if (conf.actions.empty())
        error(conf.source,
              "no actions configured: Volcano needs at least one (e.g. \"enqueue, allocate, backfill\")");
    std::set<std::string> seenActions;
    for (size_t i = 0; i < conf.actions.size(); ++i) {
        const auto& name = conf.actions[i];
        const SourceRef& where = i < conf.actionSources.size() ? conf.actionSources[i] : conf.source;
        if (!contains(engine::volcanoActionNames(), name)) {
            error(where, "unknown action '" + name +
                             "' (Volcano's actions: enqueue, allocate, backfill, preempt, reclaim, "
                             "gangpreempt, gangreclaim, shuffle)");
            continue;
        }
        if (!engine::actionImplemented(name))
            warning(where, "action '" + name + "' is not modelled by Gantry; sessions skip it");
        if (!seenActions.insert(name).second)
            warning(where, "action '" + name + "' is listed twice; it runs twice");
    }

    // Plugins.
    std::map<std::string, SourceRef> seen;
    const PluginOption* capacity = nullptr;
    const PluginOption* proportion = nullptr;
    for (const auto& tier : conf.tiers) {
        bool hdrf = false, prop = false;
        const PluginOption* hdrfOption = nullptr;
        const PluginOption* propOption = nullptr;
        for (const auto& p : tier.plugins) {
            const bool known =
                contains(engine::volcanoPluginNames(), p.name) || engine::pluginImplemented(p.name);
            if (!known) {
                error(p.source, "unknown plugin '" + p.name + "'");
                continue;
            }
            if (!engine::pluginImplemented(p.name))
                warning(p.source, "plugin '" + p.name + "' is not modelled by Gantry; sessions ignore it");
            auto [it, inserted] = seen.emplace(p.name, p.source);
            if (!inserted)
                error(p.source, "plugin '" + p.name + "' is listed twice (first at " + it->second.str() +
                                    "); Volcano keeps one instance and calls it from both places");
            if (p.name == "capacity" && !capacity) capacity = &p;
            if (p.name == "proportion" && !proportion) proportion = &p;
            if (p.name == "drf" && p.enabled("enableHierarchy")) {
                hdrf = true;
                hdrfOption = &p;
            }
            if (p.name == "proportion") {
                prop = true;
                propOption = &p;
            }
            if (p.switches.count("enableHierarchy") && p.enabled("enableHierarchy") && p.name != "drf" &&
                p.name != "capacity")
                warning(p.source,
                        "plugin '" + p.name + "' has no hierarchical mode; enableHierarchy has no effect");
            auto specs = pluginArguments().find(p.name);
            if (specs != pluginArguments().end())
                checkArguments(out, p.arguments, specs->second, "plugin '" + p.name + "'", p.source);
        }
        if (hdrf && prop) {
            const PluginOption* later =
                hdrfOption->source.line > propOption->source.line ? hdrfOption : propOption;
            error(later->source,
                  "drf with enableHierarchy and proportion in the same tier conflict; Volcano refuses this "
                  "configuration");
        }
    }
    if (capacity && proportion) {
        // Both plugins enforce queue quotas through these extension points; with both on, a queue is
        // held to two different shares. Queue order alone only ranks queues (upstream's own
        // topology-aware preemption test runs capacity that way next to proportion).
        static const char* const quota[] = {"enabledAllocatable", "enabledOverused", "enableReclaimable",
                                            "enablePreemptive", "enableJobEnqueued"};
        auto enforced = [&](const PluginOption* p) {
            std::string on;
            for (const char* sw : quota)
                if (p->enabled(sw)) on += std::string(on.empty() ? "" : ", ") + sw;
            return on;
        };
        const std::string capOn = enforced(capacity), propOn = enforced(proportion);
        const PluginOption* later = capacity->source.line > proportion->source.line ? capacity : proportion;
        if (!capOn.empty() && !propOn.empty())
            error(later->source, "capacity and proportion both enforce queue quotas (capacity: " + capOn +
                                     "; proportion: " + propOn +
                                     ") and contradict each other; use one of them");
        else if (capOn.empty() && propOn.empty())
            warning(later->source,
                    "capacity and proportion are both listed but neither enforces queue quotas here");
        else
            warning(later->source, "capacity and proportion are both listed; only " +
                                       std::string(capOn.empty() ? "proportion" : "capacity") +
                                       " enforces queue quotas here, the other one only orders queues");
    }

    // Action configurations.
    for (const auto& c : conf.configurations) {
        auto specs = actionArguments().find(c.name);
        if (!contains(engine::volcanoActionNames(), c.name)) {
            warning(c.source, "configuration for unknown action '" + c.name + "' has no effect");
            continue;
        }
        if (!contains(conf.actions, c.name))
            warning(c.source, "configuration for action '" + c.name +
                                  "', which is not in the actions list, has no effect");
        if (specs != actionArguments().end())
            checkArguments(out, c.arguments, specs->second, "action '" + c.name + "'", c.source);
    }
    return out;
}

} // namespace gantry
