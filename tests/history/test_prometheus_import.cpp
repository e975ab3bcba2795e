// gantry import --prometheus against a real Prometheus holding a history whose truth the test knows:
// the snapshot must give back exactly those jobs (pods, requests, queues, gangs), their arrivals
// within one step and their durations within two, and gantry simulate must replay them.
#include "history_harness.h"
#include "snapshot/snapshot_importer.h"
#include "test_registry.h"

#include <QtTest>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

using namespace gantry::testing;

namespace {

const gantry::PodGroup* findJob(const gantry::Cluster& c, const TruthJob& t) {
    for (const auto& g : c.podGroups) {
        if (g.ns != t.ns) continue;
        auto owner = g.annotations.find("gantry.io/owner");
        if (t.ownerKind.empty()
                ? (owner == g.annotations.end() && g.name == t.ownerName)
                : (owner != g.annotations.end() && owner->second == t.ownerKind + "/" + t.ownerName))
            return &g;
    }
    return nullptr;
}

std::string describe(const TruthJob& t) {
    return t.ns + "/" + (t.ownerKind.empty() ? "" : t.ownerKind + "/") + t.ownerName;
}

} // namespace

class PrometheusImportTest : public QObject {
    Q_OBJECT
    std::unique_ptr<HistoryHarness> h_;
    std::string out_;
    Run import_;

  private slots:
    void initTestCase() {
        if (std::string why = prometheusMissing(); !why.empty()) QSKIP(why.c_str());
        h_ = std::make_unique<HistoryHarness>();
        out_ = h_->path("out/history.yaml");
        import_ =
            runCli(QStringList{"import", "--prometheus", QString::fromStdString(h_->prometheus->url())} +
                   h_->window() + QStringList{"--out", QString::fromStdString(out_)});
        QVERIFY2(import_.exitCode == 0, import_.err.c_str());
    }

    void theSnapshotHoldsTheHistorysJobs() {
        gantry::Diagnostics warnings;
        gantry::Cluster c = gantry::readSnapshotFiles({out_}, &warnings);
        const auto& truth = h_->fixture.truth;
        QCOMPARE(c.podGroups.size(), truth.size());
        const double step = h_->fixture.step;
        std::map<std::string, const gantry::Pod*> podByKey;
        for (const auto& p : c.pods) podByKey[p.ns + "/" + p.name] = &p;
        for (const auto& t : truth) {
            const gantry::PodGroup* g = findJob(c, t);
            QVERIFY2(g, ("no job for " + describe(t)).c_str());
            const std::string what = describe(t);
            QVERIFY2(
                std::fabs(g->arrivalSeconds - t.arrival) <= step,
                (what + ": arrival " + std::to_string(g->arrivalSeconds) + " vs " + std::to_string(t.arrival))
                    .c_str());
            const bool open = g->annotations.count("gantry.io/open-ended") &&
                              g->annotations.at("gantry.io/open-ended") == "true";
            QVERIFY2(open == t.openEnded, (what + ": open-ended").c_str());
            if (t.duration == 0)
                QVERIFY2(g->durationSeconds == 0, (what + ": runs until the end").c_str());
            else
                QVERIFY2(std::fabs(g->durationSeconds - t.duration) <= 2 * step,
                         (what + ": duration " + std::to_string(g->durationSeconds) + " vs " +
                          std::to_string(t.duration))
                             .c_str());
            QVERIFY2(g->queue == t.queue, (what + ": queue " + g->queue + " vs " + t.queue).c_str());
            QVERIFY2(g->minMember == t.minMember, (what + ": minMember " + std::to_string(g->minMember) +
                                                   " vs " + std::to_string(t.minMember))
                                                      .c_str());
            // Exactly its pods, with their requests.
            std::set<std::string> names;
            for (const auto& p : c.pods)
                if (p.ns == g->ns && p.group == g->name) {
                    names.insert(p.name);
                    auto it = t.pods.find(p.name);
                    QVERIFY2(it != t.pods.end(), (what + ": unexpected pod " + p.name).c_str());
                    QVERIFY2(p.nodeName.empty(), (what + ": " + p.name + " is not pending").c_str());
                    for (const auto& [resource, amount] : it->second)
                        QVERIFY2(p.requests.get(resource) == amount,
                                 (what + ": " + p.name + " " + resource + " " +
                                  std::to_string(p.requests.get(resource)) + " vs " + std::to_string(amount))
                                     .c_str());
                    QCOMPARE(int(p.requests.size()), int(it->second.size()));
                    QCOMPARE(p.annotations.at("gantry.io/arrival"), g->annotations.at("gantry.io/arrival"));
                    QCOMPARE(p.annotations.at("gantry.io/duration"), g->annotations.at("gantry.io/duration"));
                }
            QVERIFY2(names.size() == t.pods.size(), (what + ": pods").c_str());
        }
    }

