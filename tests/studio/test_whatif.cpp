// The what-if runner: a worker thread with progress, cancel and immutable results. The engine here
// is a test double that reports progress and honours cancel like a real one; the results it returns
// are checked only for how the runner and the studio carry them.
#include "core/queue_commands.h"
#include "input_error.h"
#include "models/pending_jobs_model.h"
#include "models/profile_objects_model.h"
#include "studio_test_support.h"
#include "test_registry.h"
#include "whatif/whatif_runner.h"
#include "workspace.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QThread>
#include <QtTest>
#include <numeric>

using namespace gantry;
using namespace gantry::studio;

namespace {

class SteppingEngine : public WhatIfEngine {
  public:
    int steps = 5;
    int stepMs = 10;
    bool endless = false;
    bool fail = false;
    std::atomic<int> runs{0}, concurrent{0}, maxConcurrent{0};
    std::string unavailableReason() const override { return {}; }
    std::unique_ptr<WhatIfResult> run(const Project& project, const std::string& profile,
                                      const WhatIfControl& control) override {
        ++runs;
        const int now = ++concurrent;
        for (int seen = maxConcurrent.load();
             now > seen && !maxConcurrent.compare_exchange_weak(seen, now);) {
        }
        struct Leave {
            std::atomic<int>& n;
            ~Leave() { --n; }
        } leave{concurrent};
        if (fail) throw InputError(SourceRef{"lab.yaml", 3, 7, 1}, "workload 'x' names no queue");
        for (int i = 0; endless || i < steps; ++i) {
            if (control.cancelled()) return nullptr;
            control.progress(endless ? 0.5 : double(i + 1) / steps, "cycle " + std::to_string(i));
            QThread::msleep(stepMs);
        }
        auto r = std::make_unique<WhatIfResult>();
        r->profile = profile == "volcano" ? "policy" : "contrast";
        r->jobsTotal = int(project.cluster.podGroups.size());
        r->pending.push_back({"nlp/llm-pretrain-405b", "nlp",
                              "0/96 nodes are available: 96 Insufficient nvidia.com/gpu", 32, 32, 12, 256,
                              0});
        r->pending.push_back({"rl/rl-sweep-big", "rl", "queue rl is overused", 16, 4, -1, 16, 30});
        r->time = {0, 1};
        r->gpuAllocationPct = {48.4, 60};
        return r;
    }
};

} // namespace

