#pragma once
// Clusters, policies and sessions built in C++ for the engine tests: nodes, pods, PodGroups and queues
// by their few fields that matter, configurations by plugin names, a session run either way, and a
// result written as text to compare.
#include "model/cluster.h"
#include "profiles/volcano/framework/session.h"
#include "state/cluster_state.h"

#include <QString>
#include <string>
#include <vector>

namespace gantry::engine::fixtures {

constexpr int64_t Gi = 1024LL * 1024 * 1024;

inline Node makeNode(const std::string& name, int64_t milliCpu, int64_t memGi, int64_t gpus = 0,
                     Labels labels = {}) {
    Node n;
    n.name = name;
    n.labels = std::move(labels);
    n.allocatable.set(res::Cpu, milliCpu);
    n.allocatable.set(res::Memory, memGi * Gi);
    n.allocatable.set(res::Pods, 110);
    if (gpus) {
        n.allocatable.set(res::NvidiaGpu, gpus);
        n.gpus.count = int32_t(gpus);
    }
    n.capacity = n.allocatable;
    return n;
}

inline Pod makePod(const std::string& ns, const std::string& name, const std::string& group, int64_t milliCpu,
                   int64_t memGi, int64_t gpus = 0) {
    Pod p;
    p.ns = ns;
    p.name = name;
    p.uid = ns + "-" + name;
    p.group = group;
    p.schedulerName = "volcano";
    if (milliCpu) p.requests.set(res::Cpu, milliCpu);
    if (memGi) p.requests.set(res::Memory, memGi * Gi);
    if (gpus) {
        p.requests.set(res::NvidiaGpu, gpus);
        p.gpu.count = int32_t(gpus);
    }
    return p;
}

inline PodGroup makeGroup(const std::string& ns, const std::string& name, const std::string& queue,
                          int32_t minMember, PodGroupPhase phase = PodGroupPhase::Inqueue) {
    PodGroup g;
    g.ns = ns;
    g.name = name;
    g.queue = queue;
    g.minMember = minMember;
    g.phase = phase;
    g.origin = "scheduling.volcano.sh/PodGroup";
    return g;
}

inline Queue makeQueue(const std::string& name, int32_t weight = 1) {
    Queue q;
    q.name = name;
    q.weight = weight;
    return q;
}

inline SchedulerConf makeConf(std::vector<std::string> actions, std::vector<std::vector<std::string>> tiers) {
    SchedulerConf c;
    c.actions = std::move(actions);
    for (const auto& names : tiers) {
        Tier t;
        for (const auto& n : names) {
            PluginOption o;
            o.name = n;
            t.plugins.push_back(o);
        }
        c.tiers.push_back(t);
    }
    return c;
}

inline SchedulerConf defaultConf(std::vector<std::string> actions = {"enqueue", "allocate", "backfill"}) {
    return makeConf(std::move(actions), {{"priority", "gang", "conformance"},
                                         {"drf", "predicates", "proportion", "nodeorder", "binpack"}});
}

// A simulator-style session: cached, compact result, parked jobs untried or not.
inline CycleResult runCompact(ClusterState& st, SessionCache& cache, const SchedulerConf& conf, bool park) {
    SessionOptions o;
    o.cache = &cache;
    o.compactResult = true;
    o.parkJobs = park;
    Session ssn(st, conf, o);
    return ssn.run();
}

inline CycleResult runSession(const Cluster& cluster, const SchedulerConf& conf, bool useIndex) {
    ClusterState st = buildClusterState(cluster);
    SessionOptions o;
    o.useNodeIndex = useIndex;
    Session ssn(st, conf, o);
    return ssn.run();
}

inline QString describe(const CycleResult& r) {
    QString out;
    for (const auto& [p, n] : r.bindings)
        out += QString("bind %1 %2\n").arg(QString::fromStdString(p), QString::fromStdString(n));
    for (const auto& p : r.evicted) out += QString("evict %1\n").arg(QString::fromStdString(p));
    for (const auto& [g, ns] : r.pipelined) {
        out += "pipelined " + QString::fromStdString(g);
        for (const auto& n : ns) out += " " + QString::fromStdString(n);
        out += "\n";
    }
    for (const auto& [g, ph] : r.podGroupPhase)
        out += QString("phase %1 %2\n").arg(QString::fromStdString(g), QString(toString(ph)));
    for (const auto& [p, why] : r.pending)
        out += QString("pending %1 %2\n").arg(QString::fromStdString(p), QString::fromStdString(why));
    for (const auto& [g, s] : r.gangs)
        out += QString("gang %1 %2\n").arg(QString::fromStdString(g), QString::fromStdString(s.reason));
    return out;
}

} // namespace gantry::engine::fixtures
