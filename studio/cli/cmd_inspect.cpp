// gantry inspect FILE...: what Gantry reads from a snapshot, an inventory or a project.
#include "command.h"
#include "input_error.h"
#include "input_loader.h"
#include "report/cluster_summary.h"

#include <iostream>

namespace gantry::cli {

namespace {

const char* kHelp = R"(Usage: gantry inspect FILE...

Reads a Kubernetes snapshot (kubectl get -o yaml|json, several files are merged), a Gantry
inventory or a .gantry project, and prints what Gantry sees: nodes and GPUs by model, the topology,
the queue tree with its quotas, priority classes, pods bound and pending, workloads, the scheduler
policy, and every warning.

Exit codes: 0 read (warnings included), 1 usage error, 2 bad input (file:line:column: what), 3 failure.
)";

int runInspect(const Args& args) {
    std::vector<std::string> files;
    for (const auto& a : args) {
        if (a == "--help" || a == "-h") {
            std::cout << kHelp;
            return Ok;
        }
        if (a.size() > 1 && a[0] == '-') return usageError("inspect", "unknown option '" + a + "'");
        files.push_back(a);
    }
    if (files.empty()) return usageError("inspect", "no input file");
    LoadedInput in;
    try {
        in = loadInputs(files);
    } catch (const InputError& e) {
        for (const auto& d : e.all()) std::cerr << d.str() << '\n';
        return BadInput;
    }
    std::string origin = std::string(toString(in.kind)) + ":";
    for (const auto& f : in.files) origin += " " + f;
    auto summary = summarize(in.project);
    std::cout << formatSummary(in.project, summary, origin);
    std::cout << "\nWarnings: " << in.warnings.size() << "\n";
    for (const auto& w : in.warnings) std::cout << "  " << w.str() << '\n';
    return Ok;
}

const CommandRegistration registration{
    {"inspect", "FILE...", "summarise a snapshot, inventory or project", runInspect}};

} // namespace

} // namespace gantry::cli
