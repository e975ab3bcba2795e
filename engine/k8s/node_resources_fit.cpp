#include "k8s/node_resources_fit.h"

#include "k8s/node_info.h"

#include <algorithm>
#include <cmath>

namespace gantry::engine::k8s {

namespace {

// The shape's scores are 0..10, scaled by `scale` here.
int64_t brokenLinear(const std::vector<std::pair<int64_t, int64_t>>& shape, int64_t scale, int64_t p) {
    for (size_t i = 0; i < shape.size(); ++i) {
        if (p <= shape[i].first) {
            if (i == 0) return shape[0].second * scale;
            const int64_t from = shape[i - 1].second * scale, to = shape[i].second * scale;
            return from + (to - from) * (p - shape[i - 1].first) / (shape[i].first - shape[i - 1].first);
        }
    }
    return shape.empty() ? 0 : shape.back().second * scale;
}

} // namespace

int64_t fitScore(const ClusterState& s, const FitScorer& f, uint32_t task, uint32_t node) {
    int64_t nodeScore = 0, weightSum = 0;
    for (const auto& [dim, weight] : f.resources) {
        if (dim < 0) continue;
        const int64_t req = podRequest(s, task, dim, f.useRequested);
        if (req == 0 && dim > kMemory && dim != s.dims.find(std::string(res::EphemeralStorage))) continue;
        const int64_t alloc = s.nodeRow(s.allocatable, node)[dim];
        if (alloc == 0) continue;
        const int64_t requested = nodeRequested(s, node, dim, f.useRequested) + req;
        int64_t score = 0;
        switch (f.strategy) {
        case FitStrategy::LeastAllocated:
            score = requested > alloc ? 0 : (alloc - requested) * kMaxNodeScore / alloc;
            break;
        case FitStrategy::MostAllocated:
            score = (std::min(requested, alloc)) * kMaxNodeScore / alloc;
            break;
        case FitStrategy::RequestedToCapacityRatio:
            score =
                brokenLinear(f.shape, kMaxNodeScore / 10, requested > alloc ? 100 : requested * 100 / alloc);
            if (score <= 0) continue;
            break;
        }
        nodeScore += score * weight;
        weightSum += weight;
    }
    if (weightSum == 0) return 0;
    if (f.strategy == FitStrategy::RequestedToCapacityRatio)
        return int64_t(std::llround(double(nodeScore) / double(weightSum)));
    return nodeScore / weightSum;
}

} // namespace gantry::engine::k8s
