#include "sim/frag_tracker.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace gantry::sim {

FragTracker::FragTracker(const engine::ClusterState& state, const SimWorkload& workload,
                         const std::vector<TopologyLevel>& levels)
    : view_(state), state_(state), migDims_(frag::migDims(state)) {
    // Target workload: one counted shape per pod of each kind, times the kind's jobs.
    std::vector<int64_t> jobsOfKind(workload.kinds.size(), 0);
    for (const auto& j : workload.jobs) ++jobsOfKind[j.kind];
    std::vector<frag::WeightedShape> counted;
    bool floorSeen = false;
    for (size_t k = 0; k < workload.kinds.size(); ++k) {
        if (jobsOfKind[k] == 0) continue;
        for (const auto& p : workload.kinds[k].pods) {
            frag::WeightedShape w;
            w.shape = frag::taskShape(p.requests.get(res::Cpu), p.gpu, view_.models());
            w.count = jobsOfKind[k];
            if (w.shape.gpuCount > 0) {
                const int64_t mem = p.requests.get(res::Memory) >> 20;
                floor_.cpuMilli = floorSeen ? std::min(floor_.cpuMilli, w.shape.cpuMilli) : w.shape.cpuMilli;
                floor_.memoryMiB = floorSeen ? std::min(floor_.memoryMiB, mem) : mem;
                floorSeen = true;
            }
            for (const auto& m : migDims_)
                if (const int64_t amount = p.requests.get(state.dims.name(m.dim)); amount > 0) {
                    migAsks_.push_back(
                        {m.dim, amount, p.requests.get(res::Cpu), p.requests.get(res::Memory)});
                    if (w.shape.migDim < 0) {
                        w.shape.migDim = m.dim;
                        w.shape.migAmount = amount;
                    }
                }
            counted.push_back(std::move(w));
        }
    }
    mig_.assign(migDims_.empty() ? 0 : state.nodes.size(), frag::MigIdle{});
    // Single strategy: the devices are instances, each its compute slices of a physical GPU.
    totalMilli_ = view_.totalGpuMilli();
    singleSlices_.assign(state.nodes.size(), 0);
    for (uint32_t n = 0; n < state.nodes.size(); ++n)
        if (const int slices = frag::singleStrategySlices(state, n); slices > 0) {
            singleSlices_[n] = int8_t(slices);
            totalMilli_ += int64_t(state.nodes[n].gpus.physicalGpus()) * 1000 -
                           int64_t(std::min(state.gpuCount(n), frag::kMaxGpusPerNode)) * frag::kMilliPerGpu;
        }
    migFragment_.assign(mig_.size(), frag::MigFragment{});
    if (!migDims_.empty())
        for (uint32_t n = 0; n < state.nodes.size(); ++n) migTotalMilli_ += frag::migModeGpuMilli(state, n);
    target_ = frag::targetWorkload(std::span<const frag::WeightedShape>(counted));
    cached_.assign(state.nodes.size(), frag::FragBuckets{});
    idle_.assign(state.nodes.size(), frag::IdleBreakdown{});
    // Topology levels: the node itself, then each labelled level from the lowest up.
    levelNames_.push_back("node");
    levelDomain_.emplace_back(state.nodes.size());
    for (uint32_t n = 0; n < state.nodes.size(); ++n) {
        levelDomain_[0][n] = state.gpuCount(n) > 0 ? int32_t(n) : -1;
    }
    for (auto level = levels.rbegin(); level != levels.rend(); ++level) {
        std::map<std::string, int32_t> ids;
        std::vector<int32_t> domain(state.nodes.size(), -1);
        for (uint32_t n = 0; n < state.nodes.size(); ++n) {
            auto it = state.nodes[n].labels.find(level->nodeLabel);
            if (it == state.nodes[n].labels.end() || state.gpuCount(n) == 0) continue;
            domain[n] = ids.emplace(it->second, int32_t(ids.size())).first->second;
        }
        if (ids.empty()) continue;
        levelNames_.push_back(level->name);
        levelDomain_.push_back(std::move(domain));
    }
    dirty_.assign(state.nodes.size(), 0);
    for (uint32_t n = 0; n < state.nodes.size(); ++n) touch(n);
}

frag::ClusterFragmentation FragTracker::measure() {
    for (uint32_t n : dirtyList_) {
        const frag::NodeState node = view_.node(n);
        cached_[n] = frag::nodeFragBuckets(node, target_);
        idleSum_ -= idle_[n];
        idle_[n] = frag::idleBreakdown(node, target_, floor_);
        if (const int s = singleSlices_[n]; s > 0) {
            for (double& b : cached_[n].milli) b = b * s / 7;
            for (int64_t* v :
                 {&idle_[n].stranded, &idle_[n].fractional, &idle_[n].scattered, &idle_[n].usable})
                *v = *v * s / 7;
        }
        idleSum_ += idle_[n];
        if (!mig_.empty()) {
            migSum_ -= mig_[n];
            mig_[n] = frag::migIdle(state_, n, migDims_, migAsks_);
            migSum_ += mig_[n];
            migFragment_[n] = frag::migFragment(state_, n, migDims_, target_);
        }
        dirty_[n] = 0;
    }
    dirtyList_.clear();
    // Summed class by class, as clusterFragmentation does.
    frag::FragBuckets sum;
    for (const auto& b : cached_) sum += b;
    frag::ClusterFragmentation c;
    c.totalMilli = totalMilli_ + migTotalMilli_;
    c.fragMilli = sum.fragmented();
    c.idleMilli = sum.idle();
    // The free MIG instances, after the whole GPUs (so those sums stay the FGD policy's).
    for (const auto& m : migFragment_) {
        c.fragMilli += m.fragmented;
        c.idleMilli += double(m.free);
    }
    return c;
}

std::vector<frag::LevelSlots> FragTracker::topologySlots() {
    std::vector<int32_t> nodeGpus(idle_.size()), freeWhole(idle_.size());
    std::vector<uint8_t> usable(idle_.size());
    for (uint32_t n = 0; n < idle_.size(); ++n) {
        const frag::NodeState node = view_.node(n);
        nodeGpus[n] = node.gpuCount;
        freeWhole[n] = node.fullyFreeGpus();
        usable[n] = !frag::strandsGpus(node, floor_);
    }
    return frag::topologySlots(levelNames_, levelDomain_, nodeGpus, freeWhole, usable);
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
