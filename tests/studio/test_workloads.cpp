// The workload table: editing shapes through the model, undo, GPUs per pod in whole devices or shares.
#include "core/job_import.h"
#include "core/project_commands.h"
#include "models/imported_jobs_model.h"
#include "models/workload_model.h"
#include "studio_test_support.h"
#include "tabs/workloads_tab.h"
#include "test_registry.h"
#include "whatif/whatif_engine.h"
#include "workspace.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QtTest>

using namespace gantry;
using namespace gantry::studio;

class WorkloadsTest : public QObject {
    Q_OBJECT
  private slots:
    void importJobsFromManifestsAndUndo() {
        Workspace ws(makeDefaultWhatIfEngine());
        fixtures::openLab(*ws.document());
        auto* doc = ws.document();
        WorkloadsTab tab(&ws);
        ImportedJobsModel* model = tab.importedJobs();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const int groupsBefore = model->rowCount();
        const size_t podsBefore = doc->project().cluster.pods.size();
        const Cluster labBefore = doc->project().cluster;

        QString error;
        const QString summary =
            tab.importJobs({QStringLiteral(GANTRY_TEST_DATA "/studio/more-jobs.yaml")}, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        // Three new jobs; the lab's own llm-pretrain-70b is not imported twice.
        QCOMPARE(model->rowCount(), groupsBefore + 3);
        QVERIFY2(summary.contains("Imported 3 job(s)"), qPrintable(summary));
        QVERIFY2(summary.contains("1 already in the project"), qPrintable(summary));
        QVERIFY2(summary.contains("1 pod(s) bound in the file arrive pending"), qPrintable(summary));
        QVERIFY2(summary.contains("no queue named speech"), qPrintable(summary));
        const auto& c = doc->project().cluster;
        // 4 Volcano Job workers + 2 PyTorchJob pods + 1 rollout pod, all pending and unbound.
        QCOMPARE(c.pods.size(), podsBefore + 7);
        for (size_t i = podsBefore; i < c.pods.size(); ++i) {
            QVERIFY(c.pods[i].nodeName.empty());
            QCOMPARE(c.pods[i].phase, PodPhase::Pending);
        }
        auto sft = std::find_if(c.podGroups.begin(), c.podGroups.end(),
                                [](const PodGroup& g) { return g.key() == "nlp/llm-sft-70b"; });
        QVERIFY(sft != c.podGroups.end());
        QCOMPARE(sft->queue, std::string("nlp"));
        QCOMPARE(sft->minMember, 4);
        QCOMPARE(sft->durationSeconds, 4 * 3600.0);
        QCOMPARE(doc->undoStack()->count(), 1);

        // The same file again adds nothing and says why.
        QVERIFY(
            tab.importJobs({QStringLiteral(GANTRY_TEST_DATA "/studio/more-jobs.yaml")}, &error).isEmpty());
        QVERIFY2(error.contains("in the project already"), qPrintable(error));
        // A file that cannot be read: the located error, nothing changed.
        error.clear();
        QVERIFY(
            tab.importJobs({QStringLiteral(GANTRY_TEST_DATA "/studio/no-such-jobs.yaml")}, &error).isEmpty());
        QVERIFY(error.contains("no-such-jobs.yaml"));
        QCOMPARE(doc->undoStack()->count(), 1);

        doc->undoStack()->undo();
        QCOMPARE(model->rowCount(), groupsBefore);
        QVERIFY(doc->project().cluster == labBefore);
        doc->undoStack()->redo();
        QCOMPARE(model->rowCount(), groupsBefore + 3);
    }

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
