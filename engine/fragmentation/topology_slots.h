#pragma once
// Room for large jobs at each topology level: for jobs of 8, 16, 32 and 64 GPUs, how many could start
// right now with every pod inside one domain of the level (one node, one NVLink domain, one rack,
// one block, one zone). A node takes pods of p = min(N, its device count) whole GPUs, so it offers
// floor(free whole devices / p) * p GPUs to jobs of N (none when its CPU or memory left strands its
// GPUs); a domain holds floor(what its nodes offer / N) such jobs. A coarser level never holds fewer
// than the finer levels inside it. "Can a 64-GPU job fit in one rack?" is slots > 0 at the rack level.
#include "fragmentation/gpu_node.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace gantry::frag {

inline constexpr std::array<int32_t, 4> kSlotSizes{8, 16, 32, 64};

struct LevelSlots {
    std::string level;   // "node", then the cluster's levels from the lowest ("nvlink", "rack", ...)
    int32_t domains = 0; // domains at this level (nodes without the level's label are left out)
    std::array<int64_t, kSlotSizes.size()> jobs{}; // per kSlotSizes entry: jobs of that size that fit
};

// domainOf[l][n]: the domain of node n at level l (-1 = the node has no such label); nodeGpus[n]: its
// devices; freeWhole[n]: its fully free devices; usable[n]: whether its CPU and memory left can take
// a GPU pod.
std::vector<LevelSlots> topologySlots(std::span<const std::string> levels,
                                      std::span<const std::vector<int32_t>> domainOf,
                                      std::span<const int32_t> nodeGpus, std::span<const int32_t> freeWhole,
                                      std::span<const uint8_t> usable);

} // namespace gantry::frag
