// Kueue conformance: the sample cases restated from Kueue's own scheduler tests
// (tests/data/conformance/kueue) and the cases restated for Gantry in the same form
// (tests/data/conformance/kueue-restated), Admission Fair Sharing's (kueue-afs, kueue-afs-restated),
// each run through the real `gantry cycle --profile kueue`
// and compared with the suite's rules (kueue_compare.h).
#include "cli_run.h"
#include "kueue_compare.h"
#include "test_registry.h"

#include <QDir>
#include <QProcess>
#include <QtTest>
#include <nlohmann/json.hpp>

using nlohmann::json;

namespace {

using gantry::test::readJsonFile;

void addRows(const QString& suite) {
    QDir dir(QString(GANTRY_TEST_DATA) + "/conformance/" + suite);
    const auto cases = dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    QVERIFY2(!cases.isEmpty(), qPrintable("no cases in " + dir.path()));
    for (const auto& c : cases) QTest::newRow(qPrintable(suite + "/" + c)) << dir.filePath(c);
}

void runCase(const QString& path) {
    const json expected = readJsonFile(path + "/expected.json");
    QVERIFY2(!expected.is_null(), qPrintable("cannot read " + path + "/expected.json"));
    QStringList args{"cycle", "--profile", "kueue", "--snapshot", path + "/snapshot.yaml", "--json"};
    if (QFile::exists(path + "/config.yaml")) args << "--scheduler-conf" << path + "/config.yaml";
    QProcess p;
    p.start(GANTRY_CLI, args);
    QVERIFY(p.waitForFinished(60000));
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(p.exitCode() == 0,
             qPrintable(QString("gantry cycle exited %1:\n%2").arg(p.exitCode()).arg(err)));
    json got;
    const std::string out = p.readAllStandardOutput().toStdString();
    try {
        got = json::parse(out);
    } catch (const std::exception& e) {
        QFAIL(qPrintable(QString("stdout is not JSON: ") + e.what()));
    }
    const std::string problem = gantry::test::compareKueue(expected, got);
    QVERIFY2(problem.empty(), qPrintable(QString::fromStdString(problem + "\n" + expected.value("notes", "") +
                                                                "\noutput: " + got.dump())));
}

} // namespace

class KueueConformanceTest : public QObject {
    Q_OBJECT
  private slots:
    void samples_data() {
        QTest::addColumn<QString>("path");
        addRows("kueue");
    }
    void samples() {
        QFETCH(QString, path);
        runCase(path);
    }
    void restated_data() {
        QTest::addColumn<QString>("path");
        addRows("kueue-restated");
    }
    void restated() {
        QFETCH(QString, path);
        runCase(path);
    }
    // Admission Fair Sharing: the suite's samples and the cases restated for Gantry in their form.
    void admissionFairSharing_data() {
        QTest::addColumn<QString>("path");
        addRows("kueue-afs");
        addRows("kueue-afs-restated");
    }
    void admissionFairSharing() {
        QFETCH(QString, path);
        runCase(path);
    }

    // The comparison itself notices every kind of difference the rules name.
    void comparisonFindsDifferences() {
        const json expected = json::parse(R"({
            "admitted": {"ns/a": {"clusterQueue": "cq", "flavors": {"main": {"cpu": "f1"}}, "counts": {"main": 3},
                                  "admittedCondition": true,
                                  "topologyAssignment": {"main": {"levels": ["h"], "domains": [{"values": ["x"], "count": 1},
                                                                                         {"values": ["y"], "count": 2}]}}}},
            "preempted": ["ns/v"], "preemption_reasons": {"ns/v": "InClusterQueue"},
            "pending": ["ns/p"], "pending_reasons": {"ns/p": "WaitingForQuota"},
            "admitted_exact": true, "preempted_exact": true, "pending_exact": true,
            "queue_after": {"active": {"cq": ["ns/p"]}, "inadmissible": {}}})");
        json good = json::parse(R"({
            "admitted": {"ns/a": {"clusterQueue": "cq", "flavors": {"main": {"cpu": "f1", "memory": "f1"}},
                                  "counts": {"main": 3}, "admittedCondition": true,
                                  "topologyAssignment": {"main": {"levels": ["h"], "domains": [{"values": ["y"], "count": 2},
                                                                                         {"values": ["x"], "count": 1}]}}}},
            "preempted": ["ns/v"], "preemption_reasons": {"ns/v": "InClusterQueue"},
            "pending": ["ns/p"], "pending_reasons": {"ns/p": "WaitingForQuota", "ns/q": "Other"},
            "queue_after": {"active": {"cq": ["ns/p"], "other": []}, "inadmissible": {}}})");
        QCOMPARE(QString::fromStdString(gantry::test::compareKueue(expected, good)), QString());
        auto differs = [&](const char* pointer, const json& value, const char* expectedText) {
            json bad = good;
            bad[json::json_pointer(pointer)] = value;
            const std::string problem = gantry::test::compareKueue(expected, bad);
            QVERIFY2(
                problem.find(expectedText) != std::string::npos,
                (std::string(pointer) + ": " + (problem.empty() ? "no difference found" : problem)).c_str());
        };
        differs("/admitted/ns~1a/clusterQueue", "other", "admitted to \"other\"");
        differs("/admitted/ns~1a/flavors/main/cpu", "f2", "flavor \"f2\"");
        differs("/admitted/ns~1a/counts/main", 2, "count 2");
        differs("/admitted/ns~1a/admittedCondition", false, "Admitted condition false");
        differs("/admitted/ns~1a/topologyAssignment/main/domains/0/count", 1, "topology domains");
        differs("/admitted/ns~1b", json{{"clusterQueue", "cq"}}, "admitted set");
        differs("/preempted", json::array({"ns/v", "ns/w"}), "preempted");
        differs("/preemption_reasons/ns~1v", "InCohortReclamation", "preemption reason");
        differs("/pending", json::array(), "pending");
        differs("/pending_reasons/ns~1p", "NoMatchingFlavor", "pending reason");
        differs("/queue_after/inadmissible/cq", json::array({"ns/p"}), "queue_after.inadmissible");
        json missing = good;
        missing["admitted"].erase("ns/a");
        QVERIFY(gantry::test::compareKueue(expected, missing).find("not admitted") != std::string::npos);
    }
};

GANTRY_TEST(KueueConformanceTest)
#include "test_kueue_conformance.moc"
