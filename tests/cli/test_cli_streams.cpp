// What every `gantry` subcommand shares, through the real binary: diagnostics on stderr and only the
// result on stdout, help on stdout, usage errors in the same words, one number and duration grammar.
#include "cli_run.h"
#include "test_registry.h"

#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

namespace {

using Run = gantry::test::CliResult;
using gantry::test::runGantry;

QString data(const QString& rel) {
    return QString(GANTRY_TEST_DATA) + "/" + rel;
}
QString sample() {
    return QString(GANTRY_SOURCE_DIR) + "/resources/samples/gpu-cloud-east.yaml";
}

// The subcommands `gantry --help` lists.
QStringList commands() {
    const QString listing = runGantry({"--help"}).out;
    QStringList names;
    const QString section = listing.section("Commands:\n", 1).section("\n\n", 0, 0);
    for (const QString& line : section.split('\n'))
        if (line.startsWith("  ") && line[2] != ' ') names << line.mid(2).section(' ', 0, 0);
    return names;
}

// A --json run with warnings: exit 0, every stderr line a located diagnostic, stdout one JSON object.
void expectCleanJson(const Run& r, const QString& warning) {
    QCOMPARE(r.code, 0);
    QVERIFY2(r.err.contains(warning), qPrintable(r.err));
    for (const QString& line : r.err.split('\n', Qt::SkipEmptyParts))
        QVERIFY2(line.contains(QRegularExpression(R"(^\S+(:\d+:\d+)?: (warning|error): )")),
                 qPrintable(line));
    QJsonParseError error;
    QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8(), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    QVERIFY(doc.isObject());
    QVERIFY(!r.out.contains("warning:"));
}

} // namespace

class CliStreamsTest : public QObject {
    Q_OBJECT
  private slots:
    void cycleJsonWithWarnings() {
        const QString snapshot = data("conformance/volcano/04-allocate-one-job-two-pods/snapshot.yaml");
        Run r = runGantry({"cycle", "--snapshot", snapshot, "--json"});
        expectCleanJson(r, snapshot + ": warning: no --scheduler-conf: using the input's Volcano policy\n");
    }

    void simulateJsonWithWarnings() {
        const QString snapshot = data("sim/jobs-snapshot.yaml");
        Run r = runGantry({"simulate", snapshot, "--json"});
        expectCleanJson(r, snapshot + ":82:1: warning: 3 jobs gave no arrival time");
    }

    void cycleHelpShowsSchedulerConfOptional() {
        Run r = runGantry({"cycle", "--help"});
        QCOMPARE(r.code, 0);
        const QString usage = r.out.section("\n\n", 0, 0);
        QVERIFY2(usage.startsWith("Usage: gantry cycle --snapshot FILE... [--scheduler-conf FILE]"),
                 qPrintable(usage));
        QCOMPARE(usage.count("--scheduler-conf FILE"), usage.count("[--scheduler-conf FILE]"));
        // Each profile's configuration format is listed under the option.
        QVERIFY(r.out.contains(
            QRegularExpression(R"(\n  --scheduler-conf FILE +the profile's own configuration:\n)")));
        QVERIFY(r.out.contains(QRegularExpression(R"(\n +volcano: volcano-scheduler\.conf)")));
        QVERIFY(r.out.contains(QRegularExpression(R"(\n +kube-default: KubeSchedulerConfiguration)")));
        QVERIFY(
            runGantry({"--help"})
                .out.contains(QRegularExpression(R"(\n  cycle --snapshot FILE \[--scheduler-conf FILE\] )")));
    }

    void everyCommandsHelpOnStdout() {
        const QStringList names = commands();
        for (const char* expected : {"cycle", "export", "import", "inspect", "simulate", "trace", "validate"})
            QVERIFY2(names.contains(expected), qPrintable(names.join(' ')));
        for (const QString& name : names)
            for (const char* flag : {"--help", "-h"}) {
                Run r = runGantry({name, flag});
                QCOMPARE(r.code, 0);
                QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
                QVERIFY2(r.out.startsWith("Usage: gantry " + name + " "), qPrintable(r.out));
                for (const QString& line : r.out.split('\n')) QVERIFY2(line.size() <= 110, qPrintable(line));
            }
    }

