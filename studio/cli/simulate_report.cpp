#include "simulate_report.h"

#include "profile/object_measures.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

namespace gantry::cli {

namespace {

using nlohmann::ordered_json;

ordered_json dist(const sim::Distribution& d) {
    ordered_json o;
    o["count"] = d.count;
    o["mean"] = d.mean;
    o["p50"] = d.p50;
    o["p95"] = d.p95;
    o["p99"] = d.p99;
    o["max"] = d.max;
    return o;
}

ordered_json group(const sim::GroupSummary& g) {
    ordered_json o;
    o["jobs"] = g.jobs;
    o["started"] = g.started;
    o["completed"] = g.completed;
    o["pending_at_end"] = g.pendingAtEnd;
    o["restarts"] = g.restarts;
    o["lost_gpu_hours"] = g.lostGpuHours;
    o["wait_seconds"] = dist(g.wait);
    o["completion_seconds"] = dist(g.completion);
    return o;
}

ordered_json optional(const std::optional<double>& v) {
    return v ? ordered_json(*v) : ordered_json(nullptr);
}

double mean(const std::vector<double>& v) {
    if (v.empty()) return 0;
    double s = 0;
    for (double x : v) s += x;
    return s / double(v.size());
}

double peak(const std::vector<double>& v) {
    double m = 0;
    for (double x : v) m = std::max(m, x);
    return m;
}

// Shortest text that reads back as the same double.
std::string num(double v) {
    if (std::isnan(v)) return "";
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc() ? std::string(buf, end) : std::string();
}

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

std::string distCsv(const sim::Distribution& d) {
    return std::to_string(d.count) + "," + num(d.mean) + "," + num(d.p50) + "," + num(d.p95) + "," +
           num(d.p99) + "," + num(d.max);
}

std::string groupCsv(const sim::GroupSummary& g) {
    return std::to_string(g.jobs) + "," + std::to_string(g.started) + "," + std::to_string(g.completed) +
           "," + std::to_string(g.pendingAtEnd) + "," + std::to_string(g.restarts) + "," +
           num(g.lostGpuHours) + "," + distCsv(g.wait) + "," + distCsv(g.completion);
}

const char* kGroupHeader = "jobs,started,completed,pending_at_end,restarts,lost_gpu_hours,"
                           "wait_count,wait_mean,wait_p50,wait_p95,wait_p99,wait_max,"
                           "jct_count,jct_mean,jct_p50,jct_p95,jct_p99,jct_max";

std::string duration(double s) {
    char buf[64];
    if (s < 120)
        std::snprintf(buf, sizeof buf, "%.0fs", s);
    else if (s < 7200)
        std::snprintf(buf, sizeof buf, "%.1fm", s / 60);
    else if (s < 2 * 86400)
        std::snprintf(buf, sizeof buf, "%.1fh", s / 3600);
    else
        std::snprintf(buf, sizeof buf, "%.1fd", s / 86400);
    return buf;
}

} // namespace

nlohmann::ordered_json simulationDocument(const sim::SimResult& r, const ReportContext& ctx) {
    ordered_json o;
    o["input"] = ctx.input;
    o["profile"] = r.profile;
    o["seed"] = r.seed;
    o["cycle_seconds"] = r.cycleSeconds;
    o["horizon_seconds"] = r.horizonSeconds;
    o["sample_seconds"] = r.sampleSeconds;
    o["end_seconds"] = r.endSeconds;
    o["cluster"] = {{"nodes", ctx.nodes}, {"gpus", r.totalGpus}};
    o["jobs"] = {{"total", r.jobsTotal},
                 {"arrived", r.jobsArrived},
                 {"started", r.jobsStarted},
                 {"completed", r.jobsCompleted},
                 {"running_at_end", r.jobsRunningAtEnd},
                 {"pending_at_end", r.jobsPendingAtEnd},
                 {"partial_at_end", r.jobsPartialAtEnd},
                 {"failed", r.jobsFailed}};
    o["pods"] = {{"total", r.podsTotal}, {"placed_at_end", r.podsPlacedAtEnd}};
    o["gpu"] = {{"mean_allocation_pct", r.meanGpuAllocationPct},
                {"allocated_gpu_hours", r.allocatedGpuHours},
                {"allocated_gpus_at_end", r.allocatedGpusAtEnd}};
    o["wait_seconds"] = dist(r.wait);
    o["completion_seconds"] = dist(r.completion);
    o["gang"] = {{"jobs", r.gangJobs},
                 {"wait_seconds", dist(r.gangWait)},
                 {"partial_hold_gpu_hours", r.partialHoldGpuHours}};
    o["preemption"] = {{"pod_evictions", r.podEvictions},
                       {"job_restarts", r.jobRestarts},
                       {"lost_gpu_hours", r.lostGpuHours}};
    ordered_json fragmentation;
    fragmentation["measured"] = r.fragmentationMeasured;
    fragmentation["target_workload"] = r.targetWorkload;
    if (!r.idle.stranded.empty())
        fragmentation["idle_at_end_gpus"] = {{"stranded", r.idle.stranded.back()},
                                             {"fractional", r.idle.fractional.back()},
                                             {"scattered", r.idle.scattered.back()},
                                             {"usable", r.idle.usable.back()}};
    if (!r.idle.migLayout.empty()) fragmentation["idle_at_end_gpus"]["mig_layout"] = r.idle.migLayout.back();
    auto slots = ordered_json::array();
    for (const auto& level : r.topologySlots) {
        ordered_json bySize = ordered_json::object();
        for (size_t i = 0; i < frag::kSlotSizes.size(); ++i)
            bySize[std::to_string(frag::kSlotSizes[i])] = level.jobs[i];
        slots.push_back({{"level", level.level}, {"domains", level.domains}, {"slots", std::move(bySize)}});
    }
    fragmentation["topology_slots_at_end"] = std::move(slots);
    o["fragmentation"] = fragmentation;
    auto queues = ordered_json::array();
    for (const auto& q : r.queues) {
        ordered_json j;
        j["name"] = q.name;
        j["parent"] = q.parent;
        j["guarantee_gpus"] = optional(q.guaranteeGpus);
        j["deserved_gpus"] = optional(q.deservedGpus);
        j["capability_gpus"] = optional(q.capabilityGpus);
        j["mean_used_gpus"] = mean(q.usedGpus);
        j["peak_used_gpus"] = peak(q.usedGpus);
        const ordered_json g = group(q.summary);
        for (auto it = g.begin(); it != g.end(); ++it) j[it.key()] = it.value();
        queues.push_back(std::move(j));
    }
    o["queues"] = std::move(queues);
    auto priorities = ordered_json::array();
    for (const auto& g : r.byPriority) {
        ordered_json j;
        j["priority"] = std::stol(g.key);
        const ordered_json summary = group(g);
        for (auto it = summary.begin(); it != summary.end(); ++it) j[it.key()] = it.value();
        priorities.push_back(std::move(j));
    }
    o["priorities"] = std::move(priorities);
    auto namespaces = ordered_json::array();
    for (const auto& g : r.byNamespace) {
        ordered_json j;
        j["namespace"] = g.key;
        const ordered_json summary = group(g);
        for (auto it = summary.begin(); it != summary.end(); ++it) j[it.key()] = it.value();
        namespaces.push_back(std::move(j));
    }
    o["namespaces"] = std::move(namespaces);
    auto pending = ordered_json::array();
    for (const auto& p : r.pendingAtEnd)
        pending.push_back({{"job", p.job},
                           {"queue", p.queue},
                           {"priority", p.priority},
                           {"pods", p.pods},
                           {"min_member", p.minMember},
                           {"placed", p.placed},
                           {"gpus", p.gpus},
                           {"waiting_seconds", p.waitingSeconds},
                           {"reason", p.reason}});
    o["pending_at_end"] = std::move(pending);
    auto reasons = ordered_json::array();
    for (const auto& x : r.pendingReasons)
        reasons.push_back({{"reason", x.reason}, {"job_seconds", x.jobSeconds}, {"times", x.jobs}});
    o["pending_reasons"] = std::move(reasons);
    ordered_json ts;
    ts["time"] = r.time;
    ts["gpu_allocation_pct"] = r.gpuAllocationPct;
    ts["fragmentation_pct"] = r.fragmentationPct;
    ts["frag_over_idle_pct"] = r.fragOverIdlePct;
    ts["pending_jobs"] = r.pendingJobs;
    ts["running_jobs"] = r.runningJobs;
    ts["pending_pods"] = r.pendingPods;
    ts["partial_jobs"] = r.partialJobs;
    ts["idle_stranded_gpus"] = r.idle.stranded;
    ts["idle_fractional_gpus"] = r.idle.fractional;
    ts["idle_scattered_gpus"] = r.idle.scattered;
    ts["idle_usable_gpus"] = r.idle.usable;
    if (!r.idle.migLayout.empty()) ts["idle_mig_layout_gpus"] = r.idle.migLayout;
    ordered_json used = ordered_json::object();
    for (const auto& q : r.queues) used[q.name] = q.usedGpus;
    ts["queue_used_gpus"] = std::move(used);
    o["timeseries"] = std::move(ts);
    o["sessions"] = r.sessions;
    o["cycles_skipped"] = r.cyclesSkipped;
    o["parked_job_sessions"] = r.parkedJobSessions;
    o["warnings"] = r.warnings;
    // What only some schedulers do or have: jobs given up, and their own objects over time.
    if (!r.failedJobs.empty()) {
        auto failed = ordered_json::array();
        for (const auto& [job, why] : r.failedJobs) failed.push_back({{"job", job}, {"reason", why}});
        o["failed_jobs"] = std::move(failed);
    }
    if (!r.objects.empty()) {
        auto objects = ordered_json::array();
        for (const auto& x : r.objects) {
            ordered_json j;
            j["kind"] = x.kind;
            j["name"] = x.name;
            ordered_json totals = ordered_json::object();
            for (const auto& [k, v] : x.totals) totals[k] = v;
            j["totals"] = std::move(totals);
            ordered_json series = ordered_json::object();
            for (const auto& [k, v] : x.series) series[k] = v;
            j["series"] = std::move(series);
            objects.push_back(std::move(j));
        }
        o["profile_objects"] = std::move(objects);
    }
    return o;
}

void writeSimulationJson(std::ostream& out, const sim::SimResult& r, const ReportContext& ctx) {
    // operator<< with width 1 is dump(1): the same serializer, indent and error handling, without
    // the whole text in one string (at a million pods that string was the largest block of the run).
    out << std::setw(1) << simulationDocument(r, ctx) << '\n';
}

std::map<std::string, std::string> simulationCsv(const sim::SimResult& r) {
    std::map<std::string, std::string> files;
    {
        std::ostringstream s;
        s << "time,gpu_allocation_pct,fragmentation_pct,frag_over_idle_pct,pending_jobs,running_jobs,pending_"
             "pods,"
             "partial_jobs";
        for (const auto& q : r.queues) s << "," << csvField("used_gpus:" + q.name);
        s << ",idle_stranded_gpus,idle_fractional_gpus,idle_scattered_gpus,idle_usable_gpus";
        const bool mig = !r.idle.migLayout.empty();
        if (mig) s << ",idle_mig_layout_gpus";
        s << '\n';
        for (size_t i = 0; i < r.time.size(); ++i) {
            s << num(r.time[i]) << ',' << num(r.gpuAllocationPct[i]) << ','
              << (i < r.fragmentationPct.size() ? num(r.fragmentationPct[i]) : "") << ','
              << (i < r.fragOverIdlePct.size() ? num(r.fragOverIdlePct[i]) : "") << ',' << r.pendingJobs[i]
              << ',' << r.runningJobs[i] << ',' << r.pendingPods[i] << ',' << r.partialJobs[i];
            for (const auto& q : r.queues) s << ',' << num(q.usedGpus[i]);
            for (const auto* idle : {&r.idle.stranded, &r.idle.fractional, &r.idle.scattered, &r.idle.usable})
                s << ',' << (i < idle->size() ? num((*idle)[i]) : "");
            if (mig) s << ',' << (i < r.idle.migLayout.size() ? num(r.idle.migLayout[i]) : "");
            s << '\n';
        }
        files["timeseries.csv"] = s.str();
    }
    {
        std::ostringstream s;
        s << "queue,parent,guarantee_gpus,deserved_gpus,capability_gpus,mean_used_gpus,peak_used_gpus,"
          << kGroupHeader << '\n';
        for (const auto& q : r.queues) {
            auto opt = [](const std::optional<double>& v) { return v ? num(*v) : std::string(); };
            s << csvField(q.name) << ',' << csvField(q.parent) << ',' << opt(q.guaranteeGpus) << ','
              << opt(q.deservedGpus) << ',' << opt(q.capabilityGpus) << ',' << num(mean(q.usedGpus)) << ','
              << num(peak(q.usedGpus)) << ',' << groupCsv(q.summary) << '\n';
        }
        files["queues.csv"] = s.str();
    }
    if (!r.topologySlots.empty()) {
        std::ostringstream s;
        s << "level,domains";
        for (int32_t size : frag::kSlotSizes) s << ",slots_" << size << "_gpus";
        s << '\n';
        for (const auto& level : r.topologySlots) {
            s << csvField(level.level) << ',' << level.domains;
            for (int64_t n : level.jobs) s << ',' << n;
            s << '\n';
        }
        files["topology_slots.csv"] = s.str();
    }
    if (!r.objects.empty()) { // one row per object, measure and sample time
        std::ostringstream s;
        s << "kind,name,measure,time,value\n";
        for (const auto& x : r.objects) {
            for (const auto& [k, v] : x.totals)
                s << csvField(x.kind) << ',' << csvField(x.name) << ',' << csvField(k) << ",," << num(v)
                  << '\n';
            for (const auto& [k, v] : x.series)
                for (size_t i = 0; i < v.size() && i < r.time.size(); ++i)
                    s << csvField(x.kind) << ',' << csvField(x.name) << ',' << csvField(k) << ','
                      << num(r.time[i]) << ',' << num(v[i]) << '\n';
        }
        files["objects.csv"] = s.str();
    }
    {
        std::ostringstream s;
        s << "priority," << kGroupHeader << '\n';
        for (const auto& g : r.byPriority) s << g.key << ',' << groupCsv(g) << '\n';
        files["priorities.csv"] = s.str();
    }
    {
        std::ostringstream s;
        s << "namespace," << kGroupHeader << '\n';
        for (const auto& g : r.byNamespace) s << csvField(g.key) << ',' << groupCsv(g) << '\n';
        files["namespaces.csv"] = s.str();
    }
    {
        std::ostringstream s;
        s << "job,queue,priority,pods,min_member,placed,gpus,waiting_seconds,reason\n";
        for (const auto& p : r.pendingAtEnd)
            s << csvField(p.job) << ',' << csvField(p.queue) << ',' << p.priority << ',' << p.pods << ','
              << p.minMember << ',' << p.placed << ',' << num(p.gpus) << ',' << num(p.waitingSeconds) << ','
              << csvField(p.reason) << '\n';
        files["pending.csv"] = s.str();
    }
    {
        std::ostringstream s;
        s << "reason,job_seconds,times\n";
        for (const auto& x : r.pendingReasons)
            s << csvField(x.reason) << ',' << num(x.jobSeconds) << ',' << x.jobs << '\n';
        files["reasons.csv"] = s.str();
    }
    {
        std::ostringstream s;
        s << "metric,value\n";
        auto row = [&](const char* k, double v) { s << k << ',' << num(v) << '\n'; };
        row("end_seconds", r.endSeconds);
        row("gpus", r.totalGpus);
        row("jobs_total", double(r.jobsTotal));
        row("jobs_arrived", double(r.jobsArrived));
        row("jobs_started", double(r.jobsStarted));
        row("jobs_completed", double(r.jobsCompleted));
        row("jobs_pending_at_end", double(r.jobsPendingAtEnd));
        row("mean_gpu_allocation_pct", r.meanGpuAllocationPct);
        row("allocated_gpu_hours", r.allocatedGpuHours);
        row("pod_evictions", double(r.podEvictions));
        row("job_restarts", double(r.jobRestarts));
        row("lost_gpu_hours", r.lostGpuHours);
        row("gang_jobs", double(r.gangJobs));
        row("gang_wait_p50", r.gangWait.p50);
        row("gang_wait_p95", r.gangWait.p95);
        row("gang_wait_p99", r.gangWait.p99);
        row("partial_hold_gpu_hours", r.partialHoldGpuHours);
        row("wait_p50", r.wait.p50);
        row("wait_p95", r.wait.p95);
        row("wait_p99", r.wait.p99);
        row("jct_p50", r.completion.p50);
        row("jct_p95", r.completion.p95);
        row("jct_p99", r.completion.p99);
        row("sessions", double(r.sessions));
        row("cycles_skipped", double(r.cyclesSkipped));
        files["summary.csv"] = s.str();
    }
    return files;
}

namespace {

// A total with its label; a duration in seconds reads as one ("mean time to admission 6.4h").
std::string measureItem(const std::string& key, double value) {
    if (engine::isDurationMeasure(key)) return engine::measureLabel(key) + " " + duration(value);
    char text[64];
    std::snprintf(text, sizeof text, value == std::floor(value) && std::fabs(value) < 1e15 ? "%.0f" : "%.1f",
                  value);
    return engine::measureLabel(key) + " " + text;
}

// Items joined by ", ", wrapped under `indent`.
void printWrapped(std::ostream& out, const std::vector<std::string>& items, size_t indent) {
    const size_t width = 110;
    size_t column = indent;
    out << std::string(indent, ' ');
    for (size_t i = 0; i < items.size(); ++i) {
        std::string item = items[i] + (i + 1 < items.size() ? "," : "");
        if (column > indent && column + 1 + item.size() > width) {
            out << '\n' << std::string(indent, ' ');
            column = indent;
        } else if (column > indent) {
            out << ' ';
            ++column;
        }
        out << item;
        column += item.size();
    }
    out << '\n';
}

// The profile's own objects in its words (Kueue's ClusterQueues and workload classes, YuniKorn's
// queues): each object's totals, then each series that was ever non-zero as mean / peak.
void printProfileObjects(std::ostream& out, const std::vector<engine::ObjectSeries>& objects) {
    const size_t shownPerKind = 20;
    for (size_t first = 0; first < objects.size();) {
        size_t end = first;
        while (end < objects.size() && objects[end].kind == objects[first].kind) ++end;
        out << "\nPer " << objects[first].kind << " (series: mean / peak over the run)\n";
        for (size_t i = first; i < end && i < first + shownPerKind; ++i) {
            const auto& o = objects[i];
            out << "  " << o.name << '\n';
            std::vector<std::string> items;
            for (const auto& [key, value] : o.totals) items.push_back(measureItem(key, value));
            if (!items.empty()) printWrapped(out, items, 4);
            items.clear();
            char text[96];
            for (const auto& [key, values] : o.series) {
                const engine::SeriesSummary summary = engine::summarizeSeries(values);
                if (summary.peak == 0) continue;
                std::snprintf(text, sizeof text, " %.1f / %.1f", summary.mean, summary.peak);
                items.push_back(engine::measureLabel(key) + text);
            }
            if (!items.empty()) printWrapped(out, items, 4);
        }
        if (end - first > shownPerKind)
            out << "  ... " << (end - first - shownPerKind) << " more (--json or --csv for all)\n";
        first = end;
    }
}

} // namespace

void printSimulationSummary(std::ostream& out, const sim::SimResult& r, const ReportContext& ctx) {
    char line[512];
    out << "Simulated " << ctx.input << " with " << r.profile << " for " << duration(r.endSeconds) << " ("
        << r.sessions << " scheduling cycles run, " << r.cyclesSkipped << " skipped as idle)\n";
    out << "Cluster: " << ctx.nodes << " nodes, " << r.totalGpus << " GPUs\n\n";
    std::snprintf(line, sizeof line,
                  "Jobs: %lld arrived of %lld, %lld started, %lld completed, %lld running and %lld pending "
                  "at the end\n",
                  static_cast<long long>(r.jobsArrived), static_cast<long long>(r.jobsTotal),
                  static_cast<long long>(r.jobsStarted), static_cast<long long>(r.jobsCompleted),
                  static_cast<long long>(r.jobsRunningAtEnd), static_cast<long long>(r.jobsPendingAtEnd));
    out << line;
    if (r.jobsFailed > 0) out << "Failed: " << r.jobsFailed << " jobs the scheduler gave up (listed below)\n";
    std::snprintf(line, sizeof line, "GPU allocation: %.1f %% on average, %.1f GPU-hours allocated\n",
                  r.meanGpuAllocationPct, r.allocatedGpuHours);
    out << line;
    if (r.fragmentationMeasured && !r.fragmentationPct.empty()) {
        double m = 0;
        for (double v : r.fragmentationPct) m += v;
        std::snprintf(line, sizeof line,
                      "Fragmentation (FGD): %.1f %% of GPUs on average, %.1f %% at the end\n",
                      m / double(r.fragmentationPct.size()), r.fragmentationPct.back());
        out << line;
    }
    std::snprintf(
        line, sizeof line, "Preemption: %lld pod evictions, %lld job restarts, %.1f GPU-hours of work lost\n",
        static_cast<long long>(r.podEvictions), static_cast<long long>(r.jobRestarts), r.lostGpuHours);
    out << line;
    if (r.gangJobs > 0) {
        std::snprintf(
            line, sizeof line,
            "Gangs: %lld gang jobs, gang wait p50 %s p95 %s, %.1f GPU-hours held by incomplete gangs\n",
            static_cast<long long>(r.gangJobs), duration(r.gangWait.p50).c_str(),
            duration(r.gangWait.p95).c_str(), r.partialHoldGpuHours);
        out << line;
    }
    out << "\nWait (arrival -> running)          p50      p95      p99     JCT p50    p95      p99\n";
    auto groupLine = [&](const std::string& name, const sim::GroupSummary& g) {
        std::snprintf(line, sizeof line, "  %-30s %8s %8s %8s   %8s %8s %8s  (%lld jobs, %lld pending)\n",
                      name.c_str(), duration(g.wait.p50).c_str(), duration(g.wait.p95).c_str(),
                      duration(g.wait.p99).c_str(), duration(g.completion.p50).c_str(),
                      duration(g.completion.p95).c_str(), duration(g.completion.p99).c_str(),
                      static_cast<long long>(g.jobs), static_cast<long long>(g.pendingAtEnd));
        out << line;
    };
    sim::GroupSummary all;
    all.wait = r.wait;
    all.completion = r.completion;
    all.jobs = r.jobsArrived;
    all.pendingAtEnd = r.jobsPendingAtEnd;
    groupLine("all jobs", all);
    for (const auto& q : r.queues)
        if (q.summary.jobs > 0) groupLine("queue " + q.name, q.summary);
    for (const auto& g : r.byPriority) groupLine("priority " + g.key, g);
    // Namespaces are the tenants fair-share schedulers order; one alone says nothing new.
    if (r.byNamespace.size() > 1)
        for (const auto& g : r.byNamespace) groupLine("namespace " + g.key, g);

    out << "\nQueues (GPUs)                 guarantee deserved capability   mean used  peak used\n";
    for (const auto& q : r.queues) {
        auto opt = [](const std::optional<double>& v) {
            char b[32];
            if (!v) return std::string("-");
            std::snprintf(b, sizeof b, "%g", *v);
            return std::string(b);
        };
        std::snprintf(line, sizeof line, "  %-28s %9s %8s %10s   %9.1f  %9.1f\n", q.name.c_str(),
                      opt(q.guaranteeGpus).c_str(), opt(q.deservedGpus).c_str(),
                      opt(q.capabilityGpus).c_str(), mean(q.usedGpus), peak(q.usedGpus));
        out << line;
    }
    printProfileObjects(out, r.objects);
    if (!r.pendingReasons.empty()) {
        out << "\nWhy jobs waited (job-hours)\n";
        size_t shown = 0;
        for (const auto& x : r.pendingReasons) {
            if (shown++ == 8) break;
            std::snprintf(line, sizeof line, "  %10.1f  ", x.jobSeconds / 3600.0);
            out << line << x.reason << '\n';
        }
    }
    if (!r.pendingAtEnd.empty()) {
        out << "\nPending at the end (" << r.pendingAtEnd.size() << ")\n";
        size_t shown = 0;
        for (const auto& p : r.pendingAtEnd) {
            if (shown++ == 10) {
                out << "  ... " << (r.pendingAtEnd.size() - 10) << " more (--json or --csv for all)\n";
                break;
            }
            out << "  " << p.job << " (" << p.queue << ", waited " << duration(p.waitingSeconds)
                << "): " << p.reason << '\n';
        }
    }
    if (!r.failedJobs.empty()) {
        out << "\nFailed jobs (" << r.failedJobs.size() << ")\n";
        for (size_t i = 0; i < r.failedJobs.size(); ++i) {
            if (i == 10) {
                out << "  ... " << (r.failedJobs.size() - 10) << " more (--json for all)\n";
                break;
            }
            out << "  " << r.failedJobs[i].first << ": " << r.failedJobs[i].second << '\n';
        }
    }
    for (const auto& w : r.warnings) out << "note: " << w << '\n';
}

} // namespace gantry::cli
