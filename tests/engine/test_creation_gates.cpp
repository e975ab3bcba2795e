// Pods created later (TaskStatus::NotCreated and creation gates): a JobSet's replicated jobs that
// wait for earlier ones to be ready or complete, and exclusive-placement followers that wait for
// their leader to be scheduled; and kube-scheduler's cycle, which creates a follower as soon as it
// binds the leader, leaving the state as it found it.
#include "engine_fixtures.h"
#include "k8s/kube_scheduler.h"
#include "test_registry.h"

#include <QtTest>

using namespace gantry;
using namespace gantry::engine;
using namespace gantry::engine::fixtures;

namespace {

Pod member(const std::string& name, const std::string& role, std::vector<CreationCondition> after = {}) {
    Pod p = makePod("default", name, "js", 1000, 1);
    p.schedulerName = "";
    p.role = role;
    p.createdAfter = std::move(after);
    return p;
}

CreationCondition ready(const std::string& role) {
    return CreationCondition{CreationCondition::Kind::RoleReady, role, {}, {}};
}
CreationCondition complete(const std::string& role) {
    return CreationCondition{CreationCondition::Kind::RoleComplete, role, {}, {}};
}
CreationCondition leader(const std::string& pod, const std::string& key) {
    return CreationCondition{CreationCondition::Kind::PodScheduled, pod, key, {}};
}

// Two pools of one node; init (complete first), then a leader and its follower, then workers that
// wait for the leader's job to be ready.
Cluster staged() {
    Cluster c;
    c.nodes.push_back(makeNode("a", 8000, 32, 0, {{"pool", "p1"}}));
    c.nodes.push_back(makeNode("b", 8000, 32, 0, {{"pool", "p2"}}));
    Queue q;
    q.name = "default";
    c.queues.push_back(q);
    PodGroup g = makeGroup("default", "js", "default", 1);
    g.origin = "jobset.x-k8s.io/JobSet";
    c.podGroups.push_back(g);
    c.pods.push_back(member("js-init-0-0", "init"));
    c.pods.push_back(member("js-lead-0-0", "lead", {complete("init")}));
    c.pods.push_back(member("js-lead-0-1", "lead", {complete("init"), leader("js-lead-0-0", "pool")}));
    c.pods.push_back(member("js-work-0-0", "work", {ready("lead")}));
    return c;
}

uint32_t task(const ClusterState& st, const std::string& name) {
    for (uint32_t t = 0; t < st.tasks.size(); ++t)
        if (st.strings.str(st.tasks[t].name) == name) return t;
    throw std::runtime_error("no task " + name);
}

} // namespace

