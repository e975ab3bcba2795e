// Which pod holds which GPU, and how fragmented each GPU's idle capacity is, on the lab cluster.
#include "core/topology_paths.h"
#include "fragmentation/fragmentation.h"
#include "gpumap/fragmentation_view.h"
#include "gpumap/gpu_occupancy.h"
#include "snapshot/snapshot_importer.h"
#include "studio_test_support.h"
#include "test_registry.h"

#include <QtTest>
#include <cmath>

using namespace gantry;
using namespace gantry::studio;

class GpuOccupancyTest : public QObject {
    Q_OBJECT
  private slots:
    void devicesAreAssignedLikeTheSchedulers() {
        Cluster c;
        Node n;
        n.name = "n1";
        n.gpus.count = 4;
        c.nodes = {n};
        std::vector<GpuPlacement> p(4);
        p[0] = {0, {2, 1000, {}}, {}, 0, -1, 0, {}};  // two whole GPUs: devices 0, 1
        p[1] = {0, {1, 1000, {}}, {3}, 1, -1, 0, {}}; // known index 3
        p[2] = {0, {1, 300, {}}, {}, 2, -1, 0, {}};   // a share: device 2 (the only partial room)
        p[3] = {0, {1, 500, {}}, {}, 3, -1, 0, {}};   // best fit: the fullest device with room -> device 2
        auto occ = buildOccupancy(c, p, {"a", "b", "c", "d"}, {});
        QCOMPARE(occ.totalGpus, int64_t(4));
        QCOMPARE(int(occ.usedMilli[0]), 1000);
        QCOMPARE(int(occ.usedMilli[1]), 1000);
        QCOMPARE(int(occ.usedMilli[2]), 800);
        QCOMPARE(int(occ.usedMilli[3]), 1000);
        QCOMPARE(occ.job[3], 1);
        QCOMPARE(occ.job[2], 3); // the larger share names the device
        QCOMPARE(int(occ.holders[2]), 2);
        QCOMPARE(occ.allocatedMilli, int64_t(3800));
        QCOMPARE(occ.unplacedMilli, int64_t(0));
        // A request that cannot fit is counted, not invented.
        auto over = buildOccupancy(c, {{0, {5, 1000, {}}, {}, 0, -1, 0, {}}}, {"x"}, {});
        QCOMPARE(over.unplacedMilli, int64_t(1000));
    }

    // A MIG-partitioned GPU is drawn as its instances (device plugin, mixed strategy): the GPUs
    // not in MIG mode come first and take whole-GPU pods; the instances are laid out largest first
    // on the partitioned ones; the instances pods hold are marked with their job.
    void migGpusShowTheirInstances() {
        Cluster c;
        Node n;
        n.name = "a100";
        n.gpus.count = 1;    // nvidia.com/gpu: the GPU not in MIG mode
        n.gpus.physical = 3; // gpu.count
        n.gpus.mig = {{"1g.10gb", 7}, {"3g.40gb", 2}};
        n.gpus.memoryBytes = int64_t(81920) << 20; // gpu.memory 81920 MiB: 8 memory slices of 10 GB
        c.nodes = {n};
        std::vector<GpuPlacement> p(2);
        p[0] = {0, {1, 1000, {}}, {}, 0, -1, 0, {}};
        p[1] = {0, {}, {}, 1, -1, 0, {"3g.40gb"}};
        auto occ = buildOccupancy(c, p, {"train", "infer"}, {});
        QCOMPARE(occ.totalGpus, int64_t(3));
        QCOMPARE(int(occ.usedMilli[0]), 1000);
        QCOMPARE(occ.job[0], 0);
        QCOMPARE(occ.migOffset.size(), size_t(4));
        QCOMPARE(occ.migOffset[1] - occ.migOffset[0], 0); // whole GPU: no instances
        // GPU 1: both 3g.40gb (one held), all its memory slices taken, one compute slice stranded
        // (no 1g.10gb fits beside them); GPU 2: the seven 1g.10gb.
        QCOMPARE(occ.migOffset[2] - occ.migOffset[1], 2);
        QCOMPARE(occ.migSlots[size_t(occ.migOffset[1])].profile, std::string("3g.40gb"));
        QCOMPARE(occ.migSlots[size_t(occ.migOffset[1])].job, 1);
        QCOMPARE(occ.migSlots[size_t(occ.migOffset[1]) + 1].job, -1);
        QCOMPARE(int(occ.usedMilli[1]), 3 * 1000 / 7);
        QCOMPARE(occ.migOffset[3] - occ.migOffset[2], 7);
        QCOMPARE(int(occ.usedMilli[2]), 0);
        QCOMPARE(occ.allocatedMilli, int64_t(1000 + 3 * 1000 / 7)); // the whole GPU and the 3g instance
        QCOMPARE(occ.unplacedMilli, int64_t(0));
    }

