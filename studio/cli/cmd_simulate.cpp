// gantry simulate: the time-based simulation of a project, an inventory, a snapshot or a trace
// under Volcano's policy (or the default kube-scheduler for contrast).
#include "atomic_file.h"
#include "command.h"
#include "input_error.h"
#include "input_loader.h"
#include "kube_scheduler_config_reader.h"
#include "model/go_text.h"
#include "profiles/volcano/framework/conf_check.h"
#include "sim/simulator.h"
#include "sim/sources.h"
#include "simulate_report.h"
#include "trace/alibaba_trace.h"
#include "volcano/scheduler_conf_reader.h"

#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>

namespace gantry::cli {

namespace {

constexpr const char* kUsage = "INPUT... | --nodes NODES.csv --pods PODS.csv  [options]";

void printHelp() {
    std::cout
        << "Usage: gantry simulate " << kUsage
        << "\n\n"
           "Simulates jobs arriving, waiting, running and finishing (or being preempted) over time. Every\n"
           "scheduling cycle runs the engine's session with the policy, so the decisions are the "
           "engine's.\n\n"
           "Input:\n"
           "  INPUT...               a project (.gantry), an inventory, or Kubernetes snapshot files; the\n"
           "                         workload templates and the snapshot's what-if jobs (Jobs, PyTorchJobs,\n"
           "                         PodGroups with unplaced pods) are simulated\n"
           "  --nodes FILE --pods FILE   an Alibaba GPU trace (openb node and pod lists): each task is a\n"
           "                         one-pod job from its creation to its deletion time\n\n"
           "Policy:\n"
           "  --scheduler-conf FILE  volcano-scheduler.conf (or its ConfigMap); default: the project's "
           "policy,\n"
           "                         the snapshot's Volcano ConfigMap, or Volcano's default (plus "
           "deviceshare\n"
           "                         for a trace). With --profile kube-default: a "
           "KubeSchedulerConfiguration\n"
           "  --profile NAME         volcano (default) or kube-default (pod by pod, no gang, no "
           "preemption)\n\n"
           "Time (durations as 90s, 30m, 1h30m, or seconds):\n"
           "  --cycle D              scheduling period (default: the project's, else 1s as Volcano)\n"
           "  --horizon D            stop at this time (default: the project's, else when every job is done\n"
           "                         or nothing can change any more)\n"
           "  --sample D             time series grid (default 60s)\n"
           "  --seed N               seed of the workload draws (default: the project's, else 42)\n"
           "  --eviction-grace D     an evicted pod holds its resources this long (default 30s)\n"
           "  --pod-start D          a bound pod starts running after this long (default 0s)\n"
           "  --every-cycle          run every cycle, even those that cannot decide anything new\n"
           "  --full-sessions        every session sees and tries every job, also those it cannot change\n"
           "                         or start (slower; the reference the default must equal, reasons\n"
           "                         included)\n\n"
           "Jobs whose input gives no timing (manifests without gantry.io/arrival or gantry.io/duration,\n"
           "trace tasks without creation or deletion times):\n"
           "  --arrival SPEC         at:D (all at D; default at:0) | every:D | poisson:R/h | burst:N/D\n"
           "  --duration SPEC        D | exp:MEAN | uniform:MIN..MAX | lognormal:MEDIAN,SIGMA\n"
           "                         (default: such jobs run until the end)\n\n"
           "Output (default: a readable summary):\n"
           "  --json                 the whole result as JSON on standard output\n"
           "  --csv DIR              timeseries.csv, queues.csv, priorities.csv, pending.csv, reasons.csv "
           "and\n"
           "                         summary.csv in DIR (created if missing)\n";
}

std::optional<double> seconds(const std::string& text) {
    if (auto d = engine::parseGoDuration(engine::trim(text)); d && *d >= 0) return d;
    if (auto f = engine::parseGoFloat(engine::trim(text)); f && *f >= 0) return f;
    return std::nullopt;
}

std::optional<ArrivalProcess> parseArrival(const std::string& spec, std::string* error) {
    ArrivalProcess a;
    auto colon = spec.find(':');
    const std::string kind = spec.substr(0, colon),
                      rest = colon == std::string::npos ? "" : spec.substr(colon + 1);
    if (kind == "at") {
        auto t = seconds(rest);
        if (!t) return *error = "at: needs a time, e.g. at:0 or at:1h", std::nullopt;
        a.kind = ArrivalProcess::Kind::Fixed;
        a.startSeconds = *t;
    } else if (kind == "every") {
        auto t = seconds(rest);
        if (!t || *t <= 0) return *error = "every: needs a positive interval, e.g. every:5m", std::nullopt;
        a.kind = ArrivalProcess::Kind::Fixed;
        a.intervalSeconds = *t;
    } else if (kind == "poisson") {
        auto slash = rest.find('/');
        auto rate = engine::parseGoFloat(rest.substr(0, slash));
        const std::string unit = slash == std::string::npos ? "h" : rest.substr(slash + 1);
        const double per = unit == "h" ? 1 : unit == "m" ? 60 : unit == "s" ? 3600 : 0;
        if (!rate || *rate <= 0 || per == 0)
            return *error = "poisson: needs a rate, e.g. poisson:12/h", std::nullopt;
        a.kind = ArrivalProcess::Kind::Poisson;
        a.ratePerHour = *rate * per;
    } else if (kind == "burst") {
        auto slash = rest.find('/');
        auto n = engine::parseGoInt(rest.substr(0, slash));
        auto every = slash == std::string::npos ? std::nullopt : seconds(rest.substr(slash + 1));
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
        auto t = seconds(spec);
        if (!t || *t <= 0) return *error = "a duration must be positive, e.g. 1h", std::nullopt;
        d.meanSeconds = *t;
        return d;
    }
    const std::string kind = spec.substr(0, colon), rest = spec.substr(colon + 1);
    if (kind == "exp") {
        auto t = seconds(rest);
        if (!t || *t <= 0) return *error = "exp: needs a positive mean, e.g. exp:1h", std::nullopt;
        d.kind = DurationDistribution::Kind::Exponential;
        d.meanSeconds = *t;
    } else if (kind == "uniform") {
        auto dots = rest.find("..");
        auto lo = seconds(rest.substr(0, dots));
        auto hi = dots == std::string::npos ? std::nullopt : seconds(rest.substr(dots + 2));
        if (!lo || !hi || *hi < *lo || *hi <= 0)
            return *error = "uniform: needs MIN..MAX, e.g. uniform:30m..2h", std::nullopt;
        d.kind = DurationDistribution::Kind::Uniform;
        d.minSeconds = *lo;
        d.maxSeconds = *hi;
    } else if (kind == "lognormal") {
        auto comma = rest.find(',');
        auto median = seconds(rest.substr(0, comma));
        auto sigma = comma == std::string::npos ? std::optional<double>(0.5)
                                                : engine::parseGoFloat(rest.substr(comma + 1));
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

void printDiagnostics(const Diagnostics& d) {
    for (const auto& x : d) std::cerr << x.str() << '\n';
}

bool confHas(const SchedulerConf& conf, const std::string& plugin) {
    return conf.plugin(plugin) != nullptr;
}

PluginOption deviceShare() {
    PluginOption p;
    p.name = "deviceshare";
    return p;
}

bool workloadSharesGpus(const sim::SimWorkload& w) {
    for (const auto& k : w.kinds)
        for (const auto& p : k.pods)
            if (p.gpu.count > 0 && p.gpu.milliPerGpu < 1000) return true;
    return false;
}

int runSimulate(const Args& args) {
    std::vector<std::string> inputs;
    std::string nodesCsv, podsCsv, confPath, profile = "volcano", csvDir;
    std::optional<double> cycle, horizon, sample, grace, podStart;
    std::optional<uint64_t> seed;
    bool json = false, everyCycle = false, fullSessions = false;
    sim::TimingDefaults timing;
    std::vector<std::string> notes; // what Gantry chose for the user, printed with the summary
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](std::string& out) {
            if (i + 1 >= args.size()) return false;
            out = args[++i];
            return true;
        };
        auto time = [&](std::optional<double>& out, bool positive) -> std::optional<int> {
            std::string v;
            if (!value(v)) return usageError("simulate", a + " needs a duration");
            out = seconds(v);
            if (!out || (positive && *out <= 0))
                return usageError("simulate", a + ": '" + v + "' is not a " + (positive ? "positive " : "") +
                                                  "duration (e.g. 1s, 30m, 2h)");
            return std::nullopt;
        };
        std::string v, error;
        if (a == "--help" || a == "-h") {
            printHelp();
            return Ok;
        } else if (a == "--nodes") {
            if (!value(nodesCsv)) return usageError("simulate", "--nodes needs a file");
        } else if (a == "--pods") {
            if (!value(podsCsv)) return usageError("simulate", "--pods needs a file");
        } else if (a == "--scheduler-conf") {
            if (!value(confPath)) return usageError("simulate", "--scheduler-conf needs a file");
        } else if (a == "--profile") {
            if (!value(profile))
                return usageError("simulate", "--profile needs a name (volcano or kube-default)");
        } else if (a == "--cycle") {
            if (auto rc = time(cycle, true)) return *rc;
        } else if (a == "--horizon") {
            if (auto rc = time(horizon, false)) return *rc;
        } else if (a == "--sample") {
            if (auto rc = time(sample, true)) return *rc;
        } else if (a == "--eviction-grace") {
            if (auto rc = time(grace, false)) return *rc;
        } else if (a == "--pod-start") {
            if (auto rc = time(podStart, false)) return *rc;
        } else if (a == "--seed") {
            if (!value(v)) return usageError("simulate", "--seed needs a number");
            auto n = engine::parseGoInt(v);
            if (!n || *n < 0)
                return usageError("simulate", "--seed: '" + v + "' is not a non-negative whole number");
            seed = uint64_t(*n);
        } else if (a == "--arrival") {
            if (!value(v)) return usageError("simulate", "--arrival needs a spec");
            auto p = parseArrival(v, &error);
            if (!p) return usageError("simulate", "--arrival: " + error);
            timing.arrival = *p;
        } else if (a == "--duration") {
            if (!value(v)) return usageError("simulate", "--duration needs a spec");
            auto d = parseDuration(v, &error);
            if (!d) return usageError("simulate", "--duration: " + error);
            timing.duration = *d;
        } else if (a == "--json") {
            json = true;
        } else if (a == "--csv") {
            if (!value(csvDir)) return usageError("simulate", "--csv needs a folder");
        } else if (a == "--every-cycle") {
            everyCycle = true;
        } else if (a == "--full-sessions") {
            fullSessions = true;
        } else if (!a.empty() && a[0] == '-') {
            return usageError("simulate", "unknown option '" + a + "' (gantry simulate --help)");
        } else {
            inputs.push_back(a);
        }
    }
    const bool trace = !nodesCsv.empty() || !podsCsv.empty();
    if (trace && (nodesCsv.empty() || podsCsv.empty()))
        return usageError("simulate", "a trace needs both --nodes and --pods");
    if (trace && !inputs.empty())
        return usageError("simulate", "give either input files or a trace, not both");
    if (!trace && inputs.empty())
        return usageError("simulate", std::string("no input; usage: gantry simulate ") + kUsage);
    if (profile != "volcano" && profile != "kube-default")
        return usageError("simulate", "unknown profile '" + profile + "' (volcano or kube-default)");

    Diagnostics warnings;
    Cluster cluster;
    sim::SimWorkload workload;
    sim::SimOptions options;
    std::optional<KubeSchedulerProfile> contrast;
    ReportContext context;
    try {
        if (trace) {
            options.seed = seed.value_or(42);
            Trace t = readTrace(nodesCsv, podsCsv, warnings);
            auto converted = sim::fromTrace(t, timing, options.seed);
            cluster = std::move(converted.cluster);
            workload = std::move(converted.workload);
            options.conf = defaultVolcanoConf();
            context.input = "trace " + std::filesystem::path(podsCsv).filename().string();
        } else {
            LoadedInput in = loadInputs(inputs);
            warnings.insert(warnings.end(), in.warnings.begin(), in.warnings.end());
            Project& p = in.project;
            options.seed = seed.value_or(p.simulation.seed);
            options.cycleSeconds = p.simulation.cycleSeconds > 0 ? p.simulation.cycleSeconds : 1.0;
            options.horizonSeconds = p.simulation.horizonSeconds;
            options.conf = p.volcano;
            contrast = p.contrast;
            cluster = std::move(p.cluster);
            workload = sim::takeClusterJobs(cluster, timing, options.seed);
            sim::SimWorkload templates = sim::fromTemplates(p.workloads, cluster, options.seed);
            const uint32_t base = uint32_t(workload.kinds.size());
            for (auto& k : templates.kinds) workload.kinds.push_back(std::move(k));
            for (auto j : templates.jobs) {
                j.kind += base;
                workload.jobs.push_back(j);
            }
            workload.warnings.insert(workload.warnings.end(), templates.warnings.begin(),
                                     templates.warnings.end());
            context.input = std::string(toString(in.kind)) + " " +
                            std::filesystem::path(inputs.front()).filename().string();
        }
        if (!confPath.empty()) {
            if (profile == "volcano")
                options.conf = readSchedulerConfFile(confPath, &warnings);
            else
                contrast = readKubeSchedulerConfigFile(confPath, &warnings);
        }
    } catch (const InputError& e) {
        printDiagnostics(e.all());
        return BadInput;
    }
    warnings.insert(warnings.end(), workload.warnings.begin(), workload.warnings.end());
    if (profile == "volcano") {
        Diagnostics check = checkSchedulerConf(options.conf);
        warnings.insert(warnings.end(), check.begin(), check.end());
        if (hasErrors(check)) {
            printDiagnostics(warnings);
            return BadInput;
        }
        if (workloadSharesGpus(workload) && !confHas(options.conf, "deviceshare")) {
            if (options.conf == defaultVolcanoConf()) {
                // Volcano's default policy cannot place GPU shares; a cluster that shares GPUs runs
                // deviceshare.
                options.conf.tiers.back().plugins.push_back(deviceShare());
                notes.push_back("pods share GPUs: deviceshare added to Volcano's default configuration");
            } else {
                Diagnostic d;
                d.severity = Severity::Warning;
                d.where = options.conf.source.file.empty() ? SourceRef{context.input, 0, 0, 0}
                                                           : options.conf.source;
                d.message =
                    "pods share GPUs but the scheduler configuration has no deviceshare plugin: their shares "
                    "are checked against the node's GPU count only";
                warnings.push_back(std::move(d));
            }
        }
    } else {
        options.profile = sim::SimOptions::Profile::KubeDefault;
        options.kube = contrast.value_or(KubeSchedulerProfile{});
    }
    if (cycle) options.cycleSeconds = *cycle;
    if (horizon) options.horizonSeconds = *horizon;
    if (sample) options.sampleSeconds = *sample;
    if (grace) options.evictionGraceSeconds = *grace;
    if (podStart) options.podStartSeconds = *podStart;
    options.skipIdleCycles = !everyCycle;
    options.sessionCache = !fullSessions;
    options.parkJobs = !fullSessions;
    context.nodes = 0;
    for (const auto& n : cluster.nodes) context.nodes += n.ready ? 1 : 0;
    if (workload.jobs.empty()) {
        Diagnostic none;
        none.severity = Severity::Warning;
        none.where.file = context.input;
        none.message = "the input has no jobs to simulate (no workload templates, no what-if jobs)";
        warnings.push_back(std::move(none));
    }

    sim::SimResult result;
    try {
        result = sim::simulate(cluster, workload, options, &warnings);
    } catch (const std::invalid_argument& e) {
        printDiagnostics(warnings);
        std::cerr << "gantry simulate: " << e.what() << '\n';
        return BadInput;
    }
    printDiagnostics(warnings);
    result.warnings.insert(result.warnings.begin(), notes.begin(), notes.end());
    if (!csvDir.empty()) {
        try {
            std::filesystem::create_directories(csvDir);
            for (const auto& [name, text] : simulationCsv(result))
                writeFileAtomically((std::filesystem::path(csvDir) / name).string(), text);
        } catch (const std::exception& e) {
            std::cerr << "gantry simulate: cannot write " << csvDir << ": " << e.what() << '\n';
            return RuntimeFailure;
        }
    }
    if (json)
        std::cout << simulationJson(result, context);
    else
        printSimulationSummary(std::cout, result, context);
    return Ok;
}

const CommandRegistration reg{
    {"simulate", kUsage, "simulate jobs over time under a scheduling policy", runSimulate}};

} // namespace

} // namespace gantry::cli
