// The fragmentation measure on small hand-computed nodes: every case of F_n(m), the weighted node and
// cluster sums, the per-GPU split, and how the target workload is formed.
#include "fragmentation/fragmentation.h"
#include "test_registry.h"

#include <QtTest>

using namespace gantry::frag;

namespace {

// A T4 node (model 0) with 10 CPUs free and four devices holding 1000, 500, 200 and 0 free milli.
NodeState sampleNode() {
    NodeState n = makeNode(16000, 65536, 4, 0);
    n.cpuLeft = 10000;
    n.gpuLeft[1] = 500;
    n.gpuLeft[2] = 200;
    n.gpuLeft[3] = 0;
    return n;
}

TaskShape shape(int64_t cpu, int32_t count, int32_t milli, std::initializer_list<int> models = {},
                const char* spec = "") {
    TaskShape s;
    s.cpuMilli = cpu;
    s.gpuCount = count;
    s.gpuMilli = milli;
    s.gpuSpec = spec;
    if (models.size()) {
        s.models.any = false;
        for (int m : models)
            if (m >= 0) s.models.mask |= uint64_t(1) << m;
    }
    return s;
}

} // namespace

class FragmentationTest : public QObject {
    Q_OBJECT
  private slots:
    void everyCaseOfFragment_data() {
        QTest::addColumn<qint64>("cpu");
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("milli");
        QTest::addColumn<int>("model"); // -2 = any model, -1 = a model no node has
        QTest::addColumn<int>("fragClass");
        QTest::addColumn<qint64>("fragment");
        // Free milli on the node: 1000 + 500 + 200 + 0 = 1700.
        QTest::newRow("no GPU needed, CPU fits: all free GPU is fragment")
            << qint64(2000) << 0 << 0 << -2 << int(FragClass::NoGpuNeededFits) << qint64(1700);
        QTest::newRow("no GPU needed, CPU short")
            << qint64(20000) << 0 << 0 << -2 << int(FragClass::NoGpuNeededLacksCpu) << qint64(1700);
        QTest::newRow("model not allowed")
            << qint64(1000) << 1 << 300 << -1 << int(FragClass::NoAccess) << qint64(1700);
        QTest::newRow("fits: only devices under 300 count")
            << qint64(1000) << 1 << 300 << -2 << int(FragClass::Fits) << qint64(200);
        QTest::newRow("fits on its model: devices under 1000 count")
            << qint64(1000) << 1 << 1000 << 0 << int(FragClass::Fits) << qint64(700);
        QTest::newRow("fits exactly: 500 is not under 500")
            << qint64(1000) << 1 << 500 << -2 << int(FragClass::Fits) << qint64(200);
        QTest::newRow("too few whole devices")
            << qint64(1000) << 2 << 1000 << -2 << int(FragClass::LackGpu) << qint64(1700);
        QTest::newRow("GPU fits, CPU short")
            << qint64(20000) << 1 << 600 << -2 << int(FragClass::LackCpu) << qint64(1700);
        QTest::newRow("neither fits")
            << qint64(20000) << 2 << 1000 << -2 << int(FragClass::LackBoth) << qint64(1700);
        QTest::newRow("CPU exactly at the limit fits")
            << qint64(10000) << 1 << 200 << -2 << int(FragClass::Fits) << qint64(0);
    }
    void everyCaseOfFragment() {
        QFETCH(qint64, cpu);
        QFETCH(int, count);
        QFETCH(int, milli);
        QFETCH(int, model);
        QFETCH(int, fragClass);
        QFETCH(qint64, fragment);
        NodeState n = sampleNode();
        TaskShape t = model == -2 ? shape(cpu, count, milli) : shape(cpu, count, milli, {model}, "X");
        QCOMPARE(int(classify(n, t)), fragClass);
        QCOMPARE(qint64(fragmentOf(n, t)), fragment);
    }

    void nodeWithoutModelRefusesConstrainedTasks() {
        NodeState n = makeNode(8000, 1024, 2, -1);
        QCOMPARE(classify(n, shape(1000, 1, 500, {0}, "T4")), FragClass::NoAccess);
        QCOMPARE(classify(n, shape(1000, 1, 500)), FragClass::Fits);
        QCOMPARE(fragmentOf(n, shape(1000, 1, 500)), int64_t(0));
    }

