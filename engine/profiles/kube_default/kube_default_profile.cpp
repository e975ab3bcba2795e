#include "profiles/kube_default/kube_default_profile.h"

#include "profiles/kube_default/kube_scheduler.h"

#include <algorithm>
#include <iomanip>
#include <memory>
#include <vector>

namespace gantry::engine::kube_default {

namespace {

class KubeDefaultProfile : public SchedulerProfile {
  public:
    KubeDefaultProfile(const KubeSchedulerProfile& profile, const Cluster& cluster, Diagnostics* warnings)
        : profile_(profile) {
        // DynamicResources has work where pods use claims, or where a DeviceClass can serve an
        // extended resource (its extendedResourceName, or deviceclass.resource.kubernetes.io/<class>).
        const bool claims = std::any_of(cluster.pods.begin(), cluster.pods.end(),
                                        [](const Pod& p) { return !p.resourceClaims.empty(); });
        const bool extended = !cluster.dra.deviceClasses.empty();
        if (claims || extended) {
            dra_ = std::make_unique<k8s::DraAllocator>(cluster, warnings);
            memory_.dra = dra_.get();
        }
    }

    BuildOptions buildOptions() const override { return kubeBuildOptions(); }

    // kube-scheduler deletes only its victims; each one's controller recreates that pod alone.
    bool evictionsRestartJobs() const override { return false; }

    nlohmann::ordered_json cycleJson(const CycleResult& result, const CycleOptions& options) const override {
        auto out = SchedulerProfile::cycleJson(result, options);
        out["nominated"] = nlohmann::ordered_json::object();
        for (const auto& [pod, node] : result.nominated) out["nominated"][pod] = node;
        // The ResourceClaims the cycle allocated: "ns/claim" -> node and devices.
        out["claims"] = nlohmann::ordered_json::object();
        for (const auto& claim : memory_.claims) {
            auto devices = nlohmann::ordered_json::array();
            for (const auto& d : claim.devices) {
                nlohmann::ordered_json one = {
                    {"request", d.request}, {"driver", d.driver}, {"pool", d.pool}, {"device", d.device}};
                devices.push_back(std::move(one));
            }
            out["claims"][claim.claim] = {{"node", claim.node}, {"devices", std::move(devices)}};
        }
        return out;
    }

    void printCycle(std::ostream& out, const CycleResult& result,
                    const CycleOptions& options) const override {
        SchedulerProfile::printCycle(out, result, options);
        out << "Nominated (" << result.nominated.size() << ")\n";
        for (const auto& [pod, node] : result.nominated)
            out << "  " << std::left << std::setw(40) << pod << node << '\n';
        if (!memory_.claims.empty()) {
            out << "Claims allocated (" << memory_.claims.size() << ")\n";
            for (const auto& claim : memory_.claims) {
                out << "  " << std::left << std::setw(40) << claim.claim << claim.node;
                for (const auto& d : claim.devices)
                    out << ' ' << d.driver << '/' << d.pool << '/' << d.device;
                out << '\n';
            }
        }
    }

    CycleResult cycle(ClusterState& state, const CycleOptions& options) override {
        CycleResult r = runKubeDefault(state, profile_, options.computeScores, options.compact, &memory_,
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
    std::unique_ptr<k8s::DraAllocator> dra_;
    KubeSchedulerMemory memory_;
};

} // namespace

ProfileInfo profileInfo() {
    ProfileInfo info;
    info.name = "kube-default";
    info.title = "kube-scheduler";
    info.summary = "pod by pod, no gang, preempts lower-priority pods";
    info.configFormat = ConfigFormat::KubeSchedulerConfiguration;
    info.claimsCaveat.clear();
    info.make = [](const ProfileSetup& setup, Diagnostics* warnings) -> std::unique_ptr<SchedulerProfile> {
        return std::make_unique<KubeDefaultProfile>(setup.policies.kube, setup.cluster, warnings);
    };
    info.describe = [](const SchedulerPolicies& policies) {
        return std::string("kube-scheduler ") + toString(policies.kube.strategy);
    };
    return info;
}

} // namespace gantry::engine::kube_default
