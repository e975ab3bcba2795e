// gantry trace: replay the FGD paper's experiment on an Alibaba-format trace with one placement policy.
#include "command.h"
#include "diagnostics_printer.h"
#include "fragmentation/fgd_experiment.h"
#include "input_error.h"
#include "options.h"
#include "trace/alibaba_trace.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace gantry::cli {
namespace {

const char* kUsage = "--nodes NODES.csv --pods PODS.csv --policy NAME --seed N [--inflation 1.3] [--json]";

nlohmann::json series(const std::vector<std::optional<double>>& values) {
    auto out = nlohmann::json::array();
    for (const auto& v : values) out.push_back(v ? nlohmann::json(*v) : nlohmann::json(nullptr));
    return out;
}

std::string cell(const std::optional<double>& v) {
    if (!v) return "      -";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%7.2f", *v);
    return buf;
}

int runTrace(const Args& args) {
    std::string nodes, pods, policyName;
    std::optional<int64_t> seed;
    std::optional<double> inflationGiven;
    bool json = false;
    std::vector<std::string> policies;
    std::string policyHelp;
    for (auto p : frag::allPolicies()) {
        policies.push_back(frag::toString(p));
        if (!policyHelp.empty()) policyHelp += " | ";
        policyHelp += policies.back();
    }
    const OptionTable table{
        .command = "trace",
        .about =
            "Replays the FGD experiment (Weng et al., USENIX ATC '23) on a trace in the Alibaba GPU trace\n"
            "v2023 format: tasks are shuffled with the seed, resampled until their GPU requests reach\n"
            "INFLATION x the cluster's GPUs, and placed one by one; they never leave.",
        .options = {
            {.names = {"--nodes"},
             .metavar = "FILE",
             .value = Text{&nodes},
             .help = "node list (sn, cpu_milli, memory_mib, gpu, model)",
             .required = true},
            {.names = {"--pods"},
             .metavar = "FILE",
             .value = Text{&pods},
             .help = "task list (name, cpu_milli, memory_mib, num_gpu, gpu_milli[, gpu_spec, ...])",
             .required = true},
            {.names = {"--policy"},
             .metavar = "NAME",
             .value = Choice{&policyName, policies},
             .help = policyHelp,
             .required = true},
            {.names = {"--seed"},
             .metavar = "N",
             .value = Int{&seed},
             .help = "seed of the shuffle, the resampling and the node ranks (the paper: 42-51)",
             .required = true},
            {.names = {"--inflation"},
             .metavar = "R",
             .value = Float{&inflationGiven},
             .help = "arrived GPU demand to reach, as a share of cluster GPUs (default 1.3)",
             .sign = Sign::Positive,
             .max = 10},
            {.names = {"--json"},
             .value = Switch{&json},
             .help = "print {policy, seed, total_gpus, arrived_pct, gpu_alloc_pct,\n"
                     "frag_over_total_gpu_pct, frag_over_idle_gpu_pct}, one value per whole\n"
                     "percent of arrived demand (null where no task arrived near it)"},
        }};
    if (auto exit = parseCommandLine(table, args)) return *exit;
    const auto policy = frag::policyFromString(policyName);
    const double inflation = inflationGiven.value_or(1.3);

    Trace trace;
    Diagnostics warnings;
    try {
        trace = readTrace(nodes, pods, warnings);
    } catch (const InputError& e) {
        printDiagnostics(e.all());
        return BadInput;
    }
    printDiagnostics(warnings);

    frag::ExperimentConfig config;
    config.policy = *policy;
    config.seed = *seed;
    config.inflation = inflation;
    frag::ExperimentRun run;
    try {
        run = frag::runFgdExperiment(trace, config);
    } catch (const std::invalid_argument& e) {
        std::cerr << "gantry trace: " << e.what() << '\n';
        return BadInput;
    }
    const frag::PercentSeries s = frag::discretize(run);

    if (json) {
        nlohmann::json out;
        out["policy"] = frag::toString(*policy);
        out["seed"] = *seed;
        out["total_gpus"] = run.totalGpus;
        auto pct = nlohmann::json::array();
        for (int p = 0; p <= s.maxPct; ++p) pct.push_back(p);
        out["arrived_pct"] = pct;
        out["gpu_alloc_pct"] = series(s.gpuAllocPct);
        out["frag_over_total_gpu_pct"] = series(s.fragOverTotalPct);
        out["frag_over_idle_gpu_pct"] = series(s.fragOverIdlePct);
        std::cout << out.dump() << '\n';
        return Ok;
    }

    std::cout << "policy " << frag::toString(*policy) << ", seed " << *seed << ", inflation " << inflation
              << '\n'
              << "cluster: " << trace.nodes.size() << " nodes, " << run.totalGpus << " GPUs\n"
              << "tasks: " << trace.tasks.size() << " in the list, " << run.records.size() << " arrived, "
              << run.scheduled << " placed, " << run.unscheduled << " unscheduled\n"
              << "target workload: " << run.workload.shapes.size() << " task shapes covering "
              << std::round(run.workload.coverage() * 10000) / 100 << " % of tasks\n\n"
              << "arrived %  GPU alloc %  frag/total %  frag/idle %\n";
    for (int p = 0; p <= s.maxPct; ++p) {
        if (p % 10 != 0 && p != s.maxPct) continue;
        std::printf("%9d  %11s  %12s  %11s\n", p, cell(s.gpuAllocPct[p]).c_str(),
                    cell(s.fragOverTotalPct[p]).c_str(), cell(s.fragOverIdlePct[p]).c_str());
    }
    return Ok;
}

const CommandRegistration reg{
    {"trace", kUsage, "replay the FGD experiment on an Alibaba GPU trace", runTrace}};

} // namespace
} // namespace gantry::cli
