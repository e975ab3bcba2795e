#include "fragmentation/topology_slots.h"

#include <algorithm>

namespace gantry::frag {

std::vector<LevelSlots> topologySlots(std::span<const std::string> levels,
                                      std::span<const std::vector<int32_t>> domainOf,
                                      std::span<const int32_t> nodeGpus, std::span<const int32_t> freeWhole,
                                      std::span<const uint8_t> usable) {
    std::vector<LevelSlots> out;
    const size_t nodes = freeWhole.size();
    std::vector<int64_t> offered;
    for (size_t l = 0; l < levels.size(); ++l) {
        LevelSlots row;
        row.level = levels[l];
        const auto& domain = domainOf[l];
        for (int32_t d : domain) row.domains = std::max(row.domains, d + 1);
        for (size_t s = 0; s < kSlotSizes.size(); ++s) {
            const int32_t size = kSlotSizes[s];
            offered.assign(size_t(row.domains), 0);
            for (size_t n = 0; n < nodes; ++n) {
                if (domain[n] < 0 || !usable[n]) continue;
                const int32_t perPod = std::max(1, std::min(size, nodeGpus[n]));
                offered[size_t(domain[n])] += int64_t(freeWhole[n] / perPod) * perPod;
            }
            for (int64_t gpus : offered) row.jobs[s] += gpus / size;
        }
        out.push_back(std::move(row));
    }
    return out;
}

} // namespace gantry::frag
