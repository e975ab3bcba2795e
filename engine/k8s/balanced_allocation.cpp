#include "k8s/balanced_allocation.h"

#include "k8s/node_info.h"

#include <cmath>

namespace gantry::engine::k8s {

bool balancedScore(const ClusterState& s, const std::vector<int>& dims, uint32_t task, uint32_t node,
                   int64_t* score) {
    bool any = false;
    for (int d : dims)
        if (d >= 0 && podRequest(s, task, d, true) != 0) any = true;
    if (!any) return false;
    double fractions[kMaxDims]; // scored per candidate node: no allocation
    size_t n = 0;
    double total = 0;
    for (int d : dims) {
        if (d < 0) continue;
        const int64_t req = podRequest(s, task, d, true);
        if (req == 0 && d > kMemory) continue;
        const int64_t alloc = s.nodeRow(s.allocatable, node)[d];
        if (alloc == 0) continue;
        double fr = double(s.nodeRow(s.k8sRequested, node)[d] + req) / double(alloc);
        if (fr > 1) fr = 1;
        total += fr;
        fractions[n++] = fr;
    }
    double std = 0;
    if (n == 2) {
        std = std::fabs((fractions[0] - fractions[1]) / 2);
    } else if (n > 2) {
        const double mean = total / double(n);
        double sum = 0;
        for (size_t i = 0; i < n; ++i) sum += (fractions[i] - mean) * (fractions[i] - mean);
        std = std::sqrt(sum / double(n));
    }
    *score = int64_t((1 - std) * double(kMaxNodeScore));
    return true;
}

} // namespace gantry::engine::k8s
