#include "workload/expand.h"

#include <algorithm>
#include <cmath>

namespace gantry::workload {

std::vector<double> arrivalTimes(const ArrivalProcess& a, int32_t jobs, Random& rng) {
    std::vector<double> out;
    if (jobs <= 0) return out;
    out.reserve(size_t(jobs));
    switch (a.kind) {
    case ArrivalProcess::Kind::Fixed:
        for (int32_t i = 0; i < jobs; ++i) {
            if (!a.times.empty())
                out.push_back(a.startSeconds +
                              a.times[size_t(std::min<int32_t>(i, int32_t(a.times.size()) - 1))]);
            else
                out.push_back(a.startSeconds + double(i) * a.intervalSeconds);
        }
        std::stable_sort(out.begin(), out.end());
        break;
    case ArrivalProcess::Kind::Poisson: {
        const double mean = a.ratePerHour > 0 ? 3600.0 / a.ratePerHour : 0;
        double t = a.startSeconds;
        for (int32_t i = 0; i < jobs; ++i) {
            t += rng.exponential(mean);
            out.push_back(t);
        }
        break;
    }
    case ArrivalProcess::Kind::Burst: {
        const int32_t size = std::max<int32_t>(a.burstSize, 1);
        for (int32_t i = 0; i < jobs; ++i)
            out.push_back(a.startSeconds + double(i / size) * a.intervalSeconds);
        break;
    }
    }
    return out;
}

double drawDuration(const DurationDistribution& d, Random& rng) {
    switch (d.kind) {
    case DurationDistribution::Kind::Fixed:
        return d.meanSeconds;
    case DurationDistribution::Kind::Exponential:
        return rng.exponential(d.meanSeconds);
    case DurationDistribution::Kind::Uniform:
        return d.minSeconds + (d.maxSeconds - d.minSeconds) * rng.uniform();
    case DurationDistribution::Kind::LogNormal:
        return d.meanSeconds * std::exp(d.sigma * rng.normal());
    }
    return d.meanSeconds;
}

std::vector<JobDraw> drawJobs(const WorkloadTemplate& w, uint64_t seed) {
    Random arrivals = Random::stream(seed, "arrival:" + w.name, 0);
    Random durations = Random::stream(seed, "duration:" + w.name, 0);
    std::vector<double> times = arrivalTimes(w.arrival, w.jobs, arrivals);
    std::vector<JobDraw> out(times.size());
    for (size_t i = 0; i < times.size(); ++i) {
        out[i].arrival = times[i];
        out[i].duration = drawDuration(w.duration, durations);
    }
    return out;
}

Diagnostics checkTemplate(const WorkloadTemplate& w) {
    Diagnostics out;
    const auto& a = w.arrival;
    if (a.kind == ArrivalProcess::Kind::Fixed && !a.times.empty() && a.times.size() != size_t(w.jobs)) {
        std::string msg = "workload '" + w.name + "' has " + std::to_string(w.jobs) + " jobs but " +
                          std::to_string(a.times.size()) + " arrival times; ";
        msg += a.times.size() < size_t(w.jobs) ? "the jobs past the list arrive at its last time"
                                               : "the times past the job count are not used";
        out.push_back(Diagnostic{Severity::Warning, w.source, msg});
    }
    return out;
}

std::string jobName(const WorkloadTemplate& w, int32_t n) {
    return w.name + "-" + std::to_string(n);
}

std::string podName(const WorkloadTemplate& w, int32_t n, int32_t replica) {
    return jobName(w, n) + "-" + (w.role.empty() ? std::string("pod") : w.role) + "-" +
           std::to_string(replica);
}

void resolvePriority(Pod& pod, const Cluster& cluster) {
    const PriorityClass* pc =
        pod.priorityClassName.empty() ? nullptr : cluster.findPriorityClass(pod.priorityClassName);
    if (!pc && pod.priorityClassName.empty())
        for (const auto& c : cluster.priorityClasses)
            if (c.globalDefault && !c.workload) pc = &c;
    if (!pod.priority) pod.priority = pc ? pc->value : 0;
    if (pod.preemptionPolicy.empty() && pc) pod.preemptionPolicy = pc->preemptionPolicy;
}

namespace {

ResourceList podRequests(const WorkloadTemplate& w) {
    ResourceList r = w.podRequests;
    if (w.gpu.count > 0 && !r.has(res::NvidiaGpu)) r.set(res::NvidiaGpu, w.gpu.totalMilli());
    return r;
}

} // namespace

PodGroup templatePodGroup(const WorkloadTemplate& w, int32_t n, const JobDraw& draw) {
    PodGroup g;
    g.name = jobName(w, n);
    g.ns = w.ns;
    g.queue = w.queue;
    g.minMember = w.minMember > 0 ? w.minMember : w.replicas;
    g.priorityClassName = w.priorityClass;
    g.phase = PodGroupPhase::Pending;
    g.networkTopology = w.networkTopology;
    g.origin = "gantry.io/WorkloadTemplate";
    g.labels["gantry.io/workload"] = w.name;
    if (!w.preemptable) g.annotations["volcano.sh/preemptable"] = "false";
    const ResourceList req = podRequests(w);
    for (int32_t i = 0; i < g.minMember; ++i) g.minResources += req;
    g.arrivalSeconds = draw.arrival;
    g.durationSeconds = draw.duration;
    g.checkpointSeconds = w.checkpointSeconds;
    g.source = w.source;
    return g;
}

std::vector<Pod> templatePods(const WorkloadTemplate& w, int32_t n, const Cluster& cluster) {
    Pod proto;
    proto.ns = w.ns;
    proto.labels["gantry.io/workload"] = w.name;
    proto.requests = podRequests(w);
    proto.gpu = w.gpu;
    proto.nodeSelector = w.nodeSelector;
    proto.tolerations = w.tolerations;
    if (!w.gpu.models.empty() && w.gpu.count > 0) {
        NodeSelectorTerm term;
        term.matchExpressions.push_back(SelectorRequirement{kGpuProductLabel, SelectorOp::In, w.gpu.models});
        NodeAffinity affinity;
        affinity.required = std::vector<NodeSelectorTerm>{term};
        proto.nodeAffinity = affinity;
    }
    proto.priorityClassName = w.priorityClass;
    resolvePriority(proto, cluster);
    proto.group = jobName(w, n);
    proto.role = w.role;
    proto.preemptable = w.preemptable;
    proto.ownerKind = "WorkloadTemplate";
    proto.ownerName = w.name;
    proto.source = w.source;
    std::vector<Pod> pods(size_t(w.replicas), proto);
    for (int32_t i = 0; i < w.replicas; ++i) {
        pods[size_t(i)].name = podName(w, n, i);
        pods[size_t(i)].uid = pods[size_t(i)].name;
    }
    return pods;
}

Expansion expandWorkloads(const std::vector<WorkloadTemplate>& templates, const Cluster& cluster,
                          uint64_t seed) {
    Expansion out;
    for (size_t ti = 0; ti < templates.size(); ++ti) {
        const auto& w = templates[ti];
        auto warnings = checkTemplate(w);
        out.warnings.insert(out.warnings.end(), warnings.begin(), warnings.end());
        auto draws = drawJobs(w, seed);
        for (int32_t n = 0; n < int32_t(draws.size()); ++n) {
            out.podGroups.push_back(templatePodGroup(w, n, draws[size_t(n)]));
            auto pods = templatePods(w, n, cluster);
            out.pods.insert(out.pods.end(), std::make_move_iterator(pods.begin()),
                            std::make_move_iterator(pods.end()));
        }
    }
    return out;
}

} // namespace gantry::workload
