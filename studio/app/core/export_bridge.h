#pragma once
// The Export tab's view of the exporters: build the manifests of one target from the project,
// validate them, and only then write them. Nothing is written while an error remains.
#include "export/export.h"
#include "model/diagnostic.h"
#include "model/project.h"

#include <QString>
#include <QStringList>
#include <string>
#include <vector>

namespace gantry::studio {

struct ExportFile {
    QString name;         // relative to the output folder
    std::string contents; // YAML
};

struct ExportIssue {
    enum class Kind { Error, Warning, Lossy, Note };
    Kind kind = Kind::Error;
    QString object; // "Queue team-a", "ClusterQueue research"
    QString field;  // "spec.deserved[nvidia.com/gpu]"
    QString message;
    QString where; // file:line:column of the source object or the rendered file, when known
};

struct ExportPlan {
    TargetScheduler target = TargetScheduler::Volcano;
    std::vector<ExportFile> files;
    std::vector<ExportIssue> issues;
    QString unavailable; // set when this build cannot export at all
    ExportBundle bundle; // what the exporter built (written by writeExport)
    ExportLayout layout = ExportLayout::PerKind;
    bool hasErrors() const;
};

// `inputWarnings`: what reading the project's source left out; listed as lossy and in the report.
ExportPlan planExport(const Project& project, TargetScheduler target, bool singleFile,
                      const Diagnostics& inputWarnings = {});
// The errors `gantry validate` finds in the target's export of `after` and not in that of `before`
// ("object, field: message"): what an edit of a policy form would bring.
QStringList exportErrorsAdded(const Project& before, const Project& after, TargetScheduler target);

// Validates again and writes every file (and export-report.txt) atomically into dir, created if
// needed; nothing is left behind on failure. Returns the files written; throws std::runtime_error
// with the reason otherwise.
QStringList writeExportPlan(const ExportPlan& plan, const QString& dir);

} // namespace gantry::studio
