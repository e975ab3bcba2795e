// The one adapter from a GPU request to a fragmentation task shape, and fragmentation's view of the
// compiled cluster: whole GPUs, shares, requests no node can hold, model constraints and unknown
// models, and nodes read from the state's devices as placements change them.
#include "fragmentation/fragmentation.h"
#include "fragmentation/state_view.h"
#include "fragmentation/task_shape.h"
#include "test_registry.h"

#include <QtTest>
#include <cstdio>

using namespace gantry;
using namespace gantry::frag;

namespace {

GpuModelTable table(std::initializer_list<const char*> names) {
    GpuModelTable t;
    for (const char* n : names) t.add(n);
    return t;
}

TaskShape shapeOf(int64_t cpu, int32_t count, int32_t milli, std::vector<std::string> models = {},
                  const GpuModelTable& t = table({"V100", "T4"})) {
    return taskShape(cpu, GpuRequest{count, milli, std::move(models)}, t);
}

Node gpuNode(const std::string& name, const std::string& model, int gpus) {
    Node n;
    n.name = name;
    n.gpus.model = model;
    n.gpus.count = gpus;
    n.allocatable = ResourceList{{"cpu", 32000},
                                 {"memory", int64_t(128) << 30},
                                 {"pods", 110},
                                 {std::string(res::NvidiaGpu), int64_t(gpus) * 1000}};
    n.capacity = n.allocatable;
    return n;
}

Pod sharePod(const std::string& name, int32_t milli, const std::string& node) {
    Pod p;
    p.name = p.uid = p.group = name;
    p.ns = "team";
    p.requests =
        ResourceList{{"cpu", 4000}, {"memory", int64_t(4) << 30}, {std::string(res::NvidiaGpu), milli}};
    p.gpu.count = 1;
    p.gpu.milliPerGpu = milli;
    p.schedulerName = "volcano";
    if (!node.empty()) {
        p.nodeName = node;
        p.phase = PodPhase::Running;
    }
    return p;
}

uint32_t taskOf(const engine::ClusterState& st, const std::string& key) {
    for (uint32_t t = 0; t < st.tasks.size(); ++t)
        if (st.taskKey(t) == key) return t;
    return UINT32_MAX;
}

} // namespace

class TaskShapeTest : public QObject {
    Q_OBJECT
  private slots:
    void wholeGpusAndShares() {
        TaskShape whole = shapeOf(8000, 2, 1000);
        QCOMPARE(whole.cpuMilli, int64_t(8000));
        QCOMPARE(whole.gpuCount, 2);
        QCOMPARE(whole.gpuMilli, 1000);
        QVERIFY(whole.models.any);
        QVERIFY(!whole.sharesGpu());
        QCOMPARE(whole.totalGpuMilli(), int64_t(2000));

        TaskShape share = shapeOf(2000, 1, 300);
        QCOMPARE(share.gpuCount, 1);
        QCOMPARE(share.gpuMilli, 300);
        QVERIFY(share.sharesGpu());
        QCOMPARE(affinityClass(share), 0);
    }

    void noDeviceOrNoShareIsCpuOnly() {
        // Either half missing means no GPU; a CPU-only task carries no constraint, so all three are
        // one shape, as the trace's converter writes them.
        const TaskShape cpuOnly = shapeOf(4000, 0, 1000);
        QCOMPARE(cpuOnly.gpuCount, 0);
        QCOMPARE(cpuOnly.gpuMilli, 0);
        QCOMPARE(shapeOf(4000, 2, 0), cpuOnly);
        QCOMPARE(shapeOf(4000, 0, 1000, {"T4"}), cpuOnly);
        QCOMPARE(shapeOf(4000, -1, 500), cpuOnly);
        QCOMPARE(int(classify(makeNode(8000, 1024, 2, 1), cpuOnly)), int(FragClass::NoGpuNeededFits));
    }

    void moreDevicesThanANodeHasIsKept() {
        // Not clamped to what a node can hold: 20 devices stay 20, and no 16-GPU node fits them,
        // so all its free GPU is fragment for this shape.
        TaskShape big = shapeOf(8000, 20, 1000);
        QCOMPARE(big.gpuCount, 20);
        NodeState node = makeNode(128000, 1 << 20, kMaxGpusPerNode, 1);
        QCOMPARE(int(classify(node, big)), int(FragClass::LackGpu));
        QCOMPARE(fragmentOf(node, big), int64_t(kMaxGpusPerNode) * kMilliPerGpu);
        // The same node fits 16.
        QCOMPARE(int(classify(node, shapeOf(8000, 16, 1000))), int(FragClass::Fits));
    }

    void moreThanAWholeDeviceIsKept() {
        TaskShape over = shapeOf(1000, 1, 1500);
        QCOMPARE(over.gpuMilli, 1500);
        QVERIFY(!over.sharesGpu());
        NodeState node = makeNode(8000, 1024, 2, 1);
        QCOMPARE(int(classify(node, over)), int(FragClass::LackGpu));
        QCOMPARE(fragmentOf(node, over), int64_t(2000));
    }

