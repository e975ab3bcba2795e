// Each policy's node score and device choice on small hand-made nodes, computed by hand from the
// authors' plugin formulas.
#include "fragmentation/fgd_policies.h"
#include "fragmentation/frag_memo.h"
#include "test_registry.h"

#include <QtTest>
#include <set>

using namespace gantry;
using namespace gantry::frag;

namespace {

NodeState node(int64_t cpuLeft, std::initializer_list<int> gpuLeft, int64_t cpuCapacity = 128000) {
    NodeState n = makeNode(cpuCapacity, 1 << 20, int32_t(gpuLeft.size()), 0);
    n.cpuLeft = cpuLeft;
    int g = 0;
    for (int left : gpuLeft) n.gpuLeft[g++] = int16_t(left);
    return n;
}

TaskShape task(int64_t cpu, int32_t count, int32_t milli) {
    TaskShape t;
    t.cpuMilli = cpu;
    t.gpuCount = count;
    t.gpuMilli = milli;
    return t;
}

} // namespace

class PlacementTest : public QObject {
    Q_OBJECT
  private slots:
    void filters() {
        NodeState n = node(8000, {1000, 300});
        n.memoryLeft = 4096;
        QVERIFY(fits(n, task(8000, 1, 300), 4096));
        QVERIFY(!fits(n, task(8001, 1, 300), 0));    // CPU
        QVERIFY(!fits(n, task(1000, 1, 300), 4097)); // memory
        QVERIFY(!fits(n, task(1000, 2, 1000), 0));   // only one whole device
        QVERIFY(fits(n, task(1000, 1, 1000), 0));
        QVERIFY(fits(n, task(1000, 0, 0), 0)); // CPU-only tasks skip the GPU filter
        TaskShape v100 = task(1000, 1, 300);
        v100.models = ModelSet{false, uint64_t(1) << 3};
        QVERIFY(!fits(n, v100, 0)); // model 0 is not accepted
        NodeState noGpu = makeNode(8000, 4096, 0, -1);
        QVERIFY(!fits(noGpu, task(1000, 1, 100), 0));
        QVERIFY(fits(noGpu, task(1000, 0, 0), 0));
        n.podsLeft = 0;
        QVERIFY(!fits(n, task(1000, 0, 0), 0));
    }

    void dotProdPrefersTheFullerNode() {
        // (64000/128000)(8000/128000) + (2000/8000)(500/8000) = 0.046875 -> 100 (1 - 0.0234375) = 97
        QCOMPARE(dotProdScore(node(64000, {1000, 1000}), task(8000, 1, 500)), int64_t(97));
        // (8000/128000)(0.0625) + (500/8000)(0.0625) = 0.0078125 -> 99
        QCOMPARE(dotProdScore(node(8000, {500, 0}), task(8000, 1, 500)), int64_t(99));
        QCOMPARE(dotProdScore(node(4000, {1000}), task(8000, 1, 500)), int64_t(0)); // CPU short
    }

    void gpuClusteringGroupsLikeTasks() {
        TaskShape shared = task(1000, 1, 500);
        NodeState onlyShared = node(64000, {500, 1000});
        onlyShared.affinity[0] = 2;
        QCOMPARE(gpuClusteringScore(onlyShared, shared), int64_t(25 * 6500 / 8000 + 75)); // 95
        NodeState empty = node(64000, {1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000});
        QCOMPARE(gpuClusteringScore(empty, shared), int64_t(25));
        NodeState oneGpuTasks = node(64000, {1000, 0});
        oneGpuTasks.affinity[1] = 1;
        QCOMPARE(gpuClusteringScore(oneGpuTasks, shared), int64_t(25 * 7000 / 8000)); // 21
        NodeState mixed = node(64000, {1000, 1000, 1000, 1000, 0, 0, 0, 0});
        mixed.affinity[0] = 1;
        mixed.affinity[1] = 3;
        QCOMPARE(gpuClusteringScore(mixed, shared), int64_t(12 + 50));
        QCOMPARE(gpuClusteringScore(onlyShared, task(1000, 0, 0)), int64_t(0));
    }

    void gpuPackingFillsUsedDevicesFirst() {
        QCOMPARE(gpuPackingScore(node(64000, {1000, 1000}), task(1000, 1, 200)), int64_t(31)); // empty node
        QCOMPARE(gpuPackingScore(node(64000, {1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000}),
                                 task(1000, 1, 200)),
                 int64_t(25));
        QCOMPARE(gpuPackingScore(node(64000, {300, 1000}), task(1000, 1, 200)), int64_t(100 - 30 / 10)); // 97
        QCOMPARE(gpuPackingScore(node(64000, {1000, 0}), task(1000, 1, 200)), int64_t(49)); // a free device
        QCOMPARE(gpuPackingScore(node(64000, {300, 1000}), task(1000, 1, 1000)), int64_t(49));
        QCOMPARE(gpuPackingScore(node(64000, {300, 1000}), task(1000, 0, 0)), int64_t(0));
    }

