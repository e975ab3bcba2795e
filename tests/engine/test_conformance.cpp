// Conformance cases (tests/data/conformance/<suite>/<case>/{snapshot.yaml,scheduler.yaml,expected.json})
// run through the real `gantry cycle` binary and compared as the suite's README prescribes:
// bindings exact, bind_count, binds_per_hypernode_sorted, evicted as a multiset, pipelined (every
// pipelined task of the job on one of the listed nodes), podgroup_phase, scores within tolerance,
// nominated exact (kube-default), pending reasons by substring.
#include "cli_run.h"
#include "snapshot/snapshot_importer.h"
#include "state/cluster_state.h"
#include "test_registry.h"

#include <QDir>
#include <QProcess>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

using nlohmann::json;

namespace {

using gantry::test::readJsonFile;

using Run = gantry::test::JsonRun;

Run runCycle(const QString& dir, bool scores, const QString& profile = {}, int passes = 0) {
    QStringList args{"cycle", "--snapshot", dir + "/snapshot.yaml", "--json"};
    if (QFile::exists(dir + "/scheduler.yaml")) args << "--scheduler-conf" << dir + "/scheduler.yaml";
    if (scores) args << "--scores";
    if (!profile.isEmpty()) args << "--profile" << profile;
    if (passes > 0) args << "--passes" << QString::number(passes);
    return gantry::test::runGantryJson(args, 60000);
}

// Lowest-tier hypernode of each node, "" when none (util.FindHyperNodeForNode).
std::map<std::string, std::string> lowestHyperNodes(const QString& snapshot) {
    gantry::Diagnostics d;
    auto cluster = gantry::readSnapshotFiles({snapshot.toStdString()}, &d);
    auto st = gantry::engine::buildClusterState(cluster);
    std::map<std::string, std::string> out;
    const int32_t lowest = st.hyperNodeTiers.empty() ? 0 : st.hyperNodeTiers.front();
    for (uint32_t n = 0; n < st.nodes.size(); ++n) {
        std::string h;
        for (int32_t x : st.nodes[n].hyperNodes)
            if (st.hyperNodes[size_t(x)].tier == lowest) h = st.hyperNodes[size_t(x)].name;
        out[st.nodeName(n)] = h;
    }
    return out;
}

QString compare(const QString& dir, const json& expected, const json& got) {
    QStringList problems;
    auto dump = [](const json& j) { return QString::fromStdString(j.dump()); };
    if (expected.contains("bindings") && expected["bindings"] != got["bindings"])
        problems << "bindings: want " + dump(expected["bindings"]) + ", got " + dump(got["bindings"]);
    if (expected.contains("bind_count") && expected["bind_count"].get<size_t>() != got["bindings"].size())
        problems << QString("bind_count: want %1, got %2 (%3)")
                        .arg(expected["bind_count"].get<int>())
                        .arg(got["bindings"].size())
                        .arg(dump(got["bindings"]));
    if (expected.contains("binds_per_hypernode_sorted")) {
        auto hn = lowestHyperNodes(dir + "/snapshot.yaml");
        std::map<std::string, int> per;
        for (const auto& [pod, node] : got["bindings"].items()) per[hn[node.get<std::string>()]]++;
        std::vector<int> counts;
        for (const auto& [h, n] : per) counts.push_back(n);
        std::sort(counts.begin(), counts.end());
        if (json(counts) != expected["binds_per_hypernode_sorted"])
            problems << "binds_per_hypernode_sorted: want " + dump(expected["binds_per_hypernode_sorted"]) +
                            ", got " + dump(json(counts)) + " " + dump(got["bindings"]);
    }
    if (expected.contains("evicted")) {
        auto want = expected["evicted"].get<std::vector<std::string>>();
        auto have = got["evicted"].get<std::vector<std::string>>();
        std::sort(want.begin(), want.end());
        std::sort(have.begin(), have.end());
        if (want != have) problems << "evicted: want " + dump(json(want)) + ", got " + dump(json(have));
    }
    if (expected.contains("pipelined")) {
        for (const auto& [job, nodes] : expected["pipelined"].items()) {
            if (!got["pipelined"].contains(job)) {
                problems << "pipelined: job " + QString::fromStdString(job) + " has no pipelined task; got " +
                                dump(got["pipelined"]);
                continue;
            }
            auto allowed = nodes.get<std::vector<std::string>>();
            for (const auto& n : got["pipelined"][job])
                if (std::find(allowed.begin(), allowed.end(), n.get<std::string>()) == allowed.end())
                    problems << "pipelined: " + QString::fromStdString(job) + " on " +
                                    QString::fromStdString(n.get<std::string>()) + ", want one of " +
                                    dump(nodes);
        }
    }
    if (expected.contains("podgroup_phase"))
        for (const auto& [pg, phase] : expected["podgroup_phase"].items()) {
            if (!got["podgroup_phase"].contains(pg) || got["podgroup_phase"][pg] != phase)
                problems << "podgroup_phase " + QString::fromStdString(pg) + ": want " + dump(phase) +
                                ", got " +
                                (got["podgroup_phase"].contains(pg) ? dump(got["podgroup_phase"][pg])
                                                                    : "nothing");
        }
    if (expected.contains("scores")) {
        const double tol = expected.value("score_tolerance", 1e-6);
        for (const auto& [pod, row] : expected["scores"].items())
            for (const auto& [node, score] : row.items()) {
                if (!got["scores"].contains(pod) || !got["scores"][pod].contains(node)) {
                    problems << "scores: no score for " + QString::fromStdString(pod + " on " + node);
                    continue;
                }
                const double g = got["scores"][pod][node].get<double>(), w = score.get<double>();
                if (std::fabs(g - w) > tol)
                    problems << QString("scores %1 on %2: want %3, got %4")
                                    .arg(QString::fromStdString(pod), QString::fromStdString(node))
                                    .arg(w, 0, 'g', 12)
                                    .arg(g, 0, 'g', 12);
            }
    }
    if (expected.contains("nominated") && expected["nominated"] != got["nominated"])
        problems << "nominated: want " + dump(expected["nominated"]) + ", got " + dump(got["nominated"]);
    if (expected.contains("pending"))
        for (const auto& [pod, text] : expected["pending"].items()) {
            if (!got["pending"].contains(pod)) {
                problems << "pending: " + QString::fromStdString(pod) + " is not pending";
                continue;
            }
            const std::string have = got["pending"][pod].get<std::string>();
            if (have.find(text.get<std::string>()) == std::string::npos)
                problems << "pending " + QString::fromStdString(pod) + ": want a reason containing " +
                                dump(text) + ", got " + QString::fromStdString(have);
        }
    return problems.join("\n");
}

// The YuniKorn suite's rules (tests/data/conformance/yunikorn/README.md, "expected.json keys"):
// the first difference of one partial expectation, or an empty string when it holds.
std::string checkYuniKorn(const json& e, const json& got, const std::map<std::string, std::string>& appOf) {
    const json ga =
        got.contains("allocations") && got["allocations"].is_object() ? got["allocations"] : json::object();
    auto list = [&](const char* key) {
        std::vector<std::string> out;
        if (got.contains(key) && got[key].is_array())
            for (const auto& v : got[key]) out.push_back(v.get<std::string>());
        return out;
    };
    if (e.contains("allocations")) {
        if (e["allocations"].empty() && !ga.empty()) return "nothing should be allocated, got " + ga.dump();
        for (const auto& [pod, node] : e["allocations"].items()) {
            if (!ga.contains(pod)) return pod + " not allocated";
            if (!node.is_null() && ga[pod] != node)
                return pod + " on " + ga[pod].get<std::string>() + ", expected " + node.get<std::string>();
        }
    }
    if (e.contains("pending"))
        for (const auto& pod : e["pending"])
            if (ga.contains(pod.get<std::string>()))
                return pod.get<std::string>() + " allocated on " +
                       ga[pod.get<std::string>()].get<std::string>() + ", expected pending";
    if (e.contains("order")) {
        std::vector<std::string> want = e["order"].get<std::vector<std::string>>(), have;
        for (const auto& pod : list("order"))
            if (std::find(want.begin(), want.end(), pod) != want.end()) have.push_back(pod);
        if (have != want) return "allocation order " + json(have).dump() + ", expected " + json(want).dump();
    }
    if (e.contains("alloc_count") && ga.size() != e["alloc_count"].get<size_t>())
        return std::to_string(ga.size()) + " allocations, expected " + e["alloc_count"].dump();
    if (e.contains("pending_count") && list("pending").size() != e["pending_count"].get<size_t>())
        return std::to_string(list("pending").size()) + " pending, expected " + e["pending_count"].dump();
    if (e.contains("alloc_count_by_app")) {
        std::map<std::string, int> count;
        for (const auto& [pod, node] : ga.items()) {
            auto it = appOf.find(pod);
            count[it == appOf.end() ? std::string() : it->second]++;
        }
        for (const auto& [app, n] : e["alloc_count_by_app"].items())
            if (count[app] != n.get<int>())
                return "app " + app + ": " + std::to_string(count[app]) + " allocations, expected " +
                       n.dump();
    }
    if (e.contains("alloc_count_by_node")) {
        std::map<std::string, int> count;
        for (const auto& [pod, node] : ga.items()) count[node.get<std::string>()]++;
        for (const auto& [node, n] : e["alloc_count_by_node"].items())
            if (count[node] != n.get<int>())
                return "node " + node + ": " + std::to_string(count[node]) + " allocations, expected " +
                       n.dump();
    }
    const auto preempted = list("preempted");
    std::set<std::string> gp(preempted.begin(), preempted.end());
    if (e.contains("preempted")) {
        for (const auto& pod : e["preempted"])
            if (!gp.count(pod.get<std::string>()))
                return "preempted " + json(std::vector<std::string>(gp.begin(), gp.end())).dump() +
                       ", expected " + e["preempted"].dump();
    }
    if (e.contains("not_preempted"))
        for (const auto& pod : e["not_preempted"])
            if (gp.count(pod.get<std::string>()))
                return pod.get<std::string>() + " preempted, expected spared";
    if (e.contains("nominated") && e["nominated"].is_object())
        for (const auto& [pod, node] : e["nominated"].items()) {
            json g =
                got.contains("nominated") && got["nominated"].contains(pod) ? got["nominated"][pod] : json();
            if (g != node)
                return pod + " nominated on " + (g.is_null() ? "None" : g.get<std::string>()) +
                       ", expected " + node.get<std::string>();
        }
    if (e.contains("allocation_log"))
        for (const auto& [pod, messages] : e["allocation_log"].items()) {
            const json reasons = got.contains("pending_reasons") ? got["pending_reasons"] : json::object();
            const std::string have = reasons.contains(pod) ? reasons[pod].get<std::string>() : std::string();
            for (const auto& m : messages)
                if (have.find(m.get<std::string>()) == std::string::npos)
                    return pod + " waits for '" + have + "', expected its log to hold '" +
                           m.get<std::string>() + "'";
        }
    if (e.contains("released")) {
        const auto released = list("released");
        std::set<std::string> have(released.begin(), released.end());
        std::set<std::string> want;
        for (const auto& pod : e["released"]) want.insert(pod.get<std::string>());
        if (have != want)
            return "released " + json(std::vector<std::string>(have.begin(), have.end())).dump() +
                   ", expected " + json(std::vector<std::string>(want.begin(), want.end())).dump();
    }
    return {};
}

// The whole expectation: its own keys, then at least one of its alternatives (one_of).
std::string compareYuniKorn(const json& expected, const json& got,
                            const std::map<std::string, std::string>& appOf) {
    std::string err = checkYuniKorn(expected, got, appOf);
    if (err.empty() && expected.contains("one_of")) {
        std::string all;
        for (const auto& alt : expected["one_of"]) {
            std::string e = checkYuniKorn(alt, got, appOf);
            if (e.empty()) return {};
            all += (all.empty() ? "" : "; ") + e;
        }
        return all;
    }
    return err;
}

std::map<std::string, std::string> appIds(const QString& dir) {
    gantry::Diagnostics d;
    auto cluster = gantry::readSnapshotFiles({(dir + "/snapshot.yaml").toStdString()}, &d);
    std::map<std::string, std::string> appOf;
    for (const auto& pod : cluster.pods) {
        auto it = pod.labels.find("yunikorn.apache.org/app-id");
        appOf[pod.key()] = it == pod.labels.end() ? std::string() : it->second;
    }
    return appOf;
}

void runYuniKornCase(const QString& path) {
    const json expected = readJsonFile(path + "/expected.json");
    QVERIFY2(!expected.is_null(), qPrintable("cannot read " + path + "/expected.json"));
    const Run r = runCycle(path, false, "yunikorn", expected.value("passes", 0));
    QVERIFY2(r.exitCode == 0, qPrintable(QString("gantry cycle exited %1:\n%2").arg(r.exitCode).arg(r.err)));
    QVERIFY2(!r.out.is_null(), qPrintable(r.err));
    const std::string problem = compareYuniKorn(expected, r.out, appIds(path));
    QVERIFY2(problem.empty(), qPrintable(QString::fromStdString(problem + "\n" + expected.value("notes", "") +
                                                                "\ngot: " + r.out.dump())));
}

void addRows(const QString& suite) {
    QDir dir(QString(GANTRY_TEST_DATA) + "/conformance/" + suite);
    const auto cases = dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    QVERIFY2(!cases.isEmpty(), qPrintable("no cases in " + dir.path()));
    for (const auto& c : cases) QTest::newRow(qPrintable(suite + "/" + c)) << dir.filePath(c);
}

void runCase(const QString& path, const QString& profile = {}) {
    const json expected = readJsonFile(path + "/expected.json");
    QVERIFY2(!expected.is_null(), qPrintable("cannot read " + path + "/expected.json"));
    const Run r = runCycle(path, expected.contains("scores"), profile);
    QVERIFY2(r.exitCode == 0, qPrintable(QString("gantry cycle exited %1:\n%2").arg(r.exitCode).arg(r.err)));
    QVERIFY2(!r.out.is_null(), qPrintable(r.err));
    const QString problems = compare(path, expected, r.out);
    QVERIFY2(problems.isEmpty(),
             qPrintable(problems + "\n" + QString::fromStdString(expected.value("notes", ""))));
}

} // namespace

