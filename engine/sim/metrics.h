#pragma once
// A simulation's figures by name: the one vocabulary the planner's service levels, the sweep's
// reports and comparisons use. Names follow the keys `gantry simulate --json` prints, dotted
// ("wait.p95" is wait_seconds.p95, "gpu.mean_allocation_pct" is gpu.mean_allocation_pct), with a
// queue's, a priority's or a namespace's figures as "queue[pretrain].wait.p95",
// "priority[1000].wait.p95" and "namespace[vision].wait.p95".
// Durations are seconds, shares are percent. docs/planning.md lists them all.
#include "sim/result.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gantry::sim {

enum class MetricUnit { Seconds, Percent, Count, GpuHours, Gpus };

// Which part of a result a metric reads: the whole run, one queue, one priority value or the jobs
// of one namespace.
enum class MetricScope { Run, Queue, Priority, Namespace };

struct MetricInfo {
    std::string name; // without the scope: "wait.p95" (a queue's is written queue[NAME].wait.p95)
    MetricScope scope = MetricScope::Run;
    MetricUnit unit = MetricUnit::Count;
    std::string meaning;
};

// Every metric, the run's first, then the per-queue and per-priority forms, in a fixed order.
const std::vector<MetricInfo>& metricCatalog();

// A name resolved against the catalogue.
struct MetricRef {
    size_t entry = 0;  // into metricCatalog()
    std::string group; // the queue's or namespace's name, or the priority value; empty for the run's
    const MetricInfo& info() const { return metricCatalog()[entry]; }
    std::string name() const; // as written: "queue[pretrain].wait.p95"
    bool operator==(const MetricRef&) const = default;
};

// Reads "wait.p95", "queue[pretrain].wait.p95", "priority[1000].completion.p50". For a name that
// is not a metric, nullopt and *error says why (with the nearest name when one is close).
std::optional<MetricRef> parseMetric(std::string_view name, std::string* error);

// The value in a result; nullopt when the result has none (a queue it does not have, fragmentation
// that was not measured).
std::optional<double> metricValue(const SimResult& r, const MetricRef& metric);

// The run's metrics of a result in catalogue order (those it has no value for are left out).
std::vector<std::pair<std::string, double>> runMetrics(const SimResult& r);

// Every name for help texts and errors: the run's, then "queue[NAME].", "priority[N]." and
// "namespace[NAME]." forms.
std::vector<std::string> metricNames();

// Seconds as people write them: "42s", "12m30s", "1h5m" (whole seconds; fractions below a minute).
std::string formatSeconds(double seconds);
// A value in its unit: "1h5m", "71.3 %", "12", "3.5 GPU-hours".
std::string formatMetricValue(MetricUnit unit, double value);

} // namespace gantry::sim
