#include "export/scheduler_conf_writer.h"

#include <algorithm>

namespace gantry::exporting {

namespace {

struct Where {
    size_t tier = 0, index = 0;
    bool found = false;
};

Where findPlugin(const SchedulerConf& conf, const std::string& name) {
    for (size_t t = 0; t < conf.tiers.size(); ++t)
        for (size_t i = 0; i < conf.tiers[t].plugins.size(); ++i)
            if (conf.tiers[t].plugins[i].name == name) return {t, i, true};
    return {};
}

PluginOption plugin(const char* name) {
    PluginOption p;
    p.name = name;
    return p;
}

// An argument's text as the YAML value Volcano reads (numbers and booleans unquoted).
Json argumentValue(const std::string& text) {
    Json v = resolvePlainScalar(text);
    return v.is_null() ? Json(text) : v;
}

} // namespace

SchedulerConf deriveVolcanoConf(SchedulerConf conf, const QueueTree& tree,
                                const std::vector<NeutralQuota>& quota, bool topologyAware, Losses& losses) {
    const bool hierarchical =
        std::any_of(tree.nodes.begin(), tree.nodes.end(), [](const QueueNode& n) { return n.parent >= 0; });
    const bool usesDeserved =
        std::any_of(quota.begin(), quota.end(), [](const NeutralQuota& q) { return !q.entitled.empty(); });
    if (conf.tiers.empty()) conf = defaultVolcanoConf();
    Where cap = findPlugin(conf, "capacity"), prop = findPlugin(conf, "proportion");
    auto remove = [&](Where w) {
        conf.tiers[w.tier].plugins.erase(conf.tiers[w.tier].plugins.begin() + long(w.index));
    };
    if (hierarchical) {
        if (prop.found && !cap.found) {
            PluginOption c = plugin("capacity");
            c.switches["enableHierarchy"] = true;
            conf.tiers[prop.tier].plugins[prop.index] = c;
            losses.note("scheduler conf: proportion replaced by capacity with enableHierarchy, because the "
                        "queues form a tree");
        } else if (prop.found) {
            remove(prop);
            losses.note(
                "scheduler conf: proportion removed; capacity and proportion must not be enabled together");
        } else if (!cap.found) {
            Where drf = findPlugin(conf, "drf");
            size_t tier = drf.found ? drf.tier : conf.tiers.size() - 1;
            conf.tiers[tier].plugins.push_back(plugin("capacity"));
            losses.note(
                "scheduler conf: capacity added with enableHierarchy, because the queues form a tree");
        }
        cap = findPlugin(conf, "capacity");
        auto& c = conf.tiers[cap.tier].plugins[cap.index];
        if (!c.enabled("enableHierarchy")) {
            c.switches["enableHierarchy"] = true;
            losses.note("scheduler conf: enableHierarchy set on capacity, because the queues form a tree");
        }
    } else if (prop.found && cap.found) {
        if (usesDeserved) {
            remove(prop);
            losses.note(
                "scheduler conf: proportion removed (the queues set deserved, which capacity uses); capacity "
                "and proportion must not be enabled together");
        } else {
            remove(cap);
            losses.note(
                "scheduler conf: capacity removed (no queue sets deserved); capacity and proportion must not "
                "be enabled together");
        }
    }
    cap = findPlugin(conf, "capacity");
    prop = findPlugin(conf, "proportion");
    if (cap.found && std::find(conf.actions.begin(), conf.actions.end(), "reclaim") == conf.actions.end()) {
        auto backfill = std::find(conf.actions.begin(), conf.actions.end(), "backfill");
        conf.actions.insert(backfill, "reclaim");
        losses.note("scheduler conf: reclaim action added, so queues get back the deserved share they lent");
    }
    // drf's hierarchy and proportion in one tier are rejected by Volcano.
    Where drf = findPlugin(conf, "drf");
    if (drf.found && prop.found && drf.tier == prop.tier) {
        auto& d = conf.tiers[drf.tier].plugins[drf.index];
        if (d.switches.count("enableHierarchy") && d.switches["enableHierarchy"]) {
            d.switches["enableHierarchy"] = false;
            losses.note(
                "scheduler conf: drf enableHierarchy turned off; Volcano rejects it next to proportion");
        }
    }
    if (topologyAware && !findPlugin(conf, "network-topology-aware").found) {
        conf.tiers.back().plugins.push_back(plugin("network-topology-aware"));
        losses.note(
            "scheduler conf: network-topology-aware added for the jobs' network topology constraints");
    }
    return conf;
}

std::string schedulerConfText(const SchedulerConf& conf) {
    Json root = Json::object();
    std::string actions;
    for (const auto& a : conf.actions) actions += (actions.empty() ? "" : ", ") + a;
    root["actions"] = actions;
    Json tiers = Json::array();
    for (const auto& t : conf.tiers) {
        Json plugins = Json::array();
        for (const auto& p : t.plugins) {
            Json j = Json::object();
            j["name"] = p.name;
            for (const auto& [name, on] : p.switches) j[name] = on;
            if (!p.arguments.empty()) {
                Json args = Json::object();
                for (const auto& [key, value] : p.arguments) args[key] = argumentValue(value);
                j["arguments"] = args;
            }
            plugins.push_back(j);
        }
        tiers.push_back(Json{{"plugins", plugins}});
    }
    root["tiers"] = tiers;
    if (!conf.configurations.empty()) {
        Json configurations = Json::array();
        for (const auto& c : conf.configurations) {
            Json args = Json::object();
            for (const auto& [key, value] : c.arguments) args[key] = argumentValue(value);
            configurations.push_back(Json{{"name", c.name}, {"arguments", args}});
        }
        root["configurations"] = configurations;
    }
    if (!conf.metrics.empty()) root["metrics"] = conf.metrics;
    return toYaml(root);
}

} // namespace gantry::exporting
