#pragma once
// What a session reads of its scheduler configuration before any plugin opens, worked out once:
// the actions it runs, each plugin entry's descriptor, tier and switches, and whether the session
// cache may leave settled or parked jobs out. The simulator opens a session per cycle on one
// configuration; its profile keeps one plan for all of them instead of copying and resolving the
// configuration every cycle (Session takes either).
#include "model/scheduler_conf.h"
#include "profiles/volcano/framework/plugin.h"

#include <set>
#include <string>
#include <vector>

namespace gantry::engine {

struct ActionDescriptor;
struct PluginDescriptor;

struct SessionPlan {
    explicit SessionPlan(const SchedulerConf& conf);
    // Plugin entries point into conf: a plan stays where it was made.
    SessionPlan(const SessionPlan&) = delete;
    SessionPlan& operator=(const SessionPlan&) = delete;

    struct PluginEntry {
        const PluginDescriptor* descriptor = nullptr;
        const PluginOption* option = nullptr;
        int tier = 0;
        PluginSwitches on;
    };
    struct ActionEntry {
        const ActionDescriptor* descriptor = nullptr; // null: not modelled, skipped with a warning
        const std::string* name = nullptr;
    };

    const SchedulerConf conf;
    std::set<std::string> enabledActions;    // conf.EnabledActionMap
    std::vector<ActionEntry> actions;        // in the configured order
    std::vector<PluginEntry> plugins;        // the modelled ones, in tier order
    std::vector<std::string> ignoredPlugins; // configured but not modelled, in tier order
    bool evicts = false;                     // some action may take running pods (ActionTraits::evicts)
    bool covers = false;                     // settledJobsMayLeave(conf)
    bool parkingSafe = false;                // parkedJobsMayLeave(conf)

    // Whether sessions may leave the settled jobs out: every plugin allows it as configured
    // (PluginTraits::allowsSettledJobsOut).
    static bool settledJobsMayLeave(const SchedulerConf& conf);
    // Whether leaving parked jobs untried changes no decision: gang alone decides that a job is
    // ready or pipelined (some plugin decides it the gang way, none may pipeline a job gang would
    // not), and no queue order couples queues (PluginTraits::couplesQueues: a parked job left out
    // of allocate would change its queue heap).
    static bool parkedJobsMayLeave(const SchedulerConf& conf);
};

} // namespace gantry::engine
