// Engine unit tests on clusters built in C++: Volcano's resource arithmetic, the node index against a
// full scan, the session's undo log, gang and queue behaviour, pending reasons, incremental jobs.
#include "engine_fixtures.h"
#include "model/cluster.h"
#include "profiles/volcano/framework/session.h"
#include "state/cluster_state.h"
#include "state/resource_dims.h"
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

// A random cluster: node shapes, labels, taints and cordons; pending gangs with roles, selectors and
// tolerations; some pods already running; weighted queues with and without capabilities.
Cluster randomCluster(uint32_t seed) {
    std::mt19937 rng(seed);
    auto pick = [&](int n) { return int(rng() % uint32_t(n)); };
    Cluster c;
    const int nodes = 20 + pick(60);
    for (int i = 0; i < nodes; ++i) {
        const int kind = pick(4);
        Labels labels{{"kubernetes.io/hostname", "n" + std::to_string(i)},
                      {"zone", "z" + std::to_string(pick(3))}};
        if (kind == 3) labels["accelerator"] = "h100";
        Node n = makeNode("node-" + std::to_string(i), kind == 0 ? 8000 : 16000 + 16000 * pick(2),
                          kind == 0 ? 32 : 64, kind == 3 ? 4 + 4 * pick(2) : 0, labels);
        if (pick(8) == 0) n.taints.push_back(Taint{"dedicated", "infra", TaintEffect::NoSchedule});
        if (pick(20) == 0) n.unschedulable = true;
        c.nodes.push_back(std::move(n));
    }
    const int queues = 1 + pick(3);
    for (int q = 0; q < queues; ++q) {
        Queue queue = makeQueue("q" + std::to_string(q), 1 + pick(4));
        if (pick(3) == 0) queue.capability.set(res::Cpu, 40000 + 20000 * pick(4));
        c.queues.push_back(queue);
    }
    PriorityClass high;
    high.name = "high";
    high.value = 1000;
    c.priorityClasses.push_back(high);
    const int jobs = 10 + pick(40);
    int running = 0;
    for (int j = 0; j < jobs; ++j) {
        const std::string ns = "ns" + std::to_string(pick(3));
        const std::string name = "job-" + std::to_string(j);
        const int size = 1 + pick(6);
        PodGroup g = makeGroup(ns, name, "q" + std::to_string(pick(queues)), 1 + pick(size),
                               pick(4) == 0 ? PodGroupPhase::Pending : PodGroupPhase::Inqueue);
        if (pick(4) == 0) g.priorityClassName = "high";
        const int shape = pick(5);
        const bool startRunning = pick(5) == 0;
        for (int k = 0; k < size; ++k) {
            Pod p = makePod(ns, name + "-" + std::to_string(k), name, 500 + 500 * int64_t(shape),
                            1 + 2 * shape, shape == 4 ? 1 + pick(2) : 0);
            if (pick(3) == 0) p.role = k == 0 ? "master" : "worker";
            if (shape == 4)
                p.nodeSelector["accelerator"] = "h100";
            else if (pick(6) == 0)
                p.nodeSelector["zone"] = "z" + std::to_string(pick(3));
            if (pick(5) == 0)
                p.tolerations.push_back(Toleration{"dedicated", false, "infra", TaintEffect::NoSchedule, {}});
            if (startRunning && running < nodes) {
                p.phase = PodPhase::Running;
                p.nodeName = c.nodes[size_t(pick(nodes))].name;
                if (p.gpu.count && c.nodes[size_t(0)].gpus.count == 0) p.nodeSelector.clear();
                ++running;
            }
            c.pods.push_back(std::move(p));
        }
        if (startRunning) g.phase = PodGroupPhase::Running;
        c.podGroups.push_back(std::move(g));
    }
    return c;
}

HyperNodeMember member(HyperNodeMember::Type type, const std::string& name) {
    HyperNodeMember m;
    m.type = type;
    m.value = name;
    return m;
}

} // namespace

