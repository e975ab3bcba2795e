// `gantry simulate` on a snapshot under one profile (GANTRY_FUZZ_PROFILE, one executable each): the
// snapshot read, its what-if jobs set up as the CLI and the studio set them up (sim::projectWorkload,
// sim::fitPolicy), two simulated hours in cycles of ten seconds. Bad input may be refused
// (InputError, or the simulator declining a policy its scheduler would refuse: invalid_argument);
// nothing may crash, hang or throw anything else.
#include "fuzz_target.h"
#include "input_error.h"
#include "sim/whatif.h"
#include "snapshot/snapshot_importer.h"

#include <stdexcept>

GANTRY_FUZZ_TARGET(text) {
    gantry::Project project;
    gantry::Diagnostics diagnostics;
    try {
        gantry::SnapshotImporter importer;
        importer.addText(text, "fuzz.yaml");
        project.cluster = importer.finish(diagnostics);
        gantry::throwIfErrors(diagnostics);
    } catch (const gantry::InputError&) {
        return;
    }
    gantry::sim::SimOptions options;
    options.profile = GANTRY_FUZZ_PROFILE;
    options.policies = gantry::policiesOf(project);
    options.cycleSeconds = 10;
    options.horizonSeconds = 7200;
    options.sampleSeconds = 600;
    gantry::sim::TimingDefaults timing;
    timing.duration = gantry::DurationDistribution{}; // jobs without a duration run an hour: some finish
    timing.duration->meanSeconds = 3600;
    gantry::Cluster cluster = project.cluster;
    const auto workload = gantry::sim::projectWorkload(project.workloads, cluster, timing, 42);
    gantry::sim::fitPolicy(options, workload, gantry::SourceRef{"fuzz.yaml", 0, 0, 0}, nullptr, &diagnostics);
    try {
        (void)gantry::sim::simulate(cluster, workload, options, &diagnostics);
    } catch (const std::invalid_argument&) {
    }
}
