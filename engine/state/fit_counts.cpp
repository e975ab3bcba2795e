// How many pods of a shape the nodes' future idle resources could take, by request alone.
#include "state/cluster_state.h"

#include <algorithm>

namespace gantry::engine {

namespace {
constexpr int64_t kFitCap = int64_t(1) << 30; // a shape that asks for nothing fits without bound
}

int64_t ClusterState::podsFitting(const PodShape& shape, uint32_t node) const {
    // The same comparison as allocate's future-idle check (NodeSearch::fitsFutureIdle), repeated:
    // each pod placed takes its request off the future idle.
    const int64_t* idl = nodeRow(idle, node);
    const int64_t* rel = nodeRow(releasing, node);
    const int64_t* pip = nodeRow(pipelined, node);
    int64_t fits = kFitCap;
    auto limit = [&](int d) {
        const int64_t request = shape.request[size_t(d)];
        const int64_t free = idl[d] + rel[d] - pip[d];
        if (request > free)
            fits = 0;
        else if (request > 0)
            fits = std::min(fits, free / request);
    };
    limit(kCpu);
    limit(kMemory);
    for (uint64_t m = shape.presentMask; m; m &= m - 1) limit(__builtin_ctzll(m));
    return fits;
}

void ClusterState::trackFits(uint32_t shape) {
    if (fitSlot.size() < shapes.size()) fitSlot.resize(shapes.size(), -1);
    if (fitSlot[shape] >= 0) return;
    fitSlot[shape] = int32_t(fitTracks.size());
    FitTrack& f = fitTracks.emplace_back();
    f.shape = shape;
    f.perNode.assign(nodes.size(), 0);
    f.positions.assign(nodes.size(), -1);
    if (hyperNodes.size() > 1) f.perHyperNode.assign(hyperNodes.size(), 0);
    for (uint32_t n = 0; n < nodes.size(); ++n) setFit(f, n, int32_t(podsFitting(shapes[shape], n)));
}

void ClusterState::setFit(FitTrack& f, uint32_t node, int32_t now) {
    f.total += now - f.perNode[node];
    if (!f.perHyperNode.empty())
        for (int32_t h : nodes[node].hyperNodes) f.perHyperNode[size_t(h)] += now - f.perNode[node];
    f.perNode[node] = now;
    int32_t& at = f.positions[node];
    if (now > 0 && at < 0) {
        at = int32_t(f.nodes.size());
        f.nodes.push_back(node);
    } else if (now == 0 && at >= 0) {
        const uint32_t last = f.nodes.back();
        f.nodes[size_t(at)] = last;
        f.positions[last] = at;
        f.nodes.pop_back();
        at = -1;
    }
}

int64_t ClusterState::fitCountWithin(uint32_t shape, int32_t tier) const {
    const FitTrack& f = fitTracks[size_t(fitSlot[shape])];
    int64_t most = 0;
    for (size_t h = 0; h < f.perHyperNode.size(); ++h)
        if (hyperNodes[h].tier <= tier) most = std::max(most, f.perHyperNode[h]);
    return most;
}

void ClusterState::updateFits(uint32_t node) {
    for (FitTrack& f : fitTracks) setFit(f, node, int32_t(podsFitting(shapes[f.shape], node)));
}

} // namespace gantry::engine
