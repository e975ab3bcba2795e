#pragma once
// The immutable outcome of one what-if run, as the Results tab and the GPU map show it. Produced on
// a worker thread and handed to the GUI as std::shared_ptr<const WhatIfResult>.
#include "gpumap/gpu_occupancy.h"
#include "sim/result.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gantry::studio {

struct WhatIfResult {
    std::string profileName; // the registry's name: "volcano", "kube-default"
    std::string profile;     // "Volcano: gang, binpack, proportion" / "kube-scheduler: LeastAllocated"
    std::string note;        // shown next to the charts: what this run is and is not

    // Time series, one value per sample time (seconds). A single session has the samples before
    // and after the session.
    std::vector<double> time;
    std::vector<double> gpuAllocationPct;
    std::vector<double> fragmentationPct; // empty when fragmentation was not measured
    std::vector<double> pendingJobs;

    struct QueueSeries {
        std::string queue;
        std::string parent;
        bool leaf = true;             // usage of inner queues includes their children's
        std::vector<double> usedGpus; // per sample
        std::optional<double> guarantee, deserved, capability; // GPUs, in the target's terms
    };
    std::vector<QueueSeries> queues;

    struct QueueWaits {
        std::string queue;
        std::vector<double> waitSeconds; // per started job
        int started = 0;
        int pending = 0;
    };
    std::vector<QueueWaits> waits;

    struct PendingJob {
        std::string job; // ns/name
        std::string queue;
        std::string reason; // in the scheduler's own words
        int pods = 0;
        int minMember = 0;
        int placeable = -1; // pods that could be placed; -1 = unknown
        double gpus = 0;    // GPUs the whole job asks for
        double waitingSeconds = 0;
    };
    std::vector<PendingJob> pending;

    // Where every pod was at placementsSeconds (the end of the run, or the moment of peak GPU
    // allocation when every job had finished by the end), for the GPU map.
    std::vector<GpuPlacement> placements;
    double placementsSeconds = 0;
    bool placementsAtPeak = false;
    std::vector<std::string> jobNames, queueNames; // indices used by placements

    // Why jobs waited over the run: each reason (numbers and names taken out) with the job-time
    // spent pending with it.
    struct ReasonTime {
        std::string reason;
        double jobSeconds = 0;
        int jobs = 0;
    };
    std::vector<ReasonTime> pendingReasons;

    int jobsTotal = 0, jobsStarted = 0, jobsCompleted = 0;
    int jobsPartial = 0; // jobs holding some pods but fewer than their gang minimum (deadlock risk)
    int jobRestarts = 0;
    double lostGpuHours = 0;         // work thrown away by restarts
    double meanGpuAllocationPct = 0; // over the simulated time
    double simulatedSeconds = 0;
    std::vector<std::string> warnings; // what the engine could not model, in its words
    int podsTotal = 0, podsBound = 0;
    int evictions = 0;
    double totalGpus = 0, allocatedGpus = 0;
    double elapsedMs = 0;
    uint64_t projectRevision = 0; // the document revision the run started from
    // The simulator's whole result: comparisons, idle GPUs by cause, room per topology level.
    std::shared_ptr<const sim::SimResult> sim;

    static double percentile(std::vector<double> values, double p); // p in [0, 100]
    // Time-weighted mean of a series sampled at `time` (the last sample counts for nothing).
    double timeMean(const std::vector<double>& series) const;
    double peak(const std::vector<double>& series) const;
};

} // namespace gantry::studio