    void bestFitLeavesLeastBehind() {
        // (24000/128000) 0.5 + (1000/8000) 0.5 = 0.15625 -> 84
        QCOMPARE(bestFitRawScore(node(32000, {1000, 1000}), task(8000, 1, 1000)), int64_t(84));
        std::vector<int64_t> scores{84, 50, 70};
        normaliseScores(scores);
        QCOMPARE(scores, (std::vector<int64_t>{100, 0, 58}));
        std::vector<int64_t> flat{7, 7};
        normaliseScores(flat);
        QCOMPARE(flat, (std::vector<int64_t>{0, 0}));
    }

    void fgdPicksTheLeastFragmentingDevice() {
        // The target workload is one shape, 1 x 600 milli.
        TargetWorkload w;
        w.shapes = {{task(0, 1, 600), 1.0, 1}};
        FragMemo memo(w);
        TaskShape t = task(1000, 1, 500);
        // Empty node: 500 on a device leaves 500 < 600 stranded, F 0 -> 500: 100 sigmoid(-0.5) = 37.
        FgdChoice onEmpty = fgdScore(node(64000, {1000, 1000}), t, memo);
        QCOMPARE(onEmpty.score, int64_t(37));
        QCOMPARE(onEmpty.gpus, GpuSet(1));
        // Half-used node: filling the 500 device brings F from 500 to 0: 100 sigmoid(0.5) = 62.
        FgdChoice onUsed = fgdScore(node(64000, {500, 1000}), t, memo);
        QCOMPARE(onUsed.score, int64_t(62));
        QCOMPARE(onUsed.gpus, GpuSet(1) << 0);
        // Whole-GPU task: lowest free devices; F 0 -> 0 gives 50.
        FgdChoice whole = fgdScore(node(64000, {1000, 0, 1000}), task(1000, 1, 1000), memo);
        QCOMPARE(whole.gpus, GpuSet(1));
        QCOMPARE(whole.score, int64_t(50));
    }

    void deviceChoice() {
        NodeState n = node(64000, {1000, 300, 500, 250});
        QCOMPARE(pickTightestGpus(n, task(0, 1, 250)), GpuSet(1) << 3);
        QCOMPARE(pickTightestGpus(n, task(0, 1, 400)), GpuSet(1) << 2);
        QCOMPARE(pickTightestGpus(node(64000, {1000, 0, 1000, 1000}), task(0, 2, 1000)), GpuSet(0b101));
        QCOMPARE(pickTightestGpus(n, task(0, 0, 0)), GpuSet(0));
        QCOMPARE(lowestFreeGpus(n, 2), GpuSet(0)); // only one free device

        GoRand rng(42);
        std::set<int> seen;
        for (int i = 0; i < 200; ++i) {
            GpuSet g = pickRandomGpus(n, task(0, 1, 300), rng);
            QVERIFY(g == 1 || g == 2 || g == 4); // devices 0, 1, 2 have >= 300 free
            seen.insert(int(g));
        }
        QCOMPARE(seen.size(), size_t(3));
        GoRand a(5), b(5);
        QCOMPARE(pickRandomGpus(n, task(0, 1, 100), a), pickRandomGpus(n, task(0, 1, 100), b));
    }

    void placingUpdatesTheNode() {
        NodeState n = node(64000, {1000, 1000});
        n.memoryLeft = 1000;
        n.podsLeft = 3;
        place(n, task(8000, 1, 300), 200, GpuSet(2));
        QCOMPARE(n.cpuLeft, int64_t(56000));
        QCOMPARE(n.memoryLeft, int64_t(800));
        QCOMPARE(n.podsLeft, 2);
        QCOMPARE(int(n.gpuLeft[1]), 700);
        QCOMPARE(int(n.affinity[0]), 1);
        place(n, task(8000, 1, 1000), 0, GpuSet(1));
        QCOMPARE(int(n.gpuLeft[0]), 0);
        QCOMPARE(int(n.affinity[1]), 1);
        QCOMPARE(n.affinityKinds(), 2);
    }

    void policyNames() {
        for (Policy p : allPolicies()) QCOMPARE(policyFromString(toString(p)), std::optional<Policy>(p));
        QCOMPARE(policyFromString("FGD"), std::optional<Policy>());
    }
};

GANTRY_TEST(PlacementTest)
#include "test_placement.moc"
