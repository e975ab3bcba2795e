// Plugin and action registries: the built-ins, registered on first use, plus whatever a later
// component registers (issue #4's "fgd" node-order plugin, for instance).
#include "profiles/volcano/actions/actions.h"
#include "profiles/volcano/plugins/plugins.h"
#include "profiles/volcano/framework/session.h"

#include <algorithm>
#include <map>
#include <mutex>

namespace gantry::engine {

namespace {

struct Registry {
    std::map<std::string, PluginFactory> plugins;
    std::map<std::string, ActionFactory> actions;
};

Registry& registry() {
    static Registry r;
    static std::once_flag once;
    std::call_once(once, [] {
        plugins::registerBuiltins(
            [](const std::string& name, PluginFactory f) { r.plugins[name] = std::move(f); });
        actions::registerBuiltins(
            [](const std::string& name, ActionFactory f) { r.actions[name] = std::move(f); });
    });
    return r;
}

} // namespace

void registerPlugin(const std::string& name, PluginFactory factory) {
    registry().plugins[name] = std::move(factory);
}
void registerAction(const std::string& name, ActionFactory factory) {
    registry().actions[name] = std::move(factory);
}
bool pluginImplemented(const std::string& name) {
    return registry().plugins.count(name) > 0;
}
bool actionImplemented(const std::string& name) {
    return registry().actions.count(name) > 0;
}

std::unique_ptr<Plugin> createPlugin(const std::string& name, const PluginOption& option) {
    auto it = registry().plugins.find(name);
    if (it == registry().plugins.end()) return nullptr;
    return it->second(option);
}

std::unique_ptr<Action> createAction(const std::string& name) {
    auto it = registry().actions.find(name);
    if (it == registry().actions.end()) return nullptr;
    return it->second();
}

std::vector<std::string> implementedPlugins() {
    std::vector<std::string> out;
    for (const auto& [name, f] : registry().plugins) out.push_back(name);
    return out;
}

std::vector<std::string> implementedActions() {
    std::vector<std::string> out;
    for (const auto& [name, f] : registry().actions) out.push_back(name);
    return out;
}

const std::vector<std::string>& volcanoPluginNames() {
    static const std::vector<std::string> names = {"drf",
                                                   "gang",
                                                   "deviceshare",
                                                   "predicates",
                                                   "priority",
                                                   "nodeorder",
                                                   "conformance",
                                                   "binpack",
                                                   "resource-strategy-fit",
                                                   "tdm",
                                                   "overcommit",
                                                   "sla",
                                                   "task-topology",
                                                   "numa-aware",
                                                   "cdp",
                                                   "rescheduling",
                                                   "usage",
                                                   "pdb",
                                                   "nodegroup",
                                                   "network-topology-aware",
                                                   "proportion",
                                                   "capacity",
                                                   "extender",
                                                   "resourcequota"};
    return names;
}

const std::vector<std::string>& volcanoActionNames() {
    static const std::vector<std::string> names = {"reclaim",     "allocate",    "backfill", "preempt",
                                                   "gangpreempt", "gangreclaim", "enqueue",  "shuffle"};
    return names;
}

} // namespace gantry::engine
