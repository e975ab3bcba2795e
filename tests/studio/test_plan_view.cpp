// The Plan view on the bundled sample: a plan of two profiles runs through the view and its
// worker, its answers are engine/plan's (and `gantry plan`'s) for the same inputs, Apply adds the
// answer's nodes as one undo step, a malformed SLO stops the plan before it starts, and cancelling
// (or closing the project) mid-plan stops the search.
#include "cli_run.h"
#include "core/project_files.h"
#include "main_window.h"
#include "model/policy_settings.h"
#include "models/plan_points_model.h"
#include "plan/node_change.h"
#include "plan/project_setup.h"
#include "studio_test_support.h"
#include "tabs/plan_tab.h"
#include "test_registry.h"
#include "workspace.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using namespace gantry;
using namespace gantry::studio;

namespace {

const QString kSample = QStringLiteral(GANTRY_SOURCE_DIR "/resources/samples/gpu-cloud-east.yaml");
const std::string kSlo = "queue[detection].wait.p95<2h";

PlanSettings samplePlan() {
    PlanSettings s;
    s.nodeType = "a100";
    s.slos = {kSlo};
    s.profiles = {"volcano", "yunikorn"};
    s.seeds = 2;
    s.min = -8;
    s.max = 8;
    return s;
}

// engine/plan's own answer for a profile, the project set up as `gantry plan` sets it up.
plan::PlanResult engineAnswer(const Project& project, const PlanSettings& s, const std::string& profile,
                              const std::string& key = {}, const std::string& value = {}) {
    plan::WhatIfSetup setup;
    setup.cluster = project.cluster;
    setup.workloads = project.workloads;
    setup.options = plan::projectOptions(project, profile);
    if (!key.empty() && !applyPolicySetting(setup.options.policies, key, value).empty()) return {};
    Cluster drawn;
    std::vector<std::string> notes;
    Diagnostics warnings;
    plan::fitToWorkload(setup, drawn, SourceRef{"sample", 0, 0, 0}, &notes, &warnings);
    plan::PlanRequest request;
    request.types = {plan::NodeType::pool(s.nodeType)};
    request.ranges = {{s.min, s.max, 1}};
    request.slos = parseSlos(s.slos).slos;
    for (int k = 0; k < s.seeds; ++k) request.seeds.push_back(project.simulation.seed + uint64_t(k));
    request.threads = 1;
    return plan::plan(setup, request);
}

int64_t poolNodes(const Project& project, const std::string& pool) {
    return plan::summaryOf(project.cluster, plan::NodeType::pool(pool)).nodes;
}

} // namespace

