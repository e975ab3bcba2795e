// gantry export --from INPUT --target volcano|yunikorn|kueue --out DIR: turns a snapshot (with
// queues of any of the three schedulers) into validated manifests for the target scheduler.
// Either every file is written, or none is and the exit status says why.
#include "command.h"
#include "diagnostics_printer.h"
#include "export/export.h"
#include "input_error.h"
#include "input_loader.h"
#include "options.h"

#include <filesystem>
#include <iostream>

namespace gantry::cli {

namespace {

int runExport(const Args& args) {
    std::vector<std::string> inputs;
    std::string target, out;
    ExportOptions options;
    bool quiet = false, singleFile = false, noWorkloads = false;
    std::vector<std::string> targets;
    for (auto t : {TargetScheduler::Volcano, TargetScheduler::YuniKorn, TargetScheduler::Kueue})
        targets.push_back(toString(t));
    const OptionTable table{
        .command = "export",
        .about =
            "Exports the queues, quotas, topology, priorities and what-if workloads of INPUT as manifests "
            "for\n"
            "the target scheduler. INPUT is a Kubernetes snapshot (kubectl get -o yaml|json, with Volcano\n"
            "Queues, Kueue ClusterQueues/Cohorts or a YuniKorn yunikorn-configs ConfigMap; --from may be\n"
            "repeated to merge several files), a Gantry inventory, or a project (.gantry). Every object is\n"
            "validated against the bundled CRDs and the scheduler's rules before anything is written; on\n"
            "any error nothing is written.",
        .options =
            {
                {.names = {"--from"},
                 .metavar = "INPUT",
                 .value = Texts{&inputs},
                 .help = "snapshot, inventory or project to export; repeatable",
                 .required = true},
                {.names = {"--target"},
                 .value = Choice{&target, targets},
                 .help = "the scheduler the manifests are for",
                 .required = true},
                {.names = {"--out"},
                 .metavar = "DIR",
                 .value = Text{&out},
                 .help = "folder to write into",
                 .required = true},
                {.names = {"--single-file"},
                 .value = Switch{&singleFile},
                 .help = "one multi-document file DIR/<target>.yaml instead of one file per kind"},
                {.names = {"--no-workloads"},
                 .value = Switch{&noWorkloads},
                 .help = "leave out the job templates of the what-if workloads"},
                {.names = {"--volcano-namespace"},
                 .metavar = "NS",
                 .value = Text{&options.volcanoNamespace},
                 .help = "namespace of the Volcano scheduler ConfigMap (volcano-system)"},
                {.names = {"--yunikorn-namespace"},
                 .metavar = "NS",
                 .value = Text{&options.yunikornNamespace},
                 .help = "namespace of yunikorn-configs (yunikorn)"},
                {.names = {"--quiet", "-q"}, .value = Switch{&quiet}, .help = "print only errors"},
            },
        .epilog = "DIR/export-report.txt lists the files written, the notes and every lossy step "
                  "(docs/quota-mapping.md).\n"
                  "Exit status: 0 written, 1 usage, 2 bad input or validation errors (nothing written), 3 "
                  "write failure."};
    if (auto exit = parseCommandLine(table, args)) return *exit;
    if (singleFile) options.layout = ExportLayout::SingleFile;
    if (noWorkloads) options.workloads = false;
    options.target = *targetSchedulerFromString(target);

    Project project;
    Diagnostics inputWarnings;
    try {
        LoadedInput loaded = loadInputs(inputs);
        if (!quiet) printDiagnostics(loaded.warnings);
        project = std::move(loaded.project);
        inputWarnings = std::move(loaded.warnings);
    } catch (const InputError& e) {
        printDiagnostics(e.all());
        std::cerr << "gantry export: nothing written\n";
        return BadInput;
    }
    project.target = options.target;

    ExportBundle bundle = exportProject(project, options);
    bundle.inputWarnings = std::move(inputWarnings);
    ExportResult result;
    try {
        result = writeExport(bundle, out, options.layout);
    } catch (const std::exception& e) {
        std::cerr << "gantry export: " << e.what() << "\ngantry export: nothing written\n";
        return RuntimeFailure;
    }
    if (!result.written) {
        printDiagnostics(result.diagnostics, {.errorsOnly = true});
        std::cerr << "gantry export: the " << target << " manifests do not validate; nothing written to "
                  << out << '\n';
        return BadInput;
    }
    if (!quiet) std::cout << result.report;
    std::cout << "Wrote " << result.files.size() << " files to " << out << '\n';
    return Ok;
}

const CommandRegistration registration{{"export", "--from INPUT --target T --out DIR",
                                        "export validated Volcano, YuniKorn or Kueue manifests", runExport}};

} // namespace

} // namespace gantry::cli
