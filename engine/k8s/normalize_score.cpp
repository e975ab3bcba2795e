#include "k8s/normalize_score.h"

#include <algorithm>

namespace gantry::engine::k8s {

void defaultNormalize(std::vector<int64_t>& scores, bool reverse) {
    int64_t max = 0;
    for (int64_t v : scores) max = std::max(max, v);
    if (max == 0) {
        if (reverse)
            for (auto& v : scores) v = kMaxNodeScore;
        return;
    }
    for (auto& v : scores) {
        int64_t sc = kMaxNodeScore * v / max;
        v = reverse ? kMaxNodeScore - sc : sc;
    }
}

} // namespace gantry::engine::k8s
