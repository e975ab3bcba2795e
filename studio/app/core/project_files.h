#pragma once
// What the studio can open, and the bridge to the importers that read it and the writer that saves
// a project. Every failure is an exception whose message names the file, line and column.
#include "model/diagnostic.h"
#include "model/project.h"

#include <QString>
#include <QStringList>
#include <optional>

namespace gantry::studio {

enum class FileKind { Project, Snapshot, Inventory, SchedulerConf, Trace, Unknown };
QString toDisplayString(FileKind kind);

// CSV files are traces; everything else is told apart by the importers (detectInputKind: a
// .gantry or kind: Project is a project, kind: Inventory an inventory, actions/tiers a
// volcano-scheduler.conf, anything else a Kubernetes snapshot). Unknown when unreadable.
FileKind detectFileKind(const QString& path);

struct LoadedFile {
    Project project;
    FileKind kind = FileKind::Unknown;
    Diagnostics warnings;
    std::optional<SchedulerConf> schedulerConf; // kind SchedulerConf: a policy for the open project
};

// Reads a project, snapshot, inventory or trace into a project. Throws InputError (located) for
// bad content and std::runtime_error for a file that cannot be read.
LoadedFile loadFile(const QString& path);
// Several files that together make one cluster (e.g. nodes.yaml + pods.yaml + queues.yaml).
LoadedFile loadFiles(const QStringList& paths);
// A plan started from a cluster (a snapshot, an inventory, a live import) compares its policy with
// the default kube-scheduler, the baseline operators start from, unless it names a comparison.
void compareWithKubeScheduler(Project& project);
// Atomic save as a .gantry project. Throws std::runtime_error naming the path on failure.
void saveProject(const Project& project, const QString& path);

// File dialog filters.
QString openFilter();
QString projectFilter();

} // namespace gantry::studio
