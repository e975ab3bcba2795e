#include "whatif/whatif_result.h"

#include <algorithm>
#include <cmath>

namespace gantry::studio {

double WhatIfResult::percentile(std::vector<double> values, double p) {
    if (values.empty()) return std::nan("");
    std::sort(values.begin(), values.end());
    // Nearest-rank, as most latency dashboards report it.
    double rank = std::ceil(p / 100.0 * double(values.size()));
    size_t i = size_t(std::clamp(rank, 1.0, double(values.size()))) - 1;
    return values[i];
}

} // namespace gantry::studio
