#pragma once
// One entry point for "open these files", shared by `gantry inspect` and the studio: tells a
// Kubernetes snapshot from a Gantry inventory, a project file or a bare volcano-scheduler.conf, and
// turns what it reads into a Project.
#include "model/diagnostic.h"
#include "model/project.h"

#include <string>
#include <vector>

namespace gantry {

enum class InputKind { Snapshot, Inventory, Project, SchedulerConf };
const char* toString(InputKind kind);

// Looks at the file's name and the top-level keys of its first document (without parsing the whole
// file): `.gantry` or `kind: Project` with apiVersion gantry.io/... is a project, `kind: Inventory` an
// inventory, top-level `actions:` / `tiers:` a scheduler configuration, anything else a snapshot.
// Throws InputError when the file cannot be read.
InputKind detectInputKind(const std::string& path);
InputKind detectInputKindOfText(const std::string& text, const std::string& name);

struct LoadedInput {
    Project project;
    InputKind kind = InputKind::Snapshot;
    std::vector<std::string> files;
    Diagnostics warnings;
};

// One project, one inventory, or any number of snapshot files (merged). A snapshot's policy comes from
// its Volcano ConfigMap when it has one; the target scheduler is guessed from the queues it holds.
// Throws InputError (located) for bad input, including mixing a project or inventory with other files.
// The scheduler configurations a snapshot carried (Volcano's and Kueue's ConfigMaps) become the
// project's policy.
void adoptClusterPolicies(Project& project);

LoadedInput loadInputs(const std::vector<std::string>& paths);

} // namespace gantry
