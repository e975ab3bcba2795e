// The plugin and action registries, filled once by the factory (registerFactories) on first use.
#include "profiles/volcano/framework/registry.h"

#include <map>
#include <mutex>

namespace gantry::engine {

namespace {

struct Registry {
    std::map<std::string, PluginDescriptor, std::less<>> plugins;
    std::map<std::string, ActionDescriptor, std::less<>> actions;
};

Registry& storage() {
    static Registry r;
    return r;
}

// Lookups see the built-ins: the factory runs before the first one. (Registering writes to the
// storage directly, so the factory does not re-enter this.)
const Registry& registry() {
    static std::once_flag once;
    std::call_once(once, [] { registerFactories(); });
    return storage();
}

} // namespace

void registerPlugin(PluginDescriptor descriptor) {
    std::string name = descriptor.name;
    storage().plugins[name] = std::move(descriptor);
}

void registerAction(ActionDescriptor descriptor) {
    std::string name = descriptor.name;
    storage().actions[name] = std::move(descriptor);
}

const PluginDescriptor* findPlugin(const std::string& name) {
    const auto& plugins = registry().plugins;
    auto it = plugins.find(name);
    return it == plugins.end() ? nullptr : &it->second;
}

const ActionDescriptor* findAction(const std::string& name) {
    const auto& actions = registry().actions;
    auto it = actions.find(name);
    return it == actions.end() ? nullptr : &it->second;
}

bool pluginImplemented(const std::string& name) {
    return findPlugin(name) != nullptr;
}

bool actionImplemented(const std::string& name) {
    return findAction(name) != nullptr;
}

const std::vector<std::string>& volcanoPluginNames() {
    static const std::vector<std::string> names = {
        "drf", "gang", "deviceshare", "predicates", "priority", "nodeorder", "conformance", "binpack",
        "resource-strategy-fit", "tdm", "overcommit", "sla", "task-topology", "numa-aware", "cdp",
        "rescheduling", "usage", "pdb", "nodegroup", "network-topology-aware", "proportion", "capacity",
        "extender", "resourcequota",
        // merged after ed72c7c8 (PR #5161)
        "fairshare"};
    return names;
}

const std::vector<std::string>& volcanoActionNames() {
    static const std::vector<std::string> names = {"reclaim",     "allocate",    "backfill", "preempt",
                                                   "gangpreempt", "gangreclaim", "enqueue",  "shuffle"};
    return names;
}

} // namespace gantry::engine
