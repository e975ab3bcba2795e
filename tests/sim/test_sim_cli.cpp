// gantry simulate through the real binary: the bundled sample, a snapshot with what-if jobs, a
// trace, the outputs (JSON, CSV, summary), determinism, and bad input.
#include "test_registry.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

using nlohmann::json;

namespace {

const QString kData = QString(GANTRY_TEST_DATA) + "/sim/";
const QString kSample = QString(GANTRY_SOURCE_DIR) + "/resources/samples/gpu-cloud-east.yaml";

struct Run {
    int exitCode = -1;
    QByteArray out, err;
    json doc() const {
        try {
            return json::parse(out.toStdString());
        } catch (const std::exception&) {
            return json();
        }
    }
};

Run simulate(const QStringList& args) {
    QProcess p;
    p.start(GANTRY_CLI, QStringList{"simulate"} + args);
    p.waitForFinished(300000);
    Run r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

QByteArray readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QStringList files(const QString& dir) {
    return QDir(dir).entryList(QDir::Files, QDir::Name);
}

} // namespace

class SimCliTest : public QObject {
    Q_OBJECT
  private slots:
    void sampleSummary() {
        Run r = simulate({kSample});
        QCOMPARE(r.exitCode, 0);
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains("Jobs: 298 arrived of 298"), qPrintable(out));
        QVERIFY(out.contains("GPU allocation:"));
        QVERIFY(out.contains("Fragmentation (FGD):"));
        QVERIFY(out.contains("queue pretrain"));
        QVERIFY(out.contains("Queues (GPUs)"));
        QVERIFY(out.contains("deviceshare added"));
    }

    void sampleJsonHasEveryMetric() {
        Run r = simulate({kSample, "--json", "--horizon", "48h", "--sample", "10m"});
        QCOMPARE(r.exitCode, 0);
        json d = r.doc();
        QVERIFY2(d.is_object(), r.err.constData());
        QCOMPARE(d["end_seconds"].get<double>(), 172800.0);
        QCOMPARE(d["timeseries"]["time"].size(), size_t(289));
        for (const char* k : {"gpu_allocation_pct", "fragmentation_pct", "frag_over_idle_pct", "pending_jobs",
                              "running_jobs", "pending_pods", "partial_jobs"})
            QVERIFY2(d["timeseries"][k].size() == 289, k);
        QVERIFY(d["fragmentation"]["measured"].get<bool>());
        QVERIFY(d["gpu"]["mean_allocation_pct"].get<double>() > 0);
        // Queues with their quotas, usage series and wait distributions.
        bool pretrain = false;
        for (const auto& q : d["queues"]) {
            if (q["name"] != "pretrain") continue;
            pretrain = true;
            QCOMPARE(q["guarantee_gpus"].get<double>(), 96.0);
            QCOMPARE(q["deserved_gpus"].get<double>(), 240.0);
            QCOMPARE(q["capability_gpus"].get<double>(), 400.0);
            QVERIFY(q["peak_used_gpus"].get<double>() > 0);
            QVERIFY(q["wait_seconds"].contains("p99"));
        }
        QVERIFY(pretrain);
        QVERIFY(d["timeseries"]["queue_used_gpus"].contains("research")); // parents sum their children
        QVERIFY(!d["priorities"].empty());
        QVERIFY(d["priorities"][0]["priority"].get<int>() >= d["priorities"].back()["priority"].get<int>());
        for (const char* k : {"pod_evictions", "job_restarts", "lost_gpu_hours"})
            QVERIFY(d["preemption"].contains(k));
        QVERIFY(d["gang"]["jobs"].get<int>() > 0);
        QVERIFY(d.contains("pending_reasons"));
        QVERIFY(d.contains("pending_at_end"));
    }

