#pragma once
// Several scheduler profiles' runs of one workload, measure by measure: which profile wins and by
// how much. One verdict per measure, the same for `gantry simulate --profile a,b,c` and the
// studio's comparison, computed from the metrics by name (sim/metrics.h).
#include "sim/metrics.h"
#include "sim/result.h"

#include <optional>
#include <string>
#include <vector>

namespace gantry::sim {

struct ProfileRun {
    std::string profile; // the registry's name
    const SimResult* result = nullptr;
};

struct Verdict {
    std::string metric; // a metric name: "wait.p95", "queue[pretrain].wait.p95"
    std::string title;  // in words: "Wait p95, queue pretrain"
    MetricUnit unit = MetricUnit::Count;
    bool lowerIsBetter = true;
    std::vector<std::optional<double>> values; // per run, in the runs' order
    int best = -1;                             // the winner's index; -1 on a tie or without values
    std::string text; // "volcano wins: 7.5h against 23.3h on kube-default (3.1x shorter)"
};

// The verdicts on the measures operators compare schedulers by: GPU allocation and fragmentation,
// wait and completion (p50, p95) of all jobs and of each leaf queue the runs share, gangs half
// started and the GPU-hours they held, preemptions and lost work, jobs left waiting. Measures no
// run has a value for are left out.
std::vector<Verdict> compareRuns(const std::vector<ProfileRun>& runs);

} // namespace gantry::sim