class CreationGateTest : public QObject {
    Q_OBJECT
  private slots:
    void podsWaitForTheirConditions() {
        ClusterState st = buildClusterState(staged());
        const uint32_t init = task(st, "js-init-0-0"), lead = task(st, "js-lead-0-0"),
                       follow = task(st, "js-lead-0-1"), work = task(st, "js-work-0-0");
        QVERIFY(st.tasks[init].status == TaskStatus::Pending);
        for (uint32_t t : {lead, follow, work}) QVERIFY(st.tasks[t].status == TaskStatus::NotCreated);
        const uint32_t job = st.tasks[init].job;
        QCOMPARE(st.jobs[job].statusCount[int(TaskStatus::Pending)], 1);
        QCOMPARE(st.jobs[job].gates.size(), size_t(3)); // lead, its follower, work
        QCOMPARE(st.whyNotCreated(lead),
                 std::string("not created yet: its controller waits for every pod of init to complete"));
        QCOMPARE(st.whyNotCreated(work),
                 std::string("not created yet: its controller waits for every pod of lead to be ready"));
        // Running is not complete.
        st.setTask(init, TaskStatus::Running, 0);
        QVERIFY(st.openGates(job).empty());
        st.setTask(init, TaskStatus::Succeeded, -1);
        auto opened = st.openGates(job);
        QCOMPARE(opened.size(), size_t(1));
        QVERIFY(st.tasks[lead].status == TaskStatus::Pending);
        QVERIFY(st.tasks[follow].status == TaskStatus::NotCreated);
        QVERIFY(st.whyNotCreated(follow).find("its leader default/js-lead-0-0 is not scheduled") !=
                std::string::npos);
        // Created now: after every pod that exists.
        QVERIFY(st.tasks[lead].order > st.tasks[init].order);
        // The leader bound to b: the follower is created pinned to pool p2.
        st.setTask(lead, TaskStatus::Bound, 1);
        QCOMPARE(st.openGates(job).size(), size_t(1));
        QVERIFY(st.tasks[follow].status == TaskStatus::Pending);
        QCOMPARE(st.shapeOf(follow).nodeSelector.at("pool"), std::string("p2"));
        // Ready: every pod of the role runs (bound is not ready).
        st.setTask(follow, TaskStatus::Bound, 1);
        QVERIFY(st.openGates(job).empty());
        st.setTask(lead, TaskStatus::Running, 1);
        st.setTask(follow, TaskStatus::Running, 1);
        QCOMPARE(st.openGates(job).size(), size_t(1));
        QVERIFY(st.tasks[work].status == TaskStatus::Pending);
        QVERIFY(st.jobs[job].gates.empty());
    }

    void closingAGateUndoesIt() {
        ClusterState st = buildClusterState(staged());
        const uint32_t init = task(st, "js-init-0-0"), lead = task(st, "js-lead-0-0");
        const uint32_t job = st.tasks[init].job;
        const uint32_t order = st.tasks[lead].order, shape = st.tasks[lead].shape;
        st.setTask(init, TaskStatus::Succeeded, -1);
        auto opened = st.openGates(job);
        QCOMPARE(opened.size(), size_t(1));
        st.closeGate(std::move(opened.front()));
        QVERIFY(st.tasks[lead].status == TaskStatus::NotCreated);
        QCOMPARE(st.tasks[lead].order, order);
        QCOMPARE(st.tasks[lead].shape, shape);
        QCOMPARE(st.jobs[job].gates.size(), size_t(3));
        QCOMPARE(st.jobs[job].statusCount[int(TaskStatus::NotCreated)], 3);
    }

    // kube-scheduler binds the leader, the follower is created in the same cycle and bound in its
    // leader's pool; the state is left as it was (the follower not created yet).
    void kubeCreatesFollowersOfALeaderItBinds() {
        Cluster c = staged();
        c.pods.erase(c.pods.begin()); // no initializer: the leader exists from the start
        for (auto& p : c.pods) {
            auto& after = p.createdAfter;
            after.erase(std::remove_if(after.begin(), after.end(),
                                       [](const CreationCondition& x) {
                                           return x.kind == CreationCondition::Kind::RoleComplete;
                                       }),
                        after.end());
        }
        ClusterState st = buildClusterState(c, nullptr, k8s::kubeBuildOptions());
        const uint32_t follow = task(st, "js-lead-0-1");
        CycleResult r = k8s::runKubeScheduler(st, KubeSchedulerProfile{});
        QCOMPARE(r.bindings.size(), size_t(2));
        QCOMPARE(r.bindings.at("default/js-lead-0-1"), r.bindings.at("default/js-lead-0-0"));
        // Bound is not ready: the workers wait for the next step.
        QVERIFY(r.pending.at("default/js-work-0-0").find("to be ready") != std::string::npos);
        QVERIFY(st.tasks[follow].status == TaskStatus::NotCreated);
        QVERIFY(st.tasks[task(st, "js-lead-0-0")].status == TaskStatus::Pending);
        QCOMPARE(st.jobs[st.tasks[follow].job].gates.size(), size_t(2));
    }
};

GANTRY_TEST(CreationGateTest)
#include "test_creation_gates.moc"
