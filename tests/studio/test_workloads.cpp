// The workload table: editing shapes through the model, undo, GPUs per pod in whole devices or shares.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QtTest>

#include "core/project_commands.h"
#include "models/workload_model.h"
#include "studio_test_support.h"
#include "test_registry.h"

using namespace gantry;
using namespace gantry::studio;

class WorkloadsTest : public QObject {
    Q_OBJECT
private slots:
    void editAndUndo() {
        ProjectDocument doc;
        fixtures::openLab(doc);
        WorkloadModel model(&doc);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        WorkloadTemplate w;
        w.name = "llm-finetune";
        w.queue = "nlp";
        w.jobs = 20;
        w.replicas = 4;
        QVERIFY(setGpuPerPod(w, "nvidia.com/gpu", "8", nullptr));
        doc.undoStack()->push(new AddWorkloadCommand(&doc, w));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.data(model.index(0, WorkloadModel::GpuPerPod)).toString(), QStringLiteral("8"));
        QCOMPARE(model.data(model.index(0, WorkloadModel::Gang)).toString(), QStringLiteral("all 4"));
        QVERIFY(model.setData(model.index(0, WorkloadModel::Replicas), "16"));
        QVERIFY(model.setData(model.index(0, WorkloadModel::Gang), "8"));
        QVERIFY(model.setData(model.index(0, WorkloadModel::MemoryPerPod), "512Gi"));
        QCOMPARE(doc.project().workloads[0].replicas, 16);
        QCOMPARE(doc.project().workloads[0].minMember, 8);
        QCOMPARE(doc.project().workloads[0].podRequests.get("memory"), int64_t(512) << 30);
        QSignalSpy refused(&model, &WorkloadModel::refused);
        QVERIFY(!model.setData(model.index(0, WorkloadModel::Gang), "17")); // above the pods per job
        QVERIFY(!model.setData(model.index(0, WorkloadModel::CpuPerPod), "lots"));
        QCOMPARE(refused.count(), 2);
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QCOMPARE(doc.project().workloads[0].minMember, 0);
        QCOMPARE(doc.project().workloads[0].replicas, 16);
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QCOMPARE(model.rowCount(), 0);
    }

    void gpuPerPodInDevicesOrShares() {
        WorkloadTemplate w;
        QString error;
        QVERIFY(setGpuPerPod(w, "nvidia.com/gpu", "0.25", &error));
        QCOMPARE(w.gpu.count, 1);
        QCOMPARE(w.gpu.milliPerGpu, 250);
        QVERIFY(!w.podRequests.has("nvidia.com/gpu")); // shares are not an extended-resource count
        QCOMPARE(gpuPerPodText(w), QStringLiteral("0.25"));
        QVERIFY(setGpuPerPod(w, "nvidia.com/gpu", "2", &error));
        QCOMPARE(w.podRequests.get("nvidia.com/gpu"), int64_t(2000));
        QCOMPARE(w.gpu.totalMilli(), int64_t(2000));
        QVERIFY(!setGpuPerPod(w, "nvidia.com/gpu", "1.5", &error));
        QVERIFY(error.contains("whole"));
        QVERIFY(setGpuPerPod(w, "nvidia.com/gpu", "0", &error));
        QCOMPARE(w.gpu.count, 0);
        QVERIFY(!w.podRequests.has("nvidia.com/gpu"));
    }

    void descriptions() {
        ArrivalProcess a;
        a.kind = ArrivalProcess::Kind::Poisson;
        a.ratePerHour = 6;
        QCOMPARE(describeArrival(a, 10), QStringLiteral("Poisson 6/h"));
        DurationDistribution d;
        d.kind = DurationDistribution::Kind::Exponential;
        d.meanSeconds = 7200;
        QCOMPARE(describeDuration(d), QStringLiteral("exp., mean 2 h"));
        QCOMPARE(formatSeconds(90), QStringLiteral("90 s"));
        QCOMPARE(formatSeconds(3 * 86400), QStringLiteral("3 d"));
    }
};

GANTRY_TEST(WorkloadsTest)
#include "test_workloads.moc"
