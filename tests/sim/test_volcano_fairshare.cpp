// Volcano's fairshare plugin (volcano-sh/volcano PR #5161 at ad781f25): its arithmetic restated from
// pkg/scheduler/plugins/fairshare/fairshare_test.go, and its usage history over simulated time.
// The single sessions are the conformance suites volcano-fairshare and volcano-fairshare-restated.
#include "profiles/volcano/plugins/fairshare_history.h"
#include "sim/simulator.h"
#include "sim/sources.h"
#include "snapshot/snapshot_importer.h"
#include "test_registry.h"
#include "volcano/scheduler_conf_reader.h"

#include <QtTest>
#include <cmath>

using namespace gantry;
using namespace gantry::sim;
namespace fs = gantry::engine::fairshare;

namespace {

constexpr double kEps = 0.001; // the upstream tests' eps

bool near(double a, double b, double tolerance = kEps) {
    return std::abs(a - b) <= tolerance;
}

// One 1-GPU node, queue q1. ns-a's "warm" job runs from 0 to 3600 s; at 60 s ns-a submits "again"
// (100 s) and at 120 s ns-b submits "other" (1000 s), both waiting for the GPU.
const char* kCluster = R"(apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "16", memory: 64Gi, nvidia.com/gpu: "1", pods: "110"}}
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata: {name: q1}
spec: {weight: 1}
)";

std::string job(const std::string& ns, const std::string& name, int arrival, int duration) {
    return "---\napiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata:\n  name: " + name +
           "\n  namespace: " + ns + "\n  annotations: {gantry.io/arrival: \"" + std::to_string(arrival) +
           "\", gantry.io/duration: " + std::to_string(duration) +
           "s}\nspec:\n  minAvailable: 1\n  queue: q1\n  tasks:\n  - name: w\n    replicas: 1\n"
           "    template: {spec: {containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: "
           "\"1\"}}}]}}\n";
}

// The user guide's tiers, with or without fairshare.
std::string conf(bool fairshare, const std::string& halfLifeMinutes = "240") {
    std::string c = "actions: \"enqueue, allocate, backfill\"\ntiers:\n- plugins:\n  - name: priority\n"
                    "  - name: gang\n  - name: conformance\n";
    if (fairshare)
        c += "  - name: fairshare\n    arguments: {fairshare.halfLifeMinutes: \"" + halfLifeMinutes + "\"}\n";
    return c + "- plugins:\n  - name: drf\n  - name: predicates\n  - name: nodeorder\n";
}

SimResult simulateWarmStart(bool fairshare, bool skipIdleCycles = true) {
    SnapshotImporter in;
    in.addText(std::string(kCluster) + job("ns-a", "warm", 0, 3600) + job("ns-a", "again", 60, 100) +
                   job("ns-b", "other", 120, 1000),
               "warm-start.yaml");
    Diagnostics d;
    Cluster cluster = in.finish(d);
    SimWorkload w = takeClusterJobs(cluster, TimingDefaults{}, 42);
    SimOptions o;
    o.profile = "volcano";
    TextOrigin origin;
    origin.file = "conf.yaml";
    o.policies.volcano = parseSchedulerConf(conf(fairshare), origin, &d);
    o.podStartSeconds = 0;
    o.sampleSeconds = 600;
    o.skipIdleCycles = skipIdleCycles;
    return simulate(cluster, w, o);
}

} // namespace