class ResourceTest : public QObject {
    Q_OBJECT
  private slots:
    void lessEqualMissingDimensions() {
        ResourceDims dims;
        const int gpu = dims.intern("nvidia.com/gpu");
        VResource a(dims.size()), b(dims.size());
        a.cpu = 1000;
        a.set(gpu, 1);
        b.cpu = 2000;
        // b has no gpu: missing counts as zero, or as infinite.
        QVERIFY(!a.lessEqual(b, Missing::Zero));
        QVERIFY(a.lessEqual(b, Missing::Infinity));
        b.set(gpu, 1);
        QVERIFY(a.lessEqual(b, Missing::Zero));
        // Within 0.1 counts as equal.
        a.cpu = 2000.05;
        QVERIFY(a.lessEqual(b, Missing::Zero));
    }
    void isEmptyIgnoresPods() {
        ResourceDims dims;
        VResource r(dims.size());
        r.touchMap();
        r.set(kPods, 1);
        QVERIFY(r.isEmpty());
        r.cpu = 1;
        QVERIFY(!r.isEmpty());
    }
    void exceededPartAndShare() {
        ResourceDims dims;
        const int gpu = dims.intern("nvidia.com/gpu");
        VResource l(dims.size()), r(dims.size());
        l.cpu = 3000;
        l.mem = 1;
        l.set(gpu, 4);
        r.cpu = 1000;
        r.mem = 5;
        const VResource d = VResource::exceededPart(l, r);
        QCOMPARE(d.cpu, 2000.0);
        QCOMPARE(d.mem, 0.0);
        QCOMPARE(d.get(gpu), 4.0);
        QCOMPARE(share(1, 0), 1.0);
        QCOMPARE(share(0, 0), 0.0);
        QCOMPARE(share(1, 4), 0.25);
    }
    void dimensionWiseChecks() {
        ResourceDims dims;
        const int gpu = dims.intern("nvidia.com/gpu");
        VResource used(dims.size()), cap(dims.size()), req(dims.size());
        used.cpu = 3000;
        used.mem = 10;
        cap.cpu = 2000;
        cap.mem = 100;
        req.cpu = 0;
        req.mem = 1;
        // Only the dimensions the request asks for are compared.
        std::vector<int> failed;
        QVERIFY(used.lessEqualWithDimensionAndResourcesName(cap, req, &failed));
        req.cpu = 1;
        QVERIFY(!used.lessEqualWithDimensionAndResourcesName(cap, req, &failed));
        QCOMPARE(failed, std::vector<int>{kCpu});
        req.touchMap();
        req.set(gpu, 1);
        used.touchMap();
        used.set(gpu, 2);
        failed.clear();
        QVERIFY(!used.lessEqualWithDimensionAndResourcesName(cap, req, &failed));
        QCOMPARE(failed.size(), size_t(2));
    }
};

