// gantry plan through the real binary: the bundled sample (the JSON contract of issue 16, every
// point judged from its own seeds' metrics), a small inventory whose answer is known, a range that
// cannot meet the SLOs, a broken monotonic assumption, located errors, the two-type mix, and the
// same answer for any --jobs.
#include "cli_run.h"
#include "test_registry.h"

#include <QRegularExpression>
#include <QtTest>
#include <nlohmann/json.hpp>

using gantry::test::runGantry;
using nlohmann::json;

namespace {

const QString kSample = QString(GANTRY_SOURCE_DIR) + "/resources/samples/gpu-cloud-east.yaml";
const QString kGangPool = QString(GANTRY_TEST_DATA) + "/plan/gang-pool.yaml";

json parse(const gantry::test::CliResult& r) {
    try {
        return json::parse(r.out.toStdString());
    } catch (const std::exception&) {
        return json();
    }
}

// Whether a value holds against "METRIC OP NUMBER" with a plain number (the tests' SLOs).
bool holds(double v, const std::string& op, double t) {
    if (op == "<") return v < t;
    if (op == "<=") return v <= t;
    if (op == ">") return v > t;
    if (op == ">=") return v >= t;
    if (op == "==") return v == t;
    return v != t;
}

// Checks every point's pass against its seeds' metrics (SLOs given as {metric, op, threshold}): a
// passing point holds in all `seeds` seeds; a failing one ends at its first failing seed.
void checkJudgement(const json& d, const std::vector<std::tuple<std::string, std::string, double>>& slos,
                    size_t seeds = 3) {
    for (const auto& p : d["points"]) {
        std::vector<bool> seedHolds;
        for (const auto& s : p["seeds"]) {
            bool all = true;
            for (const auto& [metric, op, t] : slos) {
                QVERIFY2(s["metrics"].contains(metric), metric.c_str());
                all = all && holds(s["metrics"][metric].get<double>(), op, t);
            }
            seedHolds.push_back(all);
        }
        QVERIFY(!seedHolds.empty() && seedHolds.size() <= seeds);
        for (size_t k = 0; k + 1 < seedHolds.size(); ++k) QVERIFY(seedHolds[k]);
        QCOMPARE(p["pass"].get<bool>(), bool(seedHolds.back()));
        if (seedHolds.back()) QCOMPARE(seedHolds.size(), seeds);
    }
}

const json* pointAt(const json& d, int64_t nodes) {
    for (const auto& p : d["points"])
        if (p["nodes"].get<int64_t>() == nodes) return &p;
    return nullptr;
}

} // namespace

