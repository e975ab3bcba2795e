// Sessions that evict (preempt, reclaim) decide the same whether they walk every job or leave the
// settled ones out and skip the parked ones: random clusters filled with running work of several
// queues and priorities, with waiting jobs that preempt inside their queue and reclaim from queues
// above their share. Compared on what the simulator applies (bindings, evictions, phases) and on
// the reasons, over several sessions whose decisions are applied in between.
#include "engine_fixtures.h"
#include "k8s/kube_scheduler.h"
#include "test_registry.h"

#include <QtTest>
#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <set>

using namespace gantry;
using namespace gantry::engine;
using namespace gantry::engine::fixtures;

namespace {

// GPU nodes in two pools, one to four weighted queues (one may not be reclaimable), running jobs of
// every priority filling most of the GPUs (some elastic, some not preemptable, some in kube-system),
// and waiting jobs: gangs and single pods, higher priorities, a pool selector, preemptionPolicy Never,
// in some seeds pods of two sizes in one job.
// With q0WithoutVictims every job of queue q0 has the highest priority, so its waiting jobs
// preempt without victims (placed where they fit as things are, after other jobs' evictions), and
// in one seed in three some nodes have a PreferNoSchedule taint (scores normalized over nodes).
// With tree, two to five leaf queues with deserved GPUs sit under two parents under root, as
// parents and as volcano.sh/hierarchy paths (capacity's enableHierarchy and hierarchical drf). In
// some seeds the leaves under one parent give it different weights, one leaf has running jobs only,
// and one running pod asks for nothing (in that leaf, when there is one). With innerQueue (hierarchical drf
// only: capacity refuses it) one more queue sits at the path of parent pa itself, its jobs beside pa's leaf
// queues.
Cluster randomContendedCluster(uint32_t seed, bool q0WithoutVictims = false, bool tree = false,
                               bool innerQueue = false) {
    std::mt19937 rng(seed);
    auto pick = [&](int n) { return int(rng() % uint32_t(n)); };
    Cluster c;
    const int nodes = 6 + pick(20);
    std::vector<int> freeGpus(size_t(nodes), 8);
    std::vector<int64_t> freeCpu(size_t(nodes), 64000);
    for (int i = 0; i < nodes; ++i) {
        c.nodes.push_back(
            makeNode("node-" + std::to_string(i), 64000, 512, 8, {{"pool", pick(3) == 0 ? "b" : "a"}}));
        if (q0WithoutVictims && seed % 3 == 0 && pick(4) == 0)
            c.nodes.back().taints.push_back(Taint{"maintenance", "soon", TaintEffect::PreferNoSchedule});
    }
    const int queues = tree ? 2 + pick(4) : 1 + pick(4);
    for (int q = 0; q < queues; ++q) {
        Queue queue = makeQueue("q" + std::to_string(q), 1 + pick(3));
        if (q > 0 && pick(5) == 0) queue.reclaimable = false;
        c.queues.push_back(queue);
    }
    if (tree) {
        const char* parents[] = {"pa", "pb"};
        int64_t parentDeserved[2] = {0, 0};
        for (int q = 0; q < queues; ++q) {
            Queue& leaf = c.queues[size_t(q)];
            leaf.parent = parents[q % 2];
            leaf.deserved.set(res::NvidiaGpu, 1 + pick(nodes * 8 / queues));
            parentDeserved[q % 2] += leaf.deserved.get(res::NvidiaGpu);
            leaf.annotations["volcano.sh/hierarchy"] = "root/" + leaf.parent + "/" + leaf.name;
            const int parentWeight = seed % 5 == 0 ? 1 + pick(3) : 1 + q % 2;
            leaf.annotations["volcano.sh/hierarchy-weights"] =
                "1/" + std::to_string(parentWeight) + "/" + std::to_string(1 + pick(3));
        }
        if (innerQueue) {
            Queue inner = makeQueue("q" + std::to_string(queues));
            inner.annotations["volcano.sh/hierarchy"] = "root/pa";
            inner.annotations["volcano.sh/hierarchy-weights"] = "1/" + std::to_string(1 + pick(3));
            c.queues.push_back(inner);
        }
        c.queues.push_back(makeQueue("root"));
        for (int k = 0; k < 2; ++k) {
            Queue parent = makeQueue(parents[k]);
            parent.parent = "root";
            parent.deserved.set(res::NvidiaGpu, parentDeserved[k]);
            c.queues.push_back(parent);
        }
    }
    const std::pair<const char*, int32_t> classes[] = {
        {"low", 10}, {"mid", 100}, {"high", 1000}, {"never", 500}};
    for (const auto& [name, value] : classes) {
        PriorityClass pc;
        pc.name = name;
        pc.value = value;
        if (std::string(name) == "never") pc.preemptionPolicy = "Never";
        c.priorityClasses.push_back(pc);
    }
    auto classOf = [&](bool waiting) {
        const int r = pick(10);
        if (waiting) return r < 3 ? "mid" : r < 8 ? "high" : r < 9 ? "low" : "never";
        return r < 6 ? "low" : r < 9 ? "mid" : "high";
    };
    const int jobQueues = queues + (tree && innerQueue ? 1 : 0);
    // On trees, in one seed in four: a queue whose jobs all run (no waiting job is drawn for it).
    const int runningOnly = tree && seed % 4 == 0 ? pick(jobQueues) : -1;
    auto waitingQueue = [&] {
        if (runningOnly < 0) return pick(jobQueues);
        const int q = pick(jobQueues - 1);
        return q >= runningOnly ? q + 1 : q;
    };
    int job = 0;
    // Running work, placed first-fit from a random node until about nine GPUs in ten are taken.
    int taken = 0;
    while (taken * 10 < nodes * 8 * 9) {
        const std::string ns = pick(20) == 0 ? "kube-system" : "ns" + std::to_string(pick(2));
        const std::string name = "run-" + std::to_string(job++);
        const int replicas = 1 + pick(4);
        const int gpus = 1 << pick(3);
        std::vector<int> placed;
        for (int k = 0; k < replicas; ++k) {
            const int start = pick(nodes);
            for (int i = 0; i < nodes; ++i) {
                const int n = (start + i) % nodes;
                if (freeGpus[size_t(n)] >= gpus && freeCpu[size_t(n)] >= 4000 * gpus) {
                    freeGpus[size_t(n)] -= gpus;
                    freeCpu[size_t(n)] -= 4000 * gpus;
                    placed.push_back(n);
                    break;
                }
            }
        }
        if (placed.empty()) break;
        const int32_t minMember = pick(3) == 0 ? 1 + pick(int(placed.size())) : int32_t(placed.size());
        PodGroup g =
            makeGroup(ns, name, "q" + std::to_string(pick(jobQueues)), minMember, PodGroupPhase::Running);
        g.priorityClassName = classOf(false);
        if (q0WithoutVictims && g.queue == "q0") g.priorityClassName = "high";
        for (size_t k = 0; k < placed.size(); ++k) {
            Pod p = makePod(ns, name + "-" + std::to_string(k), name, 4000 * gpus, 32 * gpus, gpus);
            p.priorityClassName = g.priorityClassName;
            p.phase = PodPhase::Running;
            p.nodeName = c.nodes[size_t(placed[k])].name;
            if (pick(10) == 0) p.preemptable = false;
            c.pods.push_back(std::move(p));
        }
        c.podGroups.push_back(std::move(g));
        taken += gpus * int(placed.size());
    }
    // Waiting work.
    const int waiting = 3 + pick(12);
    for (int w = 0; w < waiting; ++w) {
        const std::string ns = "ns" + std::to_string(pick(2));
        const std::string name = "wait-" + std::to_string(job++);
        const int replicas = 1 + pick(4);
        const int gpus = 1 << pick(4);
        const int32_t minMember = pick(4) == 0 ? 1 + pick(replicas) : replicas;
        PodGroup g = makeGroup(ns, name, "q" + std::to_string(waitingQueue()), minMember,
                               pick(6) == 0 ? PodGroupPhase::Pending : PodGroupPhase::Inqueue);
        g.priorityClassName = classOf(true);
        if (q0WithoutVictims && g.queue == "q0") g.priorityClassName = "high";
        const bool poolB = pick(5) == 0;
        for (int k = 0; k < replicas; ++k) {
            // In one seed in seven, a job's odd pods ask for another number of GPUs (two shapes).
            const int size = seed % 7 == 3 && k % 2 == 1 ? (gpus == 1 ? 2 : gpus / 2) : gpus;
            Pod p = makePod(ns, name + "-" + std::to_string(k), name, 4000 * size, 32 * size, size);
            p.priorityClassName = g.priorityClassName;
            if (g.priorityClassName == std::string("never")) p.preemptionPolicy = "Never";
            if (poolB) p.nodeSelector["pool"] = "b";
            c.pods.push_back(std::move(p));
        }
        c.podGroups.push_back(std::move(g));
    }
    // On trees, in some seeds: running pods that ask for nothing a leaf has a deserved share in
    // (nothing at all, or cpu only, taking the cpu left on a node with free GPUs, so that a
    // reclaimer may need it back; capacity takes such a pod whatever the leaf's share), and a leaf
    // with a guarantee (capacity never takes it below that).
    if (tree && seed % 2 == 0)
        for (int k = 0, n = 2 + pick(4); k < n; ++k) {
            int node = pick(nodes);
            for (int i = 0; i < nodes; ++i)
                if (freeGpus[size_t(i)] > freeGpus[size_t(node)] && freeCpu[size_t(i)] >= 2000) node = i;
            if (freeCpu[size_t(node)] < 2000) continue;
            const int64_t cpu = k == 0 ? 0 : freeCpu[size_t(node)] - 2000 * pick(2);
            freeCpu[size_t(node)] -= cpu;
            const std::string name = "cpu-" + std::to_string(job++);
            PodGroup g =
                makeGroup("ns0", name, "q" + std::to_string(pick(queues)), 1, PodGroupPhase::Running);
            g.priorityClassName = "low";
            Pod p = makePod("ns0", name + "-0", name, cpu, k == 0 ? 0 : 4);
            p.priorityClassName = g.priorityClassName;
            p.phase = PodPhase::Running;
            p.nodeName = c.nodes[size_t(node)].name;
            c.pods.push_back(std::move(p));
            c.podGroups.push_back(std::move(g));
        }
    // The pod that asks for nothing goes to the queue whose jobs all run, when there is one: without
    // it that queue would be saturated (hierarchical drf), with it the queue is not.
    if (tree && (seed % 3 == 0 || runningOnly >= 0)) {
        const std::string name = "idle-" + std::to_string(job++);
        const int q = runningOnly >= 0 ? runningOnly : pick(jobQueues);
        PodGroup g = makeGroup("ns1", name, "q" + std::to_string(q), 1, PodGroupPhase::Running);
        Pod p = makePod("ns1", name + "-0", name, 0, 0);
        p.phase = PodPhase::Running;
        p.nodeName = c.nodes[size_t(pick(nodes))].name;
        c.pods.push_back(std::move(p));
        c.podGroups.push_back(std::move(g));
    }
    if (tree && seed % 4 == 1) c.queues[size_t(pick(queues))].guarantee.set(res::NvidiaGpu, 1 + pick(4));
    return c;
}

const std::vector<std::string> kEvicting = {"enqueue", "allocate", "preempt", "reclaim", "backfill"};

struct Policy {
    QString name;
    SchedulerConf conf;
    bool tree = false;       // on clusters with a queue tree
    bool innerQueue = false; // with a queue at a parent's path (randomContendedCluster)
};

// The scale benchmark's production policy (bench/preempt-reclaim.conf), and variants where gang and
// drf choose victims too, or only one of the two actions runs; and the same policy over a queue
// tree, with capacity's enableHierarchy in place of proportion, or hierarchical drf.
std::vector<Policy> evictingConfs() {
    auto production = [](std::vector<std::string> actions, const char* quota = "proportion",
                         bool ownArguments = false) {
        SchedulerConf c =
            makeConf(std::move(actions),
                     {{"priority", "gang", "conformance"},
                      {"overcommit", "drf", "predicates", quota, "nodeorder", "binpack", "deviceshare"}});
        if (ownArguments) return c; // gang and drf choose victims too (issue 31's slow conf)
        c.tiers[0].plugins[1].switches["enablePreemptable"] = false;
        c.tiers[1].plugins[1].switches["enablePreemptable"] = false;
        return c;
    };
    SchedulerConf capacity = production(kEvicting, "capacity");
    capacity.tiers[1].plugins[3].switches["enableHierarchy"] = true;
    SchedulerConf capacityAncestors = capacity;
    capacityAncestors.tiers[1].plugins[3].arguments["ancestorReclaimLevel"] = "1";
    SchedulerConf hdrf = makeConf(
        kEvicting, {{"priority", "gang", "conformance"}, {"drf", "predicates", "nodeorder", "binpack"}});
    hdrf.tiers[0].plugins[1].switches["enablePreemptable"] = false;
    hdrf.tiers[1].plugins[0].switches["enablePreemptable"] = false;
    hdrf.tiers[1].plugins[0].switches["enableHierarchy"] = true;
    SchedulerConf hdrfPlacing = hdrf;
    hdrfPlacing.actions = {"enqueue", "allocate", "backfill"};
    return {
        {"production", production(kEvicting)},
        {"production, plugins' own arguments", production(kEvicting, "proportion", true)},
        {"preempt only", production({"enqueue", "allocate", "preempt", "backfill"})},
        {"reclaim only", production({"enqueue", "allocate", "reclaim", "backfill"})},
        {"default plugins", defaultConf(kEvicting)},
        {"drf first",
         makeConf(kEvicting, {{"drf", "gang"}, {"priority", "predicates", "proportion", "binpack"}})},
        {"capacity hierarchy", capacity, true},
        {"capacity hierarchy, ancestor level", capacityAncestors, true},
        {"hierarchical drf", hdrf, true, true},
        {"hierarchical drf, no eviction", hdrfPlacing, true, true},
    };
}

// What the simulator takes from a session, in a form that compares: bindings, evictions, phase
// changes (in job order), and each job's reason unless it was left untried.
struct Decisions {
    std::vector<std::pair<uint32_t, uint32_t>> bound;
    std::vector<uint32_t> evicted;
    std::vector<std::pair<uint32_t, PodGroupPhase>> phases;
    std::map<uint32_t, std::string> reasons;
    std::set<uint32_t> untried;
    std::set<std::string> warnings;
};

// Without a cache, the reference: every job, every node (no index, no shortcut in preempt), on a
// copy of the configuration of its own. With one, on a plan made once, as the simulator's are.
Decisions decide(ClusterState& st, SessionCache* cache, const SchedulerConf& conf, bool park,
                 const SessionPlan* plan = nullptr) {
    SessionOptions o;
    o.useNodeIndex = cache != nullptr;
    o.cache = cache;
    o.compactResult = true;
    o.parkJobs = park;
    std::optional<Session> ssn;
    if (plan) {
        ssn.emplace(st, *plan, o);
    } else {
        ssn.emplace(st, conf, o);
    }
    CycleResult r = ssn->run();
    Decisions d;
    d.bound = r.boundTasks;
    d.evicted = r.evictedTasks;
    d.phases = r.phaseChanges;
    std::sort(d.phases.begin(), d.phases.end());
    d.reasons.insert(r.jobReasons.begin(), r.jobReasons.end());
    d.untried.insert(r.parkedJobs.begin(), r.parkedJobs.end());
    d.warnings.insert(r.warnings.begin(), r.warnings.end());
    return d;
}

// Applies decisions as the simulator does, at once: bound pods run, evicted pods are pending again
// with their PodGroup, phases change.
void apply(ClusterState& st, const Decisions& d) {
    for (const auto& [t, node] : d.bound) {
        st.setTask(t, TaskStatus::Running, int32_t(node));
        st.k8sAdd(t, node);
        st.reindexNode(node);
    }
    for (const auto& [j, phase] : d.phases) st.setJobPhase(j, phase);
    for (uint32_t t : d.evicted) {
        const uint32_t node = uint32_t(st.tasks[t].node);
        if (st.tasks[t].inK8sView) st.k8sRemove(t, node);
        st.setTask(t, TaskStatus::Pending, -1);
        st.reindexNode(node);
        st.setJobPhase(st.tasks[t].job, PodGroupPhase::Pending);
    }
}

void compare(const Decisions& shortcut, const Decisions& full) {
    QCOMPARE(shortcut.bound, full.bound);
    QCOMPARE(shortcut.evicted, full.evicted);
    QCOMPARE(shortcut.phases, full.phases);
    QVERIFY(full.untried.empty());
    for (const auto& [j, reason] : full.reasons) {
        if (shortcut.untried.count(j)) continue;
        QVERIFY2(shortcut.reasons.count(j), qPrintable(QString("no reason for job %1").arg(j)));
        QCOMPARE(QString::fromStdString(shortcut.reasons.at(j)), QString::fromStdString(reason));
    }
    QCOMPARE(shortcut.reasons.size() + shortcut.untried.size(), full.reasons.size());
}

// One cluster decided three ways, session after session: by full sessions (the reference), with
// the settled jobs left out, and with the parked jobs left out too. The reference's decisions are
// applied to all three states, so every round starts from the same cluster.
struct ThreeWays {
    explicit ThreeWays(const Cluster& c)
        : full(buildClusterState(c)), cached(buildClusterState(c)), park(buildClusterState(c)) {}
    ClusterState full, cached, park;
    SessionCache cachedCache{cached}, parkCache{park};
    std::optional<SessionPlan> plan; // the shortcut sessions', made at the first round
    Decisions reference, withSettled, withParked;

