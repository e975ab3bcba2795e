#include "sim/result.h"

#include <algorithm>
#include <cmath>

namespace gantry::sim {

double percentileOfSorted(const std::vector<double>& sorted, double p) {
    if (sorted.empty()) return 0;
    const double pos = double(sorted.size() - 1) * std::clamp(p, 0.0, 100.0) / 100.0;
    const size_t lo = size_t(std::floor(pos));
    const size_t hi = std::min(lo + 1, sorted.size() - 1);
    const double frac = pos - double(lo);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

Distribution distributionOf(std::vector<double> values) {
    Distribution d;
    d.count = int64_t(values.size());
    if (values.empty()) return d;
    std::sort(values.begin(), values.end());
    double sum = 0;
    for (double v : values) sum += v;
    d.mean = sum / double(values.size());
    d.p50 = percentileOfSorted(values, 50);
    d.p95 = percentileOfSorted(values, 95);
    d.p99 = percentileOfSorted(values, 99);
    d.max = values.back();
    return d;
}

} // namespace gantry::sim
