#include "gantry/workload_reader.h"

#include "kubernetes/k8s_fields.h"

#include <set>

namespace gantry {

ArrivalProcess readArrival(const Y& node) {
    ArrivalProcess a;
    if (!node.present()) return a;
    node.checkKeys("arrival", {"kind", "start", "times", "every", "ratePerHour", "burst"});
    std::string kind = node["kind"].str();
    if (kind.empty()) {
        // The keys say which process is meant.
        if (node["ratePerHour"].present())
            kind = "poisson";
        else if (node["burst"].present())
            kind = "burst";
        else
            kind = "fixed";
    }
    a.startSeconds = node["start"].durationSeconds(0);
    if (kind == "fixed") {
        a.kind = ArrivalProcess::Kind::Fixed;
        for (const auto& t : node["times"].items()) a.times.push_back(t.durationSeconds());
        a.intervalSeconds = node["every"].durationSeconds(0);
        if (!a.times.empty() && a.intervalSeconds > 0) node.fail("give either times or every, not both");
        if (node["ratePerHour"].present() || node["burst"].present())
            node.fail("ratePerHour and burst do not apply to a fixed arrival");
    } else if (kind == "poisson") {
        a.kind = ArrivalProcess::Kind::Poisson;
        a.ratePerHour = node["ratePerHour"].num(0);
        if (a.ratePerHour <= 0)
            (node["ratePerHour"].present() ? node["ratePerHour"] : node)
                .fail("a Poisson arrival needs ratePerHour > 0");
        if (node["times"].present() || node["burst"].present() || node["every"].present())
            node.fail("times, every and burst do not apply to a Poisson arrival");
    } else if (kind == "burst") {
        a.kind = ArrivalProcess::Kind::Burst;
        a.burstSize = node["burst"].i32(1);
        if (a.burstSize < 1) node["burst"].fail("burst must be at least 1");
        a.intervalSeconds = node["every"].durationSeconds(0);
        if (a.intervalSeconds <= 0)
            (node["every"].present() ? node["every"] : node).fail("a burst arrival needs every > 0");
        if (node["times"].present() || node["ratePerHour"].present())
            node.fail("times and ratePerHour do not apply to a burst arrival");
    } else {
        node["kind"].fail("unknown arrival kind '" + kind + "' (expected fixed, poisson or burst)");
    }
    return a;
}

DurationDistribution readDuration(const Y& node) {
    DurationDistribution d;
    if (!node.present()) return d;
    if (node.isScalar()) {
        d.meanSeconds = node.durationSeconds();
        return d;
    }
    node.checkKeys("duration", {"kind", "mean", "median", "min", "max", "sigma"});
    std::string kind = node["kind"].str("fixed");
    auto need = [&](const char* key) {
        if (!node[key].present()) node.fail(std::string("a ") + kind + " duration needs " + key);
        return node[key].durationSeconds();
    };
    auto forbid = [&](std::initializer_list<const char*> keys) {
        for (const char* k : keys)
            if (node[k].present())
                node[k].fail(std::string(k) + " does not apply to a " + kind + " duration");
    };
    if (kind == "fixed") {
        d.kind = DurationDistribution::Kind::Fixed;
        d.meanSeconds = need("mean");
        forbid({"median", "min", "max", "sigma"});
    } else if (kind == "exponential") {
        d.kind = DurationDistribution::Kind::Exponential;
        d.meanSeconds = need("mean");
        forbid({"median", "min", "max", "sigma"});
    } else if (kind == "uniform") {
        d.kind = DurationDistribution::Kind::Uniform;
        d.minSeconds = need("min");
        d.maxSeconds = need("max");
        if (d.maxSeconds < d.minSeconds) node["max"].fail("max must not be below min");
        forbid({"mean", "median", "sigma"});
    } else if (kind == "lognormal") {
        d.kind = DurationDistribution::Kind::LogNormal;
        d.meanSeconds = need("median");
        d.sigma = node["sigma"].num(0.5);
        if (d.sigma <= 0) node["sigma"].fail("sigma must be positive");
        forbid({"mean", "min", "max"});
    } else {
        node["kind"].fail("unknown duration kind '" + kind +
                          "' (expected fixed, exponential, uniform or lognormal)");
    }
    return d;
}

GpuRequest readGpuRequest(const Y& node) {
    GpuRequest g;
    if (!node.present()) return g;
    if (node.isScalar()) {
        g.count = node.i32();
        if (g.count < 0) node.fail("GPU count must not be negative");
        return g;
    }
    node.checkKeys("gpu", {"count", "milli", "models"});
    g.count = node["count"].i32(1);
    if (g.count < 0) node["count"].fail("GPU count must not be negative");
    g.milliPerGpu = node["milli"].i32(1000);
    if (g.milliPerGpu < 1 || g.milliPerGpu > 1000)
        node["milli"].fail("milli must be in 1..1000 (a share of one GPU)");
    g.models = node["models"].strings();
    return g;
}

NetworkTopologyConstraint readNetworkTopologyConstraint(const Y& node) {
    NetworkTopologyConstraint c;
    if (!node.present()) return c;
    node.checkKeys("networkTopology", {"mode", "highestTierAllowed", "highestTierName"});
    std::string mode = node["mode"].str("hard");
    if (mode == "hard")
        c.mode = NetworkTopologyConstraint::Mode::Hard;
    else if (mode == "soft")
        c.mode = NetworkTopologyConstraint::Mode::Soft;
    else
        node["mode"].fail("expected hard or soft, got '" + mode + "'");
    c.highestTierAllowed = node["highestTierAllowed"].optI32();
    if (c.highestTierAllowed && *c.highestTierAllowed < 0)
        node["highestTierAllowed"].fail("must not be negative");
    c.highestTierName = node["highestTierName"].str();
    if (c.highestTierAllowed && !c.highestTierName.empty())
        node.fail("highestTierAllowed and highestTierName are mutually exclusive");
    return c;
}

WorkloadTemplate readWorkloadTemplate(const Y& node) {
    node.checkKeys("workload", {"name", "namespace", "queue", "priorityClass", "jobs", "replicas",
                                "minMember", "role", "resources", "gpu", "nodeSelector", "tolerations",
                                "networkTopology", "arrival", "duration", "checkpoint", "preemptable"});
    WorkloadTemplate w;
    w.source = node.where();
    w.name = node["name"].str();
    if (w.name.empty()) node.fail("workload has no name");
    Y n = node.withSubject("workload '" + w.name + "'");
    w.ns = n["namespace"].str("default");
    w.queue = n["queue"].str();
    w.priorityClass = n["priorityClass"].str();
    w.jobs = n["jobs"].i32(1);
    if (w.jobs < 1) n["jobs"].fail("jobs must be at least 1");
    w.replicas = n["replicas"].i32(1);
    if (w.replicas < 1) n["replicas"].fail("replicas must be at least 1");
    w.minMember = n["minMember"].i32(0);
    if (w.minMember < 0 || w.minMember > w.replicas) n["minMember"].fail("must be in 0..replicas (0 = all)");
    w.role = n["role"].str("worker");
    w.podRequests = n["resources"].resources();
    auto gpu = n["gpu"];
    w.gpu = readGpuRequest(gpu);
    if (gpu.isScalar() && w.gpu.count > 0) {
        // `gpu: 8` is whole GPUs: the pod requests them as nvidia.com/gpu.
        if (w.podRequests.has(res::NvidiaGpu) &&
            w.podRequests.get(res::NvidiaGpu) != int64_t(w.gpu.count) * 1000)
            gpu.fail("gpu: " + std::to_string(w.gpu.count) + " contradicts resources." +
                     std::string(res::NvidiaGpu));
        w.podRequests.set(res::NvidiaGpu, int64_t(w.gpu.count) * 1000);
    }
    w.nodeSelector = n["nodeSelector"].stringMap();
    w.tolerations = readTolerations(n["tolerations"]);
    w.networkTopology = readNetworkTopologyConstraint(n["networkTopology"]);
    w.arrival = readArrival(n["arrival"]);
    w.duration = readDuration(n["duration"]);
    w.checkpointSeconds = n["checkpoint"].durationSeconds(0);
    w.preemptable = n["preemptable"].boolean(true);
    return w;
}

PriorityClass readGantryPriorityClass(const Y& node) {
    node.checkKeys("priority class",
                   {"name", "value", "globalDefault", "preemptionPolicy", "description", "workload"});
    PriorityClass p;
    p.source = node.where();
    p.name = node["name"].str();
    if (p.name.empty()) node.fail("priority class has no name");
    if (!node["value"].present()) node.fail("priority class '" + p.name + "' has no value");
    p.value = node["value"].i32();
    p.globalDefault = node["globalDefault"].boolean(false);
    p.preemptionPolicy = node["preemptionPolicy"].str();
    if (!p.preemptionPolicy.empty() && p.preemptionPolicy != "PreemptLowerPriority" &&
        p.preemptionPolicy != "Never")
        node["preemptionPolicy"].fail("expected PreemptLowerPriority or Never, got '" + p.preemptionPolicy +
                                      "'");
    p.description = node["description"].str();
    p.workload = node["workload"].boolean(false);
    return p;
}

Diagnostics checkWorkloads(const Cluster& cluster, const std::vector<WorkloadTemplate>& workloads) {
    Diagnostics out;
    std::set<std::string> names;
    for (const auto& w : workloads) {
        auto error = [&](std::string message) {
            out.push_back(Diagnostic{Severity::Error, w.source, std::move(message)});
        };
        if (!names.insert(w.name).second) error("duplicate workload '" + w.name + "'");
        if (!w.queue.empty() && !cluster.queues.empty() && !cluster.findQueue(w.queue))
            error("workload '" + w.name + "' names queue '" + w.queue + "', which does not exist");
        if (!w.priorityClass.empty() && !cluster.findPriorityClass(w.priorityClass))
            error("workload '" + w.name + "' names priority class '" + w.priorityClass +
                  "', which does not exist");
    }
    return out;
}

} // namespace gantry
