#pragma once
// Capacity planning: the fewest nodes of a type (or the cheapest mix of two types) for which every
// service level holds, found by searching the simulator (plan/search.h) under the chosen profile
// and policy. A point is a node count; it passes when the SLOs hold in the runs of all its seeds,
// each seed a different draw of the workload (sim/whatif.h). docs/planning.md.
#include "model/cluster.h"
#include "model/workload.h"
#include "plan/node_change.h"
#include "plan/search.h"
#include "plan/slo.h"
#include "sim/simulator.h"
#include "sim/sources.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace gantry::plan {

// What a what-if needs besides the nodes and the seed: the cluster as loaded (its what-if jobs
// still in it), the workload templates, and the simulator's options with the policy already fitted
// to the workload (sim::fitPolicy).
struct WhatIfSetup {
    Cluster cluster;
    std::vector<WorkloadTemplate> workloads;
    sim::TimingDefaults timing;
    sim::SimOptions options;
};

// One simulation: the cluster with `counts[i]` nodes of `types[i]` added (negative: removed) and the
// workload drawn with `seed`.
sim::SimResult runWhatIf(const WhatIfSetup& setup, const std::vector<NodeType>& types,
                         const std::vector<int64_t>& counts, uint64_t seed);

struct PlanRequest {
    std::vector<NodeType> types; // one, or two for the cheapest mix
    std::vector<Range> ranges;   // per type: counts to add (negative: remove) and cost per node
    std::vector<Slo> slos;
    std::vector<uint64_t> seeds; // a point runs them in order, up to the first that fails
    int threads = 0;             // 0 = one per hardware thread
};

struct SeedRun {
    uint64_t seed = 0;
    std::vector<std::pair<std::string, double>> metrics; // the run's, then the SLOs' queue/priority ones
    std::vector<std::optional<double>> sloValues;        // per SLO; nullopt = the run has no such value
};

// What a plan or a sweep keeps of a run: the run's metrics, then the SLOs' queue and priority
// metrics (sim/metrics.h names), and each SLO's value.
SeedRun summarizeRun(const sim::SimResult& r, const std::vector<Slo>& slos);

struct PlanPoint {
    std::vector<int64_t> counts; // per type
    bool pass = false;
    int round = 0;             // its place in the search (0 = measured first); a round measures one point
    std::vector<bool> sloPass; // per SLO, over the seeds kept
    std::vector<std::optional<double>> worst; // per SLO: the deciding seed's value
    std::vector<SeedRun> seeds;               // in seed order; a failing point's end at its first failing one
    int64_t total() const;
    double cost(const std::vector<Range>& ranges) const;
};

struct PlanResult {
    bool met = false;
    bool cancelled = false;
    std::vector<int64_t> answer;   // counts per type
    std::vector<PlanPoint> points; // every point tried, by total count (then by counts)
    std::vector<SearchResult::Violation> violations;
    const PlanPoint* answerPoint() const; // null when the answer was not run (not met, or cancelled)
};

struct PlanControl {
    // Called on the planner's thread as the point a round measures gets its seeds: how many of them
    // are measured (of all the seeds), and the point once it has passed or failed (else null).
    std::function<void(int doneRuns, int roundRuns, int round, const PlanPoint* finished)> progress;
    const std::atomic<bool>* cancel = nullptr;
};

// Throws std::invalid_argument for a request it cannot run (no type, a bad range, a pool the
// cluster lacks, more nodes to remove than it has free) before any simulation.
PlanResult plan(const WhatIfSetup& setup, const PlanRequest& request, const PlanControl& control = {});

} // namespace gantry::plan
