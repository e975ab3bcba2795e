// GPU devices per node: whether a task's GPU request fits, and which devices it takes.
#include "state/cluster_state.h"

#include <algorithm>

namespace gantry::engine {

bool ClusterState::gpuModelAllowed(uint32_t task, uint32_t node) const {
    const auto& models = shapes[tasks[task].shape].gpu.models;
    if (models.empty()) return true;
    const std::string& model = nodes[node].gpus.model;
    return std::find(models.begin(), models.end(), model) != models.end();
}

bool ClusterState::gpusFit(uint32_t task, uint32_t node) const {
    const GpuRequest& g = shapes[tasks[task].shape].gpu;
    if (g.count <= 0) return true;
    if (!gpuModelAllowed(task, node)) return false;
    const int32_t* row = gpuRow(node);
    int fitting = 0;
    for (int i = 0, n = gpuCount(node); i < n; ++i) fitting += row[i] >= g.milliPerGpu;
    return fitting >= g.count;
}

void ClusterState::acquireGpus(uint32_t task, uint32_t node) {
    auto& t = tasks[task];
    const GpuRequest& g = shapes[t.shape].gpu;
    const int n = gpuCount(node);
    const uint64_t hint = t.gpuMask; // devices the imported pod names
    t.gpuMask = 0;
    if (g.count <= 0 || n == 0) return;
    int32_t* row = gpuFree.data() + gpuOffset[node];
    const int32_t milli = g.milliPerGpu;
    int left = std::min(g.count, n);
    auto take = [&](int i) {
        t.gpuMask |= uint64_t(1) << i;
        row[i] -= milli;
        --left;
    };
    for (int i = 0; i < n && left > 0; ++i)
        if ((hint >> i) & 1u) take(i);
    while (left > 0) {
        int pick = -1;
        for (int i = 0; i < n; ++i) {
            if ((t.gpuMask >> i) & 1u) continue;
            if (milli >= kMilliGpu) {
                if (row[i] >= kMilliGpu) { // whole GPUs: the lowest free device
                    pick = i;
                    break;
                }
            } else if (row[i] >= milli && (pick < 0 || row[i] < row[pick])) { // shares: best fit
                pick = i;
            }
        }
        if (pick < 0) // nothing fits (imported overcommit): the device with the most room
            for (int i = 0; i < n; ++i)
                if (!((t.gpuMask >> i) & 1u) && (pick < 0 || row[i] > row[pick])) pick = i;
        take(pick);
    }
}

void ClusterState::releaseGpus(uint32_t task, uint32_t node) {
    auto& t = tasks[task];
    if (t.gpuMask == 0) return;
    int32_t* row = gpuFree.data() + gpuOffset[node];
    const int32_t milli = shapes[t.shape].gpu.milliPerGpu;
    for (uint64_t m = t.gpuMask; m; m &= m - 1) row[__builtin_ctzll(m)] += milli;
    t.gpuMask = 0;
}

} // namespace gantry::engine
