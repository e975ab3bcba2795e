// gantry trace end to end: the JSON contract, the readable summary, and bad input.
#include "cli_run.h"
#include "test_registry.h"

#include <QtTest>
#include <nlohmann/json.hpp>

namespace {

using gantry::test::runGantry;

const QString kNodes = GANTRY_TEST_DATA "/trace/nodes_small.csv";
const QString kPods = GANTRY_TEST_DATA "/trace/pods_small.csv";

} // namespace

class CmdTraceTest : public QObject {
    Q_OBJECT
  private slots:
    void jsonContract() {
        auto r = runGantry(
            {"trace", "--nodes", kNodes, "--pods", kPods, "--policy", "fgd", "--seed", "42", "--json"});
        QCOMPARE(r.code, 0);
        auto j = nlohmann::json::parse(r.out.toStdString());
        std::vector<std::string> keys;
        for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
        std::sort(keys.begin(), keys.end());
        QCOMPARE(keys,
                 (std::vector<std::string>{"arrived_pct", "frag_over_idle_gpu_pct", "frag_over_total_gpu_pct",
                                           "gpu_alloc_pct", "policy", "seed", "total_gpus"}));
        QCOMPARE(j["policy"].get<std::string>(), std::string("fgd"));
        QCOMPARE(j["seed"].get<int>(), 42);
        QCOMPARE(j["total_gpus"].get<int>(), 100);
        QCOMPARE(j["arrived_pct"].size(), size_t(131));
        QCOMPARE(j["arrived_pct"][130].get<int>(), 130);
        for (const char* k : {"gpu_alloc_pct", "frag_over_total_gpu_pct", "frag_over_idle_gpu_pct"})
            QCOMPARE(j[k].size(), size_t(131));
        // Every arrived GPU is placed while the cluster is far from full (a percent is one GPU here,
        // so the per-percent means round a task either side).
        // An 8-GPU task jumps 8 points at once, leaving nulls where no task arrived near a percent.
        int present = 0;
        for (int p = 0; p <= 50; ++p) {
            const auto& v = j["gpu_alloc_pct"][p];
            QVERIFY(v.is_null() || v.is_number());
            if (v.is_null()) continue;
            ++present;
            QVERIFY(std::abs(v.get<double>() - p) <= 1.5);
        }
        QVERIFY(present > 40);
        QVERIFY(j["gpu_alloc_pct"][130].is_number());
        double last = j["gpu_alloc_pct"][130].get<double>();
        QVERIFY(last > 80 && last <= 100);

        // Same seed, same answer; the inflation sets the length.
        auto again = runGantry(
            {"trace", "--nodes", kNodes, "--pods", kPods, "--policy", "fgd", "--seed", "42", "--json"});
        QCOMPARE(again.out, r.out);
        auto shorter = runGantry({"trace", "--nodes", kNodes, "--pods", kPods, "--policy", "random", "--seed",
                                  "3", "--inflation", "0.5", "--json"});
        QCOMPARE(shorter.code, 0);
        QCOMPARE(nlohmann::json::parse(shorter.out.toStdString())["gpu_alloc_pct"].size(), size_t(51));
    }

    void readableSummary() {
        auto r =
            runGantry({"trace", "--nodes", kNodes, "--pods", kPods, "--policy", "bestfit", "--seed", "1"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("policy bestfit, seed 1"), qPrintable(r.out));
        QVERIFY(r.out.contains("cluster: 20 nodes, 100 GPUs"));
        QVERIFY(r.out.contains("tasks: 120 in the list"));
        QVERIFY(r.out.contains("arrived %  GPU alloc %"));
    }

    void badInputIsLocated() {
        QTemporaryDir dir;
        QFile f(dir.filePath("pods.csv"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("name,cpu_milli,memory_mib,num_gpu,gpu_milli\np1,1000,abc,1,500\n");
        f.close();
        auto r =
            runGantry({"trace", "--nodes", kNodes, "--pods", f.fileName(), "--policy", "fgd", "--seed", "1"});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err.trimmed(),
                 f.fileName() + ":2:9: error: memory_mib: expected a whole number, found 'abc'");
        QVERIFY(r.out.isEmpty());
    }

    void usageErrors() {
        QCOMPARE(
            runGantry({"trace", "--nodes", kNodes, "--pods", kPods, "--policy", "fastest", "--seed", "1"})
                .code,
            1);
        QCOMPARE(runGantry({"trace", "--nodes", kNodes, "--pods", kPods, "--policy", "fgd"}).code, 1);
        QCOMPARE(
            runGantry({"trace", "--nodes", kNodes, "--pods", kPods, "--policy", "fgd", "--seed", "x"}).code,
            1);
        QCOMPARE(runGantry({"trace", "--help"}).code, 0);
    }
};

GANTRY_TEST(CmdTraceTest)
#include "test_cmd_trace.moc"
