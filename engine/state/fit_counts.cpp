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
    fitSlot[shape] = int32_t(fitShapes.size());
    fitShapes.push_back(shape);
    std::vector<int32_t> perNode(nodes.size());
    int64_t total = 0;
    for (uint32_t n = 0; n < nodes.size(); ++n) {
        perNode[n] = int32_t(podsFitting(shapes[shape], n));
        total += perNode[n];
    }
    fitTotal.push_back(total);
    nodeFits.push_back(std::move(perNode));
}

void ClusterState::updateFits(uint32_t node) {
    for (size_t i = 0; i < fitShapes.size(); ++i) {
        const int32_t now = int32_t(podsFitting(shapes[fitShapes[i]], node));
        fitTotal[i] += now - nodeFits[i][node];
        nodeFits[i][node] = now;
    }
}

} // namespace gantry::engine
