#pragma once
// How the measures of a profile's objects (ObjectSeries) are named for people: the CLI's summary
// and the studio's table read them alike.
#include <cstddef>
#include <string>
#include <vector>

namespace gantry::engine {

// "usage_nvidia.com/gpu" -> "usage nvidia.com/gpu"; "mean_usage_pct_of_nominal_cpu" ->
// "mean usage % of nominal cpu"; a "..._seconds" measure loses its unit (it is shown as a duration).
std::string measureLabel(const std::string& key);
// A measure in seconds ("mean_time_to_admission_seconds").
bool isDurationMeasure(const std::string& key);

// A series over the run: mean and peak of the samples that have a value (NaN: none, as for a queue
// without a guarantee); `samples` 0 when no sample has one.
struct SeriesSummary {
    double mean = 0, peak = 0;
    size_t samples = 0;
};
SeriesSummary summarizeSeries(const std::vector<double>& values);

} // namespace gantry::engine