    // Every job is accounted for: started, still pending, or failed. Under YuniKorn the busy
    // week's Hard-style gangs that cannot be placed before their placeholders time out fail; they
    // are counted, listed with YuniKorn's reason, and said in the summary.
    void failedJobsAreCountedAndListed() {
        const QString busyWeek = QString(GANTRY_SOURCE_DIR) + "/resources/samples/busy-week.yaml";
        Run r = simulate({busyWeek, "--profile", "yunikorn", "--json"});
        QCOMPARE(r.exitCode, 0);
        const json doc = r.doc();
        const json& jobs = doc["jobs"];
        const int failed = jobs["failed"].get<int>();
        QVERIFY(failed > 0);
        QCOMPARE(jobs["arrived"].get<int>(),
                 jobs["started"].get<int>() + jobs["pending_at_end"].get<int>() + failed);
        QCOMPARE(int(doc["failed_jobs"].size()), failed);
        for (const auto& f : doc["failed_jobs"])
            QVERIFY2(f["reason"].get<std::string>().find("placeholders timed out") != std::string::npos,
                     f.dump().c_str());
        Run text = simulate({busyWeek, "--profile", "yunikorn"});
        const QString out = QString::fromUtf8(text.out);
        QVERIFY2(out.contains(QString("Failed: %1 jobs").arg(failed)), qPrintable(out));
        QVERIFY(out.contains(QString("Failed jobs (%1)\n  ").arg(failed)));
        QVERIFY(out.contains(QString::fromStdString(doc["failed_jobs"][0]["job"].get<std::string>() + ": ")));
    }

    // A job that ends and a gang that arrives within one cycle share the job's index in the state;
    // under YuniKorn the gang is still its own application: placeholders first, then it runs. With
    // 1-second cycles the two never share a cycle, so both cycle lengths must start every job.
    void yunikornGangAfterAJobEndsInTheSameCycle() {
        for (const QString cycle : {"10s", "1s"}) {
            Run r = simulate({kData + "yunikorn-job-slot-reuse.yaml", "--profile", "yunikorn", "--cycle",
                              cycle, "--json"});
            QCOMPARE(r.exitCode, 0);
            const json doc = r.doc();
            const json& jobs = doc["jobs"];
            QCOMPARE(jobs["arrived"].get<int>(), 3);
            QCOMPARE(jobs["started"].get<int>(), 3);
            QCOMPARE(jobs["completed"].get<int>(), 3);
            QCOMPARE(jobs["partial_at_end"].get<int>(), 0);
            QCOMPARE(doc["gang"]["jobs"].get<int>(), 2);
            // Each job waits at most one cycle for its placeholders and one for its pods.
            QVERIFY2(doc["wait_seconds"]["max"].get<double>() <= 20.0, doc["wait_seconds"].dump().c_str());
        }
    }

    void sameSeedSameBytes() {
        QTemporaryDir dir;
        const QString a = dir.path() + "/a", b = dir.path() + "/b";
        Run r1 = simulate({kSample, "--json", "--seed", "7", "--csv", a});
        Run r2 = simulate({kSample, "--json", "--seed", "7", "--csv", b});
        QCOMPARE(r1.exitCode, 0);
        QCOMPARE(r2.exitCode, 0);
        QVERIFY(r1.out.size() > 10000);
        QCOMPARE(r1.out, r2.out);
        QCOMPARE(files(a),
                 (QStringList{"namespaces.csv", "pending.csv", "priorities.csv", "queues.csv", "reasons.csv",
                              "summary.csv", "timeseries.csv", "topology_slots.csv"}));
        for (const QString& f : files(a)) QCOMPARE(readFile(a + "/" + f), readFile(b + "/" + f));
        QVERIFY(readFile(a + "/timeseries.csv").startsWith("time,gpu_allocation_pct,fragmentation_pct,"));
        QVERIFY(readFile(a + "/queues.csv").contains("\npretrain,llm,96,240,400,"));
        // Another seed draws other arrivals and durations.
        Run r3 = simulate({kSample, "--json", "--seed", "8"});
        QCOMPARE(r3.exitCode, 0);
        QVERIFY(r3.out != r1.out);
        QVERIFY(r3.doc()["wait_seconds"] != r1.doc()["wait_seconds"] ||
                r3.doc()["completion_seconds"] != r1.doc()["completion_seconds"]);
    }

    void everyCycleGivesTheSameResult() {
        Run skip = simulate({kSample, "--json", "--horizon", "6h"});
        Run every = simulate({kSample, "--json", "--horizon", "6h", "--every-cycle"});
        QCOMPARE(skip.exitCode, 0);
        QCOMPARE(every.exitCode, 0);
        json a = skip.doc(), b = every.doc();
        QCOMPARE(b["sessions"].get<int64_t>(), int64_t(21601));
        QVERIFY(a["sessions"].get<int64_t>() < 2000);
        for (json* d : {&a, &b}) {
            d->erase("sessions");
            d->erase("cycles_skipped");
            d->erase("parked_job_sessions");
        }
        QCOMPARE(QString::fromStdString(a.dump()), QString::fromStdString(b.dump()));
    }

