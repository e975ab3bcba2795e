#include "sim/metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

namespace gantry::sim {

namespace {

using RunGetter = std::function<std::optional<double>(const SimResult&)>;
using QueueGetter = std::function<std::optional<double>(const QueueSeries&)>;
using GroupGetter = std::function<std::optional<double>(const GroupSummary&)>;

struct Entry {
    MetricInfo info;
    RunGetter run;
    QueueGetter queue;
    GroupGetter group; // a priority's or a namespace's summary
};

double meanOf(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? 0 : s / double(v.size());
}

double peakOf(const std::vector<double>& v) {
    double m = 0;
    for (double x : v) m = std::max(m, x);
    return m;
}

// The distribution keys simulate prints, in its order.
const std::vector<std::pair<const char*, double Distribution::*>>& distributionFields() {
    static const std::vector<std::pair<const char*, double Distribution::*>> fields = {
        {"mean", &Distribution::mean},
        {"p50", &Distribution::p50},
        {"p95", &Distribution::p95},
        {"p99", &Distribution::p99},
        {"max", &Distribution::max}};
    return fields;
}

std::vector<Entry> buildCatalog() {
    std::vector<Entry> out;
    auto run = [&](std::string name, MetricUnit unit, std::string meaning, RunGetter get) {
        out.push_back(
            {{std::move(name), MetricScope::Run, unit, std::move(meaning)}, std::move(get), {}, {}});
    };
    auto count = [](int64_t SimResult::*field) {
        return [field](const SimResult& r) { return std::optional<double>(double(r.*field)); };
    };
    auto value = [](double SimResult::*field) {
        return [field](const SimResult& r) { return std::optional<double>(r.*field); };
    };
    auto distribution = [&](const std::string& prefix, Distribution SimResult::*field,
                            const std::string& what) {
        run(prefix + ".count", MetricUnit::Count, "how many " + what + " were measured",
            [field](const SimResult& r) { return std::optional<double>(double((r.*field).count)); });
        for (const auto& [key, member] : distributionFields())
            run(prefix + "." + key, MetricUnit::Seconds, std::string(key) + " of " + what,
                [field, m = member](const SimResult& r) { return std::optional<double>((r.*field).*m); });
    };

    run("end_seconds", MetricUnit::Seconds, "simulated time until the run ended",
        value(&SimResult::endSeconds));
    run("cluster.gpus", MetricUnit::Gpus, "GPUs of the cluster", value(&SimResult::totalGpus));
    run("jobs.total", MetricUnit::Count, "jobs of the workload", count(&SimResult::jobsTotal));
    run("jobs.arrived", MetricUnit::Count, "jobs that arrived", count(&SimResult::jobsArrived));
    run("jobs.started", MetricUnit::Count, "jobs whose gang ran", count(&SimResult::jobsStarted));
    run("jobs.completed", MetricUnit::Count, "jobs that finished", count(&SimResult::jobsCompleted));
    run("jobs.running_at_end", MetricUnit::Count, "jobs running at the end",
        count(&SimResult::jobsRunningAtEnd));
    run("jobs.pending_at_end", MetricUnit::Count, "jobs waiting at the end",
        count(&SimResult::jobsPendingAtEnd));
    run("jobs.partial_at_end", MetricUnit::Count,
        "waiting jobs holding some of their pods' places at the end", count(&SimResult::jobsPartialAtEnd));
    run("jobs.failed", MetricUnit::Count, "jobs the scheduler gave up", count(&SimResult::jobsFailed));
    run("pending_at_end", MetricUnit::Count,
        "jobs waiting at the end (the length of simulate's pending_at_end)",
        count(&SimResult::jobsPendingAtEnd));
    run("pods.total", MetricUnit::Count, "pods of the workload", count(&SimResult::podsTotal));
    run("pods.placed_at_end", MetricUnit::Count, "pods placed at the end",
        count(&SimResult::podsPlacedAtEnd));
    run("gpu.mean_allocation_pct", MetricUnit::Percent, "GPUs held by pods over the run, time-weighted",
        value(&SimResult::meanGpuAllocationPct));
    run("gpu.allocated_gpu_hours", MetricUnit::GpuHours, "GPU-hours held by pods",
        value(&SimResult::allocatedGpuHours));
    run("gpu.allocated_gpus_at_end", MetricUnit::Gpus, "GPUs held at the end",
        value(&SimResult::allocatedGpusAtEnd));
    distribution("wait", &SimResult::wait, "the wait (arrival to the gang running) of the jobs that started");
    distribution("completion", &SimResult::completion,
                 "the completion time (arrival to the end) of finished jobs");
    run("gang.jobs", MetricUnit::Count, "jobs with minMember above 1", count(&SimResult::gangJobs));
    for (const auto& [key, member] : distributionFields())
        run(std::string("gang.wait.") + key, MetricUnit::Seconds,
            std::string(key) + " of the gang wait (first pod placed to the gang running)",
            [m = member](const SimResult& r) { return std::optional<double>(r.gangWait.*m); });
    run("gang.partial_hold_gpu_hours", MetricUnit::GpuHours, "GPU-hours held by gangs not yet complete",
        value(&SimResult::partialHoldGpuHours));
    run("preemption.pod_evictions", MetricUnit::Count, "pods evicted", count(&SimResult::podEvictions));
    run("preemption.job_restarts", MetricUnit::Count, "jobs restarted after an eviction",
        count(&SimResult::jobRestarts));
    run("preemption.lost_gpu_hours", MetricUnit::GpuHours, "work lost to restarts",
        value(&SimResult::lostGpuHours));
    auto fragmentation = [](std::function<double(const std::vector<double>&)> f) {
        return [f](const SimResult& r) -> std::optional<double> {
            if (!r.fragmentationMeasured || r.fragmentationPct.empty()) return std::nullopt;
            return f(r.fragmentationPct);
        };
    };
    run("fragmentation.mean_pct", MetricUnit::Percent, "FGD fragmentation of all GPUs, mean of the samples",
        fragmentation(meanOf));
    run("fragmentation.peak_pct", MetricUnit::Percent, "FGD fragmentation, highest sample",
        fragmentation(peakOf));
    run("fragmentation.end_pct", MetricUnit::Percent, "FGD fragmentation at the end",
        fragmentation([](const std::vector<double>& v) { return v.back(); }));

    // A queue's and a priority's figures: the per-group summaries simulate prints.
    auto group = [&](std::string name, MetricUnit unit, std::string meaning, GroupGetter get) {
        out.push_back({{name, MetricScope::Queue, unit, meaning},
                       {},
                       [get](const QueueSeries& q) { return get(q.summary); },
                       {}});
        out.push_back({{name, MetricScope::Priority, unit, meaning}, {}, {}, get});
        out.push_back({{std::move(name), MetricScope::Namespace, unit, std::move(meaning)}, {}, {}, get});
    };
    auto groupCount = [](int64_t GroupSummary::*field) {
        return [field](const GroupSummary& g) { return std::optional<double>(double(g.*field)); };
    };
    group("jobs", MetricUnit::Count, "jobs that arrived in it", groupCount(&GroupSummary::jobs));
    group("started", MetricUnit::Count, "its jobs that started", groupCount(&GroupSummary::started));
    group("completed", MetricUnit::Count, "its jobs that finished", groupCount(&GroupSummary::completed));
    group("pending_at_end", MetricUnit::Count, "its jobs waiting at the end",
          groupCount(&GroupSummary::pendingAtEnd));
    group("restarts", MetricUnit::Count, "restarts of its jobs", groupCount(&GroupSummary::restarts));
    group("lost_gpu_hours", MetricUnit::GpuHours, "work its jobs lost to restarts",
          [](const GroupSummary& g) { return std::optional<double>(g.lostGpuHours); });
    for (const char* which : {"wait", "completion"}) {
        const bool wait = std::string(which) == "wait";
        group(std::string(which) + ".count", MetricUnit::Count,
              std::string("how many ") + which + "s were measured", [wait](const GroupSummary& g) {
                  return std::optional<double>(double((wait ? g.wait : g.completion).count));
              });
        for (const auto& [key, member] : distributionFields())
            group(std::string(which) + "." + key, MetricUnit::Seconds,
                  std::string(key) + " of its jobs' " + which, [wait, m = member](const GroupSummary& g) {
                      return std::optional<double>((wait ? g.wait : g.completion).*m);
                  });
    }
    out.push_back({{"mean_used_gpus", MetricScope::Queue, MetricUnit::Gpus,
                    "GPUs its pods and its descendants' held, mean of the samples"},
                   {},
                   [](const QueueSeries& q) { return std::optional<double>(meanOf(q.usedGpus)); },
                   {}});
    out.push_back({{"peak_used_gpus", MetricScope::Queue, MetricUnit::Gpus, "GPUs it held at most"},
                   {},
                   [](const QueueSeries& q) { return std::optional<double>(peakOf(q.usedGpus)); },
                   {}});
    // Run's first, then queue, priority and namespace, each in the order written above.
    std::stable_sort(out.begin(), out.end(),
                     [](const Entry& a, const Entry& b) { return int(a.info.scope) < int(b.info.scope); });
    return out;
}

const std::vector<Entry>& entries() {
    static const std::vector<Entry> all = buildCatalog();
    return all;
}

const char* scopePrefix(MetricScope scope) {
    switch (scope) {
    case MetricScope::Queue:
        return "queue";
    case MetricScope::Priority:
        return "priority";
    case MetricScope::Namespace:
        return "namespace";
    case MetricScope::Run:
        break;
    }
    return "";
}

// 'text' (built by appending: GCC 12 warns wrongly about "'" + std::string).
std::string quoted(std::string_view text) {
    std::string out(1, '\'');
    out.append(text);
    out += '\'';
    return out;
}

size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = up;
        }
    }
    return row[b.size()];
}

} // namespace

