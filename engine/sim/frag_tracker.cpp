#include "sim/frag_tracker.h"

#include <algorithm>
#include <cstdio>

namespace gantry::sim {

using engine::kCpu;
using engine::kMemory;

FragTracker::FragTracker(const engine::ClusterState& state, const SimWorkload& workload) : st_(state) {
    nodeModel_.reserve(st_.nodes.size());
    for (uint32_t n = 0; n < st_.nodes.size(); ++n) {
        nodeModel_.push_back(models_.add(st_.nodes[n].gpus.model));
        totalMilli_ += int64_t(std::min(st_.gpuCount(n), frag::kMaxGpusPerNode)) * frag::kMilliPerGpu;
    }
    // Target workload: one counted shape per pod of each kind, times the kind's jobs.
    std::vector<int64_t> jobsOfKind(workload.kinds.size(), 0);
    for (const auto& j : workload.jobs) ++jobsOfKind[j.kind];
    std::vector<frag::WeightedShape> counted;
    for (size_t k = 0; k < workload.kinds.size(); ++k) {
        if (jobsOfKind[k] == 0) continue;
        for (const auto& p : workload.kinds[k].pods) {
            frag::WeightedShape w;
            w.shape = frag::taskShape(p.requests.get(res::Cpu), p.gpu, models_);
            w.count = jobsOfKind[k];
            counted.push_back(std::move(w));
        }
    }
    target_ = frag::targetWorkload(std::span<const frag::WeightedShape>(counted));
    cached_.assign(st_.nodes.size(), frag::FragBuckets{});
    dirty_.assign(st_.nodes.size(), 0);
    for (uint32_t n = 0; n < st_.nodes.size(); ++n) touch(n);
}

frag::NodeState FragTracker::nodeState(uint32_t n) const {
    const int64_t* idle = st_.nodeRow(st_.idle, n);
    const int64_t* alloc = st_.nodeRow(st_.allocatable, n);
    frag::NodeState s = frag::makeNode(alloc[kCpu], alloc[kMemory] >> 20,
                                       std::min(st_.gpuCount(n), frag::kMaxGpusPerNode), nodeModel_[n]);
    s.cpuLeft = std::max<int64_t>(idle[kCpu], 0);
    s.memoryLeft = std::max<int64_t>(idle[kMemory], 0) >> 20;
    const int32_t* row = st_.gpuRow(n);
    for (int g = 0; g < s.gpuCount; ++g)
        s.gpuLeft[size_t(g)] = int16_t(std::clamp(row[g], 0, frag::kMilliPerGpu));
    return s;
}

frag::ClusterFragmentation FragTracker::measure() {
    for (uint32_t n : dirtyList_) {
        cached_[n] = frag::nodeFragBuckets(nodeState(n), target_);
        dirty_[n] = 0;
    }
    dirtyList_.clear();
    // Summed class by class, as clusterFragmentation does.
    frag::FragBuckets sum;
    for (const auto& b : cached_) sum += b;
    frag::ClusterFragmentation c;
    c.totalMilli = totalMilli_;
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
