// The shim's reading of namespace annotations (k8shim pkg/common/utils GetNamespaceQuotaFromAnnotation,
// GetNamespaceGuaranteedFromAnnotation, GetNamespaceMaxAppsFromAnnotation; pkg/cache/context.go
// updateApplicationTags) and the core's allocation log as one reason (objects/allocation.go).
#include "profile/registry.h"
#include "profiles/yunikorn/partition.h"
#include "profiles/yunikorn/shim.h"
#include "snapshot/snapshot_importer.h"
#include "test_registry.h"

#include <QtTest>
#include <algorithm>

using namespace gantry;
using namespace gantry::engine::yunikorn;

namespace {

Namespace ns(std::string name, Labels annotations) {
    return Namespace{std::move(name), {}, std::move(annotations)};
}

} // namespace

class YuniKornShimTest : public QObject {
    Q_OBJECT

  private slots:
    // context_test.go TestUpdateApplicationTags... and utils_test.go TestGetNamespaceQuotaFromAnnotation:
    // namespace.quota first, the deprecated namespace.max.* pair only without it.
    void namespaceQuotaAnnotations() {
        Diagnostics w;
        auto tags =
            readNamespaceTags({ns("new", {{"yunikorn.apache.org/namespace.quota",
                                           R"({"cpu": "400m", "memory": "400M", "nvidia.com/gpu": "1"})"}}),
                               ns("old", {{"yunikorn.apache.org/namespace.max.cpu", "300m"},
                                          {"yunikorn.apache.org/namespace.max.memory", "300M"}}),
                               ns("both", {{"yunikorn.apache.org/namespace.max.cpu", "300m"},
                                           {"yunikorn.apache.org/namespace.quota", R"({"cpu": "600m"})"}}),
                               ns("cpu-only", {{"yunikorn.apache.org/namespace.max.cpu", "1"}}),
                               ns("plain", {{"owner", "team-a"}})},
                              &w);
        QVERIFY(w.empty());
        QCOMPARE(tags.size(), size_t(4));
        QCOMPARE(tags.at("new").quota.get("cpu"), int64_t(400));
        QCOMPARE(tags.at("new").quota.get("memory"), int64_t(400000000));
        QCOMPARE(tags.at("new").quota.get("nvidia.com/gpu"), int64_t(1000)); // canonical milli-GPUs
        QCOMPARE(tags.at("old").quota.get("cpu"), int64_t(300));
        QCOMPARE(tags.at("old").quota.get("memory"), int64_t(300000000));
        QCOMPARE(tags.at("both").quota.get("cpu"), int64_t(600));
        QVERIFY(!tags.at("both").quota.has("memory"));
        QCOMPARE(tags.at("cpu-only").quota.get("cpu"), int64_t(1000));
        QVERIFY(!tags.count("plain"));
    }

    // Unusable values are dropped whole, with a warning (the shim logs them); zero quotas are not sent.
    void unusableNamespaceAnnotations() {
        Diagnostics w;
        auto tags = readNamespaceTags(
            {ns("bad-json", {{"yunikorn.apache.org/namespace.quota", "{cpu: 1"}}),
             ns("bad-quantity",
                {{"yunikorn.apache.org/namespace.quota", R"({"cpu": "1", "memory": "lots"})"}}),
             ns("zero", {{"yunikorn.apache.org/namespace.quota", R"({"cpu": "0"})"}}),
             ns("apps", {{"yunikorn.apache.org/namespace.maxApps", "-1"}})},
            &w);
        QVERIFY(tags.empty());
        QCOMPARE(w.size(), size_t(3));
        QVERIFY(w[0].message.find("namespace bad-json") != std::string::npos);
        QVERIFY(w[1].message.find("memory") != std::string::npos);
        QVERIFY(w[2].message.find("namespace.maxApps") != std::string::npos);
    }

    void guaranteedMaxAppsAndParentQueue() {
        Diagnostics w;
        auto tags = readNamespaceTags(
            {ns("finance", {{"yunikorn.apache.org/namespace.guaranteed", R"({"cpu": "1", "memory": "256M"})"},
                            {"yunikorn.apache.org/namespace.maxApps", "1000"},
                            {"yunikorn.apache.org/parentqueue", "root.production"}})},
            &w);
        QVERIFY(w.empty());
        const NamespaceTags& t = tags.at("finance");
        QCOMPARE(t.guaranteed.get("cpu"), int64_t(1000));
        QCOMPARE(t.guaranteed.get("memory"), int64_t(256000000));
        QCOMPARE(t.maxApps, uint64_t(1000));
        QCOMPARE(t.parentQueue, std::string("root.production"));
        QVERIFY(t.quota.empty());
    }

    // The reason first, then what the preemption attempt logged (common/errors.go constants).
    // Quota preemption (yunikorn-site docs/user_guide/quota_preemption.md, on with
    // preemption.quotapreemptionenabled) is not emulated, and a cycle with it on says so.
    void quotaPreemptionIsSaidNotEmulated() {
        SnapshotImporter in;
        in.addFile(GANTRY_TEST_DATA "/export/roundtrip/yunikorn-partition-settings.yaml");
        Diagnostics d;
        const Cluster c = in.finish(d);
        const SchedulerPolicies policies;
        auto profile = engine::findProfile("yunikorn")->make({c, policies, {}}, &d);
        QVERIFY(profile);
        engine::ClusterState st = engine::buildClusterState(c, &d, profile->buildOptions());
        const auto r = profile->cycle(st, engine::CycleOptions{});
        QVERIFY(std::any_of(r.warnings.begin(), r.warnings.end(), [](const std::string& w) {
            return w.find("quota preemption") != std::string::npos &&
                   w.find("does not emulate") != std::string::npos;
        }));
    }

    void allocationLogReadsAsOneReason() {
        Ask k;
        QCOMPARE(allocationLog(k), std::string());
        k.lastFailure = "node(s) didn't match Pod's node affinity/selector";
        k.preemptionFailure = kPreemptionDoesNotGuarantee;
        k.preemptionDidNotHelp = true;
        QCOMPARE(allocationLog(k),
                 std::string("node(s) didn't match Pod's node affinity/selector; Preemption "
                             "queue guarantees check failed; Preemption does not help"));
        k.clearLog();
        k.preemptionFailure = kPreemptionPreconditionsFailed;
        QCOMPARE(allocationLog(k), std::string("Preemption preconditions failed"));
    }
};

GANTRY_TEST(YuniKornShimTest)
#include "test_yunikorn_shim.moc"
