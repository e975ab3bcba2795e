// gantry simulate --profile kueue through the real binary: admitted workloads' pods run on their
// flavor's nodes (the flavor's tolerations reach them), a higher-priority workload preempts within
// its ClusterQueue, the victim queues again, and the ClusterQueue's usage and the time to admission
// per workload class come out as profile objects; with fair sharing, contended ClusterQueues of a
// Cohort converge to their weights.
#include "test_registry.h"

#include <QProcess>
#include <QtTest>
#include <algorithm>
#include <nlohmann/json.hpp>

using nlohmann::json;

namespace {

json simulate(const QStringList& extra,
              const QString& input = QString(GANTRY_TEST_DATA) + "/kueue/sim-flavors.yaml") {
    QStringList args{"simulate", input,      "--profile", "kueue", "--eviction-grace",
                     "0",        "--sample", "10s",       "--json"};
    args << extra;
    QProcess p;
    p.start(GANTRY_CLI, args);
    if (!p.waitForFinished(60000) || p.exitCode() != 0) {
        qWarning("%s", p.readAllStandardError().constData());
        return json();
    }
    return json::parse(p.readAllStandardOutput().toStdString());
}

const json* object(const json& out, const std::string& kind, const std::string& name) {
    for (const auto& o : out["profile_objects"])
        if (o["kind"] == kind && o["name"] == name) return &o;
    return nullptr;
}

} // namespace

class KueueSimulateTest : public QObject {
    Q_OBJECT
  private slots:
    void preemptionAndRequeueOverTime() {
        const json out = simulate({});
        QVERIFY(out.is_object());
        QCOMPARE(out["jobs"]["completed"].get<int>(), 3);
        // train-2 is preempted once (its one pod evicted) and runs again after urgent-1.
        QCOMPARE(out["preemption"]["pod_evictions"].get<int>(), 1);
        QCOMPARE(out["preemption"]["job_restarts"].get<int>(), 1);
        // train-1 0-100 s on on-demand; urgent-1 11-61 s on spot; train-2 again 61-161 s on spot.
        QCOMPARE(out["end_seconds"].get<double>(), 161.0);
        const json* cq = object(out, "ClusterQueue", "team-a");
        QVERIFY(cq);
        const auto usage = (*cq)["series"]["usage_cpu"].get<std::vector<double>>();
        const auto nominal = (*cq)["series"]["nominal_cpu"].get<std::vector<double>>();
        QCOMPARE(usage.front(), 4.0);                                 // t = 0: train-1 only
        QCOMPARE(*std::max_element(usage.begin(), usage.end()), 8.0); // both flavors used, never more
        QCOMPARE(usage.back(), 0.0);
        QCOMPARE(nominal.front(), 8.0);
        const json* train = object(out, "workload class", "train");
        const json* urgent = object(out, "workload class", "urgent");
        QVERIFY(train && urgent);
        QCOMPARE((*train)["totals"]["admitted"].get<double>(), 2.0);
        QCOMPARE((*train)["totals"]["mean_time_to_admission_seconds"].get<double>(), 0.0);
        // Preempting at 10 s, admitted at the next cycle once the victim's pod is gone.
        QCOMPARE((*urgent)["totals"]["mean_time_to_admission_seconds"].get<double>(), 1.0);
        // The same per ClusterQueue: its three workloads, train-2's readmission not counted again.
        QCOMPARE((*cq)["totals"]["admitted"].get<double>(), 3.0);
        QCOMPARE((*cq)["totals"]["never_admitted"].get<double>(), 0.0);
        QCOMPARE((*cq)["totals"]["max_time_to_admission_seconds"].get<double>(), 1.0);
        QCOMPARE((*cq)["totals"]["mean_time_to_admission_seconds"].get<double>(), 1.0 / 3.0);
    }

