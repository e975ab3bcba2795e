// How a node's GPUs are read, whichever way they are exposed: MIG profile arithmetic, the NVIDIA
// device plugin's strategies with GPU feature discovery's labels, and the NVIDIA DRA driver's
// slices. Expected values come from the sources each case names.
#include "model/gpu_exposure.h"
#include "report/cluster_summary.h"
#include "snapshot/snapshot_importer.h"
#include "snapshot_text.h"
#include "test_registry.h"

#include <QtTest>

using namespace gantry;

namespace {

Cluster read(const std::string& yaml) {
    return test::readSnapshotText(yaml);
}

// A Ready node with the given labels and allocatable (YAML fragments, indented as a map's entries).
std::string node(const std::string& name, const std::string& labels, const std::string& allocatable) {
    return "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + name + "\n  labels:\n" + labels +
           "status:\n  allocatable:\n    cpu: '64'\n    memory: 512Gi\n    pods: '110'\n" + allocatable +
           "  conditions:\n  - type: Ready\n    status: 'True'\n---\n";
}

} // namespace

class GpuExposureTest : public QObject {
    Q_OBJECT
  private slots:
    // NVIDIA MIG user guide, "Supported MIG Profiles": instances available per GPU.
    void instancesPerGpu_data() {
        QTest::addColumn<QString>("profile");
        QTest::addColumn<double>("gpuGB");
        QTest::addColumn<int>("instances");
        // A100-SXM4-40GB
        QTest::newRow("a100-40 1g.5gb") << "1g.5gb" << 40.0 << 7;
        QTest::newRow("a100-40 1g.5gb+me") << "1g.5gb+me" << 40.0 << 1;
        QTest::newRow("a100-40 1g.10gb") << "1g.10gb" << 40.0 << 4;
        QTest::newRow("a100-40 2g.10gb") << "2g.10gb" << 40.0 << 3;
        QTest::newRow("a100-40 3g.20gb") << "3g.20gb" << 40.0 << 2;
        QTest::newRow("a100-40 4g.20gb") << "4g.20gb" << 40.0 << 1;
        QTest::newRow("a100-40 7g.40gb") << "7g.40gb" << 40.0 << 1;
        // A100-SXM4-80GB and H100 80GB: the same profiles with twice the memory
        QTest::newRow("a100-80 1g.10gb") << "1g.10gb" << 80.0 << 7;
        QTest::newRow("a100-80 1g.20gb") << "1g.20gb" << 80.0 << 4;
        QTest::newRow("a100-80 2g.20gb") << "2g.20gb" << 80.0 << 3;
        QTest::newRow("a100-80 3g.40gb") << "3g.40gb" << 80.0 << 2;
        QTest::newRow("h100-80 4g.40gb") << "4g.40gb" << 80.0 << 1;
        QTest::newRow("h100-80 7g.80gb") << "mig-7g.80gb" << 80.0 << 1;
        // A30-24GB: four compute slices
        QTest::newRow("a30 1g.6gb") << "1g.6gb" << 24.0 << 4;
        QTest::newRow("a30 2g.12gb") << "2g.12gb" << 24.0 << 2;
        QTest::newRow("a30 4g.24gb") << "4g.24gb" << 24.0 << 1;
        // H100 94GB and H200 141GB: memory that is not a power of two
        QTest::newRow("h100-94 1g.12gb") << "1g.12gb" << 94.0 << 7;
        QTest::newRow("h100-94 1g.24gb") << "1g.24gb" << 94.0 << 4;
        QTest::newRow("h200 1g.18gb") << "1g.18gb" << 141.0 << 7;
        QTest::newRow("h200 3g.71gb") << "3g.71gb" << 141.0 << 2;
    }
    void instancesPerGpu() {
        QFETCH(QString, profile);
        QFETCH(double, gpuGB);
        QFETCH(int, instances);
        auto p = parseMigProfile(profile.toStdString());
        QVERIFY(p);
        QCOMPARE(migInstancesPerGpu(*p, gpuGB), instances);
    }

    void profileNames() {
        QVERIFY(!parseMigProfile("gpu"));
        QVERIFY(!parseMigProfile("1g"));
        QVERIFY(!parseMigProfile("0g.5gb"));
        QCOMPARE(migProfileOfResource("nvidia.com/mig-3g.40gb"), std::string("3g.40gb"));
        QCOMPARE(migProfileOfResource("nvidia.com/gpu"), std::string());
    }

    // k8s-device-plugin internal/lm/mig-strategy.go: strategy none counts whole GPUs.
    void noneStrategyCountsWholeGpus() {
        auto c =
            read(node("h100",
                      "    nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3\n    nvidia.com/gpu.count: '8'\n"
                      "    nvidia.com/mig.strategy: none\n",
                      "    nvidia.com/gpu: '8'\n"));
        QCOMPARE(c.nodes[0].gpus.count, 8);
        QCOMPARE(c.nodes[0].gpus.physicalGpus(), 8);
        QVERIFY(c.nodes[0].gpus.mig.empty());
    }

