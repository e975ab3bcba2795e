#include "plan/sweep.h"

namespace gantry::plan {

std::vector<SweepPoint> sweepPoints(const SweepGrid& grid) {
    std::vector<SweepPoint> out;
    for (const auto& profile : grid.profiles)
        for (size_t v = 0; v < grid.policies.size(); ++v) {
            if (!grid.policies[v].profile.empty() && grid.policies[v].profile != profile) continue;
            for (int64_t n : grid.nodes)
                for (uint64_t seed : grid.seeds) out.push_back({out.size(), profile, v, n, seed});
        }
    return out;
}

} // namespace gantry::plan