    // Without --json the same measures are read in Kueue's words, per ClusterQueue and per class.
    void readableSummaryPerClusterQueue() {
        QProcess p;
        p.start(GANTRY_CLI, {"simulate", QString(GANTRY_TEST_DATA) + "/kueue/sim-flavors.yaml", "--profile",
                             "kueue", "--eviction-grace", "0", "--sample", "10s"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QString text = QString::fromUtf8(p.readAllStandardOutput());
        const qsizetype cq = text.indexOf("Per ClusterQueue");
        const qsizetype classes = text.indexOf("Per workload class");
        QVERIFY2(cq >= 0 && classes > cq, qPrintable(text));
        const QString cqPart = text.mid(cq, classes - cq);
        QVERIFY(cqPart.contains("\n  team-a\n"));
        QVERIFY(cqPart.contains("mean usage % of nominal cpu 75, admitted 3, never admitted 0"));
        QVERIFY(cqPart.contains("max time to admission 1s"));
        QVERIFY(cqPart.contains("usage cpu 6.0 / 8.0, nominal cpu 8.0 / 8.0"));
        QVERIFY(!cqPart.contains("borrowed")); // never borrowed: a series that stayed zero is left out
        QVERIFY(text.mid(classes).contains(
            "\n  urgent\n    admitted 1, never admitted 0, mean time to admission 1s"));
    }

    void quotaAloneLimitsAdmission() {
        // Without urgent-1 (horizon before it arrives) both train workloads hold one flavor each.
        const json out = simulate({"--horizon", "9s"});
        QVERIFY(out.is_object());
        QCOMPARE(out["jobs"]["started"].get<int>(), 2);
        const json* cq = object(out, "ClusterQueue", "team-a");
        QVERIFY(cq);
        QCOMPARE((*cq)["series"]["usage_cpu"].back().get<double>(), 8.0);
        QCOMPARE((*cq)["series"]["borrowed_cpu"].back().get<double>(), 0.0);
    }

    void bundledProjectRunsAsExported() {
        // busy-week is designed in Gantry's terms (two queues with deserved GPUs, no Kueue objects):
        // the profile runs it on the ClusterQueues its export writes, and they admit and run its work.
        const json out =
            simulate({"--horizon", "24h"}, QString(GANTRY_SOURCE_DIR) + "/resources/samples/busy-week.yaml");
        QVERIFY(out.is_object());
        const int arrived = out["jobs"]["arrived"].get<int>();
        QVERIFY(arrived > 400);
        QVERIFY(out["jobs"]["started"].get<int>() > arrived * 9 / 10);
        QVERIFY(out["jobs"]["completed"].get<int>() > arrived / 2);
        QVERIFY(out["gpu"]["mean_allocation_pct"].get<double>() > 50.0);
        const json* training = object(out, "ClusterQueue", "training");
        const json* interactive = object(out, "ClusterQueue", "interactive");
        QVERIFY(training && interactive);
        const auto used = (*training)["series"]["usage_nvidia.com/gpu"].get<std::vector<double>>();
        const auto borrowed = (*training)["series"]["borrowed_nvidia.com/gpu"].get<std::vector<double>>();
        const auto lent = (*interactive)["series"]["lent_nvidia.com/gpu"].get<std::vector<double>>();
        const auto otherUsed = (*interactive)["series"]["usage_nvidia.com/gpu"].get<std::vector<double>>();
        QCOMPARE((*training)["series"]["nominal_nvidia.com/gpu"].front().get<double>(), 288.0);
        // Training borrows what interactive leaves idle, never beyond the 384 GPUs of the cohort.
        QVERIFY(*std::max_element(borrowed.begin(), borrowed.end()) > 0);
        QVERIFY(*std::max_element(lent.begin(), lent.end()) > 0);
        for (size_t i = 0; i < used.size(); ++i) QVERIFY(used[i] + otherUsed[i] <= 384.0);
        // The ClusterQueues cover CPU and memory too, else Kueue would admit none of these jobs.
        QVERIFY((*training)["series"].contains("usage_cpu"));
    }

    // Fair sharing over time: two ClusterQueues borrowing all of their Cohort's 8 CPUs, contended,
    // without preemption. Each freed CPU goes to the lower weighted share, so the split converges to
    // the weights (3:1 -> 6 + 2 CPUs; equal weights -> 4 + 4). A cycle may admit both heads when two
    // CPUs are free, which leaves 5 + 3 until the next workload of team-b ends.
    void fairSharingConvergesToWeights() {
        const QString data = QString(GANTRY_TEST_DATA) + "/kueue/";
        const QStringList conf{"--scheduler-conf", data + "fair-sharing-config.yaml", "--sample", "5s"};
        const auto split = [](const json& out) {
            const json* a = object(out, "ClusterQueue", "team-a");
            const json* b = object(out, "ClusterQueue", "team-b");
            std::vector<std::pair<double, double>> s;
            if (!a || !b) return s;
            const auto ua = (*a)["series"]["usage_cpu"].get<std::vector<double>>();
            const auto ub = (*b)["series"]["usage_cpu"].get<std::vector<double>>();
            for (size_t i = 0; i < ua.size() && i < ub.size(); ++i) s.emplace_back(ua[i], ub[i]);
            return s;
        };
        // Samples every 5 s: both teams have a backlog from 25 s (converged) to 170 s.
        const auto weighted = split(simulate(conf, data + "sim-fair-sharing.yaml"));
        QVERIFY(weighted.size() > 35);
        int atWeights = 0;
        for (size_t i = 5; i <= 34; ++i) {
            const auto [a, b] = weighted[i];
            QCOMPARE(a + b, 8.0);
            QVERIFY2(a >= 5 && b <= 3, qPrintable(QString("at %1 s: %2 + %3").arg(i * 5).arg(a).arg(b)));
            atWeights += a == 6 && b == 2;
        }
        QVERIFY(atWeights >= 20);
        QCOMPARE(weighted[1], std::make_pair(4.0, 4.0)); // one head per ClusterQueue and cycle at first

        QTemporaryFile equal;
        QVERIFY(equal.open());
        QFile input(data + "sim-fair-sharing.yaml");
        QVERIFY(input.open(QIODevice::ReadOnly));
        equal.write(input.readAll().replace("weight: \"3\"", "weight: \"1\""));
        equal.close();
        const auto even = split(simulate(conf, equal.fileName()));
        QVERIFY(even.size() > 40);
        int halves = 0;
        for (size_t i = 1; i <= 40; ++i) {
            const auto [a, b] = even[i];
            QCOMPARE(a + b, 8.0);
            QVERIFY(a >= 3 && b >= 3);
            halves += a == 4 && b == 4;
        }
        QVERIFY(halves >= 35);
    }
};

GANTRY_TEST(KueueSimulateTest)
#include "test_kueue_simulate.moc"