class WhatIfTest : public QObject {
    Q_OBJECT
  private slots:
    void runDeliversImmutableResultsWithProgress() {
        auto engine = std::make_unique<SteppingEngine>();
        Workspace ws(std::move(engine));
        fixtures::openLab(*ws.document());
        QSignalSpy progress(ws.runner(), &WhatIfRunner::progress);
        QSignalSpy finished(ws.runner(), &WhatIfRunner::finished);
        QSignalSpy results(&ws, &Workspace::resultsChanged);
        QVERIFY(ws.runWhatIf());
        QVERIFY(ws.runner()->isRunning());
        QVERIFY(!ws.runWhatIf()); // one at a time
        QVERIFY(ws.runner()->waitForFinished(10000));
        QCOMPARE(finished.count(), 1);
        QVERIFY(progress.count() >= 5);
        double last = -1;
        for (const auto& args : progress) {
            QVERIFY(args.at(0).toDouble() >= last);
            last = args.at(0).toDouble();
        }
        QCOMPARE(last, 1.0);
        const auto& run = ws.results();
        QVERIFY(run.primary());
        // A snapshot opens with the default kube-scheduler as the comparison profile.
        QCOMPARE(run.results.size(), size_t(2));
        QCOMPARE(run.results[1]->profile, std::string("contrast"));
        QCOMPARE(run.primary()->projectRevision, ws.document()->revision());
        QCOMPARE(run.primary()->jobsTotal, int(ws.document()->project().cluster.podGroups.size()));
        QVERIFY(results.count() >= 1);
        QVERIFY(!ws.resultsStale());
        // An edit makes the results stale; they stay shown until the next run.
        Queue q = ws.document()->project().cluster.queues.front();
        q.weight += 1;
        ws.document()->undoStack()->push(new EditQueueCommand(ws.document(), q, "w"));
        QVERIFY(ws.resultsStale());
        QVERIFY(ws.results().primary() == run.primary());

        PendingJobsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setResult(run.primary());
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.data(model.index(0, PendingJobsModel::Reason)).toString(),
                 QStringLiteral("0/96 nodes are available: 96 Insufficient nvidia.com/gpu"));
        QCOMPARE(model.data(model.index(1, PendingJobsModel::Placeable)).toString(), QString());
        model.setResult(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void contrastProfileRunsSecond() {
        auto engine = std::make_unique<SteppingEngine>();
        auto* raw = engine.get();
        Workspace ws(std::move(engine));
        Project p = fixtures::loadLab();
        p.contrast = KubeSchedulerProfile{};
        ws.document()->replace(p, {}, {});
        QVERIFY(ws.runWhatIf());
        QVERIFY(ws.runner()->waitForFinished(10000));
        QCOMPARE(raw->runs.load(), 2);
        QCOMPARE(ws.results().results[1]->profile, std::string("contrast"));
        QVERIFY(ws.resultOccupancy(1));
    }

    // The simulation settings name the profiles: each runs once, the results come back in that
    // order, and two run at once on a machine with two cores.
    void theProfilesTheSettingsNameRunSideBySide() {
        auto engine = std::make_unique<SteppingEngine>();
        auto* raw = engine.get();
        raw->steps = 10;
        raw->stepMs = 30;
        Workspace ws(std::move(engine));
        Project p = fixtures::loadLab();
        p.contrast.reset();
        p.simulation.profiles = {"kube-default", "volcano", "no-such-profile"};
        ws.document()->replace(p, {}, {});
        QVERIFY(ws.runWhatIf());
        QVERIFY(ws.runner()->waitForFinished(10000));
        QCOMPARE(raw->runs.load(), 2);
        const auto& run = ws.results();
        QCOMPARE(run.results.size(), size_t(2));
        QCOMPARE(run.results[0]->profile, std::string("contrast")); // kube-default first, as named
        QCOMPARE(run.results[1]->profile, std::string("policy"));
        QVERIFY(ws.resultOccupancy(0) && ws.resultOccupancy(1) && !ws.resultOccupancy(2));
        if (QThread::idealThreadCount() >= 2)
            QVERIFY2(raw->maxConcurrent.load() == 2, "ran one after the other");
    }

    void cancelStopsTheWorkerAndKeepsThePreviousResults() {
        auto engine = std::make_unique<SteppingEngine>();
        auto* raw = engine.get();
        Workspace ws(std::move(engine));
        fixtures::openLab(*ws.document());
        QVERIFY(ws.runWhatIf());
        QVERIFY(ws.runner()->waitForFinished(10000));
        auto previous = ws.results().primary();
        raw->endless = true;
        QSignalSpy cancelled(ws.runner(), &WhatIfRunner::cancelled);
        QSignalSpy finished(ws.runner(), &WhatIfRunner::finished);
        QVERIFY(ws.runWhatIf());
        QTest::qWait(50);
        QVERIFY(ws.runner()->isRunning());
        ws.runner()->cancel();
        QVERIFY(ws.runner()->waitForFinished(5000));
        QCOMPARE(cancelled.count(), 1);
        QCOMPARE(finished.count(), 0);
        QVERIFY(ws.results().primary() == previous);
    }

    void failuresArriveAsMessages() {
        auto engine = std::make_unique<SteppingEngine>();
        engine->fail = true;
        Workspace ws(std::move(engine));
        QSignalSpy failed(ws.runner(), &WhatIfRunner::failed);
        QVERIFY(ws.runWhatIf());
        QVERIFY(ws.runner()->waitForFinished(5000));
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.first().first().toString(),
                 QStringLiteral("lab.yaml:3:7: error: workload 'x' names no queue"));
        QVERIFY(!ws.results().primary());
    }