class PlanViewTest : public QObject {
    Q_OBJECT
  private slots:
    void planOfTwoProfilesGivesTheEngineAnswersAndApplies() {
        Workspace ws(makeDefaultWhatIfEngine());
        const Project sample = loadFile(kSample).project;
        ws.document()->replace(sample, QString(), kSample);
        PlanTab tab(&ws);
        QAbstractItemModelTester tester(tab.pointsModel());
        tab.setSettings(samplePlan());
        QCOMPARE(tab.settings().profiles, samplePlan().profiles);

        QSignalSpy points(ws.planner(), &PlanRunner::pointFinished);
        QSignalSpy progress(ws.planner(), &PlanRunner::progress);
        QSignalSpy finished(ws.planner(), &PlanRunner::finished);
        QVERIFY(tab.startPlan());
        QVERIFY(ws.planner()->isRunning());
        QVERIFY(!tab.startPlan()); // one plan at a time
        QVERIFY(ws.planner()->waitForFinished(600000));
        QCOMPARE(finished.count(), 1);

        const PlanRun& run = ws.planner()->last();
        QCOMPARE(run.profiles.size(), size_t(2));
        QCOMPARE(run.pool.nodes, poolNodes(sample, "a100"));
        size_t total = 0;
        for (size_t i = 0; i < run.profiles.size(); ++i) {
            const plan::PlanResult& mine = run.profiles[i].result;
            const plan::PlanResult engine = engineAnswer(sample, samplePlan(), run.profiles[i].profile);
            QVERIFY(mine.met);
            QCOMPARE(mine.answer, engine.answer);
            QCOMPARE(mine.points.size(), engine.points.size());
            for (size_t k = 0; k < mine.points.size(); ++k) {
                QCOMPARE(mine.points[k].counts, engine.points[k].counts);
                QCOMPARE(mine.points[k].pass, engine.points[k].pass);
                QCOMPARE(mine.points[k].worst, engine.points[k].worst);
            }
            total += mine.points.size();
            QVERIFY(planAnswerText(run, i).contains(QString::number(mine.answer[0])));
        }
        // Every point came in as it was measured, and the progress never promised fewer than done.
        QCOMPARE(size_t(points.count()), total);
        for (const auto& args : progress) QVERIFY(args.at(0).toInt() <= args.at(1).toInt());
        QCOMPARE(size_t(tab.pointsModel()->rowCount()), total);
        QVERIFY(tab.answerText().contains("Volcano"));
        QVERIFY(tab.answerText().contains("YuniKorn"));

        // The command line answers the same for the same inputs.
        const auto cli =
            test::runGantry({"plan", kSample, "--node-type", "a100", "--slo", QString::fromStdString(kSlo),
                             "--min", "-8", "--max", "8", "--seeds", "2", "--profile", "yunikorn", "--json"});
        QCOMPARE(cli.code, 0);
        const QJsonObject answer = QJsonDocument::fromJson(cli.out.toUtf8()).object()["answer"].toObject();
        QCOMPARE(answer["nodes"].toInteger(), run.profiles[1].result.answer[0]);

        // Apply YuniKorn's answer: one undo step that adds its nodes; undo restores the cluster.
        const int64_t add = run.profiles[1].result.answer[0];
        QVERIFY(add != 0);
        QUndoStack* undo = ws.document()->undoStack();
        const int steps = undo->count();
        QVERIFY(tab.applyAnswer(1));
        QCOMPARE(undo->count(), steps + 1);
        QCOMPARE(poolNodes(ws.document()->project(), "a100"), poolNodes(sample, "a100") + add);
        QCOMPARE(ws.document()->project().cluster.nodes.size(), sample.cluster.nodes.size() + size_t(add));
        QVERIFY(!tab.applyAnswer(1)); // the project's nodes are not those the plan counted from
        undo->undo();
        QVERIFY(ws.document()->project().cluster == sample.cluster);
        undo->redo();
        QCOMPARE(poolNodes(ws.document()->project(), "a100"), poolNodes(sample, "a100") + add);
        undo->undo();
        QVERIFY(tab.applyAnswer(0)); // the nodes are back as planned: Volcano's answer applies
        QCOMPARE(poolNodes(ws.document()->project(), "a100"),
                 poolNodes(sample, "a100") + run.profiles[0].result.answer[0]);
        // A plan started on the changed nodes and cancelled leaves the last answers, which count from
        // the sample's nodes: they no longer apply.
        const int64_t now = poolNodes(ws.document()->project(), "a100");
        QVERIFY(tab.startPlan());
        ws.planner()->cancel();
        QVERIFY(!tab.applyAnswer(1));
        QCOMPARE(poolNodes(ws.document()->project(), "a100"), now);
        QVERIFY(ws.planner()->waitForWorkers(600000));
    }