class ConformanceTest : public QObject {
    Q_OBJECT
  private slots:
    void volcano_data() {
        QTest::addColumn<QString>("path");
        addRows("volcano");
    }
    void volcano() {
        QFETCH(QString, path);
        runCase(path);
    }
    void volcanoExtra_data() {
        QTest::addColumn<QString>("path");
        addRows("volcano-extra");
    }
    void volcanoExtra() {
        QFETCH(QString, path);
        runCase(path);
    }
    // Volcano's fairshare plugin (PR #5161): the shared samples and the cases restated here.
    void volcanoFairshare_data() {
        QTest::addColumn<QString>("path");
        addRows("volcano-fairshare");
        addRows("volcano-fairshare-restated");
    }
    void volcanoFairshare() {
        QFETCH(QString, path);
        runCase(path);
    }
    void kubeDefault_data() {
        QTest::addColumn<QString>("path");
        addRows("kube-default");
    }
    void kubeDefault() {
        QFETCH(QString, path);
        runCase(path, "kube-default");
    }
    void yunikorn_data() {
        QTest::addColumn<QString>("path");
        addRows("yunikorn");
    }
    void yunikorn() {
        QFETCH(QString, path);
        runYuniKornCase(path);
    }
    // The YuniKorn comparison finds every kind of difference its rules name.
    void yunikornComparisonRules() {
        const json got =
            json::parse(R"({"allocations": {"ns/a": "n1", "ns/b": "n2"}, "order": ["ns/b", "ns/a"],
            "pending": ["ns/c"], "preempted": ["ns/v"], "nominated": {"ns/c": "n1"}, "released": ["ns/ph"],
            "pending_reasons": {"ns/c": "Not enough queue quota; Preemption does not help"}})");
        const std::map<std::string, std::string> appOf{
            {"ns/a", "app-1"}, {"ns/b", "app-2"}, {"ns/c", "app-1"}};
        auto fails = [&](const char* expected) {
            return !checkYuniKorn(json::parse(expected), got, appOf).empty();
        };
        QVERIFY(!fails(
            R"({"allocations": {"ns/a": "n1", "ns/b": null}, "order": ["ns/b", "ns/a"], "pending": ["ns/c"],
            "alloc_count": 2, "pending_count": 1, "alloc_count_by_app": {"app-1": 1, "app-2": 1},
            "alloc_count_by_node": {"n1": 1, "n2": 1, "n3": 0}, "preempted": ["ns/v"], "not_preempted": ["ns/a"],
            "nominated": {"ns/c": "n1"}, "released": ["ns/ph"],
            "allocation_log": {"ns/c": ["Not enough queue quota", "Preemption does not help"]}})"));
        QVERIFY(fails(R"({"allocations": {}})"));
        QVERIFY(fails(R"({"allocation_log": {"ns/c": ["Not enough user quota"]}})"));
        QVERIFY(fails(R"({"allocation_log": {"ns/a": ["Not enough queue quota"]}})"));
        QVERIFY(fails(R"({"allocations": {"ns/c": null}})"));
        QVERIFY(fails(R"({"allocations": {"ns/a": "n2"}})"));
        QVERIFY(fails(R"({"pending": ["ns/a"]})"));
        QVERIFY(fails(R"({"order": ["ns/a", "ns/b"]})"));
        QVERIFY(fails(R"({"alloc_count": 3})"));
        QVERIFY(fails(R"({"pending_count": 0})"));
        QVERIFY(fails(R"({"alloc_count_by_app": {"app-1": 2}})"));
        QVERIFY(fails(R"({"alloc_count_by_node": {"n1": 2}})"));
        QVERIFY(fails(R"({"preempted": ["ns/a"]})"));
        QVERIFY(fails(R"({"not_preempted": ["ns/v"]})"));
        QVERIFY(fails(R"({"nominated": {"ns/c": "n2"}})"));
        QVERIFY(fails(R"({"released": []})"));
        auto whole = [&](const char* expected) {
            return !compareYuniKorn(json::parse(expected), got, appOf).empty();
        };
        QVERIFY(!whole(
            R"({"one_of": [{"alloc_count_by_node": {"n1": 2}}, {"alloc_count_by_node": {"n1": 1}}]})"));
        QVERIFY(
            whole(R"({"one_of": [{"alloc_count_by_node": {"n1": 2}}, {"alloc_count_by_node": {"n2": 0}}]})"));
        QVERIFY(whole(R"({"alloc_count": 1, "one_of": [{"alloc_count": 2}]})"));
    }
    // Configurations YuniKorn's validator refuses: exit 2, the validator's reason at the queue's
    // line, nothing on stdout.
    void yunikornRefusesConfiguration_data() {
        QTest::addColumn<QString>("queues");
        QTest::addColumn<QString>("error");
        QTest::newRow("children guaranteed above the parent's max")
            << "partitions:\n- name: default\n  queues:\n  - name: root\n    queues:\n    - name: a\n"
               "      resources: {max: {vcore: 10}}\n      queues:\n      - name: b\n"
               "        resources: {guaranteed: {vcore: 20}}\n"
            << ":6:13: error: YuniKorn refuses this configuration: max resource map[vcore:10] is smaller "
               "than sum of "
               "guaranteed resources map[vcore:20] of the children for queue a";
        QTest::newRow("child max above the parent's max")
            << "partitions:\n- name: default\n  queues:\n  - name: root\n    queues:\n    - name: a\n"
               "      resources: {max: {memory: 10}}\n      queues:\n      - name: b\n"
               "        resources: {max: {memory: 20}}\n"
            << "error: YuniKorn refuses this configuration: max resource of parent map[memory:10] is smaller "
               "than "
               "maximum resource map[memory:20] for queue b";
        QTest::newRow("partition limits that contradict the root's")
            << "partitions:\n- name: default\n  limits:\n  - limit: p\n    users: [alice]\n    "
               "maxapplications: 5\n"
               "  queues:\n  - name: root\n    limits:\n    - limit: r\n      users: [alice]\n"
               "      maxapplications: 6\n"
            << "error: YuniKorn refuses this configuration: partition limits and root queue limits are not "
               "equivalent";
        QTest::newRow("resources on the root")
            << "partitions:\n- name: default\n  queues:\n  - name: root\n    resources: {max: {vcore: 10}}\n"
            << ":5:16: error: partitions[0].queues[0].resources: root queue must not have resource limits "
               "set";
    }
    void yunikornRefusesConfiguration() {
        QFETCH(QString, queues);
        QFETCH(QString, error);
        QTemporaryDir dir;
        QFile conf(dir.filePath("queues.yaml"));
        QVERIFY(conf.open(QIODevice::WriteOnly));
        conf.write(queues.toUtf8());
        conf.close();
        QProcess p;
        p.start(GANTRY_CLI, {"cycle", "--profile", "yunikorn", "--snapshot",
                             QString(GANTRY_TEST_DATA) +
                                 "/conformance/yunikorn/64-smoke-reject-app-unknown-queue/snapshot.yaml",
                             "--scheduler-conf", conf.fileName(), "--json"});
        QVERIFY(p.waitForFinished(60000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(p.exitCode() == 2, qPrintable(err));
        QVERIFY2(err.contains("queues.yaml:") && err.contains(error), qPrintable(err));
        QVERIFY(p.readAllStandardOutput().isEmpty());
    }
    // A configuration the engine refuses: exit 2 and a located error, nothing on stdout.
    void badConfigurationIsLocated() {
        QTemporaryDir dir;
        QFile conf(dir.filePath("scheduler.yaml"));
        QVERIFY(conf.open(QIODevice::WriteOnly));
        conf.write("actions: \"allocate\"\ntiers:\n- plugins:\n  - name: gang\n  - name: binpak\n");
        conf.close();
        QProcess p;
        p.start(GANTRY_CLI, {"cycle", "--snapshot",
                             QString(GANTRY_TEST_DATA) +
                                 "/conformance/volcano/04-allocate-one-job-two-pods/snapshot.yaml",
                             "--scheduler-conf", conf.fileName(), "--json"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains("scheduler.yaml:5:11: error: unknown plugin 'binpak'"), qPrintable(err));
        QVERIFY(p.readAllStandardOutput().isEmpty());
    }
};

GANTRY_TEST(ConformanceTest)
#include "test_conformance.moc"