    // One session each way, on one policy round after round; a difference fails the running test.
    void decideAndCompare(const SchedulerConf& policy) {
        if (!plan) plan.emplace(policy);
        reference = decide(full, nullptr, policy, false);
        withSettled = decide(cached, &cachedCache, policy, false, &*plan);
        withParked = decide(park, &parkCache, policy, true, &*plan);
        QVERIFY(withSettled.untried.empty());
        compare(withSettled, reference);
        compare(withParked, reference);
    }
    void applyReference() {
        for (ClusterState* st : {&full, &cached, &park}) apply(*st, reference);
    }
};

// --- network-topology-aware ---

HyperNodeMember member(HyperNodeMember::Type type, const std::string& name) {
    HyperNodeMember m;
    m.type = type;
    m.value = name;
    return m;
}

// A contended cluster (above) with HyperNodes: racks of two to four nodes (tier 1, "rack") in two
// zones (tier 2, "zone"). A third of the waiting gangs must run inside one HyperNode of tier 1 or 2
// (hard), one more in soft mode, and a waiting and a running job name a tier no HyperNode has
// (warned about, placed as without a constraint).
Cluster randomTopologyCluster(uint32_t seed) {
    Cluster c = randomContendedCluster(seed, seed > 40);
    std::mt19937 rng(seed * 7919);
    auto pick = [&](int n) { return int(rng() % uint32_t(n)); };
    std::vector<std::string> racks[2];
    for (size_t first = 0; first < c.nodes.size();) {
        const size_t size = std::min(c.nodes.size() - first, size_t(2 + pick(3)));
        HyperNode rack;
        rack.name = "rack-" + std::to_string(first);
        rack.tier = 1;
        rack.tierName = "rack";
        for (size_t n = first; n < first + size; ++n)
            rack.members.push_back(member(HyperNodeMember::Type::Node, c.nodes[n].name));
        racks[pick(2)].push_back(rack.name);
        c.hyperNodes.push_back(std::move(rack));
        first += size;
    }
    for (int z = 0; z < 2; ++z) {
        HyperNode zone;
        zone.name = "zone-" + std::to_string(z);
        zone.tier = 2;
        zone.tierName = "zone";
        for (const auto& r : racks[z]) zone.members.push_back(member(HyperNodeMember::Type::HyperNode, r));
        c.hyperNodes.push_back(std::move(zone));
    }
    bool unknownWaiting = false, unknownRunning = false;
    for (auto& g : c.podGroups) {
        auto& t = g.networkTopology;
        if (g.phase == PodGroupPhase::Running) {
            if (!unknownRunning && pick(3) == 0) {
                unknownRunning = true;
                t.mode = NetworkTopologyConstraint::Mode::Hard;
                t.highestTierName = "spine";
            }
        } else if (!unknownWaiting && pick(4) == 0) {
            unknownWaiting = true;
            t.mode = NetworkTopologyConstraint::Mode::Hard;
            t.highestTierName = "block";
        } else if (const int r = pick(9); r < 3) {
            t.mode = NetworkTopologyConstraint::Mode::Hard;
            if (r == 0)
                t.highestTierName = "rack";
            else
                t.highestTierAllowed = 1 + pick(2);
        } else if (r == 3) {
            t.mode = NetworkTopologyConstraint::Mode::Soft;
        }
    }
    return c;
}

// The production policy with network-topology-aware, scoring with its defaults.
SchedulerConf topologyConf() {
    SchedulerConf c = makeConf(kEvicting, {{"priority", "gang", "conformance"},
                                           {"overcommit", "drf", "predicates", "proportion", "nodeorder",
                                            "binpack", "deviceshare", "network-topology-aware"}});
    c.tiers[0].plugins[1].switches["enablePreemptable"] = false;
    c.tiers[1].plugins[1].switches["enablePreemptable"] = false;
    return c;
}

} // namespace

