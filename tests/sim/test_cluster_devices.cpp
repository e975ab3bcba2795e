// The cluster state's GPU devices (shares placed best-fit, whole GPUs on the lowest free devices,
// devices a pod names, release, session rollback), the deviceshare predicate, and removing
// finished jobs with their names.
#include "profiles/volcano/framework/session.h"
#include "test_registry.h"

#include <QtTest>

using namespace gantry;
using namespace gantry::engine;

namespace {

Node gpuNode(const std::string& name, int gpus, const std::string& model) {
    Node n;
    n.name = name;
    n.allocatable.set(res::Cpu, 64000);
    n.allocatable.set(res::Memory, int64_t(512) << 30);
    n.allocatable.set(res::Pods, 110);
    n.allocatable.set(res::NvidiaGpu, int64_t(gpus) * 1000);
    n.gpus.count = gpus;
    n.gpus.model = model;
    n.labels["nvidia.com/gpu.product"] = model;
    return n;
}

Cluster twoNodes() {
    Cluster c;
    c.nodes.push_back(gpuNode("a100-0", 4, "A100"));
    c.nodes.push_back(gpuNode("t4-0", 2, "T4"));
    Queue q;
    q.name = "default";
    c.queues.push_back(q);
    return c;
}

PodGroup group(const std::string& name, int minMember = 1) {
    PodGroup g;
    g.name = name;
    g.ns = "default";
    g.queue = "default";
    g.minMember = minMember;
    g.phase = PodGroupPhase::Inqueue;
    g.origin = "gantry.io/WorkloadTemplate";
    return g;
}

Pod gpuPod(const std::string& name, const std::string& job, int count, int milli,
           std::vector<std::string> models = {}) {
    Pod p;
    p.name = name;
    p.ns = "default";
    p.group = job;
    p.requests.set(res::Cpu, 1000);
    p.requests.set(res::NvidiaGpu, int64_t(count) * milli);
    p.gpu.count = count;
    p.gpu.milliPerGpu = milli;
    p.gpu.models = std::move(models);
    return p;
}

std::vector<int32_t> devices(const ClusterState& st, uint32_t node) {
    return std::vector<int32_t>(st.gpuRow(node), st.gpuRow(node) + st.gpuCount(node));
}

// Adds a one-pod job and places its pod on `node` as running.
uint32_t run(ClusterState& st, const Pod& pod, uint32_t node) {
    const uint32_t j = st.addJob(group(pod.group), {pod});
    const uint32_t t = st.jobs[j].tasks[0];
    st.setTask(t, TaskStatus::Running, int32_t(node));
    st.k8sAdd(t, node);
    st.reindexNode(node);
    return t;
}

SchedulerConf confWith(bool deviceshare) {
    SchedulerConf conf;
    conf.actions = {"allocate"};
    auto plugin = [](const char* name) {
        PluginOption p;
        p.name = name;
        return p;
    };
    conf.tiers.push_back(Tier{{plugin("priority"), plugin("gang")}});
    Tier t2{{plugin("predicates"), plugin("proportion"), plugin("binpack")}};
    if (deviceshare) t2.plugins.push_back(plugin("deviceshare"));
    conf.tiers.push_back(t2);
    return conf;
}

} // namespace

class ClusterDevicesTest : public QObject {
    Q_OBJECT
  private slots:
    void sharesBestFitWholeGpusLowest() {
        ClusterState st = buildClusterState(twoNodes());
        const uint32_t a = uint32_t(st.findNode("a100-0"));
        QCOMPARE(devices(st, a), (std::vector<int32_t>{1000, 1000, 1000, 1000}));
        const uint32_t s1 = run(st, gpuPod("s1", "j1", 1, 600), a);
        QCOMPARE(devices(st, a), (std::vector<int32_t>{400, 1000, 1000, 1000}));
        QCOMPARE(st.tasks[s1].gpuMask, uint64_t(1));
        run(st, gpuPod("s2", "j2", 1, 600), a); // 400 left on device 0 is too little: device 1
        QCOMPARE(devices(st, a), (std::vector<int32_t>{400, 400, 1000, 1000}));
        run(st, gpuPod("s3", "j3", 1, 300), a); // the fullest device that still fits
        QCOMPARE(devices(st, a), (std::vector<int32_t>{100, 400, 1000, 1000}));
        const uint32_t w = run(st, gpuPod("w", "j4", 2, 1000), a);
        QCOMPARE(devices(st, a), (std::vector<int32_t>{100, 400, 0, 0}));
        QCOMPARE(st.tasks[w].gpuMask, uint64_t(0b1100));
        // Releasing keeps the devices; finishing gives them back.
        st.setTask(s1, TaskStatus::Releasing, -1);
        QCOMPARE(devices(st, a), (std::vector<int32_t>{100, 400, 0, 0}));
        st.k8sRemove(s1, a);
        st.setTask(s1, TaskStatus::Succeeded, -1);
        QCOMPARE(devices(st, a), (std::vector<int32_t>{700, 400, 0, 0}));
        QCOMPARE(st.tasks[s1].gpuMask, uint64_t(0));
    }

