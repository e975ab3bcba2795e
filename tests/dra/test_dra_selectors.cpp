// The CEL that DeviceClasses and claims select devices with (k8s/dra_cel.h): the expressions of the
// NVIDIA DRA driver's chart and guides, KEP-4381's examples, CEL's rules for errors under && and ||,
// and what is refused.
#include "k8s/dra_cel.h"
#include "test_registry.h"

#include <QtTest>

using namespace gantry;
using gantry::engine::k8s::DeviceSelector;

namespace {

// An H100 as dra-driver-nvidia-gpu's deviceinfo.go publishes it (capacity memory 81559Mi).
Device h100() {
    Device d;
    d.name = "gpu-0";
    d.attributes = {{"type", {"string", "gpu", 0, false}},
                    {"productName", {"string", "NVIDIA H100 80GB HBM3", 0, false}},
                    {"index", {"int", "", 0, false}},
                    {"driverVersion", {"version", "570.172.8", 0, false}},
                    {"resource.kubernetes.io/pciBusID", {"string", "0000:18:00.0", 0, false}}};
    d.capacity = {{"memory", int64_t(81559) * 1024 * 1024 * 1000}};
    return d;
}

bool eval(const std::string& expr, const Device& d, const std::string& driver = "gpu.nvidia.com",
          std::string* error = nullptr) {
    std::string why;
    auto s = DeviceSelector::compile(expr, &why);
    if (!s) qFatal("%s does not compile: %s", expr.c_str(), why.c_str());
    return s->matches(driver, d, error);
}

} // namespace

class DraSelectorTest : public QObject {
    Q_OBJECT
  private slots:
    // deployments/helm/.../deviceclass-gpu.yaml and deviceclass-mig.yaml.
    void chartClasses() {
        const Device d = h100();
        QVERIFY(eval("device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'",
                     d));
        QVERIFY(!eval(
            "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'mig'", d));
        // Another driver's device: the first operand decides, the attribute is never read.
        QVERIFY(
            !eval("device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'", d,
                  "driver-a"));
    }

    // The guides' selectors: product name, memory at least, a qualified attribute.
    void guideSelectors() {
        const Device d = h100();
        QVERIFY(eval("device.attributes['gpu.nvidia.com'].productName == 'NVIDIA H100 80GB HBM3'", d));
        QVERIFY(eval("device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('40Gi')) >= 0", d));
        QVERIFY(!eval("device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('80Gi')) >= 0", d));
        QVERIFY(eval("device.attributes['resource.kubernetes.io'].pciBusID == '0000:18:00.0'", d));
        QVERIFY(eval("device.attributes['gpu.nvidia.com'].index < 4", d));
        QVERIFY(eval("!(device.attributes['gpu.nvidia.com'].type == 'mig') || false", d));
        QVERIFY(eval("'productName' in device.attributes['gpu.nvidia.com']", d));
        QVERIFY(!eval("'parentUUID' in device.attributes['gpu.nvidia.com']", d));
    }

    // CEL: a missing key is an error, which || and && absorb when the other side decides.
    void errorsUnderLogic() {
        const Device d = h100();
        std::string error;
        QVERIFY(
            !eval("device.attributes['gpu.nvidia.com'].profile == '1g.10gb'", d, "gpu.nvidia.com", &error));
        QVERIFY(error.find("no such key") != std::string::npos);
        QVERIFY(eval("device.attributes['gpu.nvidia.com'].profile == '1g.10gb' || "
                     "device.attributes['gpu.nvidia.com'].type == 'gpu'",
                     d));
        QVERIFY(!eval("device.attributes['gpu.nvidia.com'].profile == '1g.10gb' && "
                      "device.attributes['gpu.nvidia.com'].type == 'mig'",
                      d));
        error.clear();
        QVERIFY(!eval("device.attributes['gpu.nvidia.com'].index == 'zero'", d, "gpu.nvidia.com", &error));
        QVERIFY(!error.empty());
    }

    // Outside the subset: refused at compile time with where, never a silent pass.
    void unsupportedIsRefused() {
        for (const char* expr : {"device.attributes['gpu.nvidia.com'].productName.startsWith('NVIDIA')",
                                 "device.allowMultipleAllocations", "size(device.attributes) > 2",
                                 "device.driver == 'a' &&", "quantity('1x') == quantity('1')"}) {
            std::string error;
            QVERIFY2(!DeviceSelector::compile(expr, &error), expr);
            QVERIFY2(error.find("offset") != std::string::npos, error.c_str());
        }
    }
};

GANTRY_TEST(DraSelectorTest)
#include "test_dra_selectors.moc"