class EvictingSessionTest : public QObject {
    Q_OBJECT
  private slots:
    // kube-scheduler gives a pod like one that just found no node and no victims that pod's answer
    // (same shape and priority, nothing bound, evicted or renominated since): the same cycles as
    // those that filter and dry-run every pod, on clusters where DefaultPreemption evicts. Each
    // round the full cycle's bindings and evictions are applied to both states.
    void kubeSchedulerAnswersLikePodsAsFullCycles() {
        const KubeSchedulerProfile profile;
        int evictions = 0, cycles = 0;
        for (uint32_t seed = 1; seed <= 80; ++seed) {
            const Cluster c = randomContendedCluster(seed, seed > 40);
            ClusterState full = buildClusterState(c, nullptr, k8s::kubeBuildOptions());
            ClusterState shortcut = buildClusterState(c, nullptr, k8s::kubeBuildOptions());
            for (int round = 0; round < 4; ++round) {
                const CycleResult a =
                    k8s::runKubeScheduler(full, profile, false, false, nullptr, nullptr, false);
                const CycleResult b =
                    k8s::runKubeScheduler(shortcut, profile, false, false, nullptr, nullptr, true);
                QCOMPARE(b.boundTasks, a.boundTasks);
                QCOMPARE(b.evictedTasks, a.evictedTasks);
                QCOMPARE(b.pending, a.pending);
                QCOMPARE(b.nominations, a.nominations);
                if (QTest::currentTestFailed()) {
                    qWarning("seed %u, round %d", seed, round);
                    return;
                }
                evictions += int(a.evictedTasks.size());
                ++cycles;
                Decisions d;
                d.bound = a.boundTasks;
                d.evicted = a.evictedTasks;
                for (ClusterState* st : {&full, &shortcut}) {
                    apply(*st, d);
                    for (const auto& [t, node] : a.nominations) st->tasks[t].nominatedNode = node;
                }
            }
        }
        // The inputs really evict (987 when this was written; at least half of that), and some
        // 3,000 pods are answered like an earlier one.
        QVERIFY2(evictions >= 490, qPrintable(QString::number(evictions)));
        qInfo("%d cycles, %d evictions", cycles, evictions);
    }
    // Three states start from the same random cluster: one scheduled by sessions over every job,
    // one by sessions that leave settled jobs out, one that also skips parked jobs. Each round
    // every state gets its own session, the results must agree, and the full session's decisions
    // are applied to all three.
    void shortcutsDecideAsFullSessions_data() {
        QTest::addColumn<QString>("conf");
        for (const auto& policy : evictingConfs()) QTest::newRow(qPrintable(policy.name)) << policy.name;
    }
    void shortcutsDecideAsFullSessions() {
        QFETCH(QString, conf);
        Policy chosen;
        for (const auto& p : evictingConfs())
            if (p.name == conf) chosen = p;
        const SchedulerConf& policy = chosen.conf;
        QVERIFY(SessionCache::covers(policy));
        int evictions = 0, parked = 0, sessions = 0;
        for (uint32_t seed = 1; seed <= 80; ++seed) {
            const Cluster c = randomContendedCluster(seed, seed > 40, chosen.tree, chosen.innerQueue);
            ThreeWays ways(c);
            for (int round = 0; round < 4; ++round) {
                ways.decideAndCompare(policy);
                if (QTest::currentTestFailed()) {
                    qWarning("seed %u, round %d", seed, round);
                    return;
                }
                evictions += int(ways.reference.evicted.size());
                parked += int(ways.withParked.untried.size());
                ++sessions;
                ways.applyReference();
            }
        }
        // The inputs really evict (at least half what they did when the bounds were set, so that a
        // row whose reclaim stopped taking pods is seen), and jobs really are parked (allocate
        // passes them over; preempt and reclaim pass them over only while they can have no victims).
        const std::map<QString, int> minEvictions = {
            {"production", 92},         {"production, plugins' own arguments", 95},
            {"preempt only", 13},       {"reclaim only", 78},
            {"default plugins", 308},   {"drf first", 319},
            {"capacity hierarchy", 38}, {"capacity hierarchy, ancestor level", 43},
            {"hierarchical drf", 550},  {"hierarchical drf, no eviction", 0}};
        QVERIFY2(evictions >= minEvictions.at(conf), qPrintable(QString::number(evictions)));
        if (SessionCache::parks(policy)) QVERIFY2(parked > 0, qPrintable(QString::number(parked)));
        qInfo("%d sessions, %d evictions, %d job-sessions parked", sessions, evictions, parked);
    }