    void devicesNamedByThePod() {
        Cluster c = twoNodes();
        Pod p = gpuPod("known", "jk", 1, 500);
        p.nodeName = "a100-0";
        p.phase = PodPhase::Running;
        p.gpuIndices = {2};
        c.pods.push_back(p);
        c.podGroups.push_back(group("jk"));
        ClusterState st = buildClusterState(c);
        QCOMPARE(devices(st, uint32_t(st.findNode("a100-0"))), (std::vector<int32_t>{1000, 1000, 500, 1000}));
    }

    void deviceFitAndModels() {
        ClusterState st = buildClusterState(twoNodes());
        const uint32_t a = uint32_t(st.findNode("a100-0")), t4 = uint32_t(st.findNode("t4-0"));
        run(st, gpuPod("s1", "j1", 1, 600), a);
        run(st, gpuPod("s2", "j2", 1, 600), a);
        run(st, gpuPod("w", "j3", 2, 1000), a);
        // 800 milli free in all, but no device has 600.
        const uint32_t j = st.addJob(group("p"), {gpuPod("p-0", "p", 1, 600)});
        const uint32_t t = st.jobs[j].tasks[0];
        QVERIFY(!st.gpusFit(t, a));
        QVERIFY(st.gpusFit(t, t4));
        const uint32_t jm = st.addJob(group("m"), {gpuPod("m-0", "m", 1, 1000, {"T4"})});
        const uint32_t tm = st.jobs[jm].tasks[0];
        QVERIFY(!st.gpuModelAllowed(tm, a));
        QVERIFY(st.gpuModelAllowed(tm, t4));
    }

    void deviceshareDecidesAndSessionsRollBack() {
        Cluster c = twoNodes();
        c.nodes.pop_back(); // only the A100 node
        ClusterState st = buildClusterState(c);
        const uint32_t a = 0;
        run(st, gpuPod("s1", "j1", 1, 600), a);
        run(st, gpuPod("s2", "j2", 1, 600), a);
        run(st, gpuPod("w", "j3", 2, 1000), a);
        st.addJob(group("p"), {gpuPod("p-0", "p", 1, 600)});
        const auto before = devices(st, a);
        const auto idleBefore = std::vector<int64_t>(st.idle.begin(), st.idle.end());
        {
            // Without deviceshare the GPU count decides: 800 milli free, the 600 share is bound.
            SchedulerConf conf = confWith(false);
            Session s(st, conf);
            auto r = s.run();
            QCOMPARE(r.bindings.count("default/p-0"), size_t(1));
            QCOMPARE(int(r.boundTasks.size()), 1);
        }
        QCOMPARE(devices(st, a), before);
        QCOMPARE(std::vector<int64_t>(st.idle.begin(), st.idle.end()), idleBefore);
        {
            SchedulerConf conf = confWith(true);
            Session s(st, conf);
            auto r = s.run();
            QCOMPARE(r.bindings.count("default/p-0"), size_t(0));
            QVERIFY2(r.pending.at("default/p-0").find("Insufficient GPU devices") != std::string::npos,
                     r.pending.at("default/p-0").c_str());
        }
        QCOMPARE(devices(st, a), before);
    }

