// overcommit: enqueue admits a job while the minResources of admitted jobs stay within the cluster's
// allocatable times overcommit-factor (default 1.2) minus what is already used.
#include "profiles/volcano/framework/job_resources.h"
#include "profiles/volcano/plugins/arguments.h"
#include "profiles/volcano/plugins/plugins.h"

namespace gantry::engine::plugins {

namespace {

class Overcommit : public Plugin {
  public:
    explicit Overcommit(const PluginOption& o) {
        getFloat(o, "overcommit-factor", factor_);
        if (factor_ < 1.0) factor_ = 1.2;
    }

    void onSessionOpen(Session& ssn) override {
        s_ = &ssn;
        const int D = ssn.state.D();
        idle_ = ssn.totalResource;
        idle_.multi(factor_);
        idle_.sub(ssn.state.totalUsed());
        inqueue_ = VResource(D);
        // Jobs the session left out or summed: settled (Running, every pod placed) or parked (Inqueue).
        const SettledJobs* settled = ssn.settled();
        if (settled) inqueue_.add(settled->leftOutInqueue().resource(D));
        for (uint32_t j : ssn.sessionJobs) {
            if (settled && settled->summed(j)) continue;
            const auto& job = ssn.state.jobs[j];
            const auto& phase = ssn.jobs[j].phase;
            if (phase == PodGroupPhase::Inqueue && job.hasMinResources) {
                inqueue_.add(deductSchedulingGated(ssn.state, j, job.minResources));
                continue;
            }
            if (phase == PodGroupPhase::Running && job.hasMinResources &&
                ssn.allocatedTaskNum(j) >= job.minAvailable)
                inqueue_.add(ssn.inqueueResource(j, ssn.jobAllocated(j)));
        }
        auto& self = ssn.self();
        self.jobEnqueueable = [this](uint32_t j) {
            const auto& job = s_->state.jobs[j];
            if (!job.hasMinResources) return 1;
            VResource inq = inqueue_;
            inq.add(job.minResources);
            std::vector<int> failed;
            if (inq.lessEqualWithDimensionAndResourcesName(idle_, job.minResources, &failed)) return 1;
            std::string msg = "resource in cluster is overused";
            for (size_t i = 0; i < failed.size(); ++i)
                msg += (i ? ", overused " : ": overused ") + s_->state.dims.name(failed[i]);
            s_->jobs[size_t(j)].jobFitError = msg;
            return -1;
        };
        self.jobEnqueued = [this](uint32_t j) {
            const auto& job = s_->state.jobs[j];
            if (job.hasMinResources) inqueue_.add(deductSchedulingGated(s_->state, j, job.minResources));
        };
    }

  private:
    Session* s_ = nullptr;
    double factor_ = 1.2;
    VResource idle_, inqueue_;
};

} // namespace

PluginDescriptor overcommitPlugin() {
    PluginTraits t;
    // It looks only at the jobs it is asked about (or at the settled jobs' totals).
    t.allowsSettledJobsOut = [](const PluginOption&) { return true; };
    return {"overcommit", [](const PluginOption& option) { return std::make_unique<Overcommit>(option); },
            std::move(t)};
}

} // namespace gantry::engine::plugins
