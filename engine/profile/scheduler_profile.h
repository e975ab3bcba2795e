#pragma once
// What a scheduler emulation provides. Every caller — the simulator, `gantry cycle`, the studio's
// what-if and its comparison — asks a scheduler for its decisions through this interface only, and
// gets a profile by name from the registry (profile/registry.h). Each profile lives in its own
// folder, engine/profiles/<name>/.
//
// A profile is built from the cluster and the project's policy (each scheduler's configuration in
// its own format, model/policy.h), then schedules a ClusterState built with its buildOptions(), one
// cycle at a time: cycle() decides and leaves the state as it found it; the caller applies what was
// decided (bindings, evictions, phases). A profile may keep its own state from one cycle to the next
// (Volcano's settled jobs); it is used with one ClusterState for its whole life.
#include "model/cluster.h"
#include "model/diagnostic.h"
#include "model/policy.h"
#include "profile/claim_gpus.h"
#include "profile/cycle_result.h"
#include "state/cluster_state.h"

#include <limits>
#include <nlohmann/json_fwd.hpp> // the definitions that use it include json.hpp
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace gantry::engine {

struct CycleOptions {
    // The clock, in seconds, for decisions that depend on it (sla waiting times). Objects without
    // timestamps count as created long ago.
    double nowSeconds = 1e18;
    // The time between two cycles of the scheduler (the simulator's cycle period), for what
    // accrues with time over the cycles a simulation skips while nothing changes.
    double periodSeconds = 1;
    // CycleResult::scores: every pending pod's node-order score on every node, on the initial state.
    bool computeScores = false;
    // The simulator's form: decisions by index only (boundTasks, evictedTasks, phaseChanges,
    // jobReasons); the maps keyed by name stay empty.
    bool compact = false;
    // For a scheduler whose cycle is many small ones (YuniKorn: one decision each): run exactly
    // this many, 0 = until one changes nothing. Profiles without such cycles ignore it
    // (ProfileInfo::takesPasses says which do).
    int passes = 0;
    // For a profile that places the pods another scheduler let through (Kueue: the pods of admitted
    // workloads; a suspended job has none yet): the pending pods that exist, ascending; null: every
    // pending pod. Only kube-default takes it.
    const std::vector<uint32_t>* pendingPods = nullptr;
};

// Pods their controller has not created yet (TaskStatus::NotCreated) as pending, with what they
// wait for, unless the profile reported (or bound) them already: they wait whatever the scheduler.
void addNotCreated(const ClusterState& state, CycleResult& result);

// Measures of a scheduler's own objects over a simulation, in its own words (Kueue: each
// ClusterQueue's usage against its nominal quota; YuniKorn: each queue's usage against its
// guaranteed and max resources, and its fair share).
struct ObjectSeries {
    std::string kind; // "ClusterQueue", "queue", "workload class"
    std::string name;
    // measure -> one value per sample of the simulator's grid ("usage_gpus", "nominal_gpus")
    std::vector<std::pair<std::string, std::vector<double>>> series;
    // measure -> one value for the whole run ("admission_wait_p95_seconds")
    std::vector<std::pair<std::string, double>> totals;
};

// Work a profile may save across the cycles of one simulation. A shortcut must never change a
// decision; with none of them, every cycle starts from nothing (the reference tests compare with).
struct ProfileShortcuts {
    bool carryAcrossCycles = false;       // keep what the next cycle can reuse (Volcano: settled jobs)
    bool skipJobsThatCannotStart = false; // with carryAcrossCycles: leave such jobs untried (parked)
};

class SchedulerProfile {
  public:
    virtual ~SchedulerProfile() = default;

    // Which pods this scheduler takes; the state it schedules is built with these options.
    virtual BuildOptions buildOptions() const = 0;

    // One scheduling cycle on the state. The state is left as it was.
    virtual CycleResult cycle(ClusterState& state, const CycleOptions& options) = 0;

    // Whether an eviction restarts every pod of the evicted pods' jobs (a gang scheduler's job
    // controller restarts the whole job), or takes only the evicted pods, each recreated by its
    // controller (kube-scheduler's preemption).
    virtual bool evictionsRestartJobs() const { return true; }

    // Whether the clock alone can change what a cycle decides (an sla waiting time running out);
    // when it can, nextClockChange says when: the earliest time at or after `from` at which it does
    // for one of the waiting jobs (state job indices); infinity when never.
    virtual bool decisionsDependOnClock() const { return false; }
    virtual double nextClockChange(const ClusterState&, double /*from*/,
                                   const std::vector<uint32_t>& /*waitingJobs*/) const {
        return std::numeric_limits<double>::infinity();
    }
    // Whether nextClockChange reads its waitingJobs argument; when not, the caller need not build
    // the list (the simulator would at every event).
    virtual bool clockChangeReadsWaitingJobs() const { return true; }

    // Over a simulation: sample() at every time of the simulator's grid (after that time's cycle),
    // objectSeries() once at the end.
    virtual void sample(const ClusterState&, double /*t*/) {}
    virtual std::vector<ObjectSeries> objectSeries() const { return {}; }
    // The physical GPU compute, in milli-GPU, that the devices of the claims the scheduler holds
    // allocated stand for (whole GPUs and MIG devices of the NVIDIA DRA driver), as of the last
    // cycle. These are GPUs no extended resource of the node counts. 0 for a scheduler that
    // allocates no claims.
    virtual int64_t gpuMilliHeldThroughClaims() const { return 0; }
    // The same with why the free devices are free, for the simulator's samples (walks the devices).
    virtual ClaimGpus claimGpus() const { return {}; }

    // The last cycle in the scheduler's own words, for `gantry cycle`: JSON (--json) and a table.
    // The default prints the pod-level decisions every pod scheduler makes (bindings, evictions,
    // pipelined pods, PodGroup phases, pending reasons, scores when asked).
    virtual nlohmann::ordered_json cycleJson(const CycleResult& result, const CycleOptions& options) const;
    virtual void printCycle(std::ostream& out, const CycleResult& result, const CycleOptions& options) const;
};

} // namespace gantry::engine