    void usageErrorsReadAlike() {
        for (const QString& name : commands()) {
            Run r = runGantry({name, "--no-such-option"});
            QCOMPARE(r.code, 1);
            QVERIFY(r.out.isEmpty());
            QCOMPARE(r.err, "gantry " + name + ": unknown option '--no-such-option'\nTry 'gantry " + name +
                                " --help'.\n");
        }
        Run r = runGantry({"export", "--from", sample(), "--target", "slurm", "--out", "x"});
        QCOMPARE(r.code, 1);
        QVERIFY2(
            r.err.startsWith("gantry export: --target: 'slurm' is not one of volcano, yunikorn, kueue\n"),
            qPrintable(r.err));
        r = runGantry({"import", "--kubeconfig", "k"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.startsWith("gantry import: --out FILE is required\n"), qPrintable(r.err));
    }

    // Numbers and durations read the same in every command.
    void oneGrammar() {
        const QString nodes = QString(GANTRY_SOURCE_DIR) + "/resources/traces/alibaba-gpu-v2023/"
                                                           "openb_node_list_gpu_node.csv";
        Run r = runGantry({"trace", "--nodes", nodes, "--pods", "p.csv", "--policy", "fgd", "--seed", "1.5"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.startsWith("gantry trace: --seed: '1.5' is not a whole number\n"), qPrintable(r.err));
        r = runGantry({"simulate", sample(), "--seed", "1.5"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.startsWith("gantry simulate: --seed: '1.5' is not a non-negative whole number\n"),
                 qPrintable(r.err));
        for (const QString flag : {"--cycle", "--sample"}) {
            r = runGantry({"simulate", sample(), flag, "soon"});
            QCOMPARE(r.code, 1);
            QVERIFY2(r.err.startsWith("gantry simulate: " + flag +
                                      ": 'soon' is not a positive duration (e.g. 1s, 30m, 2h)\n"),
                     qPrintable(r.err));
        }
        r = runGantry({"import", "--out", "x", "--request-timeout", "soon"});
        QCOMPARE(r.code, 1);
        QVERIFY2(
            r.err.startsWith(
                "gantry import: --request-timeout: 'soon' is not a positive duration (e.g. 1s, 30m, 2h)\n"),
            qPrintable(r.err));
        // A Go duration is a timeout too: the run gets past its options to the missing kubeconfig.
        QTemporaryDir dir;
        for (const char* timeout : {"90", "1m30s", "2.5"}) {
            r = runGantry({"import", "--kubeconfig", dir.filePath("none"), "--out", dir.filePath("s.yaml"),
                           "--request-timeout", timeout, "--connect-timeout", timeout, "--page-size", "100"});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.startsWith("gantry import: " + dir.filePath("none")), qPrintable(r.err));
        }
    }

    // Every error of a bad input is listed, by every command that reads one.
    void everyInputErrorOnStderr() {
        QTemporaryDir dir;
        const QString dup = dir.filePath("dup.yaml");
        std::ofstream(dup.toStdString())
            << "apiVersion: v1\nkind: Node\nmetadata: {name: n}\n---\napiVersion: v1\nkind: Node\n"
               "metadata: {name: n}\n---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\n"
               "metadata: {name: q}\nspec: {parent: nowhere}\n";
        const QString errors = dup + ":5:1: error: duplicate node 'n' (first defined at " + dup + ":1:1)\n" +
                               dup + ":9:1: error: queue 'q' names parent 'nowhere', which does not exist\n";
        for (const QStringList& args :
             {QStringList{"inspect", dup}, QStringList{"cycle", "--snapshot", dup, "--json"},
              QStringList{"simulate", dup, "--json"},
              QStringList{"export", "--from", dup, "--target", "kueue", "--out", dir.filePath("out")}}) {
            Run r = runGantry(args);
            QCOMPARE(r.code, 2);
            QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
            QVERIFY2(r.err.startsWith(errors), qPrintable(args.join(' ') + ":\n" + r.err));
        }
        QVERIFY(!QFileInfo::exists(dir.filePath("out")));
    }
};

GANTRY_TEST(CliStreamsTest)
#include "test_cli_streams.moc"
