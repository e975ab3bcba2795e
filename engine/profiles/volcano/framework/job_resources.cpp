#include "profiles/volcano/framework/job_resources.h"

#include <algorithm>

namespace gantry::engine {

VResource jobAllocated(const ClusterState& state, uint32_t j) {
    const auto& job = state.jobs[j];
    VResource r(state.D());
    if (job.allocated.empty()) return r;
    r.cpu = double(job.allocated[kCpu]);
    r.mem = double(job.allocated[kMemory]);
    for (int d = 2; d < state.D(); ++d)
        if ((job.requestMask >> d) & 1u) r.set(d, double(job.allocated[size_t(d)]));
    return r;
}

VResource deductSchedulingGated(const ClusterState& state, uint32_t j, VResource res) {
    const auto& job = state.jobs[j];
    if (job.schedulingGatedTasks == 0) return res;
    VResource gated(state.D());
    for (uint32_t t : job.tasks)
        if (state.schedulingGated(t)) gated.add(state.shapeOf(t).vres);
    if (gated.isEmpty()) return res;
    res.cpu = std::max(res.cpu - gated.cpu, 0.0);
    res.mem = std::max(res.mem - gated.mem, 0.0);
    // A scalar the gated pods do not ask for stays as it is.
    for (uint64_t m = res.mask(); m; m &= m - 1) {
        const int d = __builtin_ctzll(m);
        if (gated.present(d)) res.set(d, std::max(res.get(d) - gated.get(d), 0.0));
    }
    return res;
}

VResource inqueueResource(const ClusterState& state, uint32_t j, const VResource& allocated) {
    const auto& job = state.jobs[j];
    VResource out(state.D());
    const int storage = state.dims.find(std::string(res::EphemeralStorage));
    for (uint64_t m = job.minResourcesMask; m; m &= m - 1) {
        const int d = __builtin_ctzll(m);
        const double min = job.minResources.get(d);
        if (d == kCpu || d == kMemory || d == kPods) {
            double reserved = min - allocated.get(d);
            if (reserved > 0) out.set(d, reserved);
            continue;
        }
        if (d == storage) continue; // not a scalar resource name upstream
        if (!allocated.present(d)) {
            out.set(d, min);
        } else if (min - allocated.get(d) > 0) {
            out.set(d, min - allocated.get(d));
        }
    }
    return deductSchedulingGated(state, j, std::move(out));
}

VResource elasticResource(const ClusterState& state, uint32_t j) {
    const auto& job = state.jobs[j];
    VResource min = job.hasMinResources ? job.minResources : VResource(state.D());
    return VResource::exceededPart(jobAllocated(state, j), min);
}

} // namespace gantry::engine
