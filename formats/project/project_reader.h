#pragma once
// The studio's document (.gantry): a YAML file with apiVersion gantry.io/v1alpha1, kind Project, and
// the model written field by field (docs/project-file.md). Loading reports file:line:column: what.
#include "model/diagnostic.h"
#include "model/project.h"

#include <string>

namespace gantry {

// Throws InputError for syntax errors, wrong types, unknown keys and the cross-object errors of
// model/cluster_check.h; warnings (dangling references that are allowed) go to *warnings.
Project readProjectFile(const std::string& path, Diagnostics* warnings = nullptr);
Project readProject(const std::string& text, const std::string& name, Diagnostics* warnings = nullptr);

} // namespace gantry
