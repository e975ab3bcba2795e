#include "model/resources.h"
#include "test_registry.h"

#include <QtTest>

using namespace gantry;

class ResourceListTest : public QObject {
    Q_OBJECT
  private slots:
    void arithmeticAndFit() {
        ResourceList node{{"cpu", 8000}, {"memory", int64_t(32) << 30}, {"nvidia.com/gpu", 8000}};
        ResourceList pod{{"nvidia.com/gpu", 2000}, {"cpu", 4000}};
        QVERIFY(pod.fitsIn(node));
        ResourceList used = pod;
        used += pod;
        QCOMPARE(used.get("cpu"), 8000);
        QVERIFY(used.fitsIn(node));
        used += pod;
        QVERIFY(!used.fitsIn(node));
        used -= pod;
        QCOMPARE(used.get("nvidia.com/gpu"), 4000);
        QCOMPARE(used.get("memory"), 0);
        QVERIFY(!used.has("memory"));
        // Sorted by name whatever the insertion order.
        QCOMPARE(QString::fromStdString(pod.str()), QString("cpu=4, nvidia.com/gpu=2"));
    }
    void maxKeepsBoth() {
        ResourceList a{{"cpu", 1000}}, b{{"cpu", 500}, {"memory", 10}};
        auto m = ResourceList::max(a, b);
        QCOMPARE(m.get("cpu"), 1000);
        QCOMPARE(m.get("memory"), 10);
    }
};

GANTRY_TEST(ResourceListTest)
#include "test_resources.moc"
