#pragma once
// What a simulation runs: jobs that arrive at given times and run for given durations. Jobs of one
// kind submit the same PodGroup and pods (a workload template's jobs share one kind, and so take
// a few bytes each); a kind from a manifest or a trace stands for exactly one job.
#include "model/diagnostic.h"
#include "model/pod.h"
#include "model/pod_group.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gantry::sim {

struct JobKind {
    PodGroup group; // name, arrival and duration are the job's (below); the rest is shared
    std::vector<Pod> pods;
    // Numbered kinds (templates): job n is named "<group.name>-<n>" and its pods
    // "<job>-<role>-<i>". Otherwise the kind's single job keeps the names as written.
    bool numbered = false;
    std::string podRole;          // numbered kinds: the role part of pod names
    double checkpointSeconds = 0; // 0 = no checkpoints: an evicted job restarts from zero
};

struct SimJob {
    uint32_t kind = 0;
    int32_t instance = 0; // numbered kinds: n
    double arrival = 0;   // seconds
    double duration = 0;  // seconds of running once its gang has started; 0 = runs until the end
};

struct SimWorkload {
    std::vector<JobKind> kinds;
    std::vector<SimJob> jobs;
    Diagnostics warnings;

    // The PodGroup and pods job j submits (names filled in, arrival and duration set).
    PodGroup jobGroup(size_t j) const;
    std::vector<Pod> jobPods(size_t j) const;
    std::string jobName(size_t j) const; // "namespace/name"
    int64_t podCount() const;
};

} // namespace gantry::sim
