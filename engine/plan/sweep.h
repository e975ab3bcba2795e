#pragma once
// A sweep: a grid of what-ifs (profiles x policy variants x node counts x seeds), each point run on
// its own, so a grid can run on one machine's cores or as the pods of an Indexed Kubernetes Job and
// still give the same report. The grid file's format is in docs/planning.md.
#include "model/diagnostic.h"
#include "model/policy_settings.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gantry::plan {

// A policy to try: a scheduler configuration file for the profiles that read its format.
struct PolicyVariant {
    std::string name;
    std::string schedulerConf;           // path; empty = the project's own policy
    std::vector<PolicySetting> settings; // fields set on top of it (`set:`), in order
    std::string profile;                 // only for this profile; empty = every profile of the grid
    SourceRef source;
};

struct SweepGrid {
    std::string name;
    std::vector<std::string> inputs; // paths of the project, inventory or snapshot files
    std::string nodeType;            // a pool of the inputs' cluster; or
    std::string nodeTemplate;        // a file holding the Node to add
    std::vector<int64_t> nodes;      // counts to add (negative: remove); default {0}
    std::vector<std::string> profiles;
    std::vector<PolicyVariant> policies; // default: one "default" variant with the project's policy
    std::vector<uint64_t> seeds;
    std::optional<double> horizonSeconds, cycleSeconds;
    std::vector<std::string> slos; // optional: each point is judged against them in the report
    SourceRef source;
};

struct SweepPoint {
    size_t index = 0;
    std::string profile;
    size_t policy = 0; // into SweepGrid::policies
    int64_t nodes = 0;
    uint64_t seed = 0;
};

// The grid's points in their fixed order: by profile, then policy variant, node count and seed.
// Variants bound to another profile are left out of that profile's points.
std::vector<SweepPoint> sweepPoints(const SweepGrid& grid);

} // namespace gantry::plan
