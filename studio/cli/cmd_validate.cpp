// gantry validate FILE...: checks users' manifests before kubectl apply — Volcano, Kueue and
// YuniKorn objects, YuniKorn and Volcano scheduler ConfigMaps (or their bare files), in any mix —
// against the bundled CRDs and the schedulers' cross-object rules.
#include "command.h"
#include "options.h"
#include "validation/manifest_validator.h"

#include <iostream>

namespace gantry::cli {

namespace {

int runValidate(const Args& args) {
    std::vector<std::string> files;
    bool quiet = false;
    const OptionTable table{
        .command = "validate",
        .about =
            "Validates Kubernetes manifests (YAML or JSON, multi-document, v1 List) against the bundled\n"
            "CRD schemas of Volcano, Kueue and Kueue's topology, and Gantry's schemas for ConfigMap,\n"
            "PriorityClass, batch/v1 Job, YuniKorn queues.yaml and volcano-scheduler.conf (bare or in\n"
            "their ConfigMaps); then the schedulers' cross-object rules. Unknown fields are errors, as\n"
            "with kubectl apply --validate=strict.\n\n"
            "Every problem is printed on standard output as\n"
            "FILE:LINE:COLUMN: error|warning: document N, KIND NAME, FIELD: what.",
        .options = {{.names = {"--quiet", "-q"}, .value = Switch{&quiet}, .help = "print errors only"},
                    {.metavar = "FILE",
                     .value = Texts{&files},
                     .help = "manifests to validate; - reads standard input",
                     .required = true}},
        .epilog = "Exit status: 0 no errors (warnings allowed), 1 usage, 2 errors found."};
    if (auto exit = parseCommandLine(table, args)) return *exit;
    ManifestValidator validator;
    for (const auto& f : files) {
        if (f == "-") {
            std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
            validator.addText(text, "<stdin>");
        } else {
            validator.addFile(f);
        }
    }
    // The problems found are this command's result, so they go to stdout with the count (as
    // docs/validation.md shows), not to stderr as other commands' remarks on their input do.
    auto diagnostics = validator.run();
    size_t errors = 0, warnings = 0;
    for (const auto& d : diagnostics) {
        if (d.severity == Severity::Error)
            ++errors;
        else
            ++warnings;
        if (d.severity == Severity::Error || !quiet) std::cout << d.str() << '\n';
    }
    std::cout << files.size() << (files.size() == 1 ? " file, " : " files, ") << validator.documentCount()
              << (validator.documentCount() == 1 ? " document: " : " documents: ") << errors
              << (errors == 1 ? " error, " : " errors, ") << warnings
              << (warnings == 1 ? " warning\n" : " warnings\n");
    return errors > 0 ? BadInput : Ok;
}

const CommandRegistration registration{
    {"validate", "FILE...", "validate Volcano, Kueue and YuniKorn manifests against the real CRDs",
     runValidate}};

} // namespace

} // namespace gantry::cli
