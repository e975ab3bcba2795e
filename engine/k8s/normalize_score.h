#pragma once
// The scheduler framework's helper.DefaultNormalizeScore.
#include "k8s/node_info.h"

#include <cstdint>
#include <vector>

namespace gantry::engine::k8s {

// Scales the scores to 0..kMaxNodeScore by their maximum; `reverse`: the lowest scores best.
void defaultNormalize(std::vector<int64_t>& scores, bool reverse);

} // namespace gantry::engine::k8s