    void jobsOfEarlierWindowsStayOrGo() {
        gantry::Cluster c = gantry::readSnapshotFiles({out_});
        int bound = 0;
        for (const auto& p : c.pods) {
            QVERIFY2(p.name != "warmup-0", "a pod of a job that ended inside the window is not replayed");
            if (p.nodeName.empty()) continue;
            ++bound;
            QCOMPARE(p.ns + "/" + p.name + "@" + p.nodeName, h_->fixture.runningThrough.at(0));
            QVERIFY(p.group.empty());
            QCOMPARE(p.requests.get("nvidia.com/gpu"), int64_t(4000));
        }
        QCOMPARE(bound, 1);
    }

    void nodesComeWithTheirGpus() {
        gantry::Cluster c = gantry::readSnapshotFiles({out_});
        QCOMPARE(c.nodes.size(), h_->fixture.nodes.size());
        for (const auto& n : c.nodes) {
            QCOMPARE(n.allocatable.get("nvidia.com/gpu"), int64_t(8000));
            QCOMPARE(n.allocatable.get("cpu"), int64_t(96000));
            QCOMPARE(n.gpus.count, 8);
            QCOMPARE(n.gpus.model, std::string("NVIDIA-H100-80GB-HBM3"));
            QVERIFY(n.labels.at("topology.kubernetes.io/zone").rfind("zone-", 0) == 0);
        }
    }

    void priorityClassesAreNamed() {
        gantry::Cluster c = gantry::readSnapshotFiles({out_});
        bool training = false;
        for (const auto& g : c.podGroups)
            if (g.name == "llama-ft") training = g.priorityClassName == "training";
        QVERIFY(training);
        // Their values are not in kube-state-metrics: the import says so.
        QVERIFY2(import_.err.find("priority classes batch-low, training") != std::string::npos,
                 import_.err.c_str());
    }

    void progressAndNotesSayWhatHappened() {
        const std::string& e = import_.err;
        // 26 hours in chunks of at most 6: five chunks, each a bounded set of queries.
        QVERIFY2(e.find("chunk 5 of 5") != std::string::npos, e.c_str());
        QVERIFY2(e.find("1 pod was created again under the same name") != std::string::npos, e.c_str());
        QVERIFY2(e.find("never started and still waited at the end") != std::string::npos, e.c_str());
        QVERIFY2(e.find("1 job never started and was deleted") != std::string::npos, e.c_str());
        QVERIFY2(e.find("started at different times") != std::string::npos, e.c_str());
        QVERIFY2(
            e.find(
                "2 jobs created before the window are not replayed; 1 pod of theirs still running at its end "
                "stays on its node; 1 pod of theirs that ended inside it is left out") != std::string::npos,
            e.c_str());
        const std::string wrote =
            "wrote " + out_ + ": 8 nodes, " + std::to_string(h_->fixture.truth.size()) + " jobs";
        QVERIFY2(e.find(wrote) != std::string::npos, e.c_str());
        QVERIFY(errorLines(e).empty());
    }

