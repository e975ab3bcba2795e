// gantry inspect FILE...: what Gantry reads from a snapshot, an inventory or a project.
#include "command.h"
#include "diagnostics_printer.h"
#include "input_error.h"
#include "input_loader.h"
#include "options.h"
#include "report/cluster_summary.h"

#include <iostream>
#include <nlohmann/json.hpp>

namespace gantry::cli {

namespace {

int runInspect(const Args& args) {
    std::vector<std::string> files;
    bool json = false;
    const OptionTable table{
        .command = "inspect",
        .about =
            "Reads a Kubernetes snapshot (kubectl get -o yaml|json, several files are merged), a Gantry\n"
            "inventory or a .gantry project, and prints what Gantry sees: nodes and GPUs by model, the\n"
            "topology, the queue tree with its quotas, priority classes, pods bound and pending,\n"
            "workloads, the scheduler policy, and every warning.",
        .options = {{.section = "Input:",
                     .metavar = "FILE",
                     .value = Texts{&files},
                     .help = "snapshot, inventory or project files",
                     .required = true},
                    {.section = "Output:",
                     .names = {"--json"},
                     .value = Switch{&json},
                     .help = "one JSON object: nodes, GPUs (physical, by model, MIG instances by profile),\n"
                             "DRA objects, pods and the number of warnings"}},
        .epilog = "Exit codes: 0 read (warnings included), 1 usage error, 2 bad input (file:line:column: "
                  "what), 3 failure."};
    if (auto exit = parseCommandLine(table, args)) return *exit;
    LoadedInput in;
    try {
        in = loadInputs(files);
    } catch (const InputError& e) {
        printDiagnostics(e.all());
        return BadInput;
    }
    std::string origin = std::string(toString(in.kind)) + ":";
    for (const auto& f : in.files) origin += " " + f;
    auto summary = summarize(in.project);
    if (json) {
        std::cout << summaryJson(summary, in.warnings.size()).dump(2) << "\n";
        return Ok;
    }
    std::cout << formatSummary(in.project, summary, origin);
    std::cout << "\nWarnings: " << in.warnings.size() << "\n";
    for (const auto& w : in.warnings) std::cout << "  " << w.str() << '\n';
    return Ok;
}

const CommandRegistration registration{
    {"inspect", "FILE...", "summarise a snapshot, inventory or project", runInspect}};

} // namespace

} // namespace gantry::cli
