#pragma once
// The apiVersion of Gantry's own files: the inventory (docs/inventory.md) and the project file
// (docs/project-file.md).

namespace gantry {

inline constexpr const char* kGantryApiVersion = "gantry.io/v1alpha1";

} // namespace gantry
