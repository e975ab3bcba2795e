#include "fragmentation/mig_idle.h"

#include "model/gpu_exposure.h"

#include <algorithm>

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

MigFragment migFragment(const engine::ClusterState& state, uint32_t node, const std::vector<MigDim>& dims,
                        const TargetWorkload& workload) {
    MigFragment out;
    const int64_t* idle = state.nodeRow(state.idle, node);
    auto milli = [&](const MigDim& m) {
        return std::max<int64_t>(idle[m.dim] / 1000, 0) * m.computeSlices * 1000 / 7;
    };
    for (const MigDim& m : dims) out.free += milli(m);
    if (out.free == 0) return out;
    for (const auto& ws : workload.shapes) {
        const TaskShape& t = ws.shape;
        int64_t usable = 0;
        if (t.migDim >= 0 && t.migAmount <= idle[t.migDim] && t.cpuMilli <= idle[engine::kCpu])
            for (const MigDim& m : dims)
                if (m.dim == t.migDim) usable = milli(m);
        out.fragmented += ws.weight * double(out.free - usable);
    }
    return out;
}

int singleStrategySlices(const engine::ClusterState& state, uint32_t node) {
    const GpuDevices& gpus = state.nodes[node].gpus;
    if (gpus.exposure != "mig-single" || gpus.mig.size() != 1) return 0;
    const auto profile = parseMigProfile(gpus.mig[0].profile);
    return profile ? std::clamp(profile->computeSlices, 1, 7) : 0;
}

int64_t migModeGpuMilli(const engine::ClusterState& state, uint32_t node) {
    const GpuDevices& gpus = state.nodes[node].gpus;
    if (!gpus.exposure.empty() || gpus.mig.empty()) return 0;
    return int64_t(std::max(gpus.physicalGpus() - gpus.count, 0)) * 1000;
}

} // namespace gantry::frag
