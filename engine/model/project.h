#pragma once
// The studio's document (.gantry): a cluster, its policy, the what-if workloads and settings.
#include "model/cluster.h"
#include "model/policy.h"
#include "model/scheduler_conf.h"
#include "model/workload.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gantry {

enum class TargetScheduler { Volcano, YuniKorn, Kueue };
const char* toString(TargetScheduler target);
std::optional<TargetScheduler> targetSchedulerFromString(const std::string& text);

struct SimulationSettings {
    double cycleSeconds = 1.0; // scheduling period, Volcano's default
    double horizonSeconds = 0; // 0 = until every job has finished
    uint64_t seed = 42;
    // The scheduler profiles the what-if runs under and compares, by registry name, the first shown
    // first; empty: the default profile, and kube-default when the project has a contrast profile.
    std::vector<std::string> profiles;
    bool operator==(const SimulationSettings&) const = default;
};

struct Project {
    std::string name;
    std::string description;
    Cluster cluster;
    TargetScheduler target = TargetScheduler::Volcano;
    SchedulerConf volcano = defaultVolcanoConf();
    // Kueue's Configuration (fair sharing, admission fair sharing, waitForPodsReady, integrations,
    // transformations ...); absent: Kueue's install defaults.
    std::optional<KueueConfig> kueue;
    std::optional<KubeSchedulerProfile> contrast; // second profile to compare against
    std::vector<WorkloadTemplate> workloads;
    SimulationSettings simulation;
    bool operator==(const Project&) const = default;
};

// Every scheduler's policy as the project sets it (kube-scheduler's stock profile when the project
// has no comparison profile).
SchedulerPolicies policiesOf(const Project& project);

} // namespace gantry
