#pragma once
// Exports of a project (or an imported cluster) to Volcano, YuniKorn or Kueue manifests. Each
// exporter builds the objects in apply order plus the warnings for every step that loses something
// (docs/quota-mapping.md); writeExport() validates the whole set and writes nothing unless it is clean.
#include "manifest/document.h"
#include "model/diagnostic.h"
#include "model/project.h"

#include <string>
#include <vector>

namespace gantry {

enum class ExportLayout { PerKind, SingleFile };

struct ExportOptions {
    TargetScheduler target = TargetScheduler::Volcano;
    ExportLayout layout = ExportLayout::PerKind;
    std::string volcanoNamespace = "volcano-system"; // where the scheduler ConfigMap goes
    std::string yunikornNamespace = "yunikorn";      // where yunikorn-configs goes
    bool workloads = true;                           // workload templates of the what-if workloads
};

struct ExportedObject {
    Json object;
    std::string file; // relative to the output folder, for the per-kind layout
};

struct ExportBundle {
    TargetScheduler target = TargetScheduler::Volcano;
    std::vector<ExportedObject> objects; // in apply order
    Diagnostics warnings;                // lossy steps, each naming the queue (or object) and field
    std::vector<std::string> notes;      // what the operator should know (not losses)
    ResourceList clusterCapacity;        // the nodes' allocatable summed, for the checks against it
    // What reading the input warned about (a YuniKorn partition left out, a field Gantry does not
    // model): lost before the conversion began, so the report lists them with the lossy steps.
    Diagnostics inputWarnings;
};

ExportBundle exportVolcano(const Project& project, const ExportOptions& options);
ExportBundle exportYuniKorn(const Project& project, const ExportOptions& options);
ExportBundle exportKueue(const Project& project, const ExportOptions& options);
ExportBundle exportProject(const Project& project, const ExportOptions& options); // by options.target

struct ExportResult {
    bool written = false;
    std::vector<std::string> files; // written, relative to the output folder, report last
    Diagnostics diagnostics;        // validation problems (errors block) and the bundle's warnings
    std::string report;             // the text of export-report.txt
};

// The files a bundle becomes (name -> YAML text), without the report.
std::vector<std::pair<std::string, std::string>> renderExport(const ExportBundle& bundle,
                                                              ExportLayout layout);
// Validates every object of the bundle against the bundled CRDs and the cross-object rules.
Diagnostics validateExport(const ExportBundle& bundle, ExportLayout layout);
// Validates, then writes the files and export-report.txt into `outDir` (created if missing), each
// atomically. On any validation error, or if a write fails, no file of this export is left behind.
ExportResult writeExport(const ExportBundle& bundle, const std::string& outDir, ExportLayout layout);

} // namespace gantry