    void nodeAndClusterSums() {
        // p = 0.5 for 1x300, 0.3 for 1x1000 on T4, 0.2 for a CPU-only task:
        // F = 0.5 * 200 + 0.3 * 700 + 0.2 * 1700 = 650.
        TargetWorkload w;
        w.shapes = {{shape(1000, 1, 300), 0.5, 5},
                    {shape(1000, 1, 1000, {0}, "T4"), 0.3, 3},
                    {shape(2000, 0, 0), 0.2, 2}};
        NodeState n = sampleNode();
        FragBuckets b = nodeFragBuckets(n, w);
        QCOMPARE(b.fragmented(), 650.0);
        QCOMPARE(b.idle(), 1700.0);
        QCOMPARE(b.milli[int(FragClass::Fits)], 0.5 * 1500 + 0.3 * 1000);
        QCOMPARE(nodeFragmentation(n, w), 650.0);

        // Per device: 1000 -> only the CPU task (200); 500 -> 0.3*500 + 0.2*500; 200 -> all three; 0 -> 0.
        auto perGpu = gpuFragmentation(n, w);
        QCOMPARE(perGpu.size(), size_t(4));
        QCOMPARE(perGpu[0], 200.0);
        QCOMPARE(perGpu[1], 250.0);
        QCOMPARE(perGpu[2], 200.0);
        QCOMPARE(perGpu[3], 0.0);

        // A fresh 2-GPU node: the two GPU shapes fit with nothing too small; the CPU task idles all.
        NodeState fresh = makeNode(16000, 65536, 2, 0);
        QCOMPARE(nodeFragmentation(fresh, w), 0.2 * 2000);
        std::vector<NodeState> cluster{n, fresh};
        auto c = clusterFragmentation(cluster, w);
        QCOMPARE(c.fragMilli, 650.0 + 400.0);
        QCOMPARE(c.idleMilli, 3700.0);
        QCOMPARE(c.totalMilli, int64_t(6000));
        QCOMPARE(c.fragOverTotalPct(), 100.0 * 1050 / 6000);
        QCOMPARE(c.fragOverIdlePct(), 100.0 * 1050 / 3700);
    }

    void targetWorkloadKeepsThePopularShapes() {
        // 5 x A, 3 x B, 1 x C (cpu 4000), 1 x D (cpu 2000): 80 % coverage keeps A and B, renormalised.
        std::vector<TaskShape> tasks;
        for (int i = 0; i < 5; ++i) tasks.push_back(shape(1000, 1, 500));
        for (int i = 0; i < 3; ++i) tasks.push_back(shape(8000, 1, 1000));
        tasks.push_back(shape(4000, 0, 0));
        tasks.push_back(shape(2000, 0, 0));
        auto w = targetWorkload(tasks, 0.8);
        QCOMPARE(w.shapes.size(), size_t(2));
        QCOMPARE(w.shapes[0].shape.cpuMilli, int64_t(1000));
        QCOMPARE(w.shapes[0].weight, 0.5 / 0.8);
        QCOMPARE(w.shapes[1].weight, 0.3 / 0.8);
        QCOMPARE(w.coverage(), 0.8);

        // 95 % needs all four; equally popular shapes come larger CPU first; no renormalisation.
        auto all = targetWorkload(tasks, 0.95);
        QCOMPARE(all.shapes.size(), size_t(4));
        QCOMPARE(all.shapes[2].shape.cpuMilli, int64_t(4000));
        QCOMPARE(all.shapes[3].shape.cpuMilli, int64_t(2000));
        QCOMPARE(all.shapes[3].weight, 0.1);
        double sum = 0;
        for (auto& s : all.shapes) sum += s.weight;
        QCOMPARE(sum, 1.0);
    }

    void shapesDifferByConstraint() {
        // The same request with and without a model constraint are two shapes.
        std::vector<TaskShape> tasks{shape(1000, 1, 1000), shape(1000, 1, 1000, {0}, "T4"),
                                     shape(1000, 1, 1000)};
        auto w = targetWorkload(tasks, 1.0);
        QCOMPARE(w.shapes.size(), size_t(2));
        QCOMPARE(w.shapes[0].count, int64_t(2));
        QCOMPARE(w.shapes[1].shape.gpuSpec, std::string("T4"));
    }
};

GANTRY_TEST(FragmentationTest)
#include "test_fragmentation.moc"
