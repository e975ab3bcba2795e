// The fgd node-order plugin in a Volcano-style session: the node it prefers for a GPU-sharing task
// is the one where the session's workload loses the least GPU capacity to fragmentation.
#include "fragmentation/fgd_policies.h"
#include "fragmentation/frag_memo.h"
#include "profiles/volcano/framework/registry.h"
#include "profiles/volcano/framework/session.h"
#include "test_registry.h"

#include <QtTest>

using namespace gantry;

namespace {

Node gpuNode(const std::string& name, int gpus) {
    Node n;
    n.name = name;
    n.gpus.model = "T4";
    n.gpus.count = gpus;
    n.allocatable = ResourceList{{"cpu", 32000},
                                 {"memory", int64_t(128) << 30},
                                 {"pods", 110},
                                 {std::string(res::NvidiaGpu), int64_t(gpus) * 1000}};
    n.capacity = n.allocatable;
    return n;
}

Pod gpuPod(const std::string& name, int32_t milli, const std::string& node = "") {
    Pod p;
    p.name = name;
    p.ns = "team";
    p.uid = name;
    p.requests =
        ResourceList{{"cpu", 2000}, {"memory", int64_t(4) << 30}, {std::string(res::NvidiaGpu), milli}};
    p.gpu.count = 1;
    p.gpu.milliPerGpu = milli;
    p.schedulerName = "volcano";
    p.group = name;
    if (!node.empty()) {
        p.nodeName = node;
        p.phase = PodPhase::Running;
    }
    return p;
}

PodGroup group(const std::string& name, bool running) {
    PodGroup g;
    g.name = name;
    g.ns = "team";
    g.queue = "default";
    g.minMember = 1;
    g.phase = running ? PodGroupPhase::Running : PodGroupPhase::Inqueue;
    return g;
}

// b-node runs a half-GPU task, c-node's only GPU runs a whole-GPU task, a-node is empty; one
// half-GPU task is pending. The workload (three tasks) is 2/3 half-GPU, 1/3 whole-GPU tasks.
Cluster cluster() {
    Cluster c;
    c.nodes = {gpuNode("a-node", 2), gpuNode("b-node", 2), gpuNode("c-node", 1)};
    Queue q;
    q.name = "default";
    c.queues = {q};
    c.pods = {gpuPod("running-half", 500, "b-node"), gpuPod("running-whole", 1000, "c-node"),
              gpuPod("pending-half", 500)};
    c.podGroups = {group("running-half", true), group("running-whole", true), group("pending-half", false)};
    return c;
}

SchedulerConf conf(bool withFgd) {
    SchedulerConf s;
    s.actions = {"enqueue", "allocate"};
    Tier first, second;
    first.plugins = {PluginOption{"priority", {}, {}, {}}, PluginOption{"gang", {}, {}, {}}};
    second.plugins = {PluginOption{"predicates", {}, {}, {}}};
    if (withFgd) second.plugins.push_back(PluginOption{"fgd", {}, {{"fgd.weight", "1"}}, {}});
    s.tiers = {first, second};
    return s;
}

std::string placement(bool withFgd) {
    Cluster c = cluster();
    auto state = engine::buildClusterState(c);
    SchedulerConf s = conf(withFgd);
    engine::Session ssn(state, s);
    auto result = ssn.run();
    auto it = result.bindings.find("team/pending-half");
    return it == result.bindings.end() ? std::string("(pending)") : it->second;
}

} // namespace

class FgdPluginTest : public QObject {
    Q_OBJECT
  private slots:
    void isRegistered() { QVERIFY(engine::pluginImplemented("fgd")); }

    void prefersTheNodeWhereFragmentationShrinks() {
        // By hand: on a-node the half-GPU task leaves 500 milli no whole-GPU task can use:
        // F 0 -> 500/3, score trunc(100 sigmoid(-0.1667)) = 45. On b-node it fills the used device:
        // F 500/3 -> 0, score 54.
        frag::TargetWorkload w;
        frag::TaskShape half, whole;
        half.cpuMilli = whole.cpuMilli = 2000;
        half.gpuCount = whole.gpuCount = 1;
        half.gpuMilli = 500;
        whole.gpuMilli = 1000;
        w.shapes = {{half, 2.0 / 3, 2}, {whole, 1.0 / 3, 1}};
        frag::FragMemo memo(w);
        frag::NodeState a = frag::makeNode(32000, 1 << 20, 2, 0), b = a;
        b.cpuLeft -= 2000;
        b.gpuLeft[0] = 500;
        QCOMPARE(frag::fgdScore(a, half, memo).score, int64_t(45));
        QCOMPARE(frag::fgdScore(b, half, memo).score, int64_t(54));

        QCOMPARE(placement(true), std::string("b-node"));
    }

    void withoutItTheSessionPicksOtherwise() {
        // The same session without fgd does not pack the shared device.
        QCOMPARE(placement(false), std::string("a-node"));
    }

    void sessionsAreRepeatable() {
        Cluster c = cluster();
        auto state = engine::buildClusterState(c);
        SchedulerConf s = conf(true);
        for (int i = 0; i < 2; ++i) {
            engine::Session ssn(state, s);
            auto r = ssn.run();
            QCOMPARE(r.bindings.at("team/pending-half"), std::string("b-node"));
        }
    }
};

GANTRY_TEST(FgdPluginTest)
#include "test_fgd_plugin.moc"
