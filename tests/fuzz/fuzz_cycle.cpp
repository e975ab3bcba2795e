// `gantry cycle` on a snapshot under one profile (GANTRY_FUZZ_PROFILE, one executable each): the
// snapshot read, the profile built from its own policy, one cycle, its JSON and its table. Bad input
// may be refused (InputError, or the profile declining a policy its scheduler would refuse); nothing
// may crash, hang or throw anything else.
#include "fuzz_target.h"
#include "input_error.h"
#include "profile/registry.h"
#include "snapshot/snapshot_importer.h"

#include <nlohmann/json.hpp>
#include <sstream>

GANTRY_FUZZ_TARGET(text) {
    gantry::Cluster cluster;
    gantry::Diagnostics diagnostics;
    try {
        gantry::SnapshotImporter importer;
        importer.addText(text, "fuzz.yaml");
        cluster = importer.finish(diagnostics);
        gantry::throwIfErrors(diagnostics);
    } catch (const gantry::InputError&) {
        return;
    }
    gantry::Project project;
    project.cluster = std::move(cluster);
    const gantry::engine::ProfileInfo* info = gantry::engine::findProfile(GANTRY_FUZZ_PROFILE);
    auto scheduler = info->make({project.cluster, gantry::policiesOf(project), {}}, &diagnostics);
    if (!scheduler) return; // the policy is one the scheduler refuses, with located errors
    auto state = gantry::engine::buildClusterState(project.cluster, &diagnostics, scheduler->buildOptions());
    gantry::engine::CycleOptions options;
    options.passes = 0;
    const auto result = scheduler->cycle(state, options);
    std::ostringstream table;
    scheduler->printCycle(table, result, options);
    (void)scheduler->cycleJson(result, options).dump();
}