class SessionTest : public QObject {
    Q_OBJECT
  private slots:
    void gangWaitsForMinMember() {
        Cluster c;
        c.queues.push_back(makeQueue("default"));
        c.nodes.push_back(makeNode("n1", 4000, 16));
        c.podGroups.push_back(makeGroup("ns", "big", "default", 8));
        for (int i = 0; i < 8; ++i)
            c.pods.push_back(makePod("ns", "big-" + std::to_string(i), "big", 1000, 1));
        // No queue plugin: the node, not the queue's share, is what runs out.
        const CycleResult r =
            runSession(c, makeConf({"allocate"}, {{"gang"}, {"predicates", "nodeorder"}}), true);
        QVERIFY(r.bindings.empty());
        QCOMPARE(r.gangs.at("ns/big").reason, std::string("minMember 8, 4 placeable"));
        const QString why = QString::fromStdString(r.pending.at("ns/big-7"));
        QVERIFY2(why.contains("not tried in this cycle. Origin reason is big-4: 0/1 nodes are unavailable: 1 "
                              "Insufficient cpu."),
                 qPrintable(why));
        QVERIFY(QString::fromStdString(r.pending.at("ns/big-0")).contains("minMember 8, 4 placeable"));
    }
    void gangBindsWholeJob() {
        Cluster c;
        c.queues.push_back(makeQueue("default"));
        c.nodes.push_back(makeNode("n1", 8000, 16));
        c.nodes.push_back(makeNode("n2", 8000, 16));
        c.podGroups.push_back(makeGroup("ns", "job", "default", 4));
        for (int i = 0; i < 4; ++i)
            c.pods.push_back(makePod("ns", "job-" + std::to_string(i), "job", 4000, 2));
        const CycleResult r = runSession(c, defaultConf(), true);
        QCOMPARE(r.bindings.size(), size_t(4));
        QVERIFY(r.pending.empty());
    }
    void pendingReasonsNameEachFailure() {
        Cluster c;
        c.queues.push_back(makeQueue("default"));
        c.nodes.push_back(makeNode("cpu-1", 8000, 16));
        c.nodes.push_back(makeNode("cpu-2", 8000, 16));
        Node tainted = makeNode("gpu-1", 8000, 16, 8);
        tainted.taints.push_back(Taint{"nvidia.com/gpu", "present", TaintEffect::NoSchedule});
        c.nodes.push_back(tainted);
        c.podGroups.push_back(makeGroup("ns", "train", "default", 1));
        c.pods.push_back(makePod("ns", "train-0", "train", 1000, 1, 1));
        const CycleResult r = runSession(c, defaultConf(), true);
        QVERIFY(r.bindings.empty());
        const QString why = QString::fromStdString(r.pending.at("ns/train-0"));
        QVERIFY2(why.contains(
                     "0/3 nodes are unavailable: 1 node(s) had untolerated taint {nvidia.com/gpu: present}, "
                     "2 Insufficient nvidia.com/gpu."),
                 qPrintable(why));
    }
    void sessionLeavesStateUnchanged() {
        const Cluster c = randomCluster(7);
        ClusterState st = buildClusterState(c);
        const auto idle = st.idle, used = st.used, pipelined = st.pipelined, releasing = st.releasing;
        std::vector<TaskStatus> statuses;
        for (const auto& t : st.tasks) statuses.push_back(t.status);
        {
            Session ssn(st, defaultConf({"enqueue", "allocate", "preempt", "reclaim", "backfill"}));
            const CycleResult r = ssn.run();
            QVERIFY(!r.bindings.empty());
        }
        QVERIFY(st.idle == idle);
        QVERIFY(st.used == used);
        QVERIFY(st.pipelined == pipelined);
        QVERIFY(st.releasing == releasing);
        for (size_t i = 0; i < st.tasks.size(); ++i) QVERIFY(st.tasks[i].status == statuses[i]);
        // A second session on the same state decides the same.
        Session again(st, defaultConf({"enqueue", "allocate", "preempt", "reclaim", "backfill"}));
        const CycleResult r2 = again.run();
        const CycleResult r1 =
            runSession(c, defaultConf({"enqueue", "allocate", "preempt", "reclaim", "backfill"}), true);
        QCOMPARE(describe(r2), describe(r1));
    }
    // A plan reads the configuration once: actions in order (the unmodelled ones kept, to be
    // skipped with a warning), each modelled plugin's tier and switches, the ignored plugins, and
    // what the session cache may leave out. Sessions on it decide and warn as sessions on the
    // configuration do, and it outlives the configuration it was made from.
    void planReadsTheConfiguration() {
        std::optional<SessionPlan> plan;
        {
            SchedulerConf conf = makeConf({"enqueue", "allocate", "shuffle", "preempt", "backfill"},
                                          {{"priority", "gang", "tdm"}, {"drf", "predicates", "proportion"}});
            conf.tiers[0].plugins[1].switches["enablePreemptable"] = false;
            plan.emplace(conf);
        }
        QCOMPARE(int(plan->actions.size()), 5);
        QVERIFY(plan->actions[2].descriptor == nullptr);
        QCOMPARE(*plan->actions[2].name, std::string("shuffle"));
        QVERIFY(plan->actions[3].descriptor != nullptr);
        QVERIFY(plan->enabledActions.count("preempt") && !plan->enabledActions.count("reclaim"));
        QVERIFY(plan->evicts);
        QCOMPARE(plan->ignoredPlugins, std::vector<std::string>{"tdm"});
        QCOMPARE(int(plan->plugins.size()), 5);
        QCOMPARE(plan->plugins[1].option->name, std::string("gang"));
        QVERIFY(!plan->plugins[1].on.preemptableOn && plan->plugins[1].on.reclaimableOn);
        QCOMPARE(plan->plugins[2].tier, 1);
        QVERIFY(plan->covers && plan->parkingSafe);
        QVERIFY(SessionPlan(defaultConf()).evicts == false);

        const Cluster c = randomCluster(11);
        const CycleResult onConf = runSession(c, plan->conf, true);
        QVERIFY(!onConf.bindings.empty());
        for (const char* warning : {"plugin 'tdm' is not modelled by Gantry; it is ignored",
                                    "action 'shuffle' is not modelled by Gantry; it is skipped"})
            QVERIFY(std::count(onConf.warnings.begin(), onConf.warnings.end(), std::string(warning)) == 1);
        ClusterState st = buildClusterState(c);
        Session onPlan(st, *plan);
        const CycleResult r = onPlan.run();
        QCOMPARE(describe(r), describe(onConf));
        QCOMPARE(r.warnings, onConf.warnings);
    }
    // The settled-job tracker follows the state: a job whose PodGroup runs with every pod placed
    // leaves the session's job list and its resources move into its queue's totals; an eviction
    // or the job's removal brings it back out. Sessions with the cache decide what sessions over
    // every job decide.
    void settledJobsFollowTheState() {
        Cluster c;
        c.queues.push_back(makeQueue("default"));
        c.queues.push_back(makeQueue("other"));
        c.nodes.push_back(makeNode("n1", 16000, 64, 8));
        c.nodes.push_back(makeNode("n2", 16000, 64, 8));
        PodGroup running = makeGroup("ns", "running", "default", 2, PodGroupPhase::Running);
        running.minResources.set(res::NvidiaGpu, 4);
        c.podGroups.push_back(running);
        for (int i = 0; i < 2; ++i) {
            Pod p = makePod("ns", "running-" + std::to_string(i), "running", 2000, 8, 2);
            p.phase = PodPhase::Running;
            p.nodeName = "n1";
            c.pods.push_back(p);
        }
        c.podGroups.push_back(makeGroup("ns", "waiting", "other", 1, PodGroupPhase::Inqueue));
        c.pods.push_back(makePod("ns", "waiting-0", "waiting", 1000, 4, 8));
        ClusterState st = buildClusterState(c);
        SessionCache cache(st);
        const uint32_t runningJob = uint32_t(st.findJob("ns/running"));
        const uint32_t waitingJob = uint32_t(st.findJob("ns/waiting"));
        QVERIFY(cache.settled.settled(runningJob));
        QCOMPARE(cache.settled.unsettled(), std::vector<uint32_t>{waitingJob});
        const auto& totals = cache.settled.queue(uint32_t(st.findQueue("default")));
        QCOMPARE(totals.jobs, 1);
        const VResource allocated = totals.allocated.resource(st.D());
        QCOMPARE(allocated.cpu, 4000.0);
        QCOMPARE(allocated.get(st.dims.find(res::NvidiaGpu)), 4.0);
        const SchedulerConf conf = defaultConf();
        QVERIFY(SessionCache::covers(conf));
        // Evicting sessions leave them out too (preempt finds their pods on the nodes).
        QVERIFY(SessionCache::covers(defaultConf({"enqueue", "allocate", "preempt"})));
        SchedulerConf hierarchical = defaultConf();
        hierarchical.tiers[1].plugins[0].switches["enableHierarchy"] = true;
        QVERIFY(SessionCache::covers(hierarchical)); // hierarchical drf adds the settled totals
        {
            SessionOptions o;
            o.cache = &cache;
            Session cached(st, conf, o);
            QCOMPARE(cached.sessionJobs, std::vector<uint32_t>{waitingJob});
            const CycleResult r = cached.run();
            QCOMPARE(r.bindings.at("ns/waiting-0"), std::string("n2"));
        }
        QCOMPARE(describe(runSession(c, conf, true)), describe([&] {
                     SessionOptions o;
                     o.cache = &cache;
                     Session again(st, conf, o);
                     return again.run();
                 }()));
        // A pod of the running job is evicted: the job is no longer settled.
        const uint32_t victim = st.jobs[runningJob].tasks[0];
        st.setTask(victim, TaskStatus::Releasing, -1);
        cache.settled.refresh();
        QVERIFY(!cache.settled.settled(runningJob));
        QCOMPARE(cache.settled.unsettled(), (std::vector<uint32_t>{runningJob, waitingJob}));
        QCOMPARE(cache.settled.queue(uint32_t(st.findQueue("default"))).jobs, 0);
        QCOMPARE(cache.settled.queue(uint32_t(st.findQueue("default"))).allocated.resource(st.D()).cpu, 0.0);
        // Done: it leaves for good.
        for (uint32_t t : st.jobs[runningJob].tasks) st.setTask(t, TaskStatus::Succeeded, -1);
        st.removeJob(runningJob);
        cache.settled.refresh();
        QCOMPARE(cache.settled.unsettled(), std::vector<uint32_t>{waitingJob});
        QCOMPARE(cache.settled.settledCount(), size_t(0));
    }
    // A parked job (admitted, every pod pending, all of one shape) is not tried while fewer of its
    // pods fit the cluster by request than it needs: trying it would only place pods and undo
    // them. Nothing else changes. When pods finish and enough fit, it is tried again; a job whose
    // room an earlier job of the same session took is not tried.
    void parkedJobsWaitForCapacity() {
        Cluster c;
        c.queues.push_back(makeQueue("default"));
        c.nodes.push_back(makeNode("n1", 32000, 128, 8));
        c.nodes.push_back(makeNode("n2", 32000, 128, 8));
        for (const char* busy : {"busy-a", "busy-b"}) {
            c.podGroups.push_back(makeGroup("ns", busy, "default", 1, PodGroupPhase::Running));
            Pod p = makePod("ns", std::string(busy) + "-0", busy, 1000, 8, 6);
            p.phase = PodPhase::Running;
            p.nodeName = busy == std::string("busy-a") ? "n1" : "n2";
            c.pods.push_back(p);
        }
        for (const char* train : {"train-a", "train-b"}) {
            c.podGroups.push_back(makeGroup("ns", train, "default", 2, PodGroupPhase::Inqueue));
            for (int i = 0; i < 2; ++i)
                c.pods.push_back(
                    makePod("ns", train + std::string("-") + std::to_string(i), train, 4000, 16, 4));
        }
        ClusterState st = buildClusterState(c);
        SessionCache cache(st);
        const uint32_t trainA = uint32_t(st.findJob("ns/train-a")),
                       trainB = uint32_t(st.findJob("ns/train-b"));
        QVERIFY(cache.settled.parked(trainA) && cache.settled.parked(trainB));
        const SchedulerConf conf = defaultConf();
        QVERIFY(SessionCache::parks(conf));
        QVERIFY(!SessionCache::parks(makeConf({"enqueue", "allocate"}, {{"priority", "sla"}, {"gang"}})));
        const uint32_t shape = st.tasks[st.jobs[trainA].tasks[0]].shape;
        QCOMPARE(st.fitCount(shape), int64_t(0)); // 2 GPUs free on each node, 4 asked per pod
        auto run = [&](bool park) { return runCompact(st, cache, conf, park); };
        auto reasonOf = [](const CycleResult& r, uint32_t j) {
            for (const auto& [job, reason] : r.jobReasons)
                if (job == j) return reason;
            return std::string();
        };
        {
            const CycleResult tried = run(false), parked = run(true);
            QCOMPARE(parked.parkedJobs, (std::vector<uint32_t>{trainA, trainB}));
            QVERIFY(tried.parkedJobs.empty());
            QVERIFY(tried.boundTasks.empty() && parked.boundTasks.empty());
            QCOMPARE(QString::fromStdString(reasonOf(tried, trainA)),
                     QString("0/2 nodes are unavailable: 2 Insufficient nvidia.com/gpu. (gang ns/train-a: "
                             "minMember 2, 0 placeable)"));
            QVERIFY(reasonOf(parked, trainA).empty());
        }
        // busy-a is done: n1 takes two pods of the shape, enough for one gang.
        const uint32_t busyA = uint32_t(st.findJob("ns/busy-a"));
        for (uint32_t t : st.jobs[busyA].tasks) st.setTask(t, TaskStatus::Succeeded, -1);
        st.removeJob(busyA);
        QCOMPARE(st.fitCount(shape), int64_t(2));
        const CycleResult tried = run(false), parked = run(true);
        QCOMPARE(parked.boundTasks, tried.boundTasks);
        QCOMPARE(parked.boundTasks.size(), size_t(2));
        for (const auto& [t, node] : parked.boundTasks) {
            QCOMPARE(st.tasks[t].job, trainA);
            QCOMPARE(st.nodeName(node), std::string("n1"));
        }
        QCOMPARE(parked.parkedJobs, std::vector<uint32_t>{trainB}); // tried in the session, not placed
        QVERIFY(QString::fromStdString(reasonOf(tried, trainB)).contains("minMember 2, 0 placeable"));
        QCOMPARE(parked.phaseChanges, tried.phaseChanges);
    }
    void jobAddedLaterIsScheduled() {
        Cluster c;
        c.queues.push_back(makeQueue("default"));
        c.nodes.push_back(makeNode("a", 8000, 16, 0, {{"pool", "x"}}));
        c.nodes.push_back(makeNode("b", 8000, 16, 0, {{"pool", "y"}}));
        ClusterState st = buildClusterState(c);
        // A job arriving later selects on a label no earlier pod used: the index must learn it.
        PodGroup g = makeGroup("ns", "late", "default", 1);
        Pod p = makePod("ns", "late-0", "late", 1000, 1);
        p.nodeSelector["pool"] = "y";
        st.addJob(g, {p});
        Session ssn(st, defaultConf());
        const CycleResult r = ssn.run();
        QCOMPARE(r.bindings.at("ns/late-0"), std::string("b"));
    }
    // A job's requeuedAt moves only when a task of it goes back to pending, and a job that takes a
    // removed job's slot has its own: a reader that skips a job's first tasks while they have left
    // pending (YuniKorn's pending reasons) relies on both.
    void requeuedAtMarksTasksBackToPending() {
        Cluster c;
        c.queues.push_back(makeQueue("default"));
        c.nodes.push_back(makeNode("a", 8000, 16));
        c.podGroups.push_back(makeGroup("ns", "train", "default", 2));
        for (int i = 0; i < 3; ++i)
            c.pods.push_back(makePod("ns", "train-" + std::to_string(i), "train", 1000, 1));
        ClusterState st = buildClusterState(c);
        const uint32_t job = uint32_t(st.findJob("ns/train"));
        const uint64_t added = st.jobs[job].requeuedAt;
        for (uint32_t t : st.jobs[job].tasks) st.setTask(t, TaskStatus::Running, 0);
        st.setTask(st.jobs[job].tasks[2], TaskStatus::Succeeded, -1);
        QCOMPARE(st.jobs[job].requeuedAt, added);
        st.setTask(st.jobs[job].tasks[1], TaskStatus::Pending, -1); // evicted: pending again
        const uint64_t requeued = st.jobs[job].requeuedAt;
        QVERIFY(requeued != added);
        st.setTask(st.jobs[job].tasks[1], TaskStatus::Pending, -1); // already pending
        QCOMPARE(st.jobs[job].requeuedAt, requeued);
        for (uint32_t t : st.jobs[job].tasks) st.setTask(t, TaskStatus::Succeeded, -1);
        st.removeJob(job);
        const uint32_t next =
            st.addJob(makeGroup("ns", "next", "default", 1), {makePod("ns", "next-0", "next", 1000, 1)});
        QCOMPARE(next, job); // the slot is reused
        QVERIFY(st.jobs[next].requeuedAt != added && st.jobs[next].requeuedAt != requeued);
    }
    // Volcano's job controller makes a dependent task's pods once the tasks it waits for run
    // (job_controller_actions.go, isDependsOnPodsReady): restated from TestIsDependsOnPodsReady
    // ("all pods succeeded", "pods running and ready"; Gantry has no readiness probes, so a pod still
    // bound is the one not ready), and the pods are taken back when a restart deletes them.
    void dependentTasksWaitForTheirDependencies() {
        Cluster c;
        c.queues.push_back(makeQueue("default"));
        c.nodes.push_back(makeNode("n1", 8000, 16));
        PodGroup g = makeGroup("test", "job1", "default", 1);
        g.origin = "batch.volcano.sh/Job";
        g.minTaskMember = {{"task1", 2}, {"task2", 1}};
        g.dependsOn = {TaskDependency{"task2", {"task1"}, false}};
        c.podGroups.push_back(g);
        for (const char* name : {"job1-task1-0", "job1-task1-1", "job1-task2-0"}) {
            Pod p = makePod("test", name, "job1", 1000, 1);
            p.role = std::string(name).find("task1") != std::string::npos ? "task1" : "task2";
            c.pods.push_back(p);
        }
        BuildOptions options;
        options.holdDependentTasks = true;
        ClusterState st = buildClusterState(c, nullptr, options);
        const uint32_t job = uint32_t(st.findJob("test/job1"));
        QCOMPARE(st.jobs[job].tasks.size(), size_t(2)); // task2's pod is not made yet
        QCOMPARE(st.jobs[job].dependents.size(), size_t(1));
        QVERIFY(!st.dependenciesHold(job, st.jobs[job].dependents[0]));
        // Without the option (another scheduler's controllers), every pod is there.
        QCOMPARE(buildClusterState(c).jobs[job].tasks.size(), size_t(3));

        const uint32_t a = st.jobs[job].tasks[0], b = st.jobs[job].tasks[1];
        st.setTask(a, TaskStatus::Running, 0);
        st.setTask(b, TaskStatus::Bound, 0);
        QCOMPARE(st.createReadyDependents(job, options), 0); // one of task1's two minimum runs
        st.setTask(b, TaskStatus::Running, -1);
        QCOMPARE(st.createReadyDependents(job, options), 1); // running and ready
        QCOMPARE(st.jobs[job].tasks.size(), size_t(3));
        QCOMPARE(st.taskKey(st.jobs[job].tasks[2]), std::string("test/job1-task2-0"));
        QCOMPARE(st.jobs[job].statusCount[int(TaskStatus::Pending)], 1);

        // A restart deletes every pod: task2's comes back only once task1 runs again.
        for (uint32_t t : st.jobs[job].tasks) st.setTask(t, TaskStatus::Pending, -1);
        st.withdrawDependents(job);
        QCOMPARE(st.jobs[job].tasks.size(), size_t(2));
        QCOMPARE(st.jobs[job].statusCount[int(TaskStatus::Pending)], 2);
        QVERIFY(!st.jobs[job].dependents[0].created);
        // Succeeded counts as ready too.
        for (uint32_t t : st.jobs[job].tasks) st.setTask(t, TaskStatus::Succeeded, -1);
        QCOMPARE(st.createReadyDependents(job, options), 1);

        // A cycle says why the pod is missing; a session adds nothing.
        ClusterState fresh = buildClusterState(c, nullptr, options);
        Session ssn(fresh, defaultConf());
        const CycleResult r = ssn.run();
        const QString why = QString::fromStdString(r.pending.at("test/job1-task2-0"));
        QVERIFY2(why.contains("not created yet") && why.contains("once task task1 runs"), qPrintable(why));
    }
    // iteration: any needs one named task ready; otherwise every one.
    void dependsOnAnyOrAll() {
        Cluster c;
        c.queues.push_back(makeQueue("default"));
        c.nodes.push_back(makeNode("n1", 8000, 16));
        PodGroup g = makeGroup("ns", "j", "default", 1);
        g.minTaskMember = {{"a", 1}, {"b", 1}, {"any", 1}, {"all", 1}};
        g.dependsOn = {TaskDependency{"any", {"a", "b"}, true}, TaskDependency{"all", {"a", "b"}, false}};
        c.podGroups.push_back(g);
        for (const char* role : {"a", "b", "any", "all"}) {
            Pod p = makePod("ns", std::string("j-") + role + "-0", "j", 1000, 1);
            p.role = role;
            c.pods.push_back(p);
        }
        BuildOptions options;
        options.holdDependentTasks = true;
        ClusterState st = buildClusterState(c, nullptr, options);
        const uint32_t job = uint32_t(st.findJob("ns/j"));
        st.setTask(st.jobs[job].tasks[0], TaskStatus::Running, 0); // a runs
        QCOMPARE(st.createReadyDependents(job, options), 1);
        QCOMPARE(st.taskKey(st.jobs[job].tasks.back()), std::string("ns/j-any-0"));
        st.setTask(st.jobs[job].tasks[1], TaskStatus::Running, 0); // b runs too
        QCOMPARE(st.createReadyDependents(job, options), 1);
        QCOMPARE(st.taskKey(st.jobs[job].tasks.back()), std::string("ns/j-all-0"));
    }
    void gpuDeviceShares() {
        Cluster c;
        c.queues.push_back(makeQueue("default"));
        c.nodes.push_back(makeNode("g1", 32000, 128, 4));
        c.podGroups.push_back(makeGroup("ns", "shared", "default", 1, PodGroupPhase::Running));
        // Three half-GPU pods and one whole-GPU pod already running.
        for (int i = 0; i < 3; ++i) {
            Pod p = makePod("ns", "half-" + std::to_string(i), "shared", 1000, 1);
            p.gpu.count = 1;
            p.gpu.milliPerGpu = 500;
            p.phase = PodPhase::Running;
            p.nodeName = "g1";
            c.pods.push_back(p);
        }
        Pod whole = makePod("ns", "whole", "shared", 1000, 1, 1);
        whole.phase = PodPhase::Running;
        whole.nodeName = "g1";
        c.pods.push_back(whole);
        ClusterState st = buildClusterState(c);
        QCOMPARE(st.gpuCount(0), 4);
        // Best fit: the second half pod shares device 0 with the first, the third opens device 1;
        // the whole pod takes the lowest device still entirely free (2).
        const std::vector<int32_t> expected{0, 500, 0, 1000};
        QCOMPARE(std::vector<int32_t>(st.gpuRow(0), st.gpuRow(0) + 4), expected);
        {
            Session ssn(st, defaultConf({"allocate"}));
            ssn.run();
        }
        QCOMPARE(std::vector<int32_t>(st.gpuRow(0), st.gpuRow(0) + 4), expected);
    }
    void queueCapabilityLimits() {
        Cluster c;
        Queue q = makeQueue("small");
        q.capability.set(res::Cpu, 2000);
        c.queues.push_back(q);
        c.nodes.push_back(makeNode("n1", 16000, 64));
        for (int j = 0; j < 3; ++j) {
            const std::string name = "j" + std::to_string(j);
            c.podGroups.push_back(makeGroup("ns", name, "small", 1));
            c.pods.push_back(makePod("ns", name + "-0", name, 1000, 1));
        }
        const CycleResult r = runSession(c, defaultConf({"allocate"}), true);
        QCOMPARE(r.bindings.size(), size_t(2));
    }

