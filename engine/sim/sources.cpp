#include "sim/sources.h"

#include "workload/expand.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

namespace gantry::sim {

void ensureDefaultQueue(Cluster& cluster) {
    for (const auto& q : cluster.queues)
        if (q.kind == Queue::Kind::Queue) return;
    Queue q;
    q.name = "default";
    q.weight = 1;
    cluster.queues.push_back(q);
}

SimWorkload fromTemplates(const std::vector<WorkloadTemplate>& templates, const Cluster& cluster,
                          uint64_t seed) {
    SimWorkload out;
    for (size_t ti = 0; ti < templates.size(); ++ti) {
        const auto& w = templates[ti];
        auto warnings = workload::checkTemplate(w);
        out.warnings.insert(out.warnings.end(), warnings.begin(), warnings.end());
        JobKind kind;
        kind.group = workload::templatePodGroup(w, 0, {});
        kind.group.name = w.name;
        kind.pods = workload::templatePods(w, 0, cluster);
        kind.numbered = true;
        kind.podRole = w.role;
        kind.checkpointSeconds = w.checkpointSeconds;
        const uint32_t k = uint32_t(out.kinds.size());
        out.kinds.push_back(std::move(kind));
        const auto draws = workload::drawJobs(w, seed);
        for (size_t n = 0; n < draws.size(); ++n)
            out.jobs.push_back(SimJob{k, int32_t(n), draws[n].arrival, draws[n].duration});
    }
    return out;
}

namespace {

// Applies the defaults to jobs[first..] that lack an arrival (or a duration), in list order.
struct DefaultTiming {
    const TimingDefaults& defaults;
    workload::Random arrivals, durations;
    std::vector<double> times;
    size_t used = 0;
    int64_t noArrival = 0, noDuration = 0;
    SourceRef firstNoArrival, firstNoDuration;

