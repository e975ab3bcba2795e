// Telling snapshots, inventories, projects and scheduler configurations apart, and what each becomes.
#include "input_error.h"
#include "input_loader.h"
#include "test_registry.h"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

using namespace gantry;

class InputDetectionTest : public QObject {
    Q_OBJECT
  private slots:
    void detectsByContent() {
        QVERIFY(detectInputKindOfText("apiVersion: gantry.io/v1alpha1\nkind: Inventory\n", "a.yaml") ==
                InputKind::Inventory);
        QVERIFY(detectInputKindOfText("# c\n---\nkind: \"Project\"\napiVersion: 'gantry.io/v1alpha1'\n",
                                      "a.yaml") == InputKind::Project);
        QVERIFY(detectInputKindOfText("anything", "x.gantry") == InputKind::Project);
        QVERIFY(detectInputKindOfText("actions: \"enqueue, allocate\"\ntiers: []\n", "c.yaml") ==
                InputKind::SchedulerConf);
        QVERIFY(detectInputKindOfText("apiVersion: v1\nkind: ConfigMap\ndata:\n  actions: x\n", "c.yaml") ==
                InputKind::Snapshot);
        QVERIFY(detectInputKindOfText("{\"apiVersion\": \"gantry.io/v1alpha1\", \"kind\": \"Inventory\"}",
                                      "a.json") == InputKind::Snapshot);
        // Only the first document decides: a List of nodes followed by anything stays a snapshot.
        QVERIFY(detectInputKindOfText(
                    "apiVersion: v1\nkind: Node\n---\napiVersion: gantry.io/v1alpha1\nkind: Project\n",
                    "a.yaml") == InputKind::Snapshot);
    }
    void realFiles() {
        std::string src = GANTRY_SOURCE_DIR;
        std::string data = GANTRY_TEST_DATA;
        QVERIFY(detectInputKind(src + "/resources/samples/gpu-cloud-east.yaml") == InputKind::Inventory);
        QVERIFY(detectInputKind(data +
                                "/conformance/volcano/13-topology-hard-fits-one-hypernode/snapshot.yaml") ==
                InputKind::Snapshot);
        QVERIFY(detectInputKind(data +
                                "/conformance/volcano/13-topology-hard-fits-one-hypernode/scheduler.yaml") ==
                InputKind::SchedulerConf);
        QVERIFY(detectInputKind(data + "/importers/kubectl-list.json") == InputKind::Snapshot);
    }
    void loadsAndGuessesTheTarget() {
        std::string data = GANTRY_TEST_DATA;
        auto kueue = loadInputs({data + "/importers/kueue.yaml"});
        QVERIFY(kueue.kind == InputKind::Snapshot);
        QVERIFY(kueue.project.target == TargetScheduler::Kueue);
        auto yk = loadInputs({data + "/importers/yunikorn-configs.yaml"});
        QVERIFY(yk.project.target == TargetScheduler::YuniKorn);
        QCOMPARE(yk.warnings.size(), size_t(1));
        auto vc = loadInputs({data + "/importers/volcano-objects.yaml"});
        QVERIFY(vc.project.target == TargetScheduler::Volcano);
        // The snapshot's own scheduler ConfigMap becomes the project's policy.
        QCOMPARE(vc.project.volcano.actions.back(), std::string("preempt"));
        auto inv = loadInputs({std::string(GANTRY_SOURCE_DIR) + "/resources/samples/gpu-cloud-east.yaml"});
        QCOMPARE(inv.project.workloads.size(), size_t(8));
        QVERIFY(inv.project.volcano == defaultVolcanoConf());
    }
    void refusesMixes() {
        std::string src = GANTRY_SOURCE_DIR;
        std::string data = GANTRY_TEST_DATA;
        std::string inv = src + "/resources/samples/gpu-cloud-east.yaml";
        try {
            loadInputs({data + "/importers/kueue.yaml", inv});
            QFAIL("no error");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.diagnostic().str()),
                     QString::fromStdString(
                         inv + ": error: an inventory is opened on its own; only Kubernetes snapshot "
                               "files can be combined"));
        }
        std::string conf = data + "/importers/volcano-scheduler.conf";
        try {
            loadInputs({conf});
            QFAIL("no error");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.diagnostic().str()),
                     QString::fromStdString(
                         conf + ": error: this is a volcano-scheduler.conf, not a cluster (gantry cycle "
                                "reads it with --scheduler-conf)"));
        }
    }
};

GANTRY_TEST(InputDetectionTest)
#include "test_input_detection.moc"
