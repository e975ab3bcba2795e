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
            e.on.jobOrderOn = opt.enabled("enableJobOrder");
            e.on.jobReadyOn = opt.enabled("enableJobReady");
            e.on.jobPipelinedOn = opt.enabled("enableJobPipelined");
            e.on.taskOrderOn = opt.enabled("enableTaskOrder");
            e.on.preemptableOn = opt.enabled("enablePreemptable");
            e.on.reclaimableOn = opt.enabled("enableReclaimable");
            e.on.preemptiveOn = opt.enabled("enablePreemptive");
            e.on.queueOrderOn = opt.enabled("enableQueueOrder");
            e.on.predicateOn = opt.enabled("enablePredicate");
            e.on.nodeOrderOn = opt.enabled("enableNodeOrder");
            e.on.jobEnqueuedOn = opt.enabled("enableJobEnqueued");
            e.on.jobStarvingOn = opt.enabled("enableJobStarving");
            e.on.overusedOn = opt.enabled("enabledOverused");
            e.on.allocatableOn = opt.enabled("enabledAllocatable");
            e.on.hyperNodeOrderOn = opt.enabled("enabledHyperNodeOrder");
            e.on.hyperNodeGradientOn = opt.enabled("enabledHyperNodeGradient");
            plugins.push_back(e);
        }
}

} // namespace gantry::engine
