#pragma once
// The FGD paper's experiment (Weng et al., USENIX ATC '23), replayed the way the authors' simulator
// runs it, so its seeded results can be compared with their tables:
//
//  1. the tasks, sorted by name, are shuffled with Go's math/rand seeded with `seed`;
//  2. tasks drawn uniformly (with replacement) from the original list are appended until the GPU
//     requests would pass `inflation` x cluster GPUs (or random tasks are dropped if they already
//     pass it);
//  3. nodes, sorted by name, get a random rank (a permutation drawn from the same generator), which
//     breaks ties between equally scored nodes;
//  4. tasks arrive one by one and never leave; a task no node can take stays unscheduled;
//  5. after every task the allocated GPU milli and the cluster's fragmentation are recorded against
//     the arrived GPU demand.
//
// discretize() turns the records into one value per whole percent of arrived demand, as the
// authors' analysis scripts build analysis_{allo,frag,frag_ratio}_discrete.csv.
#include "fragmentation/fgd_policies.h"
#include "fragmentation/fragmentation.h"
#include "trace/trace.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace gantry::frag {

struct ExperimentConfig {
    Policy policy = Policy::Fgd;
    int64_t seed = 42;
    double inflation = 1.3;
    double targetCoverage = 0.95;  // share of tasks the target workload's shapes must cover
    int32_t maxPodsPerNode = 1001; // the pod capacity the authors' node objects declare
    // Draws the authors' Go process makes between sizing the workload and ranking the nodes (its
    // informers' watch timeouts take them from the same global generator).
    int informerDraws = 10;
};

struct TaskRecord {
    int64_t arrivedMilli = 0;   // GPU milli requested by all tasks so far, this one included
    int64_t allocatedMilli = 0; // GPU milli held by placed tasks after this one
    double fragMilli = 0;       // F(M) of the cluster after this task
    double idleMilli = 0;       // free GPU milli (sum of all fragmentation classes)
    int32_t node = -1;          // index into Trace::nodes, -1 = unscheduled
};

struct ExperimentRun {
    ExperimentConfig config;
    TargetWorkload workload;
    std::vector<TaskRecord> records;   // in arrival order
    std::vector<int32_t> taskOfRecord; // index into Trace::tasks of each arrival
    int32_t totalGpus = 0;
    int64_t totalGpuMilli = 0;
    int64_t scheduled = 0, unscheduled = 0;
    std::vector<NodeState> finalNodes; // in Trace::nodes order
};

// Throws std::invalid_argument when the trace has no node with a GPU or no task.
ExperimentRun runFgdExperiment(const Trace& trace, const ExperimentConfig& config);

// Values per whole percent 0..maxPct of arrived demand; nullopt where no task arrived near it.
struct PercentSeries {
    int maxPct = 0;
    std::vector<std::optional<double>> gpuAllocPct;      // allocated / total GPU milli, %
    std::vector<std::optional<double>> fragOverTotalPct; // F(M) / total GPU milli, %
    std::vector<std::optional<double>> fragOverIdlePct;  // F(M) / free GPU milli, %
};
PercentSeries discretize(const ExperimentRun& run);
PercentSeries discretize(const ExperimentRun& run, int maxPct);

} // namespace gantry::frag
