#include "sim/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gantry::sim {

namespace {

struct Measure {
    const char* metric;
    const char* title;
    bool lowerIsBetter;
};

// The run's measures, in the order a reader weighs them.
constexpr Measure kRunMeasures[] = {
    {"gpu.mean_allocation_pct", "GPU allocation, mean", false},
    {"fragmentation.mean_pct", "GPU fragmentation (FGD), mean", true},
    {"wait.p50", "Wait p50, all jobs", true},
    {"wait.p95", "Wait p95, all jobs", true},
    {"completion.p50", "Completion p50, all jobs", true},
    {"completion.p95", "Completion p95, all jobs", true},
    {"jobs.completed", "Jobs completed", false},
    {"pending_at_end", "Jobs still waiting at the end", true},
    {"gang.partial_hold_gpu_hours", "GPU-hours held by half-started gangs", true},
    {"jobs.partial_at_end", "Gangs half-started at the end", true},
    {"preemption.pod_evictions", "Pods evicted", true},
    {"preemption.lost_gpu_hours", "GPU-hours of work lost to preemption", true},
};

constexpr Measure kQueueMeasures[] = {
    {"wait.p50", "Wait p50", true},
    {"wait.p95", "Wait p95", true},
};

// Differences too small to matter read as a tie: a second or 2 % of a wait, a tenth of a point, a
// tenth of a GPU-hour or 1 %, any whole count.
bool same(MetricUnit unit, double a, double b) {
    const double d = std::fabs(a - b), larger = std::max(std::fabs(a), std::fabs(b));
    switch (unit) {
    case MetricUnit::Seconds:
        return d < std::max(1.0, 0.02 * larger);
    case MetricUnit::Percent:
        return d < 0.1;
    case MetricUnit::GpuHours:
        return d < std::max(0.1, 0.01 * larger);
    default:
        return d < 0.5;
    }
}

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, v == std::floor(v) && std::fabs(v) < 1e15 ? "%.0f" : "%.1f", v);
    return buf;
}

// How far the winner is ahead of the runner-up, in the measure's own terms.
std::string margin(const Verdict& v, double best, double next) {
    const bool lower = v.lowerIsBetter;
    switch (v.unit) {
    case MetricUnit::Seconds:
        if (best > 0 && next > 0) {
            char buf[48];
            std::snprintf(buf, sizeof buf, "%.1fx %s", lower ? next / best : best / next,
                          lower ? "shorter" : "longer");
            return buf;
        }
        return formatSeconds(std::fabs(next - best)) + (lower ? " shorter" : " longer");
    case MetricUnit::Percent:
        return number(std::fabs(best - next)) + (lower ? " points lower" : " points higher");
    default:
        return number(std::fabs(best - next)) + (lower ? " fewer" : " more");
    }
}

void decide(Verdict& v, const std::vector<ProfileRun>& runs) {
    std::vector<size_t> have;
    for (size_t i = 0; i < v.values.size(); ++i)
        if (v.values[i]) have.push_back(i);
    if (have.empty()) return;
    auto better = [&](double a, double b) { return v.lowerIsBetter ? a < b : a > b; };
    size_t best = have.front();
    for (size_t i : have)
        if (better(*v.values[i], *v.values[best])) best = i;
    const double top = *v.values[best];
    std::vector<size_t> tied, rest;
    for (size_t i : have) (same(v.unit, *v.values[i], top) ? tied : rest).push_back(i);
    const std::string shown = formatMetricValue(v.unit, top);
    if (rest.empty()) {
        v.text = "tie: " + shown +
                 (have.size() == runs.size() ? " on every profile" : " on each profile with a value");
        return;
    }
    size_t next = rest.front();
    for (size_t i : rest)
        if (better(*v.values[i], *v.values[next])) next = i;
    std::string who;
    for (size_t k = 0; k < tied.size(); ++k)
        who += (k == 0 ? "" : k + 1 == tied.size() ? " and " : ", ") + runs[tied[k]].profile;
    if (tied.size() == 1) v.best = int(best);
    v.text = who + (tied.size() == 1 ? " wins: " : " tie for best: ") + shown + " against " +
             formatMetricValue(v.unit, *v.values[next]) + " on " + runs[next].profile + " (" +
             margin(v, top, *v.values[next]) + ")";
}

Verdict judge(const std::string& name, std::string title, bool lowerIsBetter,
              const std::vector<ProfileRun>& runs) {
    Verdict v;
    v.metric = name;
    v.title = std::move(title);
    v.lowerIsBetter = lowerIsBetter;
    std::string error;
    const auto metric = parseMetric(name, &error);
    if (!metric) return v; // not a metric: no values, left out by the caller
    v.unit = metric->info().unit;
    for (const auto& run : runs)
        v.values.push_back(run.result ? metricValue(*run.result, *metric) : std::nullopt);
    decide(v, runs);
    return v;
}

// Leaf queues that received jobs, in the first run's order, that every run knows.
std::vector<std::string> comparedQueues(const std::vector<ProfileRun>& runs) {
    std::vector<std::string> out;
    if (runs.empty() || !runs.front().result) return out;
    const auto& first = runs.front().result->queues;
    for (const auto& q : first) {
        const bool leaf = std::none_of(first.begin(), first.end(),
                                       [&](const QueueSeries& c) { return c.parent == q.name; });
        if (!leaf || q.summary.jobs == 0) continue;
        const bool everywhere = std::all_of(runs.begin(), runs.end(), [&](const ProfileRun& r) {
            return r.result && std::any_of(r.result->queues.begin(), r.result->queues.end(),
                                           [&](const QueueSeries& s) { return s.name == q.name; });
        });
        if (everywhere) out.push_back(q.name);
    }
    return out;
}

} // namespace

std::vector<Verdict> compareRuns(const std::vector<ProfileRun>& runs) {
    std::vector<Verdict> out;
    auto add = [&](Verdict v) {
        if (std::any_of(v.values.begin(), v.values.end(), [](const auto& x) { return x.has_value(); }))
            out.push_back(std::move(v));
    };
    for (const auto& m : kRunMeasures) add(judge(m.metric, m.title, m.lowerIsBetter, runs));
    for (const auto& queue : comparedQueues(runs))
        for (const auto& m : kQueueMeasures)
            add(judge("queue[" + queue + "]." + m.metric, std::string(m.title) + ", queue " + queue,
                      m.lowerIsBetter, runs));
    return out;
}

} // namespace gantry::sim
