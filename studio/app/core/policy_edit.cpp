#include "core/policy_edit.h"

#include <algorithm>

namespace gantry::studio {
namespace {

PluginOption* findPlugin(SchedulerConf& conf, const std::string& name) {
    for (auto& t : conf.tiers)
        for (auto& p : t.plugins)
            if (p.name == name) return &p;
    return nullptr;
}

int defaultTier(const std::string& name) {
    static const char* first[] = {"priority", "gang", "conformance", "sla"};
    for (const char* n : first)
        if (name == n) return 0;
    return 1;
}

int argumentInt(const PluginOption* p, const std::string& key, int fallback) {
    if (!p) return fallback;
    auto v = p->argument(key);
    if (!v) return fallback;
    try {
        return std::stoi(*v);
    } catch (...) {
        return fallback;
    }
}

} // namespace

bool hasPlugin(const SchedulerConf& conf, const std::string& name) {
    return conf.plugin(name) != nullptr;
}

void setPlugin(SchedulerConf& conf, const std::string& name, bool on) {
    if (on == hasPlugin(conf, name)) return;
    if (!on) {
        for (auto& t : conf.tiers)
            t.plugins.erase(std::remove_if(t.plugins.begin(), t.plugins.end(),
                                           [&](const PluginOption& p) { return p.name == name; }),
                            t.plugins.end());
        conf.tiers.erase(std::remove_if(conf.tiers.begin(), conf.tiers.end(),
                                        [](const Tier& t) { return t.plugins.empty(); }),
                         conf.tiers.end());
        return;
    }
    size_t tier = size_t(defaultTier(name));
    while (conf.tiers.size() <= tier) conf.tiers.push_back(Tier{});
    PluginOption p;
    p.name = name;
    conf.tiers[tier].plugins.push_back(p);
}

bool hasAction(const SchedulerConf& conf, const std::string& name) {
    return std::find(conf.actions.begin(), conf.actions.end(), name) != conf.actions.end();
}

void setAction(SchedulerConf& conf, const std::string& name, bool on) {
    static const std::vector<std::string> order = {"enqueue", "allocate", "preempt", "reclaim", "backfill"};
    if (on == hasAction(conf, name)) return;
    if (!on) {
        conf.actions.erase(std::remove(conf.actions.begin(), conf.actions.end(), name), conf.actions.end());
        return;
    }
    auto rank = [&](const std::string& a) {
        auto it = std::find(order.begin(), order.end(), a);
        return it == order.end() ? int(order.size()) : int(it - order.begin());
    };
    auto pos = std::find_if(conf.actions.begin(), conf.actions.end(),
                            [&](const std::string& a) { return rank(a) > rank(name); });
    conf.actions.insert(pos, name);
}

QueueSharing queueSharing(const SchedulerConf& conf) {
    if (const auto* c = conf.plugin("capacity"))
        return c->enabled("enableHierarchy") ? QueueSharing::CapacityHierarchy : QueueSharing::Capacity;
    if (hasPlugin(conf, "proportion")) return QueueSharing::Proportion;
    return QueueSharing::None;
}

void setQueueSharing(SchedulerConf& conf, QueueSharing sharing) {
    // Replace in place so the plugin keeps its tier position.
    PluginOption* existing = findPlugin(conf, "capacity");
    if (!existing) existing = findPlugin(conf, "proportion");
    if (sharing == QueueSharing::None) {
        setPlugin(conf, "capacity", false);
        setPlugin(conf, "proportion", false);
        return;
    }
    std::string name = sharing == QueueSharing::Proportion ? "proportion" : "capacity";
    if (!existing) {
        setPlugin(conf, name, true);
        existing = findPlugin(conf, name);
    }
    if (existing->name != name) {
        existing->name = name;
        existing->arguments.clear();
        existing->switches.clear();
    }
    setPlugin(conf, name == "capacity" ? "proportion" : "capacity", false);
    existing = findPlugin(conf, name);
    if (sharing == QueueSharing::CapacityHierarchy)
        existing->switches["enableHierarchy"] = true;
    else
        existing->switches.erase("enableHierarchy");
}

Placement placement(const SchedulerConf& conf) {
    if (hasPlugin(conf, "fgd")) return Placement::Fgd;
    if (const auto* b = conf.plugin("binpack"))
        return argumentInt(b, "binpack.weight", 1) > 0 ? Placement::Binpack : Placement::Spread;
    return Placement::Spread;
}

void setPlacement(SchedulerConf& conf, Placement p) {
    setPlugin(conf, "binpack", p == Placement::Binpack);
    setPlugin(conf, "fgd", p == Placement::Fgd);
    if (p == Placement::Binpack)
        if (auto* b = findPlugin(conf, "binpack"); b && argumentInt(b, "binpack.weight", 1) <= 0)
            b->arguments.erase("binpack.weight");
    if (!hasPlugin(conf, "nodeorder")) setPlugin(conf, "nodeorder", true);
}

BinpackWeights binpackWeights(const SchedulerConf& conf, const std::string& gpu) {
    const auto* b = conf.plugin("binpack");
    BinpackWeights w;
    w.overall = argumentInt(b, "binpack.weight", 1);
    w.cpu = argumentInt(b, "binpack.cpu", 1);
    w.memory = argumentInt(b, "binpack.memory", 1);
    w.gpu = argumentInt(b, "binpack.resources." + gpu, 1);
    return w;
}

void setBinpackWeights(SchedulerConf& conf, const std::string& gpu, const BinpackWeights& w) {
    setPlugin(conf, "binpack", true);
    auto* b = findPlugin(conf, "binpack");
    b->arguments["binpack.weight"] = std::to_string(w.overall);
    b->arguments["binpack.cpu"] = std::to_string(w.cpu);
    b->arguments["binpack.memory"] = std::to_string(w.memory);
    b->arguments["binpack.resources"] = gpu;
    b->arguments["binpack.resources." + gpu] = std::to_string(w.gpu);
}

std::vector<std::string> describeTiers(const SchedulerConf& conf) {
    std::vector<std::string> out;
    for (const auto& t : conf.tiers) {
        std::string line;
        for (const auto& p : t.plugins) {
            if (!line.empty()) line += ", ";
            line += p.name;
            if (p.name == "capacity" && p.enabled("enableHierarchy")) line += " (hierarchy)";
        }
        out.push_back(line);
    }
    return out;
}

} // namespace gantry::studio