    // The sums network-topology-aware reads of each HyperNode's nodes follow every change of a
    // task's status or node, and a session's undo, as a recount over the member nodes gives them.
    void hyperNodeSumsFollowTheState() {
        for (uint32_t seed = 1; seed <= 6; ++seed) {
            Cluster c = randomCluster(seed);
            // Racks of five nodes, alternately in two zones.
            HyperNode zones[2];
            for (int z = 0; z < 2; ++z) {
                zones[z].name = "zone-" + std::to_string(z);
                zones[z].tier = 2;
            }
            for (size_t first = 0; first < c.nodes.size(); first += 5) {
                HyperNode rack;
                rack.name = "rack-" + std::to_string(first);
                for (size_t n = first; n < std::min(first + 5, c.nodes.size()); ++n)
                    rack.members.push_back(member(HyperNodeMember::Type::Node, c.nodes[n].name));
                zones[first / 5 % 2].members.push_back(member(HyperNodeMember::Type::HyperNode, rack.name));
                c.hyperNodes.push_back(std::move(rack));
            }
            c.hyperNodes.insert(c.hyperNodes.end(), zones, zones + 2);
            ClusterState st = buildClusterState(c);
            st.trackHyperNodes();
            auto recount = [&](const char* when) {
                const size_t d = size_t(st.D());
                std::vector<int64_t> al(st.hyperNodes.size() * d), us(al.size()), id(al.size()),
                    rl(al.size()), pp(al.size());
                std::vector<uint64_t> mask(st.hyperNodes.size());
                for (size_t h = 0; h < st.hyperNodes.size(); ++h)
                    for (uint32_t n : st.hyperNodes[h].nodes) {
                        mask[h] |= st.nodes[n].allocMask;
                        for (size_t i = 0; i < d; ++i) {
                            us[h * d + i] += st.nodeRow(st.used, n)[i];
                            if (i >= 2 && !((st.nodes[n].allocMask >> i) & 1u)) continue;
                            al[h * d + i] += st.nodeRow(st.allocatable, n)[i];
                            id[h * d + i] += st.nodeRow(st.idle, n)[i];
                            rl[h * d + i] += st.nodeRow(st.releasing, n)[i];
                            pp[h * d + i] += st.nodeRow(st.pipelined, n)[i];
                        }
                    }
                const bool same = st.hnAllocatable == al && st.hnUsed == us && st.hnIdle == id &&
                                  st.hnReleasing == rl && st.hnPipelined == pp && st.hnAllocMask == mask;
                QVERIFY2(same, qPrintable(QString("seed %1, %2").arg(seed).arg(when)));
            };
            QCOMPARE(st.hyperNodes.size(), c.hyperNodes.size() + 1); // and the cluster's top
            recount("built");
            const auto usedBefore = st.hnUsed;
            {
                const SchedulerConf conf = makeConf(
                    {"enqueue", "allocate", "preempt", "reclaim", "backfill"},
                    {{"priority", "gang"}, {"drf", "predicates", "proportion", "network-topology-aware"}});
                Session ssn(st, conf);
                QVERIFY(!ssn.run().bindings.empty());
            }
            recount("after a session");
            QVERIFY(st.hnUsed == usedBefore);
            std::mt19937 rng(seed);
            const TaskStatus moves[] = {TaskStatus::Pending,   TaskStatus::Running, TaskStatus::Releasing,
                                        TaskStatus::Pipelined, TaskStatus::Bound,   TaskStatus::Allocated,
                                        TaskStatus::Succeeded};
            for (int k = 0; k < 400; ++k) {
                const uint32_t t = uint32_t(rng() % st.tasks.size());
                const TaskStatus to = moves[rng() % std::size(moves)];
                st.setTask(t, to, to == TaskStatus::Pending ? -1 : int32_t(rng() % st.nodes.size()));
                if (k % 40 == 0) recount("moving");
            }
            recount("moved");
            // Some pod holds a dimension its node does not declare (counted in used only).
            bool undeclared = false;
            for (uint32_t n = 0; n < st.nodes.size(); ++n)
                for (int i = 2; i < st.D(); ++i)
                    undeclared |= !((st.nodes[n].allocMask >> i) & 1u) && st.nodeRow(st.used, n)[i] != 0;
            QVERIFY(undeclared);
            QVERIFY(
                std::any_of(st.hnPipelined.begin(), st.hnPipelined.end(), [](int64_t v) { return v != 0; }));
            QVERIFY(
                std::any_of(st.hnReleasing.begin(), st.hnReleasing.end(), [](int64_t v) { return v != 0; }));
        }
    }
};

