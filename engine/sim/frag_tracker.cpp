#include "sim/frag_tracker.h"

#include <cstdio>

namespace gantry::sim {

FragTracker::FragTracker(const engine::ClusterState& state, const SimWorkload& workload) : view_(state) {
    // Target workload: one counted shape per pod of each kind, times the kind's jobs.
    std::vector<int64_t> jobsOfKind(workload.kinds.size(), 0);
    for (const auto& j : workload.jobs) ++jobsOfKind[j.kind];
    std::vector<frag::WeightedShape> counted;
    for (size_t k = 0; k < workload.kinds.size(); ++k) {
        if (jobsOfKind[k] == 0) continue;
        for (const auto& p : workload.kinds[k].pods) {
            frag::WeightedShape w;
            w.shape = frag::taskShape(p.requests.get(res::Cpu), p.gpu, view_.models());
            w.count = jobsOfKind[k];
            counted.push_back(std::move(w));
        }
    }
    target_ = frag::targetWorkload(std::span<const frag::WeightedShape>(counted));
    cached_.assign(state.nodes.size(), frag::FragBuckets{});
    dirty_.assign(state.nodes.size(), 0);
    for (uint32_t n = 0; n < state.nodes.size(); ++n) touch(n);
}

frag::ClusterFragmentation FragTracker::measure() {
    for (uint32_t n : dirtyList_) {
        cached_[n] = frag::nodeFragBuckets(view_.node(n), target_);
        dirty_[n] = 0;
    }
    dirtyList_.clear();
    // Summed class by class, as clusterFragmentation does.
    frag::FragBuckets sum;
    for (const auto& b : cached_) sum += b;
    frag::ClusterFragmentation c;
    c.totalMilli = view_.totalGpuMilli();
    c.fragMilli = sum.fragmented();
    c.idleMilli = sum.idle();
    return c;
}

std::vector<std::string> FragTracker::describeTarget() const {
    std::vector<std::string> out;
    for (const auto& w : target_.shapes) {
        std::string s = std::to_string(w.shape.cpuMilli) + "m CPU";
        if (w.shape.gpuCount > 0)
            s += ", " + std::to_string(w.shape.gpuCount) + " x " + std::to_string(w.shape.gpuMilli) + "m GPU";
        if (!w.shape.gpuSpec.empty()) s += " (" + w.shape.gpuSpec + ")";
        char weight[32];
        std::snprintf(weight, sizeof weight, ": %.4f", w.weight);
        out.push_back(s + weight);
    }
    return out;
}

} // namespace gantry::sim