    // In the idle colouring a free instance is usable when a pod asks for its profile, else the
    // layout's (docs/gpus.md): in the MIG sample the pods hold 1g.10gb and 3g.40gb instances and
    // nobody asks for 2g.20gb.
    void freeInstancesNoPodAsksForAreTheLayouts() {
        Project p = loadFile(QStringLiteral(GANTRY_SOURCE_DIR "/resources/samples/mig-cluster.yaml")).project;
        std::vector<std::string> jobs, queues;
        auto occ = buildOccupancy(p.cluster, placementsFromCluster(p.cluster, &jobs, &queues), jobs, queues);
        measureFragmentation(p, occ, boundCpuPerNode(p.cluster));
        int asked = 0, layout = 0;
        for (const auto& slot : occ.migSlots) {
            QCOMPARE(slot.asked, slot.profile != "2g.20gb");
            (slot.asked ? asked : layout) += 1;
        }
        QCOMPARE(layout, 3); // the three 2g.20gb instances
        QVERIFY(asked > 0);
    }

    // Devices held through allocated DRA claims are drawn as held: a whole H100 (gpu-0, the first of
    // its node's slice) and a 3g.40gb MIG device of an A100 (restated case 210, the NVIDIA DRA driver's
    // devices).
    void draClaimsHoldTheirDevices() {
        SnapshotImporter importer;
        importer.addFile(GANTRY_TEST_DATA
                         "/conformance/dra-mig-restated/210-inspect-dra-claims-and-pods/snapshot.yaml");
        Diagnostics d;
        const Cluster c = importer.finish(d);
        std::vector<std::string> jobs, queues;
        auto placements = placementsFromCluster(c, &jobs, &queues);
        auto occ = buildOccupancy(c, placements, jobs, queues);
        int h100 = -1, a100 = -1;
        for (size_t i = 0; i < c.nodes.size(); ++i) {
            if (c.nodes[i].name == "h100-dra-01") h100 = int(i);
            if (c.nodes[i].name == "a100-dra-mig-02") a100 = int(i);
        }
        QVERIFY(h100 >= 0 && a100 >= 0);
        QCOMPARE(int(occ.usedMilli[size_t(occ.gpuIndex(h100, 0))]), 1000);
        for (int g = 1; g < occ.gpuCount(h100); ++g)
            QCOMPARE(int(occ.usedMilli[size_t(occ.gpuIndex(h100, g))]), 0);
        int held = 0;
        for (int g = 0; g < occ.gpuCount(a100); ++g)
            for (int i = occ.migOffset[size_t(occ.gpuIndex(a100, g))];
                 i < occ.migOffset[size_t(occ.gpuIndex(a100, g)) + 1]; ++i)
                held += occ.migSlots[size_t(i)].job >= 0 && occ.migSlots[size_t(i)].profile == "3g.40gb";
        QCOMPARE(held, 1);
    }