    void bucketsSeeDevices() {
        // Two nodes alike in everything but how their used GPU milli is spread over devices: n1 holds
        // two half-GPU pods on two devices, n2 on one. A 3-GPU pod fits only n2, which sorts after n1.
        Cluster c;
        c.nodes.push_back(gpuNode("n1", 4, "A100"));
        c.nodes.push_back(gpuNode("n2", 4, "A100"));
        Queue q;
        q.name = "default";
        c.queues.push_back(q);
        auto placed = [&](const std::string& name, const std::string& node, int device) {
            Pod p = gpuPod(name, name, 1, 500);
            p.nodeName = node;
            p.phase = PodPhase::Running;
            p.gpuIndices = {device};
            c.pods.push_back(p);
            c.podGroups.push_back(group(name));
        };
        placed("a", "n1", 0);
        placed("b", "n1", 1);
        placed("c", "n2", 0);
        placed("d", "n2", 0);
        ClusterState st = buildClusterState(c);
        QCOMPARE(st.nodes[0].cls, st.nodes[1].cls);
        QCOMPARE(devices(st, 0), (std::vector<int32_t>{500, 500, 1000, 1000}));
        QCOMPARE(devices(st, 1), (std::vector<int32_t>{0, 1000, 1000, 1000}));
        QVERIFY(st.nodeBucket[0] != st.nodeBucket[1]);
        st.addJob(group("big"), {gpuPod("big-0", "big", 3, 1000)});
        const SchedulerConf conf = confWith(true); // the session keeps a reference
        Session s(st, conf);
        auto r = s.run();
        QCOMPARE(r.bindings.at("default/big-0"), std::string("n2"));
    }

    // Names come and go by the million in a simulation: every name still held is found after any
    // mix of releases, a released one is gone, and an id freed is reused.
    void stringPoolKeepsWhatIsHeld() {
        StringPool pool;
        std::vector<uint32_t> ids;
        for (int i = 0; i < 5000; ++i) ids.push_back(pool.intern("pod-" + std::to_string(i)));
        QCOMPARE(pool.intern("pod-7"), ids[7]); // a second reference
        for (int i = 0; i < 5000; i += 3) pool.release(ids[size_t(i)]);
        pool.release(ids[7]);
        QCOMPARE(pool.find("pod-7"), std::optional<uint32_t>(ids[7])); // one reference left
        for (int i = 0; i < 5000; ++i) {
            const auto found = pool.find("pod-" + std::to_string(i));
            if (i % 3 == 0) {
                QVERIFY(!found);
            } else {
                QCOMPARE(found, std::optional<uint32_t>(ids[size_t(i)]));
                QCOMPARE(pool.str(*found), "pod-" + std::to_string(i));
            }
        }
        QCOMPARE(pool.size(), size_t(5000 - 1667));
        QCOMPARE(ids[4999], 4999u); // ids were given in order
        const uint32_t again = pool.intern("job-new");
        QCOMPARE(again % 3, 0u); // the id of a released name
        QVERIFY(again < 5000);
        QCOMPARE(pool.find("job-new"), std::optional<uint32_t>(again));
    }

    void removedJobsFreeTheirSlotsAndNames() {
        ClusterState st = buildClusterState(twoNodes());
        const size_t strings = st.strings.size();
        const uint32_t j = st.addJob(
            group("first"), {gpuPod("first-0", "first", 1, 1000), gpuPod("first-1", "first", 1, 1000)});
        const std::vector<uint32_t> tasks = st.jobs[j].tasks;
        QVERIFY(st.strings.size() > strings);
        QCOMPARE(st.findJob("default/first"), int(j));
        st.setTask(tasks[0], TaskStatus::Running, 0);
        QVERIFY_THROWS_EXCEPTION(std::logic_error, st.removeJob(j));
        st.setTask(tasks[0], TaskStatus::Succeeded, -1);
        st.removeJob(j);
        QCOMPARE(st.strings.size(), strings + 1); // only the namespace stays: pod shapes name it
        QCOMPARE(st.findJob("default/first"), -1);
        QVERIFY(!st.jobAlive(j));
        QCOMPARE(st.liveJobs(), size_t(0));
        // A removed job is out of every session.
        {
            const SchedulerConf conf = confWith(true);
            Session s(st, conf);
            QVERIFY(s.sessionJobs.empty());
        }
        const uint32_t k = st.addJob(group("second"), {gpuPod("second-0", "second", 1, 1000)});
        QCOMPARE(k, j);
        QVERIFY(st.jobs[k].tasks[0] == tasks[0] || st.jobs[k].tasks[0] == tasks[1]);
        QCOMPARE(st.taskKey(st.jobs[k].tasks[0]), std::string("default/second-0"));
        // Orders keep growing: a later job counts as created later, whatever slot it takes.
        QCOMPARE(st.tasks[st.jobs[k].tasks[0]].order, uint32_t(2));
        QCOMPARE(st.jobs[k].order, uint32_t(1));
    }
};

GANTRY_TEST(ClusterDevicesTest)
#include "test_cluster_devices.moc"
