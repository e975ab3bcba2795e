// gantry export --from INPUT --target volcano|yunikorn|kueue --out DIR: turns a snapshot (with
// queues of any of the three schedulers) into validated manifests for the target scheduler.
// Either every file is written, or none is and the exit status says why.
#include "command.h"
#include "export/export.h"
#include "input_error.h"
#include "input_loader.h"

#include <filesystem>
#include <iostream>

namespace gantry::cli {

namespace {

const char* kUsage =
    "Usage: gantry export --from INPUT... --target volcano|yunikorn|kueue --out DIR [options]\n\n"
    "Exports the queues, quotas, topology, priorities and what-if workloads of INPUT as manifests for\n"
    "the target scheduler. INPUT is a Kubernetes snapshot (kubectl get -o yaml|json, with Volcano\n"
    "Queues, Kueue ClusterQueues/Cohorts or a YuniKorn yunikorn-configs ConfigMap; --from may be\n"
    "repeated to merge several files), a Gantry inventory, or a project (.gantry). Every object is\n"
    "validated against the bundled CRDs and the scheduler's\n"
    "rules before anything is written; on any error nothing is written.\n\n"
    "Options:\n"
    "  --single-file            one multi-document file DIR/<target>.yaml instead of one file per kind\n"
    "  --no-workloads           leave out the job templates of the what-if workloads\n"
    "  --volcano-namespace NS   namespace of the Volcano scheduler ConfigMap (volcano-system)\n"
    "  --yunikorn-namespace NS  namespace of yunikorn-configs (yunikorn)\n"
    "  --quiet                  print only errors\n\n"
    "DIR/export-report.txt lists the files written, the notes and every lossy step (docs/quota-mapping.md).\n"
    "Exit status: 0 written, 1 usage, 2 bad input or validation errors (nothing written), 3 write failure.\n";

int runExport(const Args& args) {
    std::vector<std::string> inputs;
    std::string target, out;
    ExportOptions options;
    bool quiet = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> std::optional<std::string> {
            return i + 1 < args.size() ? std::optional<std::string>(args[++i]) : std::nullopt;
        };
        if (a == "--help" || a == "-h") {
            std::cout << kUsage;
            return Ok;
        } else if (a == "--from" || a == "--target" || a == "--out" || a == "--volcano-namespace" ||
                   a == "--yunikorn-namespace") {
            auto v = value();
            if (!v) return usageError("export", a + " needs a value");
            if (a == "--from")
                inputs.push_back(*v);
            else if (a == "--target")
                target = *v;
            else if (a == "--out")
                out = *v;
            else if (a == "--volcano-namespace")
                options.volcanoNamespace = *v;
            else
                options.yunikornNamespace = *v;
        } else if (a == "--single-file") {
            options.layout = ExportLayout::SingleFile;
        } else if (a == "--no-workloads") {
            options.workloads = false;
        } else if (a == "--quiet" || a == "-q") {
            quiet = true;
        } else {
            return usageError("export", "unexpected argument " + a);
        }
    }
    if (inputs.empty()) return usageError("export", "--from INPUT is required");
    if (out.empty()) return usageError("export", "--out DIR is required");
    auto t = targetSchedulerFromString(target);
    if (!t) return usageError("export", "--target must be volcano, yunikorn or kueue");
    options.target = *t;

    Project project;
    try {
        LoadedInput loaded = loadInputs(inputs);
        for (const auto& d : loaded.warnings)
            if (!quiet) std::cerr << d.str() << '\n';
        project = std::move(loaded.project);
    } catch (const InputError& e) {
        std::cerr << e.what() << '\n' << "gantry export: nothing written\n";
        return BadInput;
    }
    project.target = options.target;

    ExportBundle bundle = exportProject(project, options);
    ExportResult result;
    try {
        result = writeExport(bundle, out, options.layout);
    } catch (const std::exception& e) {
        std::cerr << "gantry export: " << e.what() << "\ngantry export: nothing written\n";
        return RuntimeFailure;
    }
    if (!result.written) {
        for (const auto& d : result.diagnostics)
            if (d.severity == Severity::Error) std::cerr << d.str() << '\n';
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
