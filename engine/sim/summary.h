#pragma once
// The simulator's summaries at the end of a run: per queue and per priority from what happened to
// every job, and the end state's placements for a GPU map.
#include "sim/result.h"
#include "sim/workload.h"
#include "state/cluster_state.h"

#include <cstdint>
#include <map>
#include <vector>

namespace gantry::sim {

// What the run keeps of every job of the workload, arrived or not.
struct JobOutcome {
    double firstStart = -1, end = -1, gangWait = -1;
    double lostGpuSeconds = 0;
    uint32_t active = UINT32_MAX; // the simulator's slot while the job is in the cluster
    int32_t queue = -1;           // state queue, -1 = not arrived or none (kube-default needs none)
    bool arrived = false;
    int32_t priority = 0;
    uint32_t restarts = 0;
    bool waitingAtEnd = false; // in the cluster at the end, its gang not running
};

// Fills r.queues (with usedGpus from queueUsed: per sample, per state queue, milli-GPU including
// descendants; waits from queueWaits), r.byPriority, r.byNamespace, r.wait, r.completion, r.gangWait,
// r.lostGpuHours and r.gangJobs.
void summarizeJobs(const std::vector<JobOutcome>& outcomes, const SimWorkload& workload,
                   const engine::ClusterState& state, const std::vector<std::vector<int64_t>>& queueUsed,
                   const std::map<int32_t, std::vector<double>>& queueWaits, SimResult& r);

// Where every pod holding resources is (bound or running, not pipelined), and the names of their
// jobs that placements index.
void recordPlacements(const engine::ClusterState& state, std::vector<Placement>& placements,
                      std::vector<std::string>& jobNames);
// Fills r.placements, r.jobNames, r.podsPlacedAtEnd, r.nodeNames and r.nodeGpus from the state.
void recordEndState(const engine::ClusterState& state, SimResult& r);

} // namespace gantry::sim