    DefaultTiming(const TimingDefaults& d, uint64_t seed, int32_t expected)
        : defaults(d), arrivals(workload::Random::stream(seed, "default-arrival", 0)),
          durations(workload::Random::stream(seed, "default-duration", 0)) {
        times = workload::arrivalTimes(d.arrival, std::max(expected, 1), arrivals);
    }
    double arrival(const SourceRef& where) {
        if (noArrival++ == 0) firstNoArrival = where;
        return times[std::min(used++, times.size() - 1)];
    }
    double duration(const SourceRef& where) {
        if (noDuration++ == 0) firstNoDuration = where;
        return defaults.duration ? workload::drawDuration(*defaults.duration, durations) : 0.0;
    }
    void report(Diagnostics& out, const char* what) const {
        if (noArrival > 0)
            out.push_back(
                Diagnostic{Severity::Warning, firstNoArrival,
                           std::to_string(noArrival) + " " + what +
                               " gave no arrival time; they arrive by the default arrival process"});
        if (noDuration > 0)
            out.push_back(Diagnostic{Severity::Warning, firstNoDuration,
                                     std::to_string(noDuration) + " " + what + " gave no duration; " +
                                         (defaults.duration ? "they run for the default duration"
                                                            : "they run until the end of the simulation")});
    }
};

} // namespace

SimWorkload takeClusterJobs(Cluster& cluster, const TimingDefaults& defaults, uint64_t seed) {
    SimWorkload out;
    // A job: a PodGroup none of whose pods is placed or finished.
    std::map<std::string, std::vector<size_t>> podsOf;
    for (size_t i = 0; i < cluster.pods.size(); ++i) {
        const auto& p = cluster.pods[i];
        if (!p.group.empty()) podsOf[p.ns + "/" + p.group].push_back(i);
    }
    std::vector<size_t> groups;
    std::set<size_t> taken;
    for (size_t g = 0; g < cluster.podGroups.size(); ++g) {
        const auto& pg = cluster.podGroups[g];
        auto it = podsOf.find(pg.key());
        if (it == podsOf.end()) continue;
        bool unplaced = true;
        for (size_t i : it->second) {
            const auto& p = cluster.pods[i];
            if (!p.nodeName.empty() || p.phase != PodPhase::Pending) unplaced = false;
        }
        if (!unplaced) continue;
        groups.push_back(g);
        taken.insert(it->second.begin(), it->second.end());
    }
    int32_t missing = 0;
    for (size_t g : groups) {
        const auto& pg = cluster.podGroups[g];
        if (pg.annotations.count("gantry.io/arrival") == 0 && pg.arrivalSeconds == 0) ++missing;
    }
    DefaultTiming timing(defaults, seed, missing);
    for (size_t g : groups) {
        PodGroup pg = cluster.podGroups[g];
        JobKind kind;
        for (size_t i : podsOf[pg.key()]) {
            Pod p = cluster.pods[i];
            workload::resolvePriority(p, cluster);
            kind.pods.push_back(std::move(p));
        }
        SimJob job;
        job.kind = uint32_t(out.kinds.size());
        const bool hasArrival = pg.annotations.count("gantry.io/arrival") > 0 || pg.arrivalSeconds != 0;
        job.arrival = hasArrival ? pg.arrivalSeconds : timing.arrival(pg.source);
        // An explicit duration of 0 says "until the end" (a history's job still waiting at its end).
        const bool hasDuration = pg.annotations.count("gantry.io/duration") > 0 || pg.durationSeconds > 0;
        job.duration = hasDuration ? pg.durationSeconds : timing.duration(pg.source);
        kind.checkpointSeconds = pg.checkpointSeconds;
        kind.group = std::move(pg);
        out.kinds.push_back(std::move(kind));
        out.jobs.push_back(job);
    }
    timing.report(out.warnings, "jobs");
    // The cluster keeps everything else.
    std::vector<PodGroup> keptGroups;
    std::set<size_t> jobGroups(groups.begin(), groups.end());
    for (size_t g = 0; g < cluster.podGroups.size(); ++g)
        if (!jobGroups.count(g)) keptGroups.push_back(std::move(cluster.podGroups[g]));
    cluster.podGroups = std::move(keptGroups);
    std::vector<Pod> keptPods;
    for (size_t i = 0; i < cluster.pods.size(); ++i)
        if (!taken.count(i)) keptPods.push_back(std::move(cluster.pods[i]));
    cluster.pods = std::move(keptPods);
    std::stable_sort(out.jobs.begin(), out.jobs.end(),
                     [](const SimJob& a, const SimJob& b) { return a.arrival < b.arrival; });
    return out;
}

TraceConversion fromTrace(const Trace& trace, const TimingDefaults& defaults, uint64_t seed) {
    TraceConversion out;
    Cluster& c = out.cluster;
    c.name = "trace";
    for (const auto& tn : trace.nodes) {
        Node n;
        n.name = tn.name;
        n.source = tn.source;
        n.labels["kubernetes.io/hostname"] = tn.name;
        n.allocatable.set(res::Cpu, tn.cpuMilli);
        n.allocatable.set(res::Memory, tn.memoryMiB * 1024 * 1024);
        n.allocatable.set(res::Pods, 1000); // the trace sets no pod limit
        if (tn.gpuCount > 0) {
            n.allocatable.set(res::NvidiaGpu, int64_t(tn.gpuCount) * 1000);
            n.gpus.count = tn.gpuCount;
            n.gpus.model = tn.gpuModel;
            if (!tn.gpuModel.empty()) n.labels[workload::kGpuProductLabel] = tn.gpuModel;
        }
        n.capacity = n.allocatable;
        c.nodes.push_back(std::move(n));
    }
    ensureDefaultQueue(c);

    int64_t t0 = std::numeric_limits<int64_t>::max();
    for (const auto& t : trace.tasks)
        if (t.creationTime) t0 = std::min(t0, *t.creationTime);
    int32_t missing = 0;
    for (const auto& t : trace.tasks) missing += t.creationTime ? 0 : 1;
    DefaultTiming timing(defaults, seed, missing);
    int64_t inverted = 0;
    SourceRef firstInverted;
    SimWorkload& w = out.workload;
    for (const auto& t : trace.tasks) {
        JobKind kind;
        PodGroup& g = kind.group;
        g.name = t.name;
        g.ns = "default";
        g.queue = "default";
        g.minMember = 1;
        g.phase = PodGroupPhase::Pending;
        g.origin = "gantry.io/AlibabaTrace";
        g.source = t.source;
        Pod p;
        p.name = t.name;
        p.uid = t.name;
        p.ns = "default";
        p.group = t.name;
        p.source = t.source;
        p.requests.set(res::Cpu, t.cpuMilli);
        p.requests.set(res::Memory, t.memoryMiB * 1024 * 1024);
        if (t.gpuCount > 0 && t.gpuMilli > 0) {
            p.requests.set(res::NvidiaGpu, t.totalGpuMilli());
            p.gpu.count = t.gpuCount;
            p.gpu.milliPerGpu = t.gpuMilli;
            p.gpu.models = t.gpuModels;
            if (!t.gpuModels.empty()) {
                NodeSelectorTerm term;
                term.matchExpressions.push_back(
                    SelectorRequirement{workload::kGpuProductLabel, SelectorOp::In, t.gpuModels});
                NodeAffinity a;
                a.required = std::vector<NodeSelectorTerm>{term};
                p.nodeAffinity = a;
            }
        }
        g.minResources = p.requests;
        p.priority = 0;
        kind.pods.push_back(std::move(p));
        SimJob job;
        job.kind = uint32_t(w.kinds.size());
        job.arrival = t.creationTime ? double(*t.creationTime - t0) : timing.arrival(t.source);
        if (t.creationTime && t.deletionTime && *t.deletionTime >= *t.creationTime) {
            // A task deleted in the second it was created still ran: one second (0 would mean "forever").
            job.duration = std::max(1.0, double(*t.deletionTime - *t.creationTime));
        } else {
            if (t.creationTime && t.deletionTime && inverted++ == 0) firstInverted = t.source;
            job.duration = timing.duration(t.source);
        }
        w.kinds.push_back(std::move(kind));
        w.jobs.push_back(job);
    }
    timing.report(w.warnings, "tasks");
    if (inverted > 0)
        w.warnings.push_back(Diagnostic{Severity::Warning, firstInverted,
                                        std::to_string(inverted) +
                                            " tasks are deleted before they are created; their duration is "
                                            "taken as missing"});
    std::stable_sort(w.jobs.begin(), w.jobs.end(),
                     [](const SimJob& a, const SimJob& b) { return a.arrival < b.arrival; });
    return out;
}

} // namespace gantry::sim
