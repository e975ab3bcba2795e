// The Policy tab's edits of volcano-scheduler.conf.
#include "core/policy_edit.h"
#include "core/project_commands.h"
#include "test_registry.h"

#include <QtTest>

using namespace gantry;
using namespace gantry::studio;

class PolicyEditTest : public QObject {
    Q_OBJECT
  private slots:
    void queueSharingIsProportionOrCapacityNeverBoth() {
        SchedulerConf c = defaultVolcanoConf();
        QCOMPARE(queueSharing(c), QueueSharing::Proportion);
        setQueueSharing(c, QueueSharing::CapacityHierarchy);
        QVERIFY(!hasPlugin(c, "proportion"));
        QVERIFY(c.plugin("capacity")->enabled("enableHierarchy"));
        QCOMPARE(queueSharing(c), QueueSharing::CapacityHierarchy);
        // It took proportion's place in tier 2.
        QCOMPARE(describeTiers(c)[1],
                 std::string("overcommit, drf, predicates, capacity (hierarchy), nodeorder, binpack"));
        setQueueSharing(c, QueueSharing::Capacity);
        QVERIFY(!c.plugin("capacity")->enabled("enableHierarchy"));
        setQueueSharing(c, QueueSharing::Proportion);
        QVERIFY(!hasPlugin(c, "capacity"));
        setQueueSharing(c, QueueSharing::None);
        QVERIFY(!hasPlugin(c, "capacity") && !hasPlugin(c, "proportion"));
    }

    void actionsKeepVolcanosOrder() {
        SchedulerConf c = defaultVolcanoConf();
        setAction(c, "reclaim", true);
        setAction(c, "preempt", true);
        QCOMPARE(c.actions,
                 (std::vector<std::string>{"enqueue", "allocate", "preempt", "reclaim", "backfill"}));
        setAction(c, "enqueue", false);
        QCOMPARE(c.actions.front(), std::string("allocate"));
    }

    void placementAndBinpackWeights() {
        SchedulerConf c = defaultVolcanoConf();
        QCOMPARE(placement(c), Placement::Binpack);
        QCOMPARE(binpackWeights(c, "nvidia.com/gpu"), (BinpackWeights{1, 1, 1, 1}));
        setBinpackWeights(c, "nvidia.com/gpu", {10, 1, 1, 5});
        QCOMPARE(*c.plugin("binpack")->argument("binpack.resources.nvidia.com/gpu"), std::string("5"));
        QCOMPARE(*c.plugin("binpack")->argument("binpack.resources"), std::string("nvidia.com/gpu"));
        QCOMPARE(binpackWeights(c, "nvidia.com/gpu"), (BinpackWeights{10, 1, 1, 5}));
        setPlacement(c, Placement::Spread);
        QVERIFY(!hasPlugin(c, "binpack"));
        QVERIFY(hasPlugin(c, "nodeorder"));
        setPlacement(c, Placement::Fgd);
        QCOMPARE(placement(c), Placement::Fgd);
        setPlugin(c, "gang", false);
        setPlugin(c, "priority", false);
        setPlugin(c, "conformance", false);
        QCOMPARE(c.tiers.size(), size_t(1)); // an emptied tier goes away
    }

    void policyCommandUndoes() {
        ProjectDocument doc;
        Policy p = policyOf(doc.project());
        p.target = TargetScheduler::Kueue;
        p.contrast = KubeSchedulerProfile{};
        setQueueSharing(p.volcano, QueueSharing::Capacity);
        doc.undoStack()->push(new SetPolicyCommand(&doc, p, "x"));
        QCOMPARE(doc.project().target, TargetScheduler::Kueue);
        QVERIFY(doc.project().contrast.has_value());
        doc.undoStack()->undo();
        QCOMPARE(doc.project().target, TargetScheduler::Volcano);
        QVERIFY(!doc.project().contrast.has_value());
        QVERIFY(doc.project().volcano == defaultVolcanoConf());
    }
};

GANTRY_TEST(PolicyEditTest)
#include "test_policy_edit.moc"
