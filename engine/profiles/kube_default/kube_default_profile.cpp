#include "profiles/kube_default/kube_default_profile.h"

#include "k8s/kube_scheduler.h"

#include <iomanip>
#include <memory>
#include <nlohmann/json.hpp>

namespace gantry::engine::kube_default {

namespace {

class KubeDefaultProfile : public SchedulerProfile {
  public:
    KubeDefaultProfile(const KubeSchedulerProfile& profile, const Cluster& cluster, Diagnostics* warnings)
        : scheduler_(profile, cluster, warnings) {}

    BuildOptions buildOptions() const override { return k8s::kubeBuildOptions(); }

    // kube-scheduler deletes only its victims; each one's controller recreates that pod alone.
    bool evictionsRestartJobs() const override { return false; }

    nlohmann::ordered_json cycleJson(const CycleResult& result, const CycleOptions& options) const override {
        auto out = SchedulerProfile::cycleJson(result, options);
        out["nominated"] = nlohmann::ordered_json::object();
        for (const auto& [pod, node] : result.nominated) out["nominated"][pod] = node;
        // The ResourceClaims the cycle allocated: "ns/claim" -> node and devices.
        out["claims"] = nlohmann::ordered_json::object();
        for (const auto& claim : scheduler_.claims()) {
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
        if (!scheduler_.claims().empty()) {
            out << "Claims allocated (" << scheduler_.claims().size() << ")\n";
            for (const auto& claim : scheduler_.claims()) {
                out << "  " << std::left << std::setw(40) << claim.claim << claim.node;
                for (const auto& d : claim.devices)
                    out << ' ' << d.driver << '/' << d.pool << '/' << d.device;
                out << '\n';
            }
        }
    }

    CycleResult cycle(ClusterState& state, const CycleOptions& options) override {
        return scheduler_.cycle(state, options);
    }
    int64_t gpuMilliHeldThroughClaims() const override { return scheduler_.gpuMilliHeldThroughClaims(); }
    ClaimGpus claimGpus() const override { return scheduler_.claimGpus(); }

  private:
    k8s::KubeScheduler scheduler_;
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
