#pragma once
// The time-based simulator. Jobs arrive, wait, run for their durations, finish or are preempted,
// on a cluster state that is built once and then changed in place. Every scheduling cycle (one
// per period, Volcano's 1 s by default) opens a session of the engine on that state with the
// configured policy and applies what it decided, so the simulated decisions are the engine's.
//
// Events, in this order when they fall on the same instant: pod terminations after an eviction,
// pod starts, job completions, arrivals; then the scheduling cycle; then the metrics sample.
//   arrival      the job's PodGroup and pods join the cluster, pending
//   cycle        a session runs; bound pods start (after podStartSeconds); evicted pods terminate
//                (after evictionGraceSeconds)
//   pod start    a bound pod runs; when minMember pods run the job's gang runs and its clock starts
//   completion   duration seconds of running after its gang started: its pods finish and leave
//   eviction     a running job that loses a pod restarts: every pod of it stops, it goes back to
//                its queue (phase Pending) and keeps only the work done up to its last checkpoint
//
// A cycle whose session could not decide anything new is skipped (skipIdleCycles): that is when
// no event happened since the last session, that session changed nothing (no binding, eviction or
// PodGroup phase), and no session input that depends on the clock (the sla plugin's waiting time)
// crossed a threshold. A session is a function of the state and the clock, so a skipped cycle
// would have repeated the last session's decisions exactly; tests compare both ways.
#include "model/cluster.h"
#include "model/scheduler_conf.h"
#include "sim/result.h"
#include "sim/workload.h"

#include <cstdint>

namespace gantry::sim {

struct SimOptions {
    enum class Profile { Volcano, KubeDefault };
    Profile profile = Profile::Volcano;
    SchedulerConf conf = defaultVolcanoConf(); // Volcano profile
    KubeSchedulerProfile kube;                 // kube-default profile
    double cycleSeconds = 1.0;
    double horizonSeconds = 0;        // 0 = until every job is done, or nothing can change any more
    double sampleSeconds = 60;        // time series grid
    double evictionGraceSeconds = 30; // an evicted pod holds its resources this long (k8s default)
    double podStartSeconds = 0;       // bound -> running
    bool skipIdleCycles = true;
    // Sessions leave out the jobs they cannot change (engine::SettledJobs) when the policy allows
    // it; false = every session sees every job (the reference the cache must equal).
    bool sessionCache = true;
    // Sessions (with the cache) also leave untried the parked jobs too few of whose pods fit the
    // cluster (engine::SettledJobs): decisions are the same; such a job keeps the pending reason of
    // the last session that tried it. false = every waiting job is tried in every session.
    bool parkJobs = true;
    bool measureFragmentation = true;
    uint64_t seed = 42; // recorded in the result; the workload was drawn with it
};

// Throws std::invalid_argument for options out of range (cycle or sample period <= 0, negative
// times). Warnings (cluster build, unmodelled plugins) are appended to *warnings.
SimResult simulate(const Cluster& cluster, const SimWorkload& workload, const SimOptions& options,
                   Diagnostics* warnings = nullptr);

} // namespace gantry::sim