    // The same in the form `gantry cycle` prints (every pod's reason, the gangs, pipelined pods
    // and their nodes), for one session on each random cluster.
    void settledOutPrintsAsFullSession() {
        int pipelinedWithoutVictims = 0;
        for (uint32_t seed = 1; seed <= 40; ++seed) {
            const bool q0WithoutVictims = seed > 20;
            for (const auto& [name, conf, tree, innerQueue] : evictingConfs()) {
                const Cluster c = randomContendedCluster(seed, q0WithoutVictims, tree, innerQueue);
                const CycleResult reference = runSession(c, conf, false);
                if (q0WithoutVictims)
                    for (const auto& g : c.podGroups)
                        if (g.queue == "q0" && reference.pipelined.count(g.ns + "/" + g.name))
                            ++pipelinedWithoutVictims;
                ClusterState st = buildClusterState(c);
                SessionCache cache(st);
                SessionOptions o;
                o.cache = &cache;
                Session ssn(st, conf, o);
                QVERIFY(ssn.sessionJobs.size() < st.liveJobs());
                QCOMPARE(describe(ssn.run()), describe(reference));
            }
        }
        // Jobs of q0 that preempt pipelined (where they fit as things are, or by reclaim).
        QVERIFY2(pipelinedWithoutVictims >= 5, qPrintable(QString::number(pipelinedWithoutVictims)));
    }

