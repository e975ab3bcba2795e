#include "profiles/volcano/framework/session_plan.h"

#include "profiles/volcano/framework/registry.h"

namespace gantry::engine {

bool SessionPlan::settledJobsMayLeave(const SchedulerConf& conf) {
    for (const auto& tier : conf.tiers)
        for (const auto& p : tier.plugins) {
            const PluginDescriptor* d = findPlugin(p.name);
            if (!d) continue; // ignored by the session anyway
            if (!d->traits.allowsSettledJobsOut || !d->traits.allowsSettledJobsOut(p)) return false;
        }
    return true;
}

bool SessionPlan::parkedJobsMayLeave(const SchedulerConf& conf) {
    bool gang = false;
    for (const auto& tier : conf.tiers)
        for (const auto& p : tier.plugins) {
            const PluginDescriptor* d = findPlugin(p.name);
            if (d && d->traits.couplesQueues && d->traits.couplesQueues(p)) return false;
            if (!d || !d->traits.readiness) continue;
            switch (d->traits.readiness(p)) {
            case PluginTraits::Readiness::Wider:
                return false;
            case PluginTraits::Readiness::Gang:
                gang = true;
                break;
            case PluginTraits::Readiness::None:
                break;
            }
        }
    return gang;
}

SessionPlan::SessionPlan(const SchedulerConf& c)
    : conf(c), covers(settledJobsMayLeave(c)), parkingSafe(parkedJobsMayLeave(c)) {
    for (const auto& a : conf.actions) {
        enabledActions.insert(a);
        const ActionDescriptor* d = findAction(a);
        if (d && d->traits.evicts) evicts = true;
        actions.push_back({d, &a});
    }
    for (size_t t = 0; t < conf.tiers.size(); ++t)
        for (const auto& opt : conf.tiers[t].plugins) {
            const PluginDescriptor* d = findPlugin(opt.name);
            if (!d) {
                ignoredPlugins.push_back(opt.name);
                continue;
            }
            PluginEntry e;
            e.descriptor = d;
            e.option = &opt;
            e.tier = int(t);
            e.on.jobOrder = opt.enabled("enableJobOrder");
            e.on.jobReady = opt.enabled("enableJobReady");
            e.on.jobPipelined = opt.enabled("enableJobPipelined");
            e.on.taskOrder = opt.enabled("enableTaskOrder");
            e.on.preemptable = opt.enabled("enablePreemptable");
            e.on.reclaimable = opt.enabled("enableReclaimable");
            e.on.preemptive = opt.enabled("enablePreemptive");
            e.on.queueOrder = opt.enabled("enableQueueOrder");
            e.on.predicate = opt.enabled("enablePredicate");
            e.on.nodeOrder = opt.enabled("enableNodeOrder");
            e.on.jobEnqueued = opt.enabled("enableJobEnqueued");
            e.on.jobStarving = opt.enabled("enableJobStarving");
            e.on.overused = opt.enabled("enabledOverused");
            e.on.allocatable = opt.enabled("enabledAllocatable");
            e.on.hyperNodeOrder = opt.enabled("enabledHyperNodeOrder");
            e.on.hyperNodeGradient = opt.enabled("enabledHyperNodeGradient");
            plugins.push_back(e);
        }
}

} // namespace gantry::engine