const std::vector<MetricInfo>& metricCatalog() {
    static const std::vector<MetricInfo> infos = [] {
        std::vector<MetricInfo> v;
        for (const auto& e : entries()) v.push_back(e.info);
        return v;
    }();
    return infos;
}

std::string MetricRef::name() const {
    const MetricInfo& i = info();
    if (i.scope == MetricScope::Run) return i.name;
    return std::string(scopePrefix(i.scope)) + "[" + group + "]." + i.name;
}

std::optional<MetricRef> parseMetric(std::string_view text, std::string* error) {
    MetricScope scope = MetricScope::Run;
    std::string group;
    std::string_view rest = text;
    for (MetricScope s : {MetricScope::Queue, MetricScope::Priority, MetricScope::Namespace}) {
        const std::string prefix = std::string(scopePrefix(s)) + "[";
        if (text.substr(0, prefix.size()) != prefix) continue;
        const size_t close = text.find(']', prefix.size());
        if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != '.') {
            if (error)
                *error = quoted(text) + ": write " + scopePrefix(s) + "[" +
                         (s == MetricScope::Priority ? "N" : "NAME") + "].METRIC, e.g. " + scopePrefix(s) +
                         (s == MetricScope::Queue       ? "[pretrain]"
                          : s == MetricScope::Namespace ? "[vision]"
                                                        : "[1000]") +
                         ".wait.p95";
            return std::nullopt;
        }
        group = std::string(text.substr(prefix.size(), close - prefix.size()));
        if (group.empty()) {
            if (error) *error = quoted(text) + " names no " + scopePrefix(s);
            return std::nullopt;
        }
        scope = s;
        rest = text.substr(close + 2);
    }
    const auto& all = metricCatalog();
    for (size_t i = 0; i < all.size(); ++i)
        if (all[i].scope == scope && all[i].name == rest) return MetricRef{i, group};
    if (error) {
        size_t best = std::string_view::npos, bestDistance = 4;
        for (size_t i = 0; i < all.size(); ++i) {
            if (all[i].scope != scope) continue;
            size_t d = editDistance(rest, all[i].name);
            if (d < bestDistance) best = i, bestDistance = d;
        }
        *error = "unknown metric " + quoted(text);
        if (best != std::string_view::npos)
            *error += " (did you mean '" + MetricRef{best, group}.name() + "'?)";
    }
    return std::nullopt;
}