    // As shortcutsDecideAsFullSessions, with network-topology-aware on clusters with HyperNodes.
    // The warnings about unknown tier names are compared as the simulator keeps them (each once,
    // from the first session on): settled jobs are never listed, the first session checks them.
    void topologyDecidesAsFullSessions() {
        const SchedulerConf policy = topologyConf();
        QVERIFY(SessionCache::covers(policy));
        int evictions = 0, parked = 0, topologyParked = 0, topologyPlaced = 0, warned = 0;
        for (uint32_t seed = 1; seed <= 80; ++seed) {
            const Cluster c = randomTopologyCluster(seed);
            ThreeWays ways(c);
            const Decisions &reference = ways.reference, &withParked = ways.withParked;
            std::set<std::string> fullWarnings, cachedWarnings, parkWarnings;
            for (int round = 0; round < 4; ++round) {
                ways.decideAndCompare(policy);
                fullWarnings.insert(reference.warnings.begin(), reference.warnings.end());
                cachedWarnings.insert(ways.withSettled.warnings.begin(), ways.withSettled.warnings.end());
                parkWarnings.insert(withParked.warnings.begin(), withParked.warnings.end());
                QCOMPARE(cachedWarnings, fullWarnings);
                QCOMPARE(parkWarnings, fullWarnings);
                if (QTest::currentTestFailed()) {
                    qWarning("seed %u, round %d", seed, round);
                    return;
                }
                evictions += int(reference.evicted.size());
                parked += int(withParked.untried.size());
                const ClusterState& full = ways.full;
                for (uint32_t j : withParked.untried)
                    topologyParked += full.jobs[j].topology.mode != NetworkTopologyConstraint::Mode::None;
                for (const auto& [t, node] : reference.bound)
                    topologyPlaced +=
                        full.jobs[full.tasks[t].job].topology.mode != NetworkTopologyConstraint::Mode::None;
                ways.applyReference();
            }
            warned += int(fullWarnings.size());
        }
        qInfo("%d evictions, %d job-sessions parked (%d of topology jobs), %d pods of topology jobs bound, "
              "%d warnings",
              evictions, parked, topologyParked, topologyPlaced, warned);
        QVERIFY2(evictions >= 81, qPrintable(QString::number(evictions)));
        QVERIFY2(parked > 0, qPrintable(QString::number(parked)));
        QVERIFY2(topologyParked > 0, qPrintable(QString::number(topologyParked)));
        QVERIFY2(topologyPlaced >= 111, qPrintable(QString::number(topologyPlaced)));
        QVERIFY2(warned >= 75, qPrintable(QString::number(warned)));
    }
};

GANTRY_TEST(EvictingSessionTest)
#include "test_evicting.moc"
