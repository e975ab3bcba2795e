#include "profiles/volcano/volcano_profile.h"

#include "k8s/claim_tasks.h"
#include "model/go_text.h"
#include "profiles/volcano/controllers.h"
#include "profiles/volcano/framework/registry.h"
#include "profiles/volcano/framework/session.h"
#include "profiles/volcano/plugins/fairshare_history.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>

namespace gantry::engine::volcano {

namespace {

class VolcanoProfile : public SchedulerProfile {
  public:
    VolcanoProfile(const SchedulerConf& conf, const ProfileShortcuts& shortcuts, const Cluster& cluster,
                   Diagnostics* warnings)
        : plan_(conf), shortcuts_(shortcuts) {
        // The predicates plugin schedules pods' ResourceClaims (DynamicResources) and capacity counts
        // them against queues' deviceclass quotas; extended resources stay Volcano's own to count
        // against the node, as its allocate does.
        const bool claims = std::any_of(cluster.pods.begin(), cluster.pods.end(),
                                        [](const Pod& p) { return !p.resourceClaims.empty(); });
        if (claims) {
            dra_ = std::make_unique<k8s::DraAllocator>(cluster, warnings);
            claims_ = std::make_unique<k8s::ClaimTasks>(*dra_, false);
        }
        if (claims && !plan_.conf.plugin("predicates") && warnings) {
            warnings->push_back(
                {Severity::Warning, conf.source,
                 "pods use DRA ResourceClaims but the scheduler configuration has no predicates "
                 "plugin: Volcano does not check or allocate their devices"});
        }
        // The sla plugin makes a session depend on the clock: a job's waiting time running out.
        if (const PluginOption* sla = plan_.conf.plugin("sla"); sla && pluginImplemented("sla")) {
            sla_ = true;
            if (auto v = sla->argument("sla-waiting-time"))
                if (auto d = parseGoDuration(trim(*v)); d && *d > 0) slaWait_ = *d;
        }
    }

    BuildOptions buildOptions() const override {
        BuildOptions o;
        o.unknownQueueConsequence = "Volcano does not schedule it";
        o.readWorkload = readWorkload;
        o.groupLoosePods = true;
        o.holdDependentTasks = true; // the job controller's dependsOn
        // The scheduler's cache creates both at start-up when they are missing (newDefaultAndRootQueue
        // in pkg/scheduler/cache/cache.go): weight 1; root not reclaimable, default reclaimable.
        for (const char* name : {"root", "default"}) {
            BuildOptions::StartupQueue sq;
            sq.queue.name = name;
            sq.queue.kind = Queue::Kind::Queue;
            sq.queue.weight = 1;
            sq.queue.reclaimable = std::string(name) != "root";
            sq.note = std::string("Volcano queue '") + name +
                      "' is not in the input; Volcano's scheduler creates it at start-up (weight 1" +
                      (sq.queue.reclaimable ? ", reclaimable" : ", not reclaimable") + "): assumed";
            o.startupQueues.push_back(std::move(sq));
        }
        return o;
    }

    int64_t gpuMilliHeldThroughClaims() const override { return dra_ ? dra_->gpuMilliInUse() : 0; }
    ClaimGpus claimGpus() const override { return dra_ ? dra_->gpus() : ClaimGpus{}; }

    CycleResult cycle(ClusterState& state, const CycleOptions& options) override {
        SessionOptions so;
        so.nowSeconds = options.nowSeconds;
        so.periodSeconds = options.periodSeconds;
        period_ = options.periodSeconds;
        so.memory = &memory_;
        so.computeScores = options.computeScores;
        so.compactResult = options.compact;
        so.claims = claims_.get();
        // What sessions carry serves the simulator's compact cycles; a full cycle starts afresh.
        if (shortcuts_.carryAcrossCycles && options.compact) {
            if (!cache_) cache_ = std::make_unique<SessionCache>(state);
            so.cache = cache_.get();
            so.parkJobs = shortcuts_.skipJobsThatCannotStart;
        }
        Session session(state, plan_, so);
        return session.run();
    }

    // fairshare's decayed usage per queue and namespace, when the configuration runs it.
    void sample(const ClusterState&, double t) override {
        if (const auto* h = memory_.find<fairshare::History>("fairshare"))
            fairshareUsage_.sample(*h, t, period_);
    }
    std::vector<ObjectSeries> objectSeries() const override { return fairshareUsage_.series(); }

    bool decisionsDependOnClock() const override { return sla_; }

    double nextClockChange(const ClusterState& state, double from,
                           const std::vector<uint32_t>& waitingJobs) const override {
        double best = std::numeric_limits<double>::infinity();
        if (!sla_) return best;
        for (uint32_t j : waitingJobs) {
            const auto& job = state.jobs[j];
            const std::optional<double> wait = job.slaWaitingSeconds ? job.slaWaitingSeconds : slaWait_;
            if (!wait) continue;
            const double due = job.creationSeconds + *wait;
            if (due >= from) best = std::min(best, due);
        }
        return best;
    }

  private:
    const SessionPlan plan_; // the configuration, planned once for every cycle's session
    const ProfileShortcuts shortcuts_;
    std::unique_ptr<SessionCache> cache_;
    std::unique_ptr<k8s::DraAllocator> dra_;
    std::unique_ptr<k8s::ClaimTasks> claims_;
    PluginMemory memory_; // what plugins keep across this scheduler's sessions (fairshare's usage)
    double period_ = 1;
    fairshare::UsageRecorder fairshareUsage_;
    bool sla_ = false;
    std::optional<double> slaWait_;
};

// Volcano's stock policy cannot place GPU shares: a cluster that shares GPUs runs deviceshare.
void fitToWorkload(SchedulerPolicies& policies, const WorkloadNeeds& needs, const SourceRef& where,
                   std::vector<std::string>* notes, Diagnostics* warnings) {
    SchedulerConf& conf = policies.volcano;
    if (!needs.sharesGpus || conf.plugin("deviceshare")) return;
    if (conf == defaultVolcanoConf()) {
        PluginOption deviceShare;
        deviceShare.name = "deviceshare";
        conf.tiers.back().plugins.push_back(deviceShare);
        if (notes) notes->push_back("pods share GPUs: deviceshare added to Volcano's default configuration");
        return;
    }
    if (warnings)
        warnings->push_back(
            {Severity::Warning, conf.source.file.empty() ? where : conf.source,
             "pods share GPUs but the scheduler configuration has no deviceshare plugin: their "
             "shares are checked against the node's GPU count only"});
}

} // namespace

ProfileInfo profileInfo() {
    ProfileInfo info;
    info.name = "volcano";
    info.title = "Volcano";
    info.summary = "sessions of the configured actions and plugins";
    info.configFormat = ConfigFormat::VolcanoSchedulerConf;
    info.make = [](const ProfileSetup& setup, Diagnostics* diagnostics) -> std::unique_ptr<SchedulerProfile> {
        Diagnostics check = checkSchedulerConf(setup.policies.volcano);
        const bool bad = hasErrors(check);
        if (diagnostics) diagnostics->insert(diagnostics->end(), check.begin(), check.end());
        if (bad) return nullptr;
        return std::make_unique<VolcanoProfile>(setup.policies.volcano, setup.shortcuts, setup.cluster,
                                                diagnostics);
    };
    info.fitToWorkload = fitToWorkload;
    info.claimsCaveat.clear(); // its predicates plugin allocates them (a conf without it is warned about)
    info.describe = [](const SchedulerPolicies&) { return std::string("Volcano policy"); };
    return info;
}

} // namespace gantry::engine::volcano