class NodeIndexTest : public QObject {
    Q_OBJECT
    // Compact sessions that leave parked jobs untried decide what those that try them decide, and
    // give the same reasons for every job they tried.
    static void compareParked(const Cluster& c, const SchedulerConf& conf) {
        auto run = [&](bool park) {
            ClusterState st = buildClusterState(c);
            SessionCache cache(st);
            return runCompact(st, cache, conf, park);
        };
        const CycleResult tried = run(false), parked = run(true);
        QCOMPARE(parked.boundTasks, tried.boundTasks);
        QCOMPARE(parked.evictedTasks, tried.evictedTasks);
        QCOMPARE(parked.phaseChanges, tried.phaseChanges);
        std::map<uint32_t, std::string> reasons(parked.jobReasons.begin(), parked.jobReasons.end());
        const std::set<uint32_t> untried(parked.parkedJobs.begin(), parked.parkedJobs.end());
        for (const auto& [j, reason] : tried.jobReasons) {
            if (untried.count(j)) continue;
            QCOMPARE(reasons[j], reason);
        }
        QCOMPARE(parked.jobReasons.size() + untried.size(), tried.jobReasons.size());
    }

  private slots:
    // The bucket index must give exactly what evaluating every node gives: same bindings,
    // evictions, pipelined tasks, phases and pending reasons.
    void indexEqualsFullScan_data() {
        QTest::addColumn<uint32_t>("seed");
        QTest::addColumn<QString>("actions");
        const char* sets[] = {"enqueue,allocate,backfill", "allocate,preempt,reclaim", "enqueue,allocate"};
        for (uint32_t seed = 1; seed <= 24; ++seed)
            QTest::newRow(qPrintable(QString("seed %1").arg(seed))) << seed << QString(sets[seed % 3]);
    }
    void indexEqualsFullScan() {
        QFETCH(uint32_t, seed);
        QFETCH(QString, actions);
        const Cluster c = randomCluster(seed);
        std::vector<std::string> acts;
        for (const auto& a : actions.split(',')) acts.push_back(a.toStdString());
        for (const auto& conf :
             {defaultConf(acts),
              makeConf(acts, {{"priority", "gang"}, {"drf", "predicates", "proportion", "binpack"}}),
              makeConf(acts, {{"gang"}, {"predicates", "nodeorder", "capacity"}})}) {
            const CycleResult indexed = runSession(c, conf, true);
            const CycleResult scanned = runSession(c, conf, false);
            QCOMPARE(describe(indexed), describe(scanned));
            // Leaving the settled jobs out (where the configuration allows) decides the same.
            ClusterState st = buildClusterState(c);
            SessionCache cache(st);
            SessionOptions o;
            o.cache = &cache;
            Session cached(st, conf, o);
            size_t queued = 0;
            for (uint32_t j = 0; j < st.jobs.size(); ++j) queued += st.jobAlive(j) && st.jobs[j].queue >= 0;
            if (SessionCache::covers(conf))
                QCOMPARE(cached.sessionJobs.size() + cache.settled.settledCount(), queued);
            QCOMPARE(describe(cached.run()), describe(indexed));
            if (SessionCache::parks(conf)) compareParked(c, conf);
        }
    }
};

GANTRY_TEST(ResourceTest)
GANTRY_TEST(SessionTest)
GANTRY_TEST(NodeIndexTest)
#include "test_engine.moc"