    void kubeDefaultContrast() {
        Run r = simulate({kData + "gang.yaml", "--profile", "kube-default", "--json"});
        QCOMPARE(r.exitCode, 0);
        json d = r.doc();
        QCOMPARE(d["profile"], "kube-default");
        QCOMPARE(d["gang"]["wait_seconds"]["max"].get<double>(), 50.0);
        QVERIFY(d["gang"]["partial_hold_gpu_hours"].get<double>() > 0);
    }

    void snapshotJobsWithDefaults() {
        Run r = simulate(
            {kData + "jobs-snapshot.yaml", "--arrival", "every:5m", "--duration", "exp:20m", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains("jobs-snapshot.yaml:82:1: warning: 3 jobs gave no arrival time"),
                 qPrintable(err));
        QVERIFY(err.contains("3 jobs gave no duration; they run for the default duration"));
        json d = r.doc();
        QCOMPARE(d["jobs"]["total"].get<int>(), 5);
        QCOMPARE(d["jobs"]["completed"].get<int>(), 5);
        QCOMPARE(d["gang"]["jobs"].get<int>(), 2); // bert (3 pods) and eval (2)
        QCOMPARE(d["cluster"]["gpus"].get<double>(), 16.0);
        // Without --duration the unannotated sweeps run until the end. Spread over both nodes they
        // leave room for only two of bert's three 4-GPU pods: the gang waits for good.
        Run endless = simulate({kData + "jobs-snapshot.yaml", "--json", "--horizon", "5h"});
        QCOMPARE(endless.exitCode, 0);
        json f = endless.doc();
        QCOMPARE(f["jobs"]["completed"].get<int>(), 1);
        QCOMPARE(f["jobs"]["running_at_end"].get<int>(), 3);
        QCOMPARE(f["pending_at_end"].size(), size_t(1));
        QCOMPARE(f["pending_at_end"][0]["job"], "ml/bert");
        QVERIFY(f["pending_at_end"][0]["reason"].get<std::string>().find("minMember 3, 2 placeable") !=
                std::string::npos);
        QVERIFY(QString::fromUtf8(endless.err).contains("they run until the end of the simulation"));
    }

    // gantry.io/duration: "0" runs until the end, whatever --duration says; a duration given runs
    // for that long (docs/simulation.md).
    void anExplicitZeroDurationRunsUntilTheEnd() {
        Run r = simulate({kData + "until-the-end.yaml", "--duration", "10m", "--horizon", "3h", "--json"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(!QString::fromUtf8(r.err).contains("gave no duration"), r.err.constData());
        json d = r.doc();
        QCOMPARE(d["jobs"]["total"].get<int>(), 2);
        QCOMPARE(d["jobs"]["completed"].get<int>(), 1);
        QCOMPARE(d["jobs"]["running_at_end"].get<int>(), 1);
    }

    void trace() {
        Run r = simulate({"--nodes", kData + "trace-nodes.csv", "--pods", kData + "trace-pods.csv",
                          "--sample", "10m", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QString err = QString::fromUtf8(r.err);
        // The reader's counted warnings, and the simulator's for tasks without a deletion time.
        QVERIFY2(
            err.contains("trace-pods.csv:42:1: warning: 1 task(s) ask for GPU model 'H800' that no node has"),
            qPrintable(err));
        QVERIFY(err.contains("trace-pods.csv:43:1: warning: 1 tasks gave no duration"));
        json d = r.doc();
        QCOMPARE(d["jobs"]["total"].get<int>(), 42);
        QCOMPARE(d["cluster"]["nodes"].get<int>(), 6);
        QCOMPARE(d["cluster"]["gpus"].get<double>(), 26.0);
        QVERIFY(d["fragmentation"]["measured"].get<bool>());
        QVERIFY(!d["fragmentation"]["target_workload"].empty());
        // The H800 task can never run: it is pending at the end, for a reason in the scheduler's words.
        QCOMPARE(d["pending_at_end"].size(), size_t(1));
        QCOMPARE(d["pending_at_end"][0]["job"], "default/trace-pod-h800");
        QVERIFY(d["pending_at_end"][0]["reason"].get<std::string>().find(
                    "didn't match Pod's node affinity") != std::string::npos);
        QCOMPARE(d["jobs"]["running_at_end"].get<int>(), 1); // the task without a deletion time
        double peak = 0;
        for (double v : d["timeseries"]["gpu_allocation_pct"]) peak = std::max(peak, v);
        QVERIFY(peak > 40);
        QVERIFY(d["warnings"][0].get<std::string>().find("deviceshare") != std::string::npos);
    }

    void badTraces_data() {
        QTest::addColumn<QString>("nodes");
        QTest::addColumn<QString>("pods");
        QTest::addColumn<QString>("error");
        const QString header =
            "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
            "deletion_time,scheduled_time\n";
        QTest::newRow("missing column") << ""
                                        << "name,cpu_milli,memory_mib,num_gpu\np,1000,1024,1\n"
                                        << "pods.csv:1:1: error:";
        QTest::newRow("wrong type") << "" << header + "p,lots,1024,1,1000,,LS,Running,0,10,0\n"
                                    << "pods.csv:2:";
        QTest::newRow("negative") << "" << header + "p,1000,-5,1,1000,,LS,Running,0,10,0\n"
                                  << "pods.csv:2:";
        QTest::newRow("node without cpu") << "sn,cpu_milli,memory_mib,gpu,model\nn1,,1024,1,T4\n"
                                          << header + "p,1000,1024,1,1000,,LS,Running,0,10,0\n"
                                          << "nodes.csv:2:";
    }

    void badTraces() {
        QFETCH(QString, nodes);
        QFETCH(QString, pods);
        QFETCH(QString, error);
        QTemporaryDir dir;
        auto write = [&](const QString& name, const QString& text) {
            QFile f(dir.path() + "/" + name);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text.toUtf8());
        };
        write("nodes.csv",
              nodes.isEmpty() ? "sn,cpu_milli,memory_mib,gpu,model\nn1,32000,65536,2,T4\n" : nodes);
        write("pods.csv", pods);
        Run r = simulate({"--nodes", dir.path() + "/nodes.csv", "--pods", dir.path() + "/pods.csv"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(error), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    // A workload field a user got wrong stops the run with the place and the reason.
    void badWorkloadFields_data() {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("error");
        QTest::newRow("duration")
            << "    duration: 24h\n"
            << "    duration: 24 hours\n"
            << ":167:15: error: workload 'moe-nvl72': duration: '24 hours' is not a duration";
        QTest::newRow("replicas")
            << "    replicas: 18\n"
            << "    replicas: -2\n"
            << ":160:15: error: workload 'moe-nvl72': replicas: replicas must be at least 1";
        QTest::newRow("arrival")
            << "    arrival: {times: [1h]}\n"
            << "    arrival: {ratePerHour: 0}\n"
            << ":166:28: error: workload 'moe-nvl72': arrival.ratePerHour: a Poisson arrival needs "
               "ratePerHour > 0";
    }

    void badWorkloadFields() {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, error);
        QString text = QString::fromUtf8(readFile(kSample));
        QCOMPARE(text.count(from), 1);
        text.replace(from, to);
        QTemporaryDir dir;
        const QString path = dir.path() + "/inventory.yaml";
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text.toUtf8());
        f.close();
        Run r = simulate({path, "--json"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(path + error), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    // Trace timing problems are counted warnings; the run goes on with the defaults.
    void traceTimingWarnings() {
        QTemporaryDir dir;
        const QString pods = dir.path() + "/pods.csv";
        QFile f(pods);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
                "deletion_time,scheduled_time\n"
                "ok,1000,1024,1,1000,,LS,Running,100,400,100\n"
                "inverted,1000,1024,1,1000,,LS,Running,200,150,200\n"
                "inverted-too,1000,1024,1,1000,,LS,Running,300,250,300\n"
                "no-times,1000,1024,1,1000,,LS,Running,,,0\n");
        f.close();
        Run r = simulate({"--nodes", kData + "trace-nodes.csv", "--pods", pods, "--duration", "10m",
                          "--arrival", "at:1h", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains(pods + ":3:1: warning: 2 tasks are deleted before they are created"),
                 qPrintable(err));
        QVERIFY2(err.contains(pods + ":5:1: warning: 1 tasks gave no arrival time"), qPrintable(err));
        QVERIFY2(
            err.contains(pods + ":3:1: warning: 3 tasks gave no duration; they run for the default duration"),
            qPrintable(err));
        json d = r.doc();
        QCOMPARE(d["jobs"]["completed"].get<int>(), 4);
        // Arrivals count from the earliest creation (100 s): the last job arrives at 1 h and runs 10 min.
        QCOMPARE(d["end_seconds"].get<double>(), 3600.0 + 600.0);
        QCOMPARE(d["completion_seconds"]["max"].get<double>(), 600.0);
    }

    // Several profiles on one workload: each run is exactly the run of that profile alone, and each
    // verdict names the profile with the best value.
    void compareProfiles() {
        QTemporaryDir dir;
        const QStringList common{kSample, "--horizon", "24h", "--seed", "3"};
        Run both = simulate(common +
                            QStringList{"--profile", "volcano,kube-default", "--json", "--csv", dir.path()});
        QCOMPARE(both.exitCode, 0);
        json d = both.doc();
        QCOMPARE(d["profiles"], json({"volcano", "kube-default"}));
        for (const char* name : {"volcano", "kube-default"}) {
            Run alone = simulate(common + QStringList{"--profile", name, "--json"});
            QCOMPARE(alone.exitCode, 0);
            QVERIFY2(d["runs"][name] == alone.doc(), name);
        }
        QVERIFY(d["verdicts"].size() >= 12);
        int decided = 0;
        for (const auto& v : d["verdicts"]) {
            const auto& values = v["values"];
            QCOMPARE(values.size(), size_t(2));
            if (v["best"].is_null()) {
                QVERIFY2(v["verdict"].get<std::string>().starts_with("tie"), v.dump().c_str());
                continue;
            }
            ++decided;
            const std::string best = v["best"], other = best == "volcano" ? "kube-default" : "volcano";
            const double a = values[best], b = values[other];
            QVERIFY2(v["lower_is_better"].get<bool>() ? a < b : a > b, v.dump().c_str());
            QVERIFY2(v["verdict"].get<std::string>().starts_with(best + " wins: "), v.dump().c_str());
        }
        QVERIFY(decided > 0);
        // Wait p95 of all jobs is the run's own figure.
        for (const auto& v : d["verdicts"])
            if (v["metric"] == "wait.p95")
                QCOMPARE(v["values"]["volcano"].get<double>(),
                         d["runs"]["volcano"]["wait_seconds"]["p95"].get<double>());
        QVERIFY(readFile(dir.path() + "/compare.csv")
                    .startsWith("metric,title,volcano,kube-default,best,verdict\n"));
        QCOMPARE(files(dir.path() + "/kube-default").size(), files(dir.path() + "/volcano").size());
        QVERIFY(files(dir.path() + "/volcano").contains("timeseries.csv"));
        // One thread or two: the same bytes.
        Run serial =
            simulate(common + QStringList{"--profile", "volcano,kube-default", "--json", "--jobs", "1"});
        QCOMPARE(serial.out, both.out);
        Run text = simulate(common + QStringList{"--profile", "volcano,kube-default"});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("Measure") && text.out.contains("Verdicts:"), text.out.constData());
    }

    void badOptions_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("no input") << QStringList{} << 1 << "no input";
        QTest::newRow("arrival") << QStringList{kSample, "--arrival", "sometimes"} << 1 << "unknown arrival";
        QTest::newRow("duration") << QStringList{kSample, "--duration", "uniform:2h..1h"} << 1 << "uniform:";
        QTest::newRow("cycle") << QStringList{kSample, "--cycle", "0"} << 1 << "not a positive duration";
        QTest::newRow("profile") << QStringList{kSample, "--profile", "slurm"} << 1 << "unknown profile";
        QTest::newRow("profile twice")
            << QStringList{kSample, "--profile", "volcano,volcano"} << 1 << "'volcano' is named twice";
        QTest::newRow("unknown among several")
            << QStringList{kSample, "--profile", "volcano,slurm"} << 1 << "unknown profile 'slurm'";
        QTest::newRow("conf for which profile")
            << QStringList{kSample, "--profile", "volcano,kube-default", "--scheduler-conf",
                           kData + "preempt-conf.yaml"}
            << 1 << "say which profile reads it";
        QTest::newRow("conf for a profile not compared")
            << QStringList{kSample, "--scheduler-conf", "kube-default=" + kData + "preempt-conf.yaml"} << 1
            << "'kube-default' is not among --profile";
        QTest::newRow("half a trace")
            << QStringList{"--nodes", kData + "trace-nodes.csv"} << 1 << "both --nodes";
        QTest::newRow("conf as input") << QStringList{kData + "preempt-conf.yaml"} << 2 << "--scheduler-conf";
        QTest::newRow("missing file") << QStringList{kData + "nope.yaml"} << 2 << "nope.yaml";
        QTest::newRow("bad conf") << QStringList{kSample, "--scheduler-conf", kData + "bad-conf.yaml"} << 2
                                  << "bad-conf.yaml:";
    }

    void badOptions() {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        Run r = simulate(args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    }
};

GANTRY_TEST(SimCliTest)
#include "test_sim_cli.moc"
