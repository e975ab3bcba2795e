#include "profile/object_measures.h"

#include <algorithm>
#include <cmath>

namespace gantry::engine {

namespace {
constexpr std::string_view kSeconds = "_seconds";
}

bool isDurationMeasure(const std::string& key) {
    return key.size() > kSeconds.size() && key.ends_with(kSeconds);
}

std::string measureLabel(const std::string& key) {
    std::string label = isDurationMeasure(key) ? key.substr(0, key.size() - kSeconds.size()) : key;
    for (char& c : label)
        if (c == '_') c = ' ';
    if (size_t at = label.find(" pct "); at != std::string::npos) label.replace(at, 5, " % ");
    return label;
}

SeriesSummary summarizeSeries(const std::vector<double>& values) {
    SeriesSummary s;
    for (double x : values) {
        if (std::isnan(x)) continue;
        s.peak = s.samples++ == 0 ? x : std::max(s.peak, x);
        s.mean += x;
    }
    if (s.samples > 0) s.mean /= double(s.samples);
    return s;
}

} // namespace gantry::engine
