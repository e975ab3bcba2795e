#include "plan/project_setup.h"

#include "sim/whatif.h"

namespace gantry::plan {

sim::SimOptions projectOptions(const Project& project, const std::string& profile) {
    sim::SimOptions options;
    options.profile = profile;
    options.seed = project.simulation.seed;
    options.cycleSeconds = project.simulation.cycleSeconds > 0 ? project.simulation.cycleSeconds : 1.0;
    options.horizonSeconds = project.simulation.horizonSeconds;
    options.policies = policiesOf(project);
    return options;
}

sim::SimWorkload fitToWorkload(WhatIfSetup& setup, Cluster& drawn, const SourceRef& where,
                               std::vector<std::string>* notes, Diagnostics* warnings) {
    drawn = setup.cluster;
    sim::SimWorkload workload =
        sim::projectWorkload(setup.workloads, drawn, setup.timing, setup.options.seed);
    warnings->insert(warnings->end(), workload.warnings.begin(), workload.warnings.end());
    sim::fitPolicy(setup.options, workload, where, notes, warnings);
    return workload;
}

} // namespace gantry::plan
