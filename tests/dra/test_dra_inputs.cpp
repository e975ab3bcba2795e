// DRA objects a user can get wrong: each refused with its place, or warned about where upstream
// goes on without the object (a pool that lists a device twice is invalid in the structured
// allocator, kubernetes staging/src/k8s.io/dynamic-resource-allocation/structured/internal/stable/
// pools_stable.go @030880a5 poolIsInvalid: "duplicate device name").
#include "input_error.h"
#include "k8s/dra_allocator.h"
#include "snapshot/snapshot_importer.h"
#include "snapshot_text.h"
#include "test_registry.h"

#include <QtTest>

using namespace gantry;

namespace {

Cluster read(const std::string& yaml) {
    return test::readSnapshotText(yaml);
}

std::string slice(const std::string& name, const std::string& devices, int count = 1) {
    return "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: " + name +
           "}\nspec:\n  driver: gpu.example.com\n  nodeName: n1\n  pool: {name: p, generation: 1, "
           "resourceSliceCount: " +
           std::to_string(count) + "}\n  devices:\n" + devices;
}

const std::string kClaimPod = R"(---
apiVersion: v1
kind: Node
metadata: {name: n1}
status:
  allocatable: {cpu: '8', memory: 32Gi, pods: '110'}
  conditions: [{type: Ready, status: 'True'}]
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel: {expression: "device.driver == 'gpu.example.com'"}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com, allocationMode: ExactCount, count: 1}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  containers: [{name: c, image: x, resources: {claims: [{name: gpu}]}}]
  resourceClaims: [{name: gpu, resourceClaimName: c}]
status: {phase: Pending}
)";

} // namespace

class DraInputsTest : public QObject {
    Q_OBJECT
  private slots:
    // The API server refuses a slice that names a device twice, or a counter set twice.
    void aNameTwiceInOneSliceIsRefusedWhereItIs() {
        try {
            // Line 12 is the third device: the slice starts with its "---".
            read(slice("s", "  - name: gpu-0\n  - name: gpu-1\n  - name: gpu-0\n"));
            QFAIL("accepted");
        } catch (const InputError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("snapshot.yaml:12:11:") != std::string::npos, e.what());
            QVERIFY2(what.find("Duplicate value: \"gpu-0\"") != std::string::npos, e.what());
        }
        try {
            read(slice("s", "  - name: gpu-0\n") +
                 "  sharedCounters:\n  - name: gpu-0-set\n    counters: {memory: {value: 80Gi}}\n"
                 "  - name: gpu-0-set\n    counters: {memory: {value: 80Gi}}\n");
            QFAIL("accepted");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("Duplicate value: \"gpu-0-set\"") != std::string::npos,
                     e.what());
        }
    }

    // Two slices of one pool that both list gpu-0: the pool is invalid, nothing of it is allocated,
    // and the user is told which slices.
    void aPoolListingADeviceTwiceIsInvalid() {
        const Cluster c =
            read(kClaimPod + slice("s1", "  - name: gpu-0\n", 2) + slice("s2", "  - name: gpu-0\n", 2));
        Diagnostics warnings;
        engine::k8s::DraAllocator dra(c, &warnings);
        bool told = false;
        for (const auto& w : warnings)
            told =
                told || w.message.find("lists device 'gpu-0' twice (slices s1 and s2)") != std::string::npos;
        QVERIFY(told);
        QCOMPARE(std::string(dra.filter("default/p", "n1", {})),
                 std::string(engine::k8s::kCannotAllocateAllClaims));
        // The same pool with distinct names serves the claim.
        const Cluster ok =
            read(kClaimPod + slice("s1", "  - name: gpu-0\n", 2) + slice("s2", "  - name: gpu-1\n", 2));
        engine::k8s::DraAllocator good(ok, nullptr);
        QVERIFY(good.filter("default/p", "n1", {}) == nullptr);
    }

    // A device that consumes a counter set its pool does not publish: nothing limits it (upstream's
    // checkAvailableCounters compares the consumption with the published counters only), and the
    // user is told.
    void aCounterSetNobodyPublishesIsWarnedAbout() {
        const Cluster c =
            read(kClaimPod + slice("s1", "  - name: gpu-0-mig\n    consumesCounters:\n    - counterSet: "
                                         "gpu-0-set\n      counters: {memory: {value: 10Gi}}\n"));
        Diagnostics warnings;
        engine::k8s::DraAllocator dra(c, &warnings);
        bool told = false;
        for (const auto& w : warnings)
            told = told ||
                   w.message.find("consumes counter set 'gpu-0-set', which no slice of the pool publishes") !=
                       std::string::npos;
        QVERIFY(told);
        QVERIFY(dra.filter("default/p", "n1", {}) == nullptr);
    }
};

GANTRY_TEST(DraInputsTest)
#include "test_dra_inputs.moc"