    void labClusterOccupancyMatchesItsPods() {
        Project p = fixtures::loadLab();
        std::vector<std::string> jobs, queues;
        auto placements = placementsFromCluster(p.cluster, &jobs, &queues);
        auto occ = buildOccupancy(p.cluster, placements, jobs, queues);
        QCOMPARE(occ.totalGpus, int64_t(704));
        int64_t requested = 0;
        for (const auto& pod : p.cluster.pods)
            if (!pod.nodeName.empty()) requested += pod.gpu.totalMilli();
        QVERIFY(requested > 0);
        QCOMPARE(occ.allocatedMilli + occ.unplacedMilli, requested);
        QCOMPARE(occ.unplacedMilli, int64_t(0));
        // Jobs carry their PodGroup's queue.
        auto it = std::find(occ.jobs.begin(), occ.jobs.end(), "nlp/llm-pretrain-70b");
        QVERIFY(it != occ.jobs.end());
        int job = int(it - occ.jobs.begin());
        int held = 0;
        for (size_t g = 0; g < occ.job.size(); ++g)
            if (occ.job[g] == job) {
                ++held;
                QCOMPARE(occ.queues[size_t(occ.queue[g])], std::string("nlp"));
            }
        QCOMPARE(held, 16 * 8);
    }

    void perGpuFragmentationAddsUpToTheNodeMeasure() {
        Project p = fixtures::loadLab();
        std::vector<std::string> jobs, queues;
        auto occ = buildOccupancy(p.cluster, placementsFromCluster(p.cluster, &jobs, &queues), jobs, queues);
        auto summary = measureFragmentation(p, occ, boundCpuPerNode(p.cluster));
        QVERIFY(summary.measured);
        QCOMPARE(summary.basis, QStringLiteral("pending pods"));
        QVERIFY(summary.overIdlePct > 0 && summary.overIdlePct <= 100);
        // Recompute the cluster figure from the per-GPU values: sum(frag_g * idle_g) / sum(idle_g).
        double frag = 0, idle = 0;
        for (size_t g = 0; g < occ.usedMilli.size(); ++g) {
            double left = 1000.0 - occ.usedMilli[g];
            QVERIFY(!std::isnan(occ.fragmentation[g]));
            QVERIFY(occ.fragmentation[g] >= 0.f && occ.fragmentation[g] <= 1.0001f);
            frag += double(occ.fragmentation[g]) * left;
            idle += left;
        }
        QVERIFY(std::abs(100.0 * frag / idle - summary.overIdlePct) < 0.01);
        // Idle GPUs of the cordoned node are unusable, so fully fragmented.
        int cordoned = -1;
        for (size_t i = 0; i < p.cluster.nodes.size(); ++i)
            if (p.cluster.nodes[i].unschedulable) cordoned = int(i);
        QVERIFY(cordoned >= 0);
        for (int g = 0; g < occ.gpuCount(cordoned); ++g)
            if (occ.usedMilli[size_t(occ.gpuIndex(cordoned, g))] < 1000)
                QCOMPARE(occ.fragmentation[size_t(occ.gpuIndex(cordoned, g))], 1.0f);
    }

    void mapLayoutGroupsRacksUnderZoneAndBlock() {
        Project p = fixtures::loadLab();
        auto layout = buildGpuMapLayout(p.cluster);
        QCOMPARE(layout.sections.size(), size_t(4)); // 2 zones x 2 blocks
        QVERIFY(layout.sections.front().contains("eu-west-1a"));
        QVERIFY(layout.sections.front().contains("block-a0"));
        // 6 H100 racks, 4 A100 racks, 4 L40S racks; the CPU-only rack is not drawn.
        QCOMPARE(layout.groups.size(), size_t(14));
        size_t nodes = 0;
        for (const auto& g : layout.groups) nodes += g.nodes.size();
        QCOMPARE(nodes, size_t(96));
        QCOMPARE(layout.groups.front().title, QStringLiteral("a0-r01"));
    }
};

GANTRY_TEST(GpuOccupancyTest)
#include "test_gpu_occupancy.moc"
