#pragma once
// The grid file of `gantry sweep` (kind: SweepGrid, docs/planning.md): which inputs, node counts,
// profiles, policy variants and seeds to run. Strict like an inventory: an unknown key, a bad value,
// an unknown profile or a malformed SLO is an error at its line and column.
#include "plan/sweep.h"

#include <string>

namespace gantry {

inline constexpr const char* kSweepGridKind = "SweepGrid";

// File paths in the grid (inputs, nodeTemplate, schedulerConf) are relative to the grid file's folder
// and come back resolved. `seeds: K` gives seeds 0 .. K-1 above `baseSeed` only when the grid is
// resolved against a project (resolveSeeds); the reader leaves SweepGrid::seeds empty and returns K.
struct SweepGridFile {
    plan::SweepGrid grid;
    int seedCount = 0; // from `seeds: K`; 0 when the grid lists its seeds
    std::string text;  // the file as read (for fingerprints)
};

SweepGridFile readSweepGridFile(const std::string& path);
SweepGridFile readSweepGrid(const std::string& text, const std::string& path);

// Fills grid.seeds from `seeds: K` with baseSeed, baseSeed + 1, ... (nothing when it lists them).
void resolveSeeds(SweepGridFile& file, uint64_t baseSeed);

} // namespace gantry