std::optional<double> metricValue(const SimResult& r, const MetricRef& metric) {
    const Entry& e = entries()[metric.entry];
    switch (e.info.scope) {
    case MetricScope::Run:
        return e.run(r);
    case MetricScope::Queue:
        for (const auto& q : r.queues)
            if (q.name == metric.group) return e.queue(q);
        return std::nullopt;
    case MetricScope::Priority:
        for (const auto& g : r.byPriority)
            if (g.key == metric.group) return e.group(g);
        return std::nullopt;
    case MetricScope::Namespace:
        for (const auto& g : r.byNamespace)
            if (g.key == metric.group) return e.group(g);
        return std::nullopt;
    }
    return std::nullopt;
}

std::vector<std::pair<std::string, double>> runMetrics(const SimResult& r) {
    std::vector<std::pair<std::string, double>> out;
    for (const auto& e : entries())
        if (e.info.scope == MetricScope::Run)
            if (auto v = e.run(r)) out.emplace_back(e.info.name, *v);
    return out;
}

std::vector<std::string> metricNames() {
    std::vector<std::string> out;
    for (const auto& i : metricCatalog())
        out.push_back(i.scope == MetricScope::Run
                          ? i.name
                          : std::string(scopePrefix(i.scope)) +
                                (i.scope == MetricScope::Priority ? "[N]." : "[NAME].") + i.name);
    return out;
}

std::string formatSeconds(double seconds) {
    if (!std::isfinite(seconds)) return "-";
    char buf[64];
    if (seconds < 0) return std::string(1, '-').append(formatSeconds(-seconds));
    if (seconds < 60) {
        std::snprintf(buf, sizeof buf, seconds < 10 && seconds != std::floor(seconds) ? "%.1fs" : "%.0fs",
                      seconds);
        return buf;
    }
    auto total = int64_t(std::llround(seconds));
    const int64_t h = total / 3600, m = total % 3600 / 60, s = total % 60;
    std::string out;
    if (h) out += std::to_string(h) + "h";
    if (m || (h && s)) out += std::to_string(m) + "m";
    if (s) out += std::to_string(s) + "s";
    return out;
}

std::string formatMetricValue(MetricUnit unit, double value) {
    char buf[64];
    switch (unit) {
    case MetricUnit::Seconds:
        return formatSeconds(value);
    case MetricUnit::Percent:
        std::snprintf(buf, sizeof buf, "%.1f %%", value);
        return buf;
    case MetricUnit::Count:
        std::snprintf(buf, sizeof buf, "%.0f", value);
        return buf;
    case MetricUnit::GpuHours:
        std::snprintf(buf, sizeof buf, "%.1f GPU-hours", value);
        return buf;
    case MetricUnit::Gpus:
        std::snprintf(buf, sizeof buf, "%g GPUs", value);
        return buf;
    }
    return {};
}

} // namespace gantry::sim
