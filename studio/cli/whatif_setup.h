#pragma once
// Loading the what-if the planning commands (`gantry plan`, `gantry sweep`) search over, the way
// `gantry simulate` loads it: the inputs, the profile's policy (the project's, or --scheduler-conf),
// fitted to the workload; the simulation settings of the project unless the command line sets them.
#include "model/diagnostic.h"
#include "model/node.h"
#include "model/policy_settings.h"
#include "plan/planner.h"

#include <optional>
#include <string>
#include <vector>

namespace gantry::cli {

struct WhatIfChoice {
    std::vector<std::string> inputs;
    std::string profile = "volcano";
    std::string schedulerConf; // empty: the project's policy
    std::optional<double> cycleSeconds, horizonSeconds;
    std::vector<PolicySetting> settings; // fields set on the policy afterwards (a sweep's variant)
};

struct LoadedWhatIf {
    plan::WhatIfSetup setup;
    std::string input;              // "inventory gpu-cloud-east.yaml", for reports
    uint64_t projectSeed = 42;      // the project's seed: the first of the seeds by default
    std::vector<std::string> notes; // what Gantry added to the policy for the workload
    Diagnostics warnings;           // the inputs', the workload's and the policy's
};

// Throws InputError (located) for bad input or a policy the profile cannot run, and
// std::invalid_argument for an unknown profile.
LoadedWhatIf loadWhatIf(const WhatIfChoice& choice);

// `--node-template FILE`: a file holding one Node (a Kubernetes Node manifest, or a snapshot or
// inventory with exactly one node). Throws InputError.
Node readNodeTemplate(const std::string& path);

} // namespace gantry::cli
