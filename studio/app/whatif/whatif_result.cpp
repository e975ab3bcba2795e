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

double WhatIfResult::timeMean(const std::vector<double>& series) const {
    if (series.empty()) return std::nan("");
    if (time.size() < 2 || series.size() < 2) return series.back();
    double area = 0, span = 0;
    for (size_t i = 0; i + 1 < series.size() && i + 1 < time.size(); ++i) {
        double dt = time[i + 1] - time[i];
        area += series[i] * dt;
        span += dt;
    }
    return span > 0 ? area / span : series.back();
}

double WhatIfResult::peak(const std::vector<double>& series) const {
    return series.empty() ? std::nan("") : *std::max_element(series.begin(), series.end());
}

} // namespace gantry::studio