class PlanCliTest : public QObject {
    Q_OBJECT
  private slots:
    void sampleJsonContract() {
        const auto r =
            runGantry({"plan", kSample, "--node-type", "gb200", "--slo", "queue[pretrain].wait.p95<10m",
                       "--slo", "pending_at_end==0", "--min", "-30", "--max", "16", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const json d = parse(r);
        QVERIFY2(d.is_object(), qPrintable(r.out));
        QVERIFY(d["answer"]["met"].get<bool>());
        const int64_t answer = d["answer"]["nodes"].get<int64_t>();
        QCOMPARE(d["slo"], json({"queue[pretrain].wait.p95<10m", "pending_at_end==0"}));
        QVERIFY(d["points"].size() <= 16);
        checkJudgement(d, {{"queue[pretrain].wait.p95", "<", 600}, {"pending_at_end", "==", 0}});
        for (const auto& p : d["points"]) {
            std::vector<uint64_t> seeds;
            for (const auto& s : p["seeds"]) seeds.push_back(s["seed"].get<uint64_t>());
            const std::vector<uint64_t> all{42, 43, 44};
            QVERIFY(std::equal(seeds.begin(), seeds.end(), all.begin()));
            QVERIFY(p["seeds"][0]["metrics"].contains("wait.p95"));
            QVERIFY(p["seeds"][0]["metrics"].contains("gpu.mean_allocation_pct"));
        }
        // The answer passed and the count below it failed: the smallest under the assumption.
        QVERIFY(pointAt(d, answer) && (*pointAt(d, answer))["pass"].get<bool>());
        QVERIFY(answer > -30);
        QVERIFY(pointAt(d, answer - 1) && !(*pointAt(d, answer - 1))["pass"].get<bool>());
        QCOMPARE(d["answer"]["margin"].size(), size_t(2));
        QVERIFY(d["answer"]["margin"][0]["headroom"].get<double>() >= 0);
    }

    void knownAnswer() {
        // Four gangs of two 8-GPU pods at once: none waits 30 minutes only when 8 nodes hold them all.
        const auto r = runGantry({"plan", kGangPool, "--node-type", "gpu", "--slo", "wait.max<30m", "--min",
                                  "1", "--max", "16", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const json d = parse(r);
        QCOMPARE(d["answer"]["nodes"].get<int64_t>(), int64_t(7));
        QVERIFY(d["answer"]["met"].get<bool>());
        checkJudgement(d, {{"wait.max", "<", 1800}});
        QVERIFY(pointAt(d, 6) && !(*pointAt(d, 6))["pass"].get<bool>());
        // With 7 nodes (6 added) three gangs run and the fourth waits the hour they take.
        QCOMPARE((*pointAt(d, 6))["seeds"][0]["metrics"]["wait.max"].get<double>(), 3600.0);
        QVERIFY(d["monotonic_violations"].empty());

        const auto text = runGantry(
            {"plan", kGangPool, "--node-type", "gpu", "--slo", "wait.max<30m", "--min", "1", "--max", "16"});
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("Answer: add 7 gpu nodes (8 in the pool, 1 now), 64 GPUs"),
                 qPrintable(text.out));
        QVERIFY(text.out.contains("one node fewer (+6) fails: wait.max 1h"));
        QVERIFY(text.out.contains("Monotonic assumption: held at every point tried."));
    }

    // The answer in physical GPUs: a pool whose nodes split two of eight GPUs into MIG instances
    // counts eight GPUs a node (not the six nvidia.com/gpu offers, nor the instances).
    void answerCountsPhysicalGpus() {
        const auto r = runGantry({"plan", QString(GANTRY_TEST_DATA) + "/plan/mig-pool.yaml", "--node-type",
                                  "a100", "--slo", "wait.p95<2h"});
        QCOMPARE(r.code, 0);
        QRegularExpression answer("\\((\\d+) in the pool, 4 now\\), (\\d+) GPUs");
        const auto m = answer.match(r.out);
        QVERIFY2(m.hasMatch(), qPrintable(r.out));
        QCOMPARE(m.captured(2).toInt(), 8 * m.captured(1).toInt());
    }

    void rangeThatCannotMeetTheSlos() {
        const auto r = runGantry({"plan", kGangPool, "--node-type", "gpu", "--slo", "wait.max<30m", "--min",
                                  "1", "--max", "4", "--json"});
        QCOMPARE(r.code, 0);
        const json d = parse(r);
        QVERIFY(!d["answer"]["met"].get<bool>());
        QCOMPARE(d["answer"]["nodes"].get<int64_t>(), int64_t(4));
        QVERIFY(pointAt(d, 4));
        const auto text = runGantry(
            {"plan", kGangPool, "--node-type", "gpu", "--slo", "wait.max<30m", "--min", "1", "--max", "4"});
        QVERIFY2(text.out.contains("No answer: the SLOs do not hold even at +4"), qPrintable(text.out));
    }

    void monotonicViolationIsReported() {
        // One node cannot hold a gang: no job starts, no wait is measured, and wait.max "passes";
        // two nodes run the gangs one after another and fail. The search says so.
        const auto r = runGantry(
            {"plan", kGangPool, "--node-type", "gpu", "--slo", "wait.max<30m", "--max", "16", "--json"});
        QCOMPARE(r.code, 0);
        const json d = parse(r);
        QCOMPARE(d["answer"]["nodes"].get<int64_t>(), int64_t(0));
        bool found = false;
        for (const auto& v : d["monotonic_violations"])
            found = found || (v["passing"] == 0 && v["failing"] == 1);
        QVERIFY2(found, d["monotonic_violations"].dump().c_str());
        const auto text =
            runGantry({"plan", kGangPool, "--node-type", "gpu", "--slo", "wait.max<30m", "--max", "16"});
        QVERIFY2(text.out.contains("Monotonic assumption violated"), qPrintable(text.out));
        QVERIFY(text.out.contains("+1 failed although 0 passed"));
        QVERIFY(text.out.contains("counts only jobs that started"));
    }

    void badSloIsLocatedWithTheMetricList() {
        const auto r = runGantry(
            {"plan", kGangPool, "--node-type", "gpu", "--slo", "wiat.p95<1h", "--slo", "wait.p95 < 1hour"});
        QCOMPARE(r.code, 1);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains(
                     "--slo 'wiat.p95<1h':1:1: error: unknown metric 'wiat.p95' (did you mean 'wait.p95'?)"),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains("--slo 'wait.p95 < 1hour':1:12: error: '1hour' is not a duration"),
                 qPrintable(r.err));
        QVERIFY(r.err.contains("metrics:"));
        for (const char* name :
             {"wait.p95", "pending_at_end", "gpu.mean_allocation_pct", "fragmentation.mean_pct",
              "gang.partial_hold_gpu_hours", "queue[NAME].wait.p95"})
            QVERIFY2(r.err.contains(name), name);
        // A queue the cluster lacks, a pool it lacks: said before any simulation.
        const auto q =
            runGantry({"plan", kGangPool, "--node-type", "gpu", "--slo", "queue[nope].wait.p95<1h"});
        QCOMPARE(q.code, 2);
        QVERIFY2(q.err.contains("no queue 'nope' (queues: team)"), qPrintable(q.err));
        const auto p = runGantry({"plan", kGangPool, "--node-type", "h100", "--slo", "wait.p95<1h"});
        QCOMPARE(p.code, 2);
        QVERIFY2(p.err.contains("no node pool 'h100' (pools: gpu)"), qPrintable(p.err));
        const auto m =
            runGantry({"plan", kGangPool, "--node-type", "gpu", "--slo", "wait.p95<1h", "--min", "-2"});
        QCOMPARE(m.code, 2);
        QVERIFY2(m.err.contains("pool 'gpu' has 1 nodes, 1 of them without pods: cannot remove 2"),
                 qPrintable(m.err));
    }

    void cheapestMixOfTwoTypes() {
        // The sample's A100 detection jobs and H100 pre-training: the mix passes, each type's
        // count is in its range, and the cost is the counts times the prices.
        const auto r = runGantry({"plan", kSample, "--node-type", "h100,a100", "--cost", "h100=3.2,a100=1.1",
                                  "--slo", "queue[detection].wait.p95<3h", "--min", "h100=-4,a100=-4",
                                  "--max", "h100=0,a100=4", "--seeds", "1", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const json d = parse(r);
        checkJudgement(d, {{"queue[detection].wait.p95", "<", 3 * 3600}}, 1);
        QVERIFY(d["answer"]["met"].get<bool>());
        const int64_t h = d["answer"]["mix"]["h100"].get<int64_t>(),
                      a = d["answer"]["mix"]["a100"].get<int64_t>();
        QCOMPARE(d["answer"]["nodes"].get<int64_t>(), h + a);
        QCOMPARE(d["answer"]["cost"].get<double>(), h * 3.2 + a * 1.1);
        // No passing point tried is cheaper than the answer.
        for (const auto& p : d["points"])
            if (p["pass"].get<bool>())
                QVERIFY(p["cost"].get<double>() >= d["answer"]["cost"].get<double>() - 1e-9);
    }

    void sameAnswerForAnyJobCount() {
        const QStringList args{"plan",        kSample,
                               "--node-type", "a100",
                               "--slo",       "queue[detection].wait.p95<2h",
                               "--slo",       "gpu.mean_allocation_pct>=5",
                               "--min",       "-8",
                               "--max",       "8",
                               "--json"};
        const auto one = runGantry(args + QStringList{"--jobs", "1"});
        const auto two = runGantry(args + QStringList{"--jobs", "2"});
        const auto three = runGantry(args + QStringList{"--jobs", "3"});
        QVERIFY2(one.code == 0, qPrintable(one.err));
        QVERIFY(parse(one)["points"].size() >= 4);
        QCOMPARE(two.out, one.out);
        QCOMPARE(three.out, one.out);
    }
};

GANTRY_TEST(PlanCliTest)
#include "test_plan_cli.moc"
