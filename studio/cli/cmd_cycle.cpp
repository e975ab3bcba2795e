// gantry cycle: one scheduling cycle of a scheduler profile on a snapshot (Volcano's session by
// default), printed in the scheduler's own words as JSON or as a table.
#include "command.h"
#include "input_error.h"
#include "input_loader.h"
#include "policy_reader.h"
#include "profile/registry.h"

#include <iostream>
#include <nlohmann/json.hpp>

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
    const engine::ProfileInfo* info = engine::findProfile(profile);
    if (!info)
        return usageError("cycle", "unknown profile '" + profile + "' (" + engine::profileNames() + ")");

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
    SchedulerPolicies policies = policiesOf(input.project);
    try {
        if (!confPath.empty()) readPolicyFile(confPath, info->configFormat, policies, &warnings);
    } catch (const InputError& e) {
        printDiagnostics(e.all());
        return BadInput;
    }
    if (confPath.empty())
        warnings.push_back(Diagnostic{Severity::Warning, SourceRef{snapshots.front(), 0, 0, 0},
                                      "no --scheduler-conf: using the input's " + info->title + " policy"});
    auto scheduler = info->make({cluster, policies, {}}, &warnings);
    if (!scheduler) {
        printDiagnostics(warnings);
        return BadInput;
    }
    engine::ClusterState state = engine::buildClusterState(cluster, &warnings, scheduler->buildOptions());
    engine::CycleOptions options;
    options.computeScores = scores;
    const engine::CycleResult result = scheduler->cycle(state, options);
    printDiagnostics(warnings);
    if (json)
        std::cout << scheduler->cycleJson(result, options).dump(2) << '\n';
    else
        scheduler->printCycle(std::cout, result, options);
    return Ok;
}

const CommandRegistration reg{{"cycle", "--snapshot FILE [--scheduler-conf FILE] [--json] [--scores]",
                               "run one scheduling session (Volcano or kube-default) on a snapshot",
                               runCycle}};

} // namespace

} // namespace gantry::cli
