#pragma once
// The time-based simulator. Jobs arrive, wait, run for their durations, finish or are preempted,
// on a cluster state that is built once and then changed in place. Every scheduling cycle (one
// per period, Volcano's 1 s by default) asks the chosen scheduler profile (profile/registry.h) for
// its decisions on that state and applies them, so the simulated decisions are the scheduler's.
//
// Events, in this order when they fall on the same instant: pod terminations after an eviction,
// pod starts, job completions, arrivals; then the scheduling cycle; then the metrics sample.
//   arrival      the job's PodGroup and pods join the cluster, pending
//   cycle        a session runs; bound pods start (after podStartSeconds); evicted pods terminate
//                (after evictionGraceSeconds)
//   pod start    a bound pod runs; when minMember pods run the job's gang runs and its clock starts;
//                the job's dependent tasks whose dependencies now run get their pods (Volcano's
//                dependsOn, ClusterState::createReadyDependents)
//   completion   duration seconds of running after its gang started: its pods finish and leave
//   eviction     a running job that loses a pod restarts: every pod of it stops, it goes back to
//                its queue (phase Pending) and keeps only the work done up to its last checkpoint;
//                under a profile whose evictions take only the victims (kube-default), those pods
//                alone stop and come back pending, and the job's clock stops while too few run
//   creation     pods a controller creates later (creation gates) are created when their condition
//                holds; a pod with a run time of its own succeeds that long after it starts
//
// A cycle that could not decide anything new is skipped (skipIdleCycles): that is when no event
// happened since the last cycle, that cycle changed nothing (no binding, eviction or PodGroup
// phase), and the clock crossed no threshold the profile's decisions depend on (the sla plugin's
// waiting time). A cycle is a function of the state and the clock, so a skipped cycle would have
// repeated the last one's decisions exactly; tests compare both ways.
#include "model/cluster.h"
#include "model/policy.h"
#include "profile/registry.h"
#include "profile/scheduler_profile.h"
#include "sim/result.h"
#include "sim/workload.h"

#include <cstdint>

namespace gantry::sim {

struct SimOptions {
    std::string profile = engine::defaultProfileName(); // a scheduler profile (profile/registry.h)
    SchedulerPolicies policies;                         // the profile reads its own part
    double cycleSeconds = 1.0;
    double horizonSeconds = 0;        // 0 = until every job is done, or nothing can change any more
    double sampleSeconds = 60;        // time series grid
    double evictionGraceSeconds = 30; // an evicted pod holds its resources this long (k8s default)
    double podStartSeconds = 0;       // bound -> running
    bool skipIdleCycles = true;
    // Work the profile may carry from one cycle to the next: Volcano leaves out of its sessions the
    // jobs they cannot change, and leaves untried the jobs too few of whose pods fit the cluster
    // (such a job keeps the pending reason of the last cycle that tried it). Decisions are the same;
    // {false, false} = every cycle sees and tries every job (the reference).
    engine::ProfileShortcuts shortcuts{true, true};
    bool measureFragmentation = true;
    // Keep where the pods were at the sample of highest GPU allocation (SimResult::peakPlacements).
    // Each new peak copies the placements, so it is for runs a map shows, not for the planner's.
    bool keepPeakPlacements = false;
    uint64_t seed = 42; // recorded in the result; the workload was drawn with it
};

// Throws std::invalid_argument for options out of range (cycle or sample period <= 0, negative
// times), an unknown profile or a policy the profile cannot run (its errors are appended to
// *warnings first). Warnings (cluster build, the policy's unmodelled parts) are appended to *warnings.
SimResult simulate(const Cluster& cluster, const SimWorkload& workload, const SimOptions& options,
                   Diagnostics* warnings = nullptr);

} // namespace gantry::sim
