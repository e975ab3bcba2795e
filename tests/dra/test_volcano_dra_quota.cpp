// The capacity plugin's DeviceClass quota, as its unit tests state it (volcano-sh/volcano
// pkg/scheduler/plugins/capacity/capacity_test.go @ed72c7c815a9fd547a787134676f73d42e9d049c):
// the queue keys parsed, a shared claim charged once. The whole plugin is run on cases
// 501-508 of tests/data/conformance/dra-mig-restated.
#include "model/resources.h"
#include "profiles/volcano/plugins/capacity_dra.h"
#include "test_registry.h"

#include <QtTest>

using namespace gantry;
using namespace gantry::engine::plugins;

namespace {

ResourceList list(std::initializer_list<std::pair<const char*, const char*>> entries) {
    ResourceList out;
    for (const auto& [name, text] : entries) {
        std::string error;
        auto amount = parseAmount(name, text, &error);
        if (!amount) qFatal("%s: %s", name, error.c_str());
        out.set(name, *amount);
    }
    return out;
}

// A task holding one claim of `count` devices of class `cls`.
TaskDra task(const std::string& claim, const std::string& cls, int64_t count) {
    TaskDra t;
    DraByClass asks;
    asks[cls].count = count;
    t.claims.emplace_back(claim, std::move(asks));
    return t;
}

} // namespace

class VolcanoDraQuotaTest : public QObject {
    Q_OBJECT
  private slots:
    // TestParseDRAResourceListCombinesCountAndCapacity: a count and a capacity of one class.
    void countAndCapacityOfOneClass() {
        const auto q = parseQueueDra(list({{"deviceclass/gpu.example.com", "2"},
                                           {"memory.deviceclass/gpu.example.com", "120Gi"},
                                           {"cpu", "4"}}));
        QVERIFY(q.has_value());
        QCOMPARE(q->capability.size(), size_t(1));
        const DraAmount& gpu = q->capability.at("gpu.example.com");
        QCOMPARE(gpu.count, int64_t(2));
        QCOMPARE(gpu.capacity.size(), size_t(1));
        // Capacity is kept in milli-units, as the claims' capacity requests are.
        QCOMPARE(gpu.capacity.at("memory"), int64_t(120) * 1024 * 1024 * 1024 * 1000);
        // A queue without such keys has no DRA quota (attr.dra stays nil).
        QVERIFY(!parseQueueDra(list({{"cpu", "4"}, {"nvidia.com/gpu", "8"}})).has_value());
    }

    // TestSharedResourceClaimIsChargedOnce.
    void aSharedClaimIsChargedOnce() {
        QueueDra q = *parseQueueDra(list({{"deviceclass/gpu.com", "1"}}));
        CapacityDra dra(nullptr, false);
        const TaskDra a = task("ns1/shared", "gpu.com", 1), b = task("ns1/shared", "gpu.com", 1);
        CapacityDra::hold(q, a, +1);
        CapacityDra::hold(q, b, +1);
        QCOMPARE(q.allocated.at("gpu.com").count, int64_t(1));
        // A holds the claim already: nothing more to charge, so it fits.
        QVERIFY(dra.fits(q, a));
        // A distinct claim of one more device does not (1 + 1 > 1).
        QVERIFY(!dra.fits(q, task("ns1/distinct", "gpu.com", 1)));
        CapacityDra::hold(q, a, -1);
        QCOMPARE(q.allocated.at("gpu.com").count, int64_t(1));
        CapacityDra::hold(q, b, -1);
        QCOMPARE(q.allocated.at("gpu.com").count, int64_t(0));
    }

    // checkDRAAllocatable: a count of 0 is no limit; with consumable capacity on, a dimension the
    // quota does not name refuses, and one it names is summed over the devices.
    void countZeroIsNoLimitAndMissingDimensionRefuses() {
        CapacityDra consumable(nullptr, true);
        const QueueDra zero = *parseQueueDra(list({{"deviceclass/gpu.com", "0"}}));
        QVERIFY(consumable.fits(zero, task("ns1/c", "gpu.com", 50)));
        TaskDra withMemory = task("ns1/m", "gpu.com", 1);
        withMemory.claims.front().second["gpu.com"].capacity["memory"] = 8000;
        QVERIFY(!consumable.fits(zero, withMemory));
        const QueueDra memory =
            *parseQueueDra(list({{"deviceclass/gpu.com", "2"}, {"memory.deviceclass/gpu.com", "16"}}));
        QVERIFY(consumable.fits(memory, withMemory));
        withMemory.claims.front().second["gpu.com"].capacity["memory"] = 17000;
        QVERIFY(!consumable.fits(memory, withMemory));
    }
};

GANTRY_TEST(VolcanoDraQuotaTest)
#include "test_volcano_dra_quota.moc"