    void theBuiltInEngineSimulatesTheProject() {
        Workspace ws(makeDefaultWhatIfEngine());
        QVERIFY(ws.runner()->unavailableReason().isEmpty());
        Project p = fixtures::loadLab();
        p.contrast = KubeSchedulerProfile{}; // compare with the default kube-scheduler
        p.simulation.horizonSeconds = 6 * 3600;
        ws.document()->replace(p, {}, fixtures::labClusterPath());
        QSignalSpy progress(ws.runner(), &WhatIfRunner::progress);
        QVERIFY(ws.runWhatIf());
        QVERIFY(ws.runner()->waitForFinished(300000));
        QVERIFY(progress.count() > 0);
        const auto& run = ws.results();
        QCOMPARE(run.results.size(), size_t(2));
        const WhatIfResult& a = *run.primary();
        QVERIFY(a.time.size() > 10);
        QCOMPARE(a.gpuAllocationPct.size(), a.time.size());
        for (double v : a.gpuAllocationPct) QVERIFY(v >= 0 && v <= 100.0001);
        QCOMPARE(a.totalGpus, 696.0); // the simulator counts the GPUs of ready nodes (one of the 88 is down)
        // The snapshot's waiting jobs are simulated; the 256-GPU gang cannot start while the
        // running jobs (no duration: they run to the end) hold the H100s, and says why.
        auto pending =
            std::find_if(a.pending.begin(), a.pending.end(),
                         [](const WhatIfResult::PendingJob& j) { return j.job == "nlp/llm-pretrain-405b"; });
        QVERIFY(pending != a.pending.end());
        QCOMPARE(pending->queue, std::string("nlp"));
        QCOMPARE(pending->pods, 32);
        QVERIFY2(!pending->reason.empty(), pending->reason.c_str());
        QCOMPARE(pending->waitingSeconds, 6 * 3600.0);
        // Queue series carry the queue's deserved GPUs in Volcano's terms.
        auto nlp =
            std::find_if(a.queues.begin(), a.queues.end(), [](const auto& q) { return q.queue == "nlp"; });
        QVERIFY(nlp != a.queues.end());
        QCOMPARE(nlp->deserved.value_or(-1), 192.0);
        QVERIFY(nlp->leaf);
        QVERIFY(!std::find_if(a.queues.begin(), a.queues.end(), [](const auto& q) {
                     return q.queue == "research";
                 })->leaf);
        // The end state paints the GPU map: every placement is on a node of the project.
        auto occ = ws.resultOccupancy(0);
        QVERIFY(occ);
        QCOMPARE(occ->totalGpus, int64_t(704));
        QCOMPARE(occ->unplacedMilli, int64_t(0));
        QVERIFY(std::abs(double(occ->allocatedMilli) / 1000.0 - a.allocatedGpus) < 0.01);
        // The comparison ran kube-scheduler on the same jobs.
        QVERIFY(QString::fromStdString(run.results[1]->profile).startsWith("kube-scheduler"));
        QCOMPARE(run.results[1]->jobsTotal, a.jobsTotal);
        // Compared measure by measure from the simulator's own results.
        QVERIFY(run.verdicts.size() >= 10);
        for (const auto& v : run.verdicts) {
            QCOMPARE(v.values.size(), size_t(2));
            if (v.metric == "jobs.completed") {
                QCOMPARE(*v.values[0], double(a.jobsCompleted));
                QCOMPARE(*v.values[1], double(run.results[1]->jobsCompleted));
            }
        }
    }

    void aRunThatEmptiesTheClusterMapsThePeak() {
        // The sample's week of jobs all finish: the map shows the moment of peak allocation,
        // replayed with the same seed, instead of the empty end state.
        Workspace ws(makeDefaultWhatIfEngine());
        const QString sample = QStringLiteral(GANTRY_SOURCE_DIR "/resources/samples/gpu-cloud-east.yaml");
        ws.document()->replace(loadFile(sample).project, {}, sample);
        QVERIFY(ws.runWhatIf());
        QVERIFY(ws.runner()->waitForFinished(300000));
        const auto& run = ws.results();
        QCOMPARE(run.results.size(), size_t(2));
        for (size_t i = 0; i < run.results.size(); ++i) {
            const auto& r = run.results[i];
            QCOMPARE(r->jobsCompleted, r->jobsTotal);
            QVERIFY(r->placementsAtPeak);
            QVERIFY(r->placementsSeconds > 0 && r->placementsSeconds < r->simulatedSeconds);
            const auto peak = std::max_element(r->gpuAllocationPct.begin(), r->gpuAllocationPct.end());
            QCOMPARE(r->time[size_t(peak - r->gpuAllocationPct.begin())], r->placementsSeconds);
            auto occ = ws.resultOccupancy(i);
            QVERIFY(occ);
            QCOMPARE(occ->unplacedMilli, int64_t(0));
            // The replayed state holds the peak's share of the GPUs.
            const double heldPct = 100.0 * double(occ->allocatedMilli) / 1000.0 / r->totalGpus;
            QVERIFY2(std::abs(heldPct - *peak) < 0.01,
                     qPrintable(QString("%1 vs %2").arg(heldPct).arg(*peak)));
        }
    }