    void modelConstraints() {
        // Table: V100 = 0, T4 = 1. The spec keeps the order written; the mask names both.
        TaskShape both = shapeOf(1000, 1, 1000, {"T4", "V100"});
        QVERIFY(!both.models.any);
        QCOMPARE(both.models.mask, uint64_t(0b11));
        QCOMPARE(both.gpuSpec, std::string("T4|V100"));
        TaskShape t4 = shapeOf(1000, 1, 1000, {"T4"});
        QVERIFY(t4.models.allows(1));
        QVERIFY(!t4.models.allows(0));
        QVERIFY(!t4.models.allows(-1)); // a node naming no model
        QCOMPARE(int(classify(makeNode(8000, 1024, 2, 0), t4)), int(FragClass::NoAccess));
        QCOMPARE(int(classify(makeNode(8000, 1024, 2, 1), t4)), int(FragClass::Fits));
        QCOMPARE(int(classify(makeNode(8000, 1024, 2, -1), t4)), int(FragClass::NoAccess));
        // Same request, different constraint: different shapes.
        QVERIFY(!(t4 == shapeOf(1000, 1, 1000)));
    }

    void unknownModels() {
        // A model no node has is never allowed: alone it accepts no node at all, beside a known one
        // it does not widen the constraint.
        TaskShape unknown = shapeOf(1000, 1, 500, {"A100"});
        QVERIFY(!unknown.models.any);
        QCOMPARE(unknown.models.mask, uint64_t(0));
        QCOMPARE(unknown.gpuSpec, std::string("A100"));
        for (ModelId m : {ModelId(-1), ModelId(0), ModelId(1)})
            QCOMPARE(int(classify(makeNode(8000, 1024, 2, m), unknown)), int(FragClass::NoAccess));
        TaskShape mixed = shapeOf(1000, 1, 500, {"A100", "T4"});
        QCOMPARE(mixed.models.mask, uint64_t(0b10));
        QCOMPARE(mixed.gpuSpec, std::string("A100|T4"));
    }

    void emptyModelNamesAreNoConstraint() {
        QCOMPARE(shapeOf(1000, 1, 500, {""}), shapeOf(1000, 1, 500));
        QCOMPARE(shapeOf(1000, 1, 500, {"", "T4", ""}).gpuSpec, std::string("T4"));
    }

    void modelTable() {
        GpuModelTable t;
        QCOMPARE(t.add(""), ModelId(-1));
        QCOMPARE(t.add("T4"), ModelId(0));
        QCOMPARE(t.add("G2"), ModelId(1));
        QCOMPARE(t.add("T4"), ModelId(0));
        QCOMPARE(t.find("G2"), ModelId(1));
        QCOMPARE(t.find("A100"), ModelId(-1));
        QCOMPARE(t.size(), size_t(2));
        QCOMPARE(t.name(1), std::string("G2"));
        // A mask holds kMaxGpuModels models; later ones are unknown, their nodes name none.
        for (int i = 2; i < kMaxGpuModels; ++i) {
            char name[8];
            std::snprintf(name, sizeof name, "M%d", i);
            QCOMPARE(t.add(name), ModelId(i));
        }
        QCOMPARE(t.add("one-too-many"), ModelId(-1));
        QCOMPARE(t.size(), size_t(kMaxGpuModels));
        QCOMPARE(shapeOf(1000, 1, 500, {"M63"}, t).models.mask, uint64_t(1) << 63);
        QCOMPARE(shapeOf(1000, 1, 500, {"one-too-many"}, t).models.mask, uint64_t(0));
    }
    void stateViewReadsTheStateDevices() {
        Cluster c;
        c.nodes = {gpuNode("a-node", "T4", 2), gpuNode("b-node", "", 1), gpuNode("c-node", "V100", 4)};
        Queue q;
        q.name = "default";
        c.queues = {q};
        c.pods = {sharePod("running", 300, "a-node"), sharePod("pending", 600, "")};
        for (const auto& p : c.pods) {
            PodGroup g;
            g.name = p.name;
            g.ns = p.ns;
            g.queue = "default";
            g.minMember = 1;
            g.phase = p.nodeName.empty() ? PodGroupPhase::Inqueue : PodGroupPhase::Running;
            c.podGroups.push_back(g);
        }
        auto st = engine::buildClusterState(c);
        StateView view(st);
        QCOMPARE(view.models().size(), size_t(2));
        QCOMPARE(view.totalGpuMilli(), int64_t(7000));
        const uint32_t a = uint32_t(st.findNode("a-node")), b = uint32_t(st.findNode("b-node"));

        NodeState before = view.node(a);
        QCOMPARE(before.model, view.models().find("T4"));
        QCOMPARE(before.gpuCount, 2);
        QCOMPARE(before.cpuLeft, int64_t(28000));
        QCOMPARE(before.gpuLeftTotal(), int64_t(1700));
        QCOMPARE(view.node(b).model, ModelId(-1));

        // A placement (a session's tentative one too) shows at once, and is gone when undone.
        const uint32_t pending = taskOf(st, "team/pending");
        st.setTask(pending, engine::TaskStatus::Allocated, int32_t(a));
        NodeState during = view.node(a);
        QCOMPARE(during.cpuLeft, int64_t(24000));
        QCOMPARE(during.gpuLeftTotal(), int64_t(1100));
        // The 600 share joined the 300 on the tightest device.
        QCOMPARE(std::min(during.gpuLeft[0], during.gpuLeft[1]), int16_t(100));
        st.setTask(pending, engine::TaskStatus::Pending, -1);
        NodeState after = view.node(a);
        QCOMPARE(after.cpuLeft, before.cpuLeft);
        QCOMPARE(after.gpuLeft, before.gpuLeft);

        TaskShape shape = view.shape(st.shapeOf(pending));
        QCOMPARE(shape.cpuMilli, int64_t(4000));
        QCOMPARE(shape.gpuMilli, 600);
        QCOMPARE(shape.gpuCount, 1);
    }
};

GANTRY_TEST(TaskShapeTest)
#include "test_task_shape.moc"
