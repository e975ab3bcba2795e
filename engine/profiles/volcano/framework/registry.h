#pragma once
// The framework's plugin and action registries, as Volcano's framework.RegisterPluginBuilder and
// RegisterAction are. The framework names no plugin and no action: each declares itself (its file's
// descriptor function) and the factory (profiles/volcano/factory.cpp) registers them all, the way
// Volcano's plugins/factory.go and actions/factory.go do. Along with its builder, each declares what
// the session cache must know about it.
#include "model/scheduler_conf.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gantry::engine {

class Plugin;
class Action;

// How a plugin bears on leaving jobs out of a session (SessionCache).
struct PluginTraits {
    // Whether sessions may leave the settled jobs out with this plugin, as configured: it looks only
    // at the jobs it is asked about, or reads the settled jobs' totals (SettledJobs), and answers
    // about a settled job from the state when preempt or reclaim offer one of its pods as a victim
    // (Session::inSession). Null = never.
    std::function<bool(const PluginOption&)> allowsSettledJobsOut;
    // How it decides that a job is ready or pipelined. Gang: all-or-nothing on minAvailable (as
    // configured); Wider: it may pipeline a job that gang would not (sla), so a job too few of whose
    // pods fit may still start and cannot be left untried.
    enum class Readiness { None, Gang, Wider };
    std::function<Readiness(const PluginOption&)> readiness;
    // Whether, as configured, its queue order may change between two queues when a third one's
    // allocation changes (hierarchical shares). Allocate's queue heap is not re-sorted when orders
    // change, so which queues it holds and when they went in can decide what comes out: parked
    // jobs may not be left out of it. Null = never.
    std::function<bool(const PluginOption&)> couplesQueues;
};

struct ActionTraits {
    // May take running pods (preempt, reclaim): a settled job may lose pods, and a parked job may
    // pipeline some (it stays in the session; each action skips it only where that changes nothing).
    bool evicts = false;
};

using PluginBuilder = std::function<std::unique_ptr<Plugin>(const PluginOption&)>;
using ActionBuilder = std::function<std::unique_ptr<Action>()>;

struct PluginDescriptor {
    std::string name; // as volcano-scheduler.conf names it
    PluginBuilder build;
    PluginTraits traits;
};

struct ActionDescriptor {
    std::string name;
    ActionBuilder build;
    ActionTraits traits;
};

void registerPlugin(PluginDescriptor descriptor);
void registerAction(ActionDescriptor descriptor);
// Null when Gantry does not implement it.
const PluginDescriptor* findPlugin(const std::string& name);
const ActionDescriptor* findAction(const std::string& name);
bool pluginImplemented(const std::string& name);
bool actionImplemented(const std::string& name);

// Names the real Volcano scheduler (ed72c7c8, and fairshare merged since) knows, implemented by
// Gantry or not.
const std::vector<std::string>& volcanoPluginNames();
const std::vector<std::string>& volcanoActionNames();

// Registers every built-in plugin and action (profiles/volcano/factory.cpp); the registries call it
// once, on first use.
void registerFactories();

} // namespace gantry::engine