    // Under Kueue the results speak of ClusterQueues: the model shows each one's measures from the
    // simulator's own objects, GPU measures first, series as mean and peak.
    void kueueResultsShowClusterQueues() {
        Workspace ws(makeDefaultWhatIfEngine());
        const QString sample = QStringLiteral(GANTRY_SOURCE_DIR "/resources/samples/busy-week.yaml");
        Project p = loadFile(sample).project;
        p.simulation.profiles = {"kueue"};
        p.simulation.horizonSeconds = 24 * 3600;
        ws.document()->replace(p, {}, sample);
        QVERIFY(ws.runWhatIf());
        QVERIFY(ws.runner()->waitForFinished(300000));
        const auto result = ws.results().results.at(0);
        QCOMPARE(result->profileName, std::string("kueue"));
        ProfileObjectsModel model;
        QAbstractItemModelTester tester(&model);
        model.setResult(result);
        const auto& objects = result->sim->objects;
        QCOMPARE(model.rowCount(), int(objects.size()));
        QCOMPARE(model.data(model.index(0, 0)).toString(), QString("ClusterQueue"));
        QCOMPARE(model.data(model.index(0, 1)).toString(), QString::fromStdString(objects[0].name));
        QVERIFY(model.headerData(2, Qt::Horizontal).toString().contains("nvidia.com/gpu"));
        // Find the GPU usage series column and check it against the series itself.
        int usage = -1;
        for (int c = 2; c < model.columnCount(); ++c)
            if (model.headerData(c, Qt::Horizontal).toString().simplified() ==
                "usage nvidia.com/gpu (mean · peak)")
                usage = c;
        QVERIFY(usage > 0);
        const auto& series =
            std::find_if(objects[0].series.begin(), objects[0].series.end(), [](const auto& s) {
                return s.first == "usage_nvidia.com/gpu";
            })->second;
        const double peak = *std::max_element(series.begin(), series.end());
        QVERIFY(peak > 0);
        QVERIFY(model.data(model.index(0, usage)).toString().endsWith(QString::number(peak, 'g', 6)));
        QCOMPARE(model.data(model.index(0, usage), ProfileObjectsModel::SortRole).toDouble(),
                 std::accumulate(series.begin(), series.end(), 0.0) / double(series.size()));
        // A workload class has no quota: its usage cell is empty, its admissions are counted.
        const auto cls = std::find_if(objects.begin(), objects.end(),
                                      [](const auto& o) { return o.kind == "workload class"; });
        QVERIFY(cls != objects.end());
        QVERIFY(model.data(model.index(int(cls - objects.begin()), usage)).toString().isEmpty());
    }

    void anEmptyProjectSaysWhatToAdd() {
        Workspace ws(makeDefaultWhatIfEngine());
        QSignalSpy failed(ws.runner(), &WhatIfRunner::failed);
        QVERIFY(ws.runWhatIf());
        QVERIFY(ws.runner()->waitForFinished(30000));
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.first().first().toString().contains("Workloads tab"));
    }

    void percentilesAreNearestRank() {
        std::vector<double> v = {5, 1, 4, 2, 3};
        QCOMPARE(WhatIfResult::percentile(v, 50), 3.0);
        QCOMPARE(WhatIfResult::percentile(v, 100), 5.0);
        QCOMPARE(WhatIfResult::percentile(v, 0), 1.0);
        QCOMPARE(WhatIfResult::percentile(v, 95), 5.0);
        QVERIFY(std::isnan(WhatIfResult::percentile({}, 50)));
    }
};

GANTRY_TEST(WhatIfTest)
#include "test_whatif.moc"
