#pragma once
// Saves a Project as a .gantry file (docs/project-file.md). Every field that differs from the model's
// default is written, so readProjectFile() gives back an equal Project. Saving is atomic.
#include "model/project.h"

#include <string>

namespace gantry {

std::string projectToYaml(const Project& project);
// Throws std::runtime_error naming the path and the OS reason; the old file is left untouched.
void writeProjectFile(const std::string& path, const Project& project);

} // namespace gantry
