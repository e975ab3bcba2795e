// gantry simulate: the time-based simulation of a project, an inventory, a snapshot or a trace
// under a scheduler profile (Volcano's by default).
#include "atomic_file.h"
#include "command.h"
#include "compare_report.h"
#include "diagnostics_printer.h"
#include "input_error.h"
#include "input_loader.h"
#include "options.h"
#include "plan/parallel.h"
#include "policy_reader.h"
#include "profile/registry.h"
#include "profile_help.h"
#include "sim/simulator.h"
#include "sim/whatif.h"
#include "simulate_report.h"
#include "trace/alibaba_trace.h"
#include "value_grammar.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <string>

namespace gantry::cli {

namespace {

constexpr const char* kUsage = "INPUT... | --nodes NODES.csv --pods PODS.csv  [options]";

std::optional<ArrivalProcess> parseArrival(const std::string& spec, std::string* error) {
    ArrivalProcess a;
    auto colon = spec.find(':');
    const std::string kind = spec.substr(0, colon),
                      rest = colon == std::string::npos ? "" : spec.substr(colon + 1);
    if (kind == "at") {
        auto t = parseSeconds(rest);
        if (!t) return *error = "at: needs a time, e.g. at:0 or at:1h", std::nullopt;
        a.kind = ArrivalProcess::Kind::Fixed;
        a.startSeconds = *t;
    } else if (kind == "every") {
        auto t = parseSeconds(rest);
        if (!t || *t <= 0) return *error = "every: needs a positive interval, e.g. every:5m", std::nullopt;
        a.kind = ArrivalProcess::Kind::Fixed;
        a.intervalSeconds = *t;
    } else if (kind == "poisson") {
        auto slash = rest.find('/');
        auto rate = parseNumber(rest.substr(0, slash));
        const std::string unit = slash == std::string::npos ? "h" : rest.substr(slash + 1);
        const double per = unit == "h" ? 1 : unit == "m" ? 60 : unit == "s" ? 3600 : 0;
        if (!rate || *rate <= 0 || per == 0)
            return *error = "poisson: needs a rate, e.g. poisson:12/h", std::nullopt;
        a.kind = ArrivalProcess::Kind::Poisson;
        a.ratePerHour = *rate * per;
    } else if (kind == "burst") {
        auto slash = rest.find('/');
        auto n = parseWholeNumber(rest.substr(0, slash));
        auto every = slash == std::string::npos ? std::nullopt : parseSeconds(rest.substr(slash + 1));
        if (!n || *n < 1 || *n > 1000000 || !every || *every <= 0)
            return *error = "burst: needs a size and an interval, e.g. burst:4/2h", std::nullopt;
        a.kind = ArrivalProcess::Kind::Burst;
        a.burstSize = int32_t(*n);
        a.intervalSeconds = *every;
    } else {
        return *error = "unknown arrival '" + spec + "' (at:D, every:D, poisson:R/h, burst:N/D)",
               std::nullopt;
    }
    return a;
}

std::optional<DurationDistribution> parseDuration(const std::string& spec, std::string* error) {
    DurationDistribution d;
    auto colon = spec.find(':');
    if (colon == std::string::npos) {
        auto t = parseSeconds(spec);
        if (!t || *t <= 0) return *error = "a duration must be positive, e.g. 1h", std::nullopt;
        d.meanSeconds = *t;
        return d;
    }
    const std::string kind = spec.substr(0, colon), rest = spec.substr(colon + 1);
    if (kind == "exp") {
        auto t = parseSeconds(rest);
        if (!t || *t <= 0) return *error = "exp: needs a positive mean, e.g. exp:1h", std::nullopt;
        d.kind = DurationDistribution::Kind::Exponential;
        d.meanSeconds = *t;
    } else if (kind == "uniform") {
        auto dots = rest.find("..");
        auto lo = parseSeconds(rest.substr(0, dots));
        auto hi = dots == std::string::npos ? std::nullopt : parseSeconds(rest.substr(dots + 2));
        if (!lo || !hi || *hi < *lo || *hi <= 0)
            return *error = "uniform: needs MIN..MAX, e.g. uniform:30m..2h", std::nullopt;
        d.kind = DurationDistribution::Kind::Uniform;
        d.minSeconds = *lo;
        d.maxSeconds = *hi;
    } else if (kind == "lognormal") {
        auto comma = rest.find(',');
        auto median = parseSeconds(rest.substr(0, comma));
        auto sigma =
            comma == std::string::npos ? std::optional<double>(0.5) : parseNumber(rest.substr(comma + 1));
        if (!median || *median <= 0 || !sigma || *sigma <= 0)
            return *error = "lognormal: needs MEDIAN[,SIGMA], e.g. lognormal:1h,0.5", std::nullopt;
        d.kind = DurationDistribution::Kind::LogNormal;
        d.meanSeconds = *median;
        d.sigma = *sigma;
    } else {
        return *error =
                   "unknown duration '" + spec + "' (D, exp:D, uniform:MIN..MAX, lognormal:MEDIAN,SIGMA)",
               std::nullopt;
    }
    return d;
}

bool writeCsv(const std::string& dir, const std::map<std::string, std::string>& files) {
    try {
        for (const auto& [name, text] : files) {
            const auto path = std::filesystem::path(dir) / name;
            std::filesystem::create_directories(path.parent_path());
            writeFileAtomically(path.string(), text);
        }
    } catch (const std::exception& e) {
        std::cerr << "gantry simulate: cannot write " << dir << ": " << e.what() << '\n';
        return false;
    }
    return true;
}

int report(const sim::SimResult& result, const ReportContext& context, const std::string& csvDir, bool json) {
    if (!csvDir.empty() && !writeCsv(csvDir, simulationCsv(result))) return RuntimeFailure;
    if (json)
        writeSimulationJson(std::cout, result, context);
    else
        printSimulationSummary(std::cout, result, context);
    return Ok;
}

int runSimulate(const Args& args) {
    std::vector<std::string> inputs;
    std::vector<std::string> confPaths;
    std::string nodesCsv, podsCsv, profile = engine::defaultProfileName(), csvDir, arrival, duration;
    std::optional<double> cycle, horizon, sample, grace, podStart;
    std::optional<uint64_t> seed, jobs;
    bool json = false, everyCycle = false, fullSessions = false;
    const OptionTable table{
        .command = "simulate",
        .synopsis = kUsage,
        .about =
            "Simulates jobs arriving, waiting, running and finishing (or being preempted) over time. Every\n"
            "scheduling cycle runs the engine's session with the policy, so the decisions are the "
            "engine's.",
        .options = {
            {.section = "Input:",
             .metavar = "INPUT",
             .value = Texts{&inputs},
             .help = "a project (.gantry), an inventory, or Kubernetes snapshot files; the\n"
                     "workload templates and the snapshot's what-if jobs (Jobs, PyTorchJobs,\n"
                     "PodGroups with unplaced pods) are simulated"},
            {.names = {"--nodes"},
             .metavar = "FILE",
             .value = Text{&nodesCsv},
             .help = "an Alibaba GPU trace instead (openb node list, with --pods): each task is a\n"
                     "one-pod job from its creation to its deletion time"},
            {.names = {"--pods"},
             .metavar = "FILE",
             .value = Text{&podsCsv},
             .help = "the trace's pod list (openb), with --nodes"},
            {.section = "Policy:",
             .names = {"--scheduler-conf"},
             .metavar = "[PROFILE=]FILE",
             .value = Texts{&confPaths},
             .help = schedulerConfOptionHelp(
                 "Default: the project's policy, the snapshot's scheduler ConfigMap,\n"
                 "or the scheduler's default (what the workload needs added). When\n"
                 "comparing profiles, PROFILE= says which one reads FILE (repeatable)")},
            {.names = {"--profile"},
             .metavar = "NAME[,NAME...]",
             .value = Text{&profile},
             .help = profileOptionHelp() +
                     "\nSeveral names compare those profiles on the same workload: every\n"
                     "result and one verdict per measure (which wins, by how much)"},
            {.names = {"--jobs"},
             .metavar = "N",
             .value = Uint{&jobs},
             .help = "profiles simulated at once when comparing (default: the cores)"},
            {.section = "Time (durations as 90s, 30m, 1h30m, or seconds):",
             .names = {"--cycle"},
             .metavar = "D",
             .value = Duration{&cycle},
             .help = "scheduling period (default: the project's, else 1s as Volcano)",
             .sign = Sign::Positive},
            {.names = {"--horizon"},
             .metavar = "D",
             .value = Duration{&horizon},
             .help = "stop at this time (default: the project's, else when every job is done\n"
                     "or nothing can change any more)"},
            {.names = {"--sample"},
             .metavar = "D",
             .value = Duration{&sample},
             .help = "time series grid (default 60s)",
             .sign = Sign::Positive},
            {.names = {"--seed"},
             .metavar = "N",
             .value = Uint{&seed},
             .help = "seed of the workload draws (default: the project's, else 42)"},
            {.names = {"--eviction-grace"},
             .metavar = "D",
             .value = Duration{&grace},
             .help = "an evicted pod holds its resources this long (default 30s)"},
            {.names = {"--pod-start"},
             .metavar = "D",
             .value = Duration{&podStart},
             .help = "a bound pod starts running after this long (default 0s)"},
            {.names = {"--every-cycle"},
             .value = Switch{&everyCycle},
             .help = "run every cycle, even those that cannot decide anything new"},
            {.names = {"--full-sessions"},
             .value = Switch{&fullSessions},
             .help = "every session sees and tries every job, also those it cannot change\n"
                     "or start (slower; the reference the default must equal, reasons\n"
                     "included)"},
            {.section = "Jobs whose input gives no timing (manifests without gantry.io/arrival or "
                        "gantry.io/duration,\ntrace tasks without creation or deletion times):",
             .names = {"--arrival"},
             .metavar = "SPEC",
             .value = Text{&arrival},
             .help = "at:D (all at D; default at:0) | every:D | poisson:R/h | burst:N/D"},
            {.names = {"--duration"},
             .metavar = "SPEC",
             .value = Text{&duration},
             .help = "D | exp:MEAN | uniform:MIN..MAX | lognormal:MEDIAN,SIGMA\n"
                     "(default: such jobs run until the end)"},
            {.section = "Output (default: a readable summary):",
             .names = {"--json"},
             .value = Switch{&json},
             .help = "the whole result as JSON on standard output"},
            {.names = {"--csv"},
             .metavar = "DIR",
             .value = Text{&csvDir},
             .help = "timeseries.csv, queues.csv, priorities.csv, pending.csv, reasons.csv,\n"
                     "summary.csv and topology_slots.csv in DIR (created if missing); when\n"
                     "comparing, compare.csv and a folder per profile"},
        }};
    if (auto exit = parseCommandLine(table, args)) return *exit;
    sim::TimingDefaults timing;
    std::string error;
    if (!arrival.empty()) {
        auto p = parseArrival(arrival, &error);
        if (!p) return usageError("simulate", "--arrival: " + error);
        timing.arrival = *p;
    }
    if (!duration.empty()) {
        auto d = parseDuration(duration, &error);
        if (!d) return usageError("simulate", "--duration: " + error);
        timing.duration = *d;
    }
    const bool trace = !nodesCsv.empty() || !podsCsv.empty();
    if (trace && (nodesCsv.empty() || podsCsv.empty()))
        return usageError("simulate", "a trace needs both --nodes and --pods");
    if (trace && !inputs.empty())
        return usageError("simulate", "give either input files or a trace, not both");
    if (!trace && inputs.empty())
        return usageError("simulate", std::string("no input; usage: gantry simulate ") + kUsage);
    std::vector<std::string> profiles;
    for (size_t from = 0;;) {
        const size_t comma = profile.find(',', from);
        std::string name =
            profile.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
        if (!engine::findProfile(name))
            return usageError("simulate",
                              "--profile: unknown profile '" + name + "' (" + engine::profileNames() + ")");
        if (std::find(profiles.begin(), profiles.end(), name) != profiles.end())
            return usageError("simulate", "--profile: '" + name + "' is named twice");
        profiles.push_back(std::move(name));
        if (comma == std::string::npos) break;
        from = comma + 1;
    }
    // --scheduler-conf [PROFILE=]FILE: which profile reads which file.
    std::vector<std::vector<std::string>> confsOf(profiles.size());
    for (const auto& spec : confPaths) {
        const size_t eq = spec.find('=');
        const std::string named = eq == std::string::npos ? "" : spec.substr(0, eq);
        auto it = std::find(profiles.begin(), profiles.end(), named);
        if (!named.empty() && it != profiles.end()) {
            confsOf[size_t(it - profiles.begin())].push_back(spec.substr(eq + 1));
        } else if (!named.empty() && engine::findProfile(named)) {
            return usageError("simulate", "--scheduler-conf " + spec + ": profile '" + named +
                                              "' is not among --profile " + profile);
        } else if (profiles.size() == 1) {
            confsOf[0].push_back(spec);
        } else {
            return usageError("simulate", "--scheduler-conf " + spec +
                                              ": say which profile reads it, e.g. --scheduler-conf " +
                                              profiles.front() + "=" + spec);
        }
    }

    Diagnostics warnings;
    Cluster cluster;
    sim::SimWorkload workload;
    sim::SimOptions options;
    ReportContext context;
    std::vector<sim::SimOptions> optionsOf(profiles.size());
    try {
        if (trace) {
            options.seed = seed.value_or(42);
            Trace t = readTrace(nodesCsv, podsCsv, warnings);
            auto converted = sim::fromTrace(t, timing, options.seed);
            cluster = std::move(converted.cluster);
            workload = std::move(converted.workload);
            context.input = "trace " + std::filesystem::path(podsCsv).filename().string();
        } else {
            LoadedInput in = loadInputs(inputs);
            warnings.insert(warnings.end(), in.warnings.begin(), in.warnings.end());
            Project& p = in.project;
            options.seed = seed.value_or(p.simulation.seed);
            options.cycleSeconds = p.simulation.cycleSeconds > 0 ? p.simulation.cycleSeconds : 1.0;
            options.horizonSeconds = p.simulation.horizonSeconds;
            options.policies = policiesOf(p);
            cluster = std::move(p.cluster);
            workload = sim::projectWorkload(p.workloads, cluster, timing, options.seed);
            context.input = std::string(toString(in.kind)) + " " +
                            std::filesystem::path(inputs.front()).filename().string();
        }
        if (cycle) options.cycleSeconds = *cycle;
        if (horizon) options.horizonSeconds = *horizon;
        if (sample) options.sampleSeconds = *sample;
        if (grace) options.evictionGraceSeconds = *grace;
        if (podStart) options.podStartSeconds = *podStart;
        options.skipIdleCycles = !everyCycle;
        options.shortcuts = {!fullSessions, !fullSessions};
        for (size_t i = 0; i < profiles.size(); ++i) {
            optionsOf[i] = options;
            optionsOf[i].profile = profiles[i];
            for (const auto& conf : confsOf[i])
                readPolicyFile(conf, engine::findProfile(profiles[i])->configFormat, optionsOf[i].policies,
                               &warnings);
        }
    } catch (const InputError& e) {
        printDiagnostics(e.all());
        return BadInput;
    }
    warnings.insert(warnings.end(), workload.warnings.begin(), workload.warnings.end());
    // Each profile gets what the workload needs added to its own policy; a note names its profile
    // when several run.
    std::vector<std::vector<std::string>> notesOf(profiles.size());
    for (size_t i = 0; i < profiles.size(); ++i) {
        Diagnostics fitWarnings;
        sim::fitPolicy(optionsOf[i], workload, SourceRef{context.input, 0, 0, 0}, &notesOf[i], &fitWarnings);
        for (auto& w : fitWarnings) {
            if (profiles.size() > 1) w.message = profiles[i] + ": " + w.message;
            warnings.push_back(std::move(w));
        }
    }
    context.nodes = 0;
    for (const auto& n : cluster.nodes) context.nodes += n.ready ? 1 : 0;
    if (workload.jobs.empty()) {
        Diagnostic none;
        none.severity = Severity::Warning;
        none.where.file = context.input;
        none.message = "the input has no jobs to simulate (no workload templates, no what-if jobs)";
        warnings.push_back(std::move(none));
    }

    std::vector<sim::SimResult> results(profiles.size());
    std::vector<Diagnostics> runWarnings(profiles.size());
    std::vector<std::string> failures(profiles.size());
    plan::runParallel(profiles.size(), plan::threadCount(jobs ? int(*jobs) : 0), [&](size_t i) {
        try {
            results[i] = sim::simulate(cluster, workload, optionsOf[i], &runWarnings[i]);
        } catch (const std::invalid_argument& e) {
            failures[i] = e.what();
        }
    });
    for (size_t i = 0; i < profiles.size(); ++i)
        for (auto& w : runWarnings[i]) {
            if (profiles.size() > 1) w.message = profiles[i] + ": " + w.message;
            warnings.push_back(std::move(w));
        }
    printDiagnostics(warnings);
    for (size_t i = 0; i < profiles.size(); ++i) {
        if (failures[i].empty()) continue;
        std::cerr << "gantry simulate: " << (profiles.size() > 1 ? profiles[i] + ": " : "") << failures[i]
                  << '\n';
        return BadInput;
    }
    for (size_t i = 0; i < profiles.size(); ++i)
        results[i].warnings.insert(results[i].warnings.begin(), notesOf[i].begin(), notesOf[i].end());
    if (profiles.size() == 1) return report(results.front(), context, csvDir, json);

    std::vector<sim::ProfileRun> runs;
    for (size_t i = 0; i < profiles.size(); ++i) runs.push_back({profiles[i], &results[i]});
    const auto verdicts = sim::compareRuns(runs);
    if (!csvDir.empty()) {
        std::map<std::string, std::string> files{{"compare.csv", comparisonCsv(runs, verdicts)}};
        for (const auto& run : runs)
            for (auto& [name, text] : simulationCsv(*run.result))
                files[run.profile + "/" + name] = std::move(text);
        if (!writeCsv(csvDir, files)) return RuntimeFailure;
    }
    if (json)
        std::cout << comparisonJson(runs, verdicts, context);
    else
        printComparison(std::cout, runs, verdicts, context);
    return Ok;
}

const CommandRegistration reg{
    {"simulate", kUsage, "simulate jobs over time under a scheduling policy", runSimulate}};

} // namespace

} // namespace gantry::cli