    // A policy field varied in the Plan view: each profile that reads it is searched once per value,
    // with the field set as `gantry sweep`'s `set:` sets it (model/policy_settings.h); the others
    // once, with the project's policy. The half-life of fairshare-day.yaml (docs/fair-share.md).
    void varyingAPolicyFieldSearchesOncePerValue() {
        const QString file = QStringLiteral(GANTRY_SOURCE_DIR "/resources/samples/fairshare-day.yaml");
        Workspace ws(makeDefaultWhatIfEngine());
        const Project sample = loadFile(file).project;
        ws.document()->replace(sample, QString(), file);
        PlanTab tab(&ws);
        PlanSettings s;
        s.nodeType = "h100";
        s.slos = {"namespace[vision].wait.p95<6h"};
        s.profiles = {"volcano", "kube-default"};
        s.seeds = 1;
        s.min = 0;
        s.max = 3;
        const std::string key = "volcano.fairshare.fairshare.halfLifeMinutes";
        s.varyField = key;
        s.varyValues = {"60", "1440"};
        tab.setSettings(s);
        QCOMPARE(tab.settings().varyValues, s.varyValues);
        QVERIFY(tab.startPlan());
        QVERIFY(ws.planner()->waitForFinished(600000));
        const PlanRun& run = ws.planner()->last();
        QCOMPARE(run.profiles.size(), size_t(3));
        QCOMPARE(run.profiles[0].setting, key + "=60");
        QCOMPARE(run.profiles[1].setting, key + "=1440");
        QCOMPARE(run.profiles[2].profile, std::string("kube-default"));
        QVERIFY(run.profiles[2].setting.empty());
        QCOMPARE(planTitle(run.profiles[1]), QStringLiteral("Volcano · halfLifeMinutes=1440"));
        for (size_t i = 0; i < 2; ++i) {
            const plan::PlanResult engine = engineAnswer(sample, s, "volcano", key, s.varyValues[i]);
            QCOMPARE(run.profiles[i].result.points.size(), engine.points.size());
            for (size_t k = 0; k < engine.points.size(); ++k)
                QCOMPARE(run.profiles[i].result.points[k].worst, engine.points[k].worst);
            QCOMPARE(run.profiles[i].result.answer, engine.answer);
        }
        // The half-life is what differs: vision's wait on the pool as it is.
        QVERIFY(run.profiles[0].result.points.front().worst != run.profiles[1].result.points.front().worst);

        // A field no chosen profile reads is refused before anything runs, and says which.
        QSignalSpy failed(ws.planner(), &PlanRunner::failed);
        s.varyField = "kueue.admissionFairSharing.usageHalfLifeTime";
        s.varyValues = {"1h"};
        tab.setSettings(s);
        QVERIFY(!tab.startPlan());
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.at(0).at(0).toString().contains("No profile chosen reads kueue.admissionFairSharing"));
    }

    void malformedSloShowsItsColumnAndNothingRuns() {
        Workspace ws(makeDefaultWhatIfEngine());
        ws.document()->replace(loadFile(kSample).project, QString(), kSample);
        PlanTab tab(&ws);
        PlanSettings s = samplePlan();
        s.slos = {"wait.p95<1h", "wait.p95 < 1hour"};
        tab.setSettings(s);
        QVERIFY(tab.sloError().contains("column 12"));
        QVERIFY(tab.sloError().contains("1hour"));
        QSignalSpy started(ws.planner(), &PlanRunner::started);
        QVERIFY(!tab.startPlan());
        QCOMPARE(started.count(), 0);
        QVERIFY(!ws.planner()->isRunning());
        s.slos = {"wait.p95<1h"};
        tab.setSettings(s);
        QVERIFY(tab.sloError().isEmpty());
    }

    void cancelStopsThePlanMidRun() {
        Workspace ws(makeDefaultWhatIfEngine());
        ws.document()->replace(loadFile(kSample).project, QString(), kSample);
        PlanTab tab(&ws);
        PlanSettings s = samplePlan();
        s.seeds = 5;
        s.max = 200;
        s.slos = {"wait.p95<1s"}; // never holds: the search would run to the maximum
        tab.setSettings(s);
        QSignalSpy points(ws.planner(), &PlanRunner::pointFinished);
        QSignalSpy cancelled(ws.planner(), &PlanRunner::cancelled);
        QSignalSpy finished(ws.planner(), &PlanRunner::finished);
        QVERIFY(tab.startPlan());
        QVERIFY(points.wait(600000));
        ws.planner()->cancel();
        QCOMPARE(cancelled.count(), 1);
        QVERIFY(!ws.planner()->isRunning());
        // The worker stops at the next simulation it would start: it returns, and reports nothing.
        QVERIFY(ws.planner()->waitForWorkers(600000));
        QCOMPARE(finished.count(), 0);
        QVERIFY(ws.planner()->last().profiles.empty());
        QVERIFY(tab.answerText().contains("Cancelled"));
        // A new plan starts at once.
        s.max = 0;
        s.profiles = {"volcano"};
        tab.setSettings(s);
        QVERIFY(tab.startPlan());
        QVERIFY(ws.planner()->waitForFinished(600000));
        QCOMPARE(finished.count(), 1);
    }

    void engineCancelReturnsBeforeTheSearchEnds() {
        // The flag the planner checks before each simulation: set after the first point, the plan
        // returns cancelled with fewer points than the whole search takes.
        const Project sample = loadFile(kSample).project;
        plan::WhatIfSetup setup;
        setup.cluster = sample.cluster;
        setup.workloads = sample.workloads;
        setup.options = plan::projectOptions(sample, "volcano");
        plan::PlanRequest request;
        request.types = {plan::NodeType::pool("a100")};
        request.ranges = {{0, 200, 1}};
        request.slos = parseSlos({"wait.p95<1s"}).slos;
        request.seeds = {1};
        request.threads = 2;
        std::atomic<bool> cancel{false};
        plan::PlanControl control;
        control.cancel = &cancel;
        control.progress = [&](int, int, int, const plan::PlanPoint* point) {
            if (point) cancel = true;
        };
        const plan::PlanResult r = plan::plan(setup, request, control);
        QVERIFY(r.cancelled);
        QVERIFY(!r.met);
        QVERIFY(r.points.size() < plan::mostPoints(request.ranges[0], {}, {}));
    }

    void closingTheProjectCancelsThePlan() {
        Workspace ws(makeDefaultWhatIfEngine());
        ws.document()->replace(loadFile(kSample).project, QString(), kSample);
        PlanTab tab(&ws);
        PlanSettings s = samplePlan();
        s.slos = {"wait.p95<1s"};
        s.max = 200;
        tab.setSettings(s);
        QSignalSpy cancelled(ws.planner(), &PlanRunner::cancelled);
        QVERIFY(tab.startPlan());
        fixtures::openLab(*ws.document());
        QCOMPARE(cancelled.count(), 1);
        QVERIFY(!ws.planner()->isRunning());
        QVERIFY(ws.planner()->waitForWorkers(600000));
        QVERIFY(ws.planner()->last().profiles.empty());
    }

    void closingTheWindowMidPlanEndsCleanly() {
        // The window goes while the plan runs: the planner's flag stops the search, and the
        // window's end waits for the simulations under way, touching nothing of it afterwards.
        QTemporaryDir autosave;
        auto window = std::make_unique<MainWindow>(makeDefaultWhatIfEngine(), autosave.path());
        window->workspace()->document()->replace(loadFile(kSample).project, QString(), kSample);
        PlanSettings s = samplePlan();
        s.slos = {"wait.p95<1s"};
        s.max = 200;
        window->planTab()->setSettings(s);
        PlanRunner* planner = window->workspace()->planner();
        QSignalSpy points(planner, &PlanRunner::pointFinished);
        QVERIFY(window->planTab()->startPlan());
        QVERIFY(points.wait(600000));
        QVERIFY(planner->isRunning());
        window.reset();
    }
};

GANTRY_TEST(PlanViewTest)
#include "test_plan_view.moc"
