// gantry cycle: one scheduling session on a snapshot, as Volcano (or the default kube-scheduler)
// would run it, printed as JSON or as a table.
#include "command.h"
#include "input_error.h"
#include "input_loader.h"
#include "kube_scheduler_config_reader.h"
#include "profiles/kube_default/kube_scheduler.h"
#include "profiles/volcano/framework/conf_check.h"
#include "profiles/volcano/framework/session.h"
#include "volcano/scheduler_conf_reader.h"

#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace gantry::cli {

namespace {

constexpr const char* kUsage =
    "Usage: gantry cycle --snapshot FILE [--snapshot FILE...] --scheduler-conf FILE [--json] [--scores]\n"
    "                    [--profile volcano|kube-default]\n"
    "Runs one scheduling session on the snapshot: each configured action once, in order.\n"
    "  --snapshot FILE        Kubernetes objects (kubectl get -o yaml|json, multi-document YAML); "
    "repeatable.\n"
    "                         A Gantry project (.gantry) or inventory is taken too (alone)\n"
    "  --scheduler-conf FILE  volcano-scheduler.conf (or its ConfigMap); with --profile kube-default a\n"
    "                         KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1). Without it the\n"
    "                         input's own policy is used (a project's, the snapshot's Volcano ConfigMap)\n"
    "  --json                 print {bindings, evicted, pipelined, podgroup_phase, pending[, scores]}\n"
    "  --scores               add the node-order score of every pending pod on every node (initial state)\n"
    "  --profile NAME         volcano (default) or kube-default (pod by pod, no gang)\n";

void printDiagnostics(const Diagnostics& d) {
    for (const auto& x : d) std::cerr << x.str() << '\n';
}

nlohmann::ordered_json toJson(const engine::SessionResult& r, bool scores) {
    nlohmann::ordered_json out;
    out["bindings"] = nlohmann::ordered_json::object();
    for (const auto& [pod, node] : r.bindings) out["bindings"][pod] = node;
    out["evicted"] = nlohmann::ordered_json::array();
    for (const auto& pod : r.evicted) out["evicted"].push_back(pod);
    out["pipelined"] = nlohmann::ordered_json::object();
    for (const auto& [pg, nodes] : r.pipelined) out["pipelined"][pg] = nodes;
    out["podgroup_phase"] = nlohmann::ordered_json::object();
    for (const auto& [pg, phase] : r.podGroupPhase) out["podgroup_phase"][pg] = phase;
    out["pending"] = nlohmann::ordered_json::object();
    for (const auto& [pod, why] : r.pending) out["pending"][pod] = why;
    if (scores) {
        out["scores"] = nlohmann::ordered_json::object();
        for (const auto& [pod, row] : r.scores) {
            auto& o = out["scores"][pod];
            o = nlohmann::ordered_json::object();
            for (const auto& [node, s] : row) o[node] = s;
        }
    }
    return out;
}

void printTable(const engine::SessionResult& r, bool scores) {
    auto section = [](const std::string& title, size_t n) { std::cout << title << " (" << n << ")\n"; };
    section("Bindings", r.bindings.size());
    for (const auto& [pod, node] : r.bindings)
        std::cout << "  " << std::left << std::setw(40) << pod << node << '\n';
    section("Evicted", r.evicted.size());
    for (const auto& pod : r.evicted) std::cout << "  " << pod << '\n';
    section("Pipelined", r.pipelined.size());
    for (const auto& [pg, nodes] : r.pipelined) {
        std::cout << "  " << std::left << std::setw(40) << pg;
        for (size_t i = 0; i < nodes.size(); ++i) std::cout << (i ? ", " : "") << nodes[i];
        std::cout << '\n';
    }
    section("PodGroups", r.podGroupPhase.size());
    for (const auto& [pg, phase] : r.podGroupPhase) {
        std::cout << "  " << std::left << std::setw(40) << pg << std::setw(10) << phase;
        auto g = r.gangs.find(pg);
        if (g != r.gangs.end() && !g->second.reason.empty()) std::cout << g->second.reason;
        std::cout << '\n';
    }
    section("Pending", r.pending.size());
    for (const auto& [pod, why] : r.pending)
        std::cout << "  " << std::left << std::setw(40) << pod << why << '\n';
    if (scores) {
        section("Scores", r.scores.size());
        for (const auto& [pod, row] : r.scores) {
            std::cout << "  " << pod << '\n';
            for (const auto& [node, s] : row)
                std::cout << "    " << std::left << std::setw(36) << node << s << '\n';
        }
    }
    for (const auto& w : r.warnings) std::cout << "note: " << w << '\n';
}

int runCycle(const Args& args) {
    std::vector<std::string> snapshots;
    std::string confPath, profile = "volcano";
    bool json = false, scores = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](const char* flag) -> std::optional<std::string> {
            if (i + 1 >= args.size()) return std::nullopt;
            (void)flag;
            return args[++i];
        };
        if (a == "--help" || a == "-h") {
            std::cout << kUsage;
            return Ok;
        } else if (a == "--snapshot") {
            auto v = value("--snapshot");
            if (!v) return usageError("cycle", "--snapshot needs a file");
            snapshots.push_back(*v);
        } else if (a == "--scheduler-conf") {
            auto v = value("--scheduler-conf");
            if (!v) return usageError("cycle", "--scheduler-conf needs a file");
            confPath = *v;
        } else if (a == "--profile") {
            auto v = value("--profile");
            if (!v) return usageError("cycle", "--profile needs a name (volcano or kube-default)");
            profile = *v;
        } else if (a == "--json") {
            json = true;
        } else if (a == "--scores") {
            scores = true;
        } else {
            return usageError("cycle", "unknown option '" + a + "'\n" + kUsage);
        }
    }
    if (snapshots.empty()) return usageError("cycle", "--snapshot is required\n" + std::string(kUsage));
    if (profile != "volcano" && profile != "kube-default")
        return usageError("cycle", "unknown profile '" + profile + "' (volcano or kube-default)");

    Diagnostics warnings;
    LoadedInput input;
    try {
        input = loadInputs(snapshots);
    } catch (const InputError& e) {
        printDiagnostics(e.all());
        return BadInput;
    }
    warnings = input.warnings;
    const Cluster& cluster = input.project.cluster;

    engine::SessionResult result;
    if (profile == "volcano") {
        SchedulerConf conf = input.project.volcano;
        try {
            if (!confPath.empty()) conf = readSchedulerConfFile(confPath, &warnings);
        } catch (const InputError& e) {
            printDiagnostics(e.all());
            return BadInput;
        }
        if (confPath.empty())
            warnings.push_back(Diagnostic{Severity::Warning, SourceRef{snapshots.front(), 0, 0, 0},
                                          "no --scheduler-conf: using the input's Volcano policy"});
        Diagnostics check = checkSchedulerConf(conf);
        warnings.insert(warnings.end(), check.begin(), check.end());
        if (hasErrors(check)) {
            printDiagnostics(warnings);
            return BadInput;
        }
        engine::ClusterState state = engine::buildClusterState(cluster, &warnings);
        engine::SessionOptions options;
        options.computeScores = scores;
        engine::Session session(state, conf, options);
        result = session.run();
    } else {
        KubeSchedulerProfile kube = input.project.contrast.value_or(KubeSchedulerProfile{});
        try {
            if (!confPath.empty()) kube = readKubeSchedulerConfigFile(confPath, &warnings);
        } catch (const InputError& e) {
            printDiagnostics(e.all());
            return BadInput;
        }
        engine::ClusterState state =
            engine::buildClusterState(cluster, &warnings, engine::kubeBuildOptions());
        result = engine::runKubeDefault(state, kube, scores);
    }
    printDiagnostics(warnings);
    if (json)
        std::cout << toJson(result, scores).dump(2) << '\n';
    else
        printTable(result, scores);
    return Ok;
}

const CommandRegistration reg{{"cycle", "--snapshot FILE [--scheduler-conf FILE] [--json] [--scores]",
                               "run one scheduling session (Volcano or kube-default) on a snapshot",
                               runCycle}};

} // namespace

} // namespace gantry::cli
