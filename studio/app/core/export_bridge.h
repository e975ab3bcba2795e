#pragma once
// The Export tab's view of the exporters: build the manifests of one target from the project,
// validate them, and only then write them. Nothing is written while an error remains.
#include <QString>
#include <string>
#include <vector>

#include "model/diagnostic.h"
#include "model/project.h"

namespace gantry::studio {

struct ExportFile {
    QString name;         // relative to the output folder
    std::string contents; // YAML
};

struct ExportIssue {
    enum class Kind { Error, Warning, Lossy };
    Kind kind = Kind::Error;
    QString object;  // "Queue team-a", "ClusterQueue research"
    QString field;   // "spec.deserved[nvidia.com/gpu]"
    QString message;
};

struct ExportPlan {
    TargetScheduler target = TargetScheduler::Volcano;
    std::vector<ExportFile> files;
    std::vector<ExportIssue> issues;
    QString unavailable; // set when this build cannot export at all
    QString report;      // the exporter's summary of what is written
    bool hasErrors() const;
};

ExportPlan planExport(const Project& project, TargetScheduler target, bool singleFile);
// Writes every file atomically into dir (created if needed). Throws std::runtime_error naming the
// file on failure, or when the plan has errors.
void writeExport(const ExportPlan& plan, const QString& dir);

} // namespace gantry::studio
