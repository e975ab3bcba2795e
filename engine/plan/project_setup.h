#pragma once
// The what-if a plan searches over, taken from a project the way every front end takes it (`gantry
// plan`, `gantry sweep`, the studio's Plan view): the project's simulation settings for a profile,
// and its policy fitted once to the workload.
#include "model/diagnostic.h"
#include "model/project.h"
#include "plan/planner.h"

#include <string>
#include <vector>

namespace gantry::plan {

// The project's settings for a profile: its seed, its cycle (1 s when unset), horizon and policies.
sim::SimOptions projectOptions(const Project& project, const std::string& profile);

// Fits setup.options' policy to the workload as setup.options.seed draws it: what the policy needs
// (shared GPUs) does not change with the seed or the nodes, so once is enough. Returns that draw;
// `drawn` is the setup's cluster as the draw left it (its what-if jobs moved into the workload).
// Appends what Gantry added to the policy to *notes and the workload's warnings to *warnings.
sim::SimWorkload fitToWorkload(WhatIfSetup& setup, Cluster& drawn, const SourceRef& where,
                               std::vector<std::string>* notes, Diagnostics* warnings);

} // namespace gantry::plan
