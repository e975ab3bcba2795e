// Why idle GPUs are idle (stranded, fractional, scattered, usable) and how many large jobs each
// topology level has room for, on hand-built nodes whose answers can be worked out by hand.
#include "fragmentation/idle_breakdown.h"
#include "fragmentation/task_shape.h"
#include "fragmentation/topology_slots.h"
#include "test_registry.h"

#include <QtTest>

using namespace gantry;
using namespace gantry::frag;

namespace {

// An 8-GPU node with 64 cores and 512 GiB, `used` of each device taken (milli).
NodeState node8(std::initializer_list<int16_t> usedMilli, int64_t cpuLeft = 64000,
                int64_t memLeft = 512 << 10) {
    NodeState n = makeNode(64000, 512 << 10, 8, -1);
    int g = 0;
    for (int16_t used : usedMilli) n.gpuLeft[size_t(g++)] = int16_t(kMilliPerGpu - used);
    n.cpuLeft = cpuLeft;
    n.memoryLeft = memLeft;
    return n;
}

TargetWorkload workloadOf(std::initializer_list<std::pair<int32_t, int64_t>> gpusAndCount) {
    GpuModelTable models;
    std::vector<WeightedShape> counted;
    for (auto [gpus, count] : gpusAndCount) {
        WeightedShape w;
        w.shape = taskShape(8000, GpuRequest{gpus, 1000, {}}, models);
        w.count = count;
        counted.push_back(w);
    }
    return targetWorkload(std::span<const WeightedShape>(counted));
}

std::array<int64_t, 4> jobs(int64_t a, int64_t b, int64_t c, int64_t d) {
    return {a, b, c, d};
}

} // namespace

class IdleBreakdownTest : public QObject {
    Q_OBJECT
  private slots:
    void everyFreeMilliHasOneClass() {
        const TargetWorkload w = workloadOf({{4, 10}, {8, 10}});
        const GpuPodFloor floor{8000, 64 << 10};
        // Four devices free, one half used, three used: a 4-GPU job fits, so the whole ones are usable.
        NodeState a = node8({0, 0, 0, 0, 500, 1000, 1000, 1000});
        IdleBreakdown b = idleBreakdown(a, w, floor);
        QCOMPARE(b.usable, int64_t(4000));
        QCOMPARE(b.fractional, int64_t(500));
        QCOMPARE(b.scattered, int64_t(0));
        QCOMPARE(b.idle(), a.gpuLeftTotal());
        // Three whole devices free: neither 4 nor 8 GPUs fit there, so they are scattered.
        NodeState c = node8({0, 0, 0, 1000, 1000, 1000, 1000, 1000});
        b = idleBreakdown(c, w, floor);
        QCOMPARE(b.scattered, int64_t(3000));
        QCOMPARE(b.usable, int64_t(0));
        // The same node with its CPU used up: every free milli is stranded, the share included.
        NodeState d = node8({0, 0, 0, 0, 500, 1000, 1000, 1000}, 4000);
        b = idleBreakdown(d, w, floor);
        QCOMPARE(b.stranded, int64_t(4500));
        QCOMPARE(b.idle(), d.gpuLeftTotal());
        // Memory used up strands it too.
        NodeState e = node8({0, 0, 0, 0, 0, 0, 0, 0}, 64000, 32 << 10);
        QCOMPARE(idleBreakdown(e, w, floor).stranded, int64_t(8000));
        // A one-GPU shape in the workload makes a single free device usable.
        const TargetWorkload small = workloadOf({{1, 10}, {8, 10}});
        QCOMPARE(idleBreakdown(c, small, floor).usable, int64_t(3000));
    }