    // Mixed: nvidia.com/gpu is the GPUs not in MIG mode, one resource per MIG profile, and
    // gpu.count every physical GPU (newGPULabelers). Two of eight A100s split.
    void mixedStrategyCountsEachGpuOnce() {
        auto c = read(node(
            "a100",
            "    nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB\n    nvidia.com/gpu.count: '8'\n"
            "    nvidia.com/gpu.memory: '81920'\n    nvidia.com/mig.strategy: mixed\n",
            "    nvidia.com/gpu: '6'\n    nvidia.com/mig-1g.10gb: '7'\n    nvidia.com/mig-3g.40gb: '2'\n"));
        const auto& g = c.nodes[0].gpus;
        QCOMPARE(g.count, 6); // what a pod asking for nvidia.com/gpu can have
        QCOMPARE(g.physicalGpus(), 8);
        QCOMPARE(g.mig.size(), size_t(2));
        QCOMPARE(g.mig[0], (MigSlices{"1g.10gb", 7}));
        QCOMPARE(g.mig[1], (MigSlices{"3g.40gb", 2}));
        Project project;
        project.cluster = c;
        auto summary = summarize(project);
        QCOMPARE(summary.gpus, int64_t(8));
        QCOMPARE(summary.migSlices.at("1g.10gb"), int64_t(7));
    }

    // Without gpu.count the physical GPUs are estimated from the instances, and the reader says so.
    void mixedWithoutCountIsEstimatedAloud() {
        SnapshotImporter importer;
        importer.addText(
            node("a100",
                 "    nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB\n    nvidia.com/mig.strategy: mixed\n",
                 "    nvidia.com/mig-1g.10gb: '14'\n"),
            "snapshot.yaml");
        Diagnostics d;
        Cluster c = importer.finish(d);
        QCOMPARE(c.nodes[0].gpus.physicalGpus(), 2); // 14 instances, 7 a GPU
        bool said = false;
        for (const auto& w : d) said = said || w.message.find("estimated") != std::string::npos;
        QVERIFY(said);
    }

    // Single: nvidia.com/gpu counts instances of the profile named in gpu.product (GPU Operator's
    // MIG guide: all-1g.5gb on an A100-40GB shows seven 1g.5gb instances of one GPU).
    void singleStrategyCountsInstances() {
        auto c = read(node("a100-40",
                           "    nvidia.com/gpu.product: NVIDIA-A100-SXM4-40GB-MIG-1g.5gb\n"
                           "    nvidia.com/gpu.count: '7'\n    nvidia.com/mig.strategy: single\n",
                           "    nvidia.com/gpu: '7'\n"));
        const auto& g = c.nodes[0].gpus;
        QCOMPARE(g.count, 7);
        QCOMPARE(g.physicalGpus(), 1);
        QCOMPARE(g.model, std::string("NVIDIA-A100-SXM4-40GB"));
        QCOMPARE(g.mig.size(), size_t(1));
        QCOMPARE(g.mig[0], (MigSlices{"1g.5gb", 7}));
    }

    // NVIDIA DRA driver (deviceinfo.go, mig.go): a MIG-enabled GPU is published through its MIG
    // devices only; their parentUUID names the GPU once. GFD's labels describe the same GPU.
    void draStaticMigDevicesShareTheirParent() {
        std::string yaml = node("a100-dra", "    nvidia.com/gpu.count: '1'\n", "");
        yaml +=
            "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: s1\nspec:\n"
            "  driver: gpu.nvidia.com\n  nodeName: a100-dra\n  pool:\n    name: a100-dra\n    generation: 1\n"
            "    resourceSliceCount: 1\n  devices:\n";
        for (int i = 0; i < 3; ++i)
            yaml +=
                "  - name: gpu-0-mig-1g10gb-19-" + std::to_string(i) +
                "\n    attributes:\n      type: {string: mig}\n      profile: {string: 1g.10gb}\n"
                "      productName: {string: NVIDIA A100-SXM4-80GB}\n      parentUUID: {string: GPU-aaaa}\n";
        auto c = read(yaml);
        const auto& g = c.nodes[0].gpus;
        QCOMPARE(g.exposure, std::string("dra"));
        QCOMPARE(g.count, 0);
        QCOMPARE(g.physicalGpus(), 1);
        QCOMPARE(g.model, std::string("NVIDIA A100-SXM4-80GB"));
        QCOMPARE(g.mig[0], (MigSlices{"1g.10gb", 3}));
    }
};

GANTRY_TEST(GpuExposureTest)
#include "test_gpu_exposure.moc"
