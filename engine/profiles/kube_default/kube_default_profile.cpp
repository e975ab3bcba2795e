#include "profiles/kube_default/kube_default_profile.h"

#include "profiles/kube_default/kube_scheduler.h"

#include <algorithm>
#include <memory>
#include <vector>

namespace gantry::engine::kube_default {

namespace {

class KubeDefaultProfile : public SchedulerProfile {
  public:
    explicit KubeDefaultProfile(const KubeSchedulerProfile& profile) : profile_(profile) {}

    BuildOptions buildOptions() const override { return kubeBuildOptions(); }

    CycleResult cycle(ClusterState& state, const CycleOptions& options) override {
        CycleResult r = runKubeDefault(state, profile_, options.computeScores, options.compact, &checks_,
                                       options.pendingPods);
        if (options.compact) {
            // Each job's reason is its first pod's that stayed pending, in the job's pod order.
            std::vector<uint32_t> jobs;
            if (options.pendingPods) {
                for (uint32_t t : *options.pendingPods)
                    if (state.tasks[t].job != UINT32_MAX) jobs.push_back(state.tasks[t].job);
                std::sort(jobs.begin(), jobs.end());
                jobs.erase(std::unique(jobs.begin(), jobs.end()), jobs.end());
            } else {
                for (uint32_t j = 0; j < state.jobs.size(); ++j) jobs.push_back(j);
            }
            for (uint32_t j : jobs) {
                if (!state.jobAlive(j)) continue;
                for (uint32_t t : state.jobs[j].tasks) {
                    if (state.tasks[t].status != TaskStatus::Pending) continue;
                    if (auto it = r.pending.find(state.taskKey(t)); it != r.pending.end()) {
                        r.jobReasons.emplace_back(j, it->second);
                        break;
                    }
                }
            }
        }
        return r;
    }

  private:
    const KubeSchedulerProfile profile_;
    StaticNodeChecks checks_;
};

} // namespace

ProfileInfo profileInfo() {
    ProfileInfo info;
    info.name = "kube-default";
    info.title = "kube-scheduler";
    info.summary = "pod by pod, no gang, no preemption";
    info.configFormat = ConfigFormat::KubeSchedulerConfiguration;
    info.make = [](const ProfileSetup& setup, Diagnostics*) -> std::unique_ptr<SchedulerProfile> {
        return std::make_unique<KubeDefaultProfile>(setup.policies.kube);
    };
    info.describe = [](const SchedulerPolicies& policies) {
        return std::string("kube-scheduler ") + toString(policies.kube.strategy);
    };
    return info;
}

} // namespace gantry::engine::kube_default