    void perDeviceClassesSumToTheBreakdown() {
        // The GPU map colours each device by its class; summed over the devices, the classes give
        // exactly the node's breakdown.
        const TargetWorkload w = workloadOf({{4, 10}, {8, 10}});
        const GpuPodFloor floor{8000, 64 << 10};
        using C = IdleClass;
        struct Case {
            NodeState node;
            std::array<C, 8> expected;
        };
        const Case cases[] = {
            {node8({0, 0, 0, 0, 500, 1000, 1000, 1000}),
             {C::Usable, C::Usable, C::Usable, C::Usable, C::Fractional, C::None, C::None, C::None}},
            {node8({0, 0, 0, 1000, 1000, 1000, 1000, 250}),
             {C::Scattered, C::Scattered, C::Scattered, C::None, C::None, C::None, C::None, C::Fractional}},
            {node8({0, 0, 0, 0, 500, 1000, 1000, 1000}, 4000),
             {C::Stranded, C::Stranded, C::Stranded, C::Stranded, C::Stranded, C::None, C::None, C::None}},
        };
        for (const auto& c : cases) {
            std::array<C, 8> got{};
            idleClasses(c.node, w, floor, got);
            QCOMPARE(got, c.expected);
            IdleBreakdown sum;
            for (int g = 0; g < 8; ++g) {
                const int64_t left = c.node.gpuLeft[size_t(g)];
                switch (got[size_t(g)]) {
                case C::Usable:
                    sum.usable += left;
                    break;
                case C::Fractional:
                    sum.fractional += left;
                    break;
                case C::Scattered:
                    sum.scattered += left;
                    break;
                case C::Stranded:
                    sum.stranded += left;
                    break;
                case C::None:
                    QCOMPARE(left, int64_t(0));
                    break;
                }
            }
            const IdleBreakdown b = idleBreakdown(c.node, w, floor);
            QCOMPARE(sum.usable, b.usable);
            QCOMPARE(sum.fractional, b.fractional);
            QCOMPARE(sum.scattered, b.scattered);
            QCOMPARE(sum.stranded, b.stranded);
        }
    }

    void slotsPerLevel() {
        // Four 8-GPU nodes in two racks (0,1 | 2,3) of one zone, and two 4-GPU nodes (4,5) in an NVLink
        // domain that is its own rack. Free whole devices: 8, 4, 8, 8, 4, 4. Node 3 is stranded.
        const std::vector<std::string> levels{"node", "rack", "zone"};
        const std::vector<std::vector<int32_t>> domain{
            {0, 1, 2, 3, 4, 5}, {0, 0, 1, 1, 2, 2}, {0, 0, 0, 0, 0, 0}};
        const std::vector<int32_t> gpus{8, 8, 8, 8, 4, 4}, free{8, 4, 8, 8, 4, 4};
        const std::vector<uint8_t> usable{1, 1, 1, 0, 1, 1};
        auto rows = topologySlots(levels, domain, gpus, free, usable);
        QCOMPARE(rows.size(), size_t(3));
        // Node level: only nodes 0 and 2 hold a whole 8-GPU job; nothing larger fits on one node.
        QCOMPARE(rows[0].jobs, jobs(2, 0, 0, 0));
        // Racks: rack 0 offers 8 (node 1's 4 free make no 8-GPU pod), rack 1 offers 8, rack 2 offers
        // 4 + 4 in 4-GPU pods: three 8-GPU jobs, one 16-GPU job (rack 2 falls short).
        QCOMPARE(rows[1].jobs, jobs(3, 0, 0, 0));
        QCOMPARE(rows[1].domains, 3);
        // The zone: 8 + 8 + 8 = 24 in 8-GPU pods, 3 jobs of 8, 1 of 16, none of 32.
        QCOMPARE(rows[2].jobs, jobs(3, 1, 0, 0));
        // Unlabelled nodes are outside the level.
        const std::vector<std::vector<int32_t>> partial{
            {0, 1, 2, 3, 4, 5}, {-1, -1, 0, 0, -1, -1}, {0, 0, 0, 0, 0, 0}};
        rows = topologySlots(levels, partial, gpus, free, usable);
        QCOMPARE(rows[1].domains, 1);
        QCOMPARE(rows[1].jobs[0], int64_t(1));
    }
};

GANTRY_TEST(IdleBreakdownTest)
#include "test_idle_breakdown.moc"