class VolcanoFairshareTest : public QObject {
    Q_OBJECT
  private slots:
    // TestFairShares_*: max-min shares of 87 (or 100, 200000) over the demands.
    // The state is decoded as Go's encoding/json decodes into persistedState (pkg/scheduler/plugins/
    // fairshare, PR #5161): keys match the fields case-insensitively and a later match overwrites an
    // earlier one (encoding/json's Unmarshal documentation); null leaves lastCycle as it was and sets
    // the queues map to nil; a second queues object adds to the map decoded so far.
    void stateKeysMatchAsGoDecodesThem() {
        using engine::fairshare::History;
        auto load = [](const std::string& json, History& h) {
            return engine::fairshare::loadState(h, {FairshareStateMap{"state", "ns", json, {}}}, "ns",
                                                "state", 0);
        };
        History canonical, folded;
        QVERIFY(!load(R"({"lastCycle":"1970-01-01T01:00:00Z","queues":{"q":{"a":2}}})", canonical));
        QVERIFY(!load(
            R"({"LASTCYCLE":"1970-01-01T00:10:00Z","Queues":{"q":{"a":5}},"lastcycle":"1970-01-01T01:00:00Z",
                         "queues":{"q":{"a":2}},"LastCycle":null})",
            folded));
        QCOMPARE(folded.usage, canonical.usage);
        QCOMPARE(folded.lastCycle, canonical.lastCycle);
        QCOMPARE(*folded.lastCycle, 3600.0);

        History merged;
        QVERIFY(!load(R"({"queues":{"q":{"a":1}},"Queues":{"r":{"b":3}}})", merged));
        QCOMPARE(merged.usage.size(), size_t(2));
        QCOMPARE(merged.usage["q"]["a"], 1.0);
        QCOMPARE(merged.usage["r"]["b"], 3.0);
        History cleared;
        QVERIFY(!load(R"({"queues":{"q":{"a":1}},"QUEUES":null})", cleared));
        QVERIFY(cleared.usage.empty());
        // A wrong type under any spelling fails the whole state, with where and why.
        History bad;
        const auto why = load(R"({"Queues":[1]})", bad);
        QVERIFY(why && why->find("Queues is not an object") != std::string::npos);
    }

    void fairShares() {
        auto shares = [](std::map<std::string, double> demand, double total) {
            return fs::fairShares(demand, total);
        };
        QCOMPARE(shares({{"alice", 200}}, 87).at("alice"), 87.0);
        QCOMPARE(shares({{"alice", 10}}, 87).at("alice"), 10.0);
        auto two = shares({{"alice", 100}, {"bob", 100}}, 87);
        QCOMPARE(two.at("alice"), 43.5);
        QCOMPARE(two.at("bob"), 43.5);
        auto low = shares({{"alice", 200}, {"bob", 10}}, 87);
        QCOMPARE(low.at("bob"), 10.0);
        QCOMPARE(low.at("alice"), 77.0);
        auto asym = shares({{"A", 50}, {"B", 60}, {"C", 11}}, 87);
        QCOMPARE(asym.at("C"), 11.0);
        QCOMPARE(asym.at("A"), 38.0);
        QCOMPARE(asym.at("B"), 38.0);
        auto mixed = shares({{"A", 200}, {"B", 150}, {"C", 10}}, 87);
        QCOMPARE(mixed.at("C"), 10.0);
        QCOMPARE(mixed.at("A"), 38.5);
        QCOMPARE(mixed.at("B"), 38.5);
        auto allLow = shares({{"alice", 5}, {"bob", 10}, {"carol", 3}}, 87);
        QCOMPARE(allLow.at("alice"), 5.0);
        QCOMPARE(allLow.at("bob"), 10.0);
        QCOMPARE(allLow.at("carol"), 3.0);
        QVERIFY(shares({}, 87).empty());
        QVERIFY(shares({{"alice", 10}}, 0).empty());
        auto zero = shares({{"alice", 0}, {"bob", 50}}, 87);
        QCOMPARE(zero.at("bob"), 50.0);
        QVERIFY(!zero.count("alice"));
        auto many = shares({{"A", 50}, {"B", 40}, {"C", 25}, {"D", 15}, {"E", 5}}, 100);
        QCOMPARE(many.at("E"), 5.0);
        QCOMPARE(many.at("D"), 15.0);
        QCOMPARE(many.at("C"), 25.0);
        QCOMPARE(many.at("A"), 27.5);
        QCOMPARE(many.at("B"), 27.5);
        for (const auto& demand :
             std::vector<std::map<std::string, double>>{{{"a", 500}, {"b", 500}},
                                                        {{"a", 5}, {"b", 500}, {"c", 1}},
                                                        {{"a", 29}, {"b", 29}, {"c", 29}},
                                                        {{"a", 87}, {"b", 87}, {"c", 87}},
                                                        {{"a", 5}, {"b", 10}, {"c", 200}}}) {
            double total = 0;
            for (const auto& [ns, share] : shares(demand, 87)) {
                QVERIFY(share <= demand.at(ns) + kEps);
                total += share;
            }
            QVERIFY(total <= 87 + kEps);
        }
        auto cpu = shares({{"A", 150000}, {"B", 100000}, {"C", 20000}}, 200000);
        QCOMPARE(cpu.at("C"), 20000.0);
        QCOMPARE(cpu.at("A"), 90000.0);
        QCOMPARE(cpu.at("B"), 90000.0);
    }

    // TestDecayFactor_*, TestDecayAllUsage_*, TestDecayScenario_10HourJob.
    void decay() {
        const double h = 3600;
        QVERIFY(near(fs::decayFactor(4 * h, 4 * h), 0.5));
        QVERIFY(near(fs::decayFactor(8 * h, 4 * h), 0.25));
        QVERIFY(near(fs::decayFactor(0, 4 * h), 1.0));
        QVERIFY(near(fs::decayFactor(h, 0), 1.0));
        QVERIFY(near(fs::decayFactor(1, 4 * h), std::pow(2.0, -1.0 / 14400.0)));
        QVERIFY(fs::decayFactor(1, 4 * h) >= 0.999);

        fs::History history;
        history.usage = {{"gpu-queue", {{"alice", 1000.0}, {"bob", 500.0}}},
                         {"cpu-queue", {{"carol", 400.0}}}};
        fs::decayAll(history, fs::decayFactor(4 * h, 4 * h));
        QVERIFY(near(history.usage["gpu-queue"]["alice"], 500.0, 0.01));
        QVERIFY(near(history.usage["gpu-queue"]["bob"], 250.0, 0.01));
        QVERIFY(near(history.usage["cpu-queue"]["carol"], 200.0, 0.01));

        fs::History negligible;
        negligible.usage = {{"q", {{"ns", 0.005}}}};
        fs::decayAll(negligible, fs::decayFactor(h, 60));
        QVERIFY(!negligible.usage["q"].count("ns"));

        QVERIFY(std::abs(36000.0 * fs::decayFactor(4 * h, 4 * h) - 18000.0) <= 1.0);
        QVERIFY(std::abs(36000.0 * fs::decayFactor(24 * h, 4 * h) - 36000.0 / 64.0) <= 1.0);
    }

    // What a simulation adds for the sessions it skipped is what the scheduler's sessions, one per
    // period, each decaying the history and then adding units x elapsed (OnSessionOpen), add.
    void skippedSessionsAccrueAsTheSchedulersDo() {
        for (double halfLife : {60.0, 3600.0, 14400.0})
            for (int64_t sessions : {int64_t(1), int64_t(2), int64_t(37), int64_t(3600)}) {
                double usage = 0;
                const double f = fs::decayFactor(1, halfLife);
                for (int64_t k = 0; k < sessions; ++k) usage = usage * f + 1000.0;
                QVERIFY2(near(fs::accrued(1000, 1, sessions, halfLife), usage, 1e-6 * usage),
                         qPrintable(QString("%1 sessions, half-life %2").arg(sessions).arg(halfLife)));
            }
    }

    // Over time: ns-a ran the GPU for an hour, so when it frees ns-b's job goes before ns-a's older
    // one (lower usage first); without fairshare the older one goes first (creationTimestamp).
    void usageRemembersWhoRan() {
        const SimResult plain = simulateWarmStart(false), fair = simulateWarmStart(true);
        QCOMPARE(plain.jobsCompleted, int64_t(3));
        QCOMPARE(fair.jobsCompleted, int64_t(3));
        // Waits: plain again 3540 s, other 3580 s; fairshare other 3480 s, again 4540 s.
        QCOMPARE(plain.wait.max, 3580.0);
        QCOMPARE(fair.wait.max, 4540.0);
        // ns-a's usage when warm ends: 3600 one-second sessions of 1000 units, each decayed by
        // 2^(-1/14400) per later session: 0.918 GPU-hours.
        double expected = 0;
        for (int k = 0; k < 3600; ++k) expected = expected * std::pow(2.0, -1.0 / 14400) + 1000.0;
        expected /= 1000.0 * 3600;
        const engine::ObjectSeries* a = nullptr;
        for (const auto& o : fair.objects)
            if (o.kind == "fairshare namespace" && o.name == "q1/ns-a") a = &o;
        QVERIFY(a);
        QCOMPARE(a->series.front().first, std::string("decayed_usage_nvidia.com/gpu_hours"));
        const auto& values = a->series.front().second;
        const size_t at3600 =
            size_t(std::find(fair.time.begin(), fair.time.end(), 3600.0) - fair.time.begin());
        QVERIFY(at3600 < values.size());
        QVERIFY2(near(values[at3600], expected, 0.002),
                 qPrintable(QString("%1 vs %2").arg(values[at3600]).arg(expected)));
        QVERIFY(plain.objects.empty());
        // The cycles a simulation skips while nothing changes leave the usage as running every
        // one-second cycle does.
        const SimResult everyCycle = simulateWarmStart(true, false);
        QVERIFY(everyCycle.sessions > 10 * fair.sessions);
        const auto& all = everyCycle.objects;
        QCOMPARE(all.size(), fair.objects.size());
        for (size_t i = 0; i < all.size(); ++i) {
            const auto& x = all[i].series.front().second;
            const auto& y = fair.objects[i].series.front().second;
            QCOMPARE(x.size(), y.size());
            for (size_t k = 0; k < x.size(); ++k)
                QVERIFY2(near(x[k], y[k], 1e-9 + 1e-9 * x[k]),
                         qPrintable(QString("%1: %2 vs %3")
                                        .arg(QString::fromStdString(all[i].name))
                                        .arg(x[k])
                                        .arg(y[k])));
        }
    }
};

GANTRY_TEST(VolcanoFairshareTest)
#include "test_volcano_fairshare.moc"
