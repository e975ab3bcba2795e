#pragma once
// What a simulation measured: time series sampled on a fixed grid, and summaries over the whole
// run. Everything is computed from the run's own state; the same input and seed give the same
// numbers, to the last bit.
//
// Definitions (docs/simulation.md):
//   wait        arrival -> the job's gang first runs (minMember pods running)
//   completion  arrival -> the job finishes (job completion time, JCT)
//   gang wait   for jobs with minMember > 1: first pod placed -> the gang runs, in the attempt that
//               first ran (0 when the scheduler places gangs all at once)
//   restart     a running job loses a pod to preemption or reclaim: all its pods are stopped, it goes
//               back to its queue and keeps only the work up to its last checkpoint
//   lost GPU-hours   work thrown away by restarts: (progress since the last checkpoint) x GPUs held
#include "fragmentation/topology_slots.h"
#include "model/pod.h"
#include "profile/scheduler_profile.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gantry::sim {

// Percentiles by linear interpolation between the closest ranks (numpy's default): for n sorted
// values, p maps to position (n - 1) * p / 100.
struct Distribution {
    int64_t count = 0;
    double mean = 0, p50 = 0, p95 = 0, p99 = 0, max = 0;
};
Distribution distributionOf(std::vector<double> values);
double percentileOfSorted(const std::vector<double>& sorted, double p);

struct GroupSummary {
    std::string key; // queue name, priority value or namespace
    int64_t jobs = 0, started = 0, completed = 0, pendingAtEnd = 0, restarts = 0;
    double lostGpuHours = 0;
    Distribution wait, completion;
};

struct QueueSeries {
    std::string name;
    std::string parent;
    // In GPUs, from the queue's spec (sum of its GPU resources); absent when not set.
    std::optional<double> guaranteeGpus, deservedGpus, capabilityGpus;
    std::vector<double> usedGpus;    // per sample: GPUs of the pods placed in it and in its descendants
    std::vector<double> waitSeconds; // per job of this queue that started, in start order
    GroupSummary summary;
};

struct PendingJob {
    std::string job; // namespace/name
    std::string queue;
    std::string reason; // the scheduler's own words, from the last session
    int32_t pods = 0, minMember = 0, placed = 0;
    int32_t priority = 0;
    double gpus = 0;           // what the whole job asks for
    double waitingSeconds = 0; // since arrival, at the end of the run
};

// Why jobs waited: for each reason (with numbers and names taken out), the job-seconds spent
// pending with it and how many jobs met it.
struct ReasonTime {
    std::string reason;
    double jobSeconds = 0;
    int64_t jobs = 0;
};

// One pod holding GPUs (or just CPU) at the end of the run, for a per-GPU map.
struct Placement {
    uint32_t node = 0;
    GpuRequest gpu;       // count and share per device (models left out)
    uint64_t devices = 0; // bit i = device i of the node
    int32_t job = -1;     // index into SimResult::jobNames
    int32_t queue = -1;   // index into SimResult::queues
    int64_t cpuMilli = 0;
};

struct SimResult {
    std::string profile; // the scheduler profile's name
    double cycleSeconds = 1, horizonSeconds = 0, sampleSeconds = 60;
    double endSeconds = 0; // last simulated time (the horizon, or when nothing could change any more)
    uint64_t seed = 0;

    // Time series, one entry per sample time.
    std::vector<double> time;
    std::vector<double> gpuAllocationPct; // GPU milli held by pods / all GPU milli
    std::vector<double> fragmentationPct; // FGD fragmentation F(M) / all GPU milli (empty: not measured)
    std::vector<double> fragOverIdlePct;  // F(M) / idle GPU milli
    // Why idle GPUs are idle (fragmentation/idle_breakdown.h), in GPUs, when fragmentation is measured
    // or some node offers MIG instances. usable counts the MIG instances a pod of the workload can
    // take; migLayout (empty without MIG resources) the free ones the MIG layout strands
    // (fragmentation/mig_idle.h), an instance counting its compute slices out of seven.
    struct IdleSeries {
        std::vector<double> stranded, fractional, scattered, usable, migLayout;
    } idle;
    std::vector<int32_t> pendingJobs, runningJobs, pendingPods, partialJobs;
    std::vector<QueueSeries> queues;

    // Summaries.
    int64_t jobsTotal = 0, jobsArrived = 0, jobsStarted = 0, jobsCompleted = 0, jobsFailed = 0;
    int64_t jobsRunningAtEnd = 0, jobsPendingAtEnd = 0, jobsPartialAtEnd = 0;
    int64_t podsTotal = 0, podsPlacedAtEnd = 0;
    int64_t podEvictions = 0, jobRestarts = 0;
    double lostGpuHours = 0;
    double allocatedGpuHours = 0;    // integral of the GPUs held over time
    double partialHoldGpuHours = 0;  // GPUs held by pods of gangs that were not yet complete
    double meanGpuAllocationPct = 0; // over the simulated time
    double totalGpus = 0, allocatedGpusAtEnd = 0;
    Distribution wait, completion, gangWait;
    int64_t gangJobs = 0;
    std::vector<GroupSummary> byPriority; // highest priority first
    std::vector<GroupSummary>
        byNamespace; // by the jobs' namespace (the tenant of fair-share schedulers), by name
    std::vector<PendingJob> pendingAtEnd;
    std::vector<ReasonTime> pendingReasons; // most job-seconds first
    bool fragmentationMeasured = false;
    std::vector<std::string>
        targetWorkload; // shapes of the fragmentation's target workload, "cpu/gpu-milli x n"
    // Room for jobs of 8, 16, 32, 64 GPUs at each topology level at the end (topology_slots.h).
    std::vector<frag::LevelSlots> topologySlots;

    int64_t sessions = 0, cyclesSkipped = 0;
    // Waiting jobs left untried by a session because too few of their pods fit (summed over the
    // sessions); each keeps the pending reason of the last session that tried it.
    int64_t parkedJobSessions = 0;
    std::vector<std::string> warnings; // from the scheduler configuration (plugins not modelled...)
    // Jobs the scheduler gave up on ("namespace/name", why), in the order it did.
    std::vector<std::pair<std::string, std::string>> failedJobs;
    // The profile's own objects over time (engine::ObjectSeries), on the same grid as `time`.
    std::vector<engine::ObjectSeries> objects;

    // End state for a GPU map.
    std::vector<std::string> nodeNames;
    std::vector<int32_t> nodeGpus;
    std::vector<Placement> placements;
    std::vector<std::string> jobNames; // jobs that hold a placement
    // With SimOptions::keepPeakPlacements: the same at the first sample of highest GPU allocation
    // (peakSeconds; -1 when nothing was ever allocated), for a map of a run that ends empty.
    std::vector<Placement> peakPlacements;
    std::vector<std::string> peakJobNames;
    double peakSeconds = -1;
};

} // namespace gantry::sim
