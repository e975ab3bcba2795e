#include "fragmentation/mig_idle.h"

#include "model/gpu_exposure.h"

namespace gantry::frag {

std::vector<MigDim> migDims(const engine::ClusterState& state) {
    std::vector<MigDim> out;
    for (int d = 0; d < state.D(); ++d) {
        const std::string profile = migProfileOfResource(state.dims.name(d));
        if (profile.empty()) continue;
        if (auto p = parseMigProfile(profile); p && p->computeSlices > 0)
            out.push_back({d, p->computeSlices});
    }
    return out;
}

MigIdle migIdle(const engine::ClusterState& state, uint32_t node, const std::vector<MigDim>& dims,
                const std::vector<MigAsk>& asks) {
    MigIdle out;
    const int64_t* idle = state.nodeRow(state.idle, node);
    for (const MigDim& m : dims) {
        const int64_t free = idle[m.dim] / 1000; // whole instances
        if (free <= 0) continue;
        bool asked = false;
        for (const MigAsk& a : asks)
            asked = asked || (a.dim == m.dim && a.amount <= idle[m.dim] && a.cpuMilli <= idle[engine::kCpu] &&
                              a.memoryBytes <= idle[engine::kMemory]);
        (asked ? out.usable : out.layout) += free * m.computeSlices * 1000 / 7;
    }
    return out;
}

} // namespace gantry::frag
