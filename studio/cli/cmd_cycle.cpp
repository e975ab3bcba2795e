// gantry cycle: one scheduling cycle of a scheduler profile on a snapshot (Volcano's session by
// default), printed in the scheduler's own words as JSON or as a table.
#include "command.h"
#include "diagnostics_printer.h"
#include "input_error.h"
#include "input_loader.h"
#include "options.h"
#include "policy_reader.h"
#include "profile/registry.h"
#include "profile_help.h"

#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

namespace gantry::cli {

namespace {

int runCycle(const Args& args) {
    std::vector<std::string> snapshots;
    std::string confPath, profile = engine::defaultProfileName();
    bool json = false, scores = false;
    std::optional<uint64_t> passes;
    const OptionTable table{
        .command = "cycle",
        .about = "Runs one scheduling cycle of a scheduler on the snapshot (for Volcano, one session: each\n"
                 "configured action once, in order) and prints its decisions in the scheduler's own words.",
        .options = {
            {.names = {"--snapshot"},
             .metavar = "FILE",
             .value = Texts{&snapshots},
             .help = "Kubernetes objects (kubectl get -o yaml|json, multi-document YAML); repeatable.\n"
                     "A Gantry project (.gantry) or inventory is taken too (alone)",
             .required = true},
            {.names = {"--scheduler-conf"},
             .metavar = "FILE",
             .value = Text{&confPath},
             .help =
                 schedulerConfOptionHelp("Without it, the input's own policy (a project's, the snapshot's\n"
                                         "scheduler ConfigMap)")},
            {.names = {"--json"},
             .value = Switch{&json},
             .help = "print the decisions as JSON (Volcano and kube-scheduler: {bindings, evicted,\n"
                     "pipelined, podgroup_phase, pending[, scores]}, kube-scheduler also {nominated};\n"
                     "YuniKorn: {allocations, order, pending, preempted, nominated, released,\n"
                     "pending_reasons})"},
            {.names = {"--scores"},
             .value = Switch{&scores},
             .help = "add the node-order score of every pending pod on every node (initial state)"},
            {.names = {"--profile"}, .metavar = "NAME", .value = Text{&profile}, .help = profileOptionHelp()},
            {.names = {"--passes"},
             .metavar = "N",
             .value = Uint{&passes},
             .help = "for a scheduler whose cycle is many small ones (one decision each): run exactly N\n"
                     "of them instead of running until one changes nothing",
             .sign = Sign::Positive},
        }};
    if (auto exit = parseCommandLine(table, args)) return *exit;
    const engine::ProfileInfo* info = engine::findProfile(profile);
    if (!info)
        return usageError("cycle", "unknown profile '" + profile + "' (" + engine::profileNames() + ")");
    if (passes && !info->takesPasses)
        return usageError("cycle",
                          "--passes: a " + info->title +
                              " cycle is a single one; --passes is for schedulers whose cycle is many "
                              "small ones");

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
    options.passes = passes ? int(std::min<uint64_t>(*passes, 1u << 30)) : 0;
    engine::CycleResult result = scheduler->cycle(state, options);
    engine::addNotCreated(state, result);
    printDiagnostics(warnings);
    if (json)
        std::cout << scheduler->cycleJson(result, options).dump(2) << '\n';
    else
        scheduler->printCycle(std::cout, result, options);
    return Ok;
}

const CommandRegistration reg{{"cycle",
                               "--snapshot FILE [--scheduler-conf FILE] [--json] [--scores] [--passes N]",
                               "run one scheduling cycle of a scheduler profile on a snapshot", runCycle}};

} // namespace

} // namespace gantry::cli