    // gantry simulate replays the window: every job created in it, with its pods, arriving when it did.
    void simulateReplaysTheWindow() {
        int64_t pods = 0;
        for (const auto& t : h_->fixture.truth) pods += int64_t(t.pods.size());
        Run run = runCli({"simulate", QString::fromStdString(out_), "--json"});
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        auto doc = nlohmann::json::parse(run.out);
        QCOMPARE(doc["jobs"]["total"].get<int64_t>(), int64_t(h_->fixture.truth.size()));
        QCOMPARE(doc["pods"]["total"].get<int64_t>(), pods);
        QCOMPARE(doc["cluster"]["nodes"].get<int64_t>(), int64_t(8));
        // Cut at 13 h, exactly the jobs the history created in the first 13 h have arrived.
        for (double cut : {6.5 * 3600, 13.5 * 3600}) {
            int64_t arrived = 0;
            for (const auto& t : h_->fixture.truth) arrived += t.arrival <= cut;
            Run part = runCli({"simulate", QString::fromStdString(out_), "--json", "--horizon",
                               QString::number(cut, 'f', 0)});
            QVERIFY2(part.exitCode == 0, part.err.c_str());
            auto d = nlohmann::json::parse(part.out);
            QCOMPARE(d["jobs"]["arrived"].get<int64_t>(), arrived);
        }
    }

    // Every profile schedules the history's jobs as the workload under study (gantry.io/history),
    // whatever scheduler their pods once named: none waits for another scheduler. (How many start
    // is the what-if: 64-GPU gangs never fit beside the pods held for the whole replay.)
    void everyProfileReplaysTheHistory() {
        const int64_t total = int64_t(h_->fixture.truth.size());
        for (const char* profile : {"volcano", "kueue", "yunikorn", "kube-default"}) {
            Run run = runCli({"simulate", QString::fromStdString(out_), "--json", "--profile", profile});
            QVERIFY2(run.exitCode == 0, (std::string(profile) + ": " + run.err).c_str());
            auto doc = nlohmann::json::parse(run.out);
            const auto& jobs = doc["jobs"];
            QVERIFY2(jobs["arrived"].get<int64_t>() == total,
                     (std::string(profile) + ": " + jobs.dump()).c_str());
            QVERIFY2(jobs["started"].get<int64_t>() > 0, (std::string(profile) + ": " + jobs.dump()).c_str());
            for (const auto& p : doc["pending_at_end"])
                QVERIFY2(p["reason"].get<std::string>().find("schedulerName") == std::string::npos,
                         (std::string(profile) + ": " + p.dump()).c_str());
        }
        // Under Volcano every job that fits beside them starts, and all but the one still waiting at
        // the window's end (it runs until the end) finish.
        Run run = runCli({"simulate", QString::fromStdString(out_), "--json", "--profile", "volcano"});
        auto doc = nlohmann::json::parse(run.out);
        int64_t fits = 0;
        for (const auto& t : h_->fixture.truth) {
            int64_t gpus = 0;
            for (const auto& [pod, requests] : t.pods)
                if (auto it = requests.find("nvidia.com/gpu"); it != requests.end()) gpus += it->second;
            fits += gpus <= 8000;
        }
        QVERIFY2(doc["jobs"]["started"].get<int64_t>() >= fits, doc["jobs"].dump().c_str());
        QCOMPARE(doc["jobs"]["running_at_end"].get<int64_t>(), int64_t(1));
    }

    void inspectReadsTheHistory() {
        Run run = runCli({"inspect", QString::fromStdString(out_)});
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        QVERIFY2(run.out.find("64") != std::string::npos, run.out.c_str()); // 8 nodes x 8 GPUs
    }

    // A failed import leaves the file that was there, and no temporary file beside it.
    void anExistingFileSurvivesAFailure() {
        const std::string kept = h_->path("out/kept.yaml");
        { std::ofstream(kept) << "# the previous history\n"; }
        const int closed = freePort();
        Run run = runCli(QStringList{"import", "--prometheus", QString("http://127.0.0.1:%1").arg(closed)} +
                         h_->window() + QStringList{"--out", QString::fromStdString(kept)});
        QCOMPARE(run.exitCode, 3);
        QCOMPARE(readFile(kept), std::string("# the previous history\n"));
        int files = 0;
        for (const auto& e : std::filesystem::directory_iterator(h_->path("out")))
            files += e.is_regular_file();
        QCOMPARE(files, 2); // history.yaml and kept.yaml
    }
};

GANTRY_TEST(PrometheusImportTest)
#include "test_prometheus_import.moc"
