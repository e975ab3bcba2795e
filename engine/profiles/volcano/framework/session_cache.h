#pragma once
// What a simulator's sessions carry from one cycle to the next (SessionCache), and the per-job
// state a session keeps (JobSession), stored in the cache so sessions do not allocate it anew.
#include "k8s/status.h"
#include "model/pod_group.h"
#include "model/scheduler_conf.h"
#include "profiles/volcano/framework/settled_jobs.h"
#include "state/cluster_state.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace gantry::engine {

// Per-job state that lives only for the session.
struct JobSession {
    bool inSession = false; // has a PodGroup and an existing queue
    PodGroupPhase phase = PodGroupPhase::None;
    bool hardTopology = false;
    int32_t highestTierAllowed = 0;
    bool softTopology = false;             // as written, before the soft-to-hard conversion
    int32_t allocatedHyperNode = -1;       // the job's
    int32_t subJobAllocatedHyperNode = -1; // its default sub-job's
    bool parked = false;                   // not tried: too few of its pods fit (CycleResult::parkedJobs)
    std::string jobFitError;
    std::unordered_map<uint32_t, FitErrors> nodesFitErrors; // task -> why no node
};

// Fit-failure reason texts by id (k8s::FitResult holds ids; Session::reasonId interns them).
struct ReasonTable {
    std::vector<std::string> texts;
    std::unordered_map<std::string, uint32_t> ids;
};

// What a simulator's sessions carry across cycles, as Volcano's scheduler cache does upstream: the
// settled jobs with their totals, and per-job storage that a session would otherwise allocate for
// every job slot of the state.
struct SessionCache {
    explicit SessionCache(ClusterState& state) : settled(state) {}
    // Whether sessions of this configuration may leave the settled jobs out: every plugin allows it
    // as configured (PluginTraits::allowsSettledJobsOut).
    static bool covers(const SchedulerConf& conf);
    // Whether such sessions may also leave parked jobs untried: gang alone decides whether a job
    // is ready or pipelined (PluginTraits::readiness: some plugin says Gang, none says Wider), and
    // no queue order couples queues (PluginTraits::couplesQueues).
    static bool parks(const SchedulerConf& conf);
    SettledJobs settled;
    std::vector<JobSession> jobs; // default-valued outside a session
    std::vector<uint32_t> slot;   // job -> position in Session::sessionJobs (valid for those only)
    bool topologyChecked = false; // a session warned about every job's unknown hypernode tier name
    // Interned by every session of the cache: append-only, so ids stay valid; the texts are few
    // (the plugins' own, one per taint and per resource name).
    ReasonTable reasons;
};

} // namespace gantry::engine
