#pragma once
// Gantry's YAML inventory: a short description of a cluster that does not exist yet (node pools laid
// out over zones, blocks, racks and NVLink domains), its queue tree with quotas, priority classes and
// what-if workload templates. The format is documented in docs/inventory.md; unknown keys are errors.
#include "gantry/api_version.h"
#include "model/cluster.h"
#include "model/workload.h"

#include <string>
#include <vector>

namespace gantry {

struct Inventory {
    Cluster cluster;
    std::string description;
    std::vector<WorkloadTemplate> workloads;
};

// Throws InputError (located) for anything wrong, including the cross-object checks of
// model/cluster_check.h; their warnings and the inventory's own go to *warnings.
Inventory readInventoryFile(const std::string& path, Diagnostics* warnings = nullptr);
Inventory readInventory(const std::string& text, const std::string& name, Diagnostics* warnings = nullptr);

// The kind that marks a file as an inventory (with kGantryApiVersion).
inline constexpr const char* kInventoryKind = "Inventory";

} // namespace gantry
