// Verdicts of a comparison (sim/compare.h) on results built by hand: who wins which measure, by how
// much, when a difference is too small to count, three profiles, and queues not every run has.
#include "sim/compare.h"
#include "test_registry.h"

#include <QtTest>

using namespace gantry;
using namespace gantry::sim;

namespace {

SimResult result(double allocation, double waitP95, double partialHold, int64_t pending) {
    SimResult r;
    r.meanGpuAllocationPct = allocation;
    r.wait.count = 10;
    r.wait.p50 = waitP95 / 4;
    r.wait.p95 = waitP95;
    r.partialHoldGpuHours = partialHold;
    r.jobsPendingAtEnd = pending;
    return r;
}

const Verdict& find(const std::vector<Verdict>& verdicts, const std::string& metric) {
    for (const auto& v : verdicts)
        if (v.metric == metric) return v;
    static const Verdict none;
    return none;
}

QueueSeries queue(const std::string& name, const std::string& parent, int64_t jobs, double p95) {
    QueueSeries q;
    q.name = name;
    q.parent = parent;
    q.summary.jobs = jobs;
    q.summary.wait.count = jobs;
    q.summary.wait.p95 = p95;
    return q;
}

} // namespace

class CompareTest : public QObject {
    Q_OBJECT
  private slots:
    void winnerAndMargin() {
        const SimResult a = result(63.8, 7.5 * 3600, 0, 31), b = result(79.2, 23.3 * 3600, 2071.2, 116);
        const auto verdicts = compareRuns({{"volcano", &a}, {"kube-default", &b}});
        const Verdict& alloc = find(verdicts, "gpu.mean_allocation_pct");
        QCOMPARE(alloc.best, 1);
        QCOMPARE(alloc.text,
                 std::string("kube-default wins: 79.2 % against 63.8 % on volcano (15.4 points higher)"));
        const Verdict& wait = find(verdicts, "wait.p95");
        QCOMPARE(wait.best, 0);
        QVERIFY2(wait.text.starts_with("volcano wins: 7h30m against 23h18m on kube-default (3.1x shorter)"),
                 wait.text.c_str());
        const Verdict& hold = find(verdicts, "gang.partial_hold_gpu_hours");
        QCOMPARE(hold.best, 0);
        QVERIFY2(hold.text.find("(2071.2 fewer)") != std::string::npos, hold.text.c_str());
        QCOMPARE(find(verdicts, "pending_at_end").text,
                 std::string("volcano wins: 31 against 116 on kube-default (85 fewer)"));
        // Both zero: a tie on every profile.
        const Verdict& evicted = find(verdicts, "preemption.pod_evictions");
        QCOMPARE(evicted.best, -1);
        QCOMPARE(evicted.text, std::string("tie: 0 on every profile"));
    }

    void smallDifferencesAreTies() {
        // 0.05 points of allocation, half a second and 1 % of a wait: nothing to choose between them.
        const SimResult a = result(50.00, 100, 0, 0), b = result(50.05, 101, 0, 0);
        const auto verdicts = compareRuns({{"a", &a}, {"b", &b}});
        QCOMPARE(find(verdicts, "gpu.mean_allocation_pct").best, -1);
        QCOMPARE(find(verdicts, "wait.p95").best, -1);
        // 2 % and more of a wait counts.
        const SimResult c = result(50, 103, 0, 0);
        QCOMPARE(find(compareRuns({{"a", &a}, {"c", &c}}), "wait.p95").best, 0);
    }

    void threeProfilesTwoTiedForBest() {
        const SimResult a = result(70, 3600, 0, 5), b = result(70, 7200, 0, 5), c = result(40, 1800, 0, 9);
        const auto verdicts = compareRuns({{"volcano", &a}, {"kueue", &b}, {"kube-default", &c}});
        const Verdict& alloc = find(verdicts, "gpu.mean_allocation_pct");
        QCOMPARE(alloc.best, -1);
        QCOMPARE(
            alloc.text,
            std::string(
                "volcano and kueue tie for best: 70.0 % against 40.0 % on kube-default (30 points higher)"));
        const Verdict& wait = find(verdicts, "wait.p95");
        QCOMPARE(wait.best, 2);
        QVERIFY2(wait.text.starts_with("kube-default wins: 30m against 1h on volcano (2.0x shorter)"),
                 wait.text.c_str());
        QCOMPARE(wait.values.size(), size_t(3));
    }

    void queuesEveryRunHas() {
        SimResult a = result(50, 60, 0, 0), b = result(50, 60, 0, 0);
        a.queues = {queue("root", "", 9, 0), queue("train", "root", 4, 600), queue("serve", "root", 5, 60),
                    queue("idle", "root", 0, 0)};
        b.queues = {queue("root", "", 9, 0), queue("train", "root", 4, 1200)};
        const auto verdicts = compareRuns({{"a", &a}, {"b", &b}});
        // Leaves with jobs that both runs know: train only (root is a parent, idle had no jobs, serve
        // is missing from b).
        QCOMPARE(find(verdicts, "queue[train].wait.p95").best, 0);
        QVERIFY(find(verdicts, "queue[serve].wait.p95").metric.empty());
        QVERIFY(find(verdicts, "queue[root].wait.p95").metric.empty());
        QVERIFY(find(verdicts, "queue[idle].wait.p95").metric.empty());
        QCOMPARE(find(verdicts, "queue[train].wait.p95").title, std::string("Wait p95, queue train"));
    }

    void fragmentationOnlyWhenMeasured() {
        SimResult a = result(50, 60, 0, 0), b = result(50, 60, 0, 0);
        QVERIFY(find(compareRuns({{"a", &a}, {"b", &b}}), "fragmentation.mean_pct").metric.empty());
        a.fragmentationMeasured = b.fragmentationMeasured = true;
        a.fragmentationPct = {10, 20};
        b.fragmentationPct = {5, 5};
        QCOMPARE(find(compareRuns({{"a", &a}, {"b", &b}}), "fragmentation.mean_pct").best, 1);
    }
};

GANTRY_TEST(CompareTest)
#include "test_compare.moc"
