// gantry validate and gantry export through the real binary.
#include "cli_run.h"
#include "test_registry.h"

#include <QtTest>

namespace {

using Run = gantry::test::CliResult;
using gantry::test::runGantry;

QString manifest(const char* name) {
    return QString(GANTRY_TEST_DATA) + "/export/manifests/" + name;
}

} // namespace

class CliExportTest : public QObject {
    Q_OBJECT
  private slots:
    void validateReportsLocatedProblems() {
        QString f = manifest("broken-volcano-deserved-over-capability.yaml");
        Run r = runGantry({"validate", f});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.out,
                 f + ":7:19: error: document 1, Queue team-a, spec.deserved[cpu]: deserved[cpu]=8 must be <= "
                     "capability[cpu]=4\n1 file, 1 document: 1 error, 0 warnings\n");
    }

    void validateAcceptsAMixOfKinds() {
        Run r = runGantry({"validate", manifest("valid-volcano-hierarchy.yaml"),
                           manifest("valid-kueue-cohorts.yaml"), manifest("valid-yunikorn-configmap.yaml"),
                           manifest("valid-volcano-scheduler-configmap.yaml"),
                           manifest("valid-yunikorn-queues-example.yaml")});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out, QString("5 files, 18 documents: 0 errors, 0 warnings\n"));
    }

    void validateQuietAndUsage() {
        Run r = runGantry({"validate", "--quiet", manifest("broken-kueue-versions-cohorts.yaml")});
        QCOMPARE(r.code, 2);
        QVERIFY(!r.out.contains("warning:"));
        QVERIFY(r.out.contains(
            "error: document 3, Cohort a, spec.parentName: cycle in the cohort tree: a -> b -> a"));
        QCOMPARE(runGantry({"validate"}).code, 1);
        QCOMPARE(runGantry({"validate", "--strict"}).code, 1);
        Run missing = runGantry({"validate", "/nonexistent/q.yaml"});
        QCOMPARE(missing.code, 2);
        QVERIFY(missing.out.startsWith("/nonexistent/q.yaml: error: cannot open file"));
    }

    void exportWritesValidatedFiles() {
        QTemporaryDir dir;
        QString out = dir.filePath("out");
        QString sample = QString(GANTRY_SOURCE_DIR) + "/resources/samples/gpu-cloud-east.yaml";
        Run r = runGantry({"export", "--from", sample, "--target", "kueue", "--out", out});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.startsWith("gantry export --target kueue: "), qPrintable(r.out));
        QVERIFY(r.out.contains("Lossy steps ("));
        QVERIFY(r.out.endsWith("Wrote 10 files to " + out + "\n")); // with namespaces.yaml
        // What gantry export wrote, gantry validate accepts.
        QStringList files;
        for (const QString& f : QDir(out).entryList({"*.yaml"}, QDir::Files)) files << QDir(out).filePath(f);
        Run v = runGantry(QStringList{"validate", "--quiet"} + files);
        QCOMPARE(v.code, 0);
        QVERIFY2(v.out.endsWith(" 0 errors, 0 warnings\n") || v.out.contains(" 0 errors, "),
                 qPrintable(v.out));
    }

    void exportFromEachSchedulerToEachTarget() {
        for (const char* in :
             {"valid-volcano-hierarchy.yaml", "valid-kueue-cohorts.yaml", "valid-yunikorn-configmap.yaml"})
            for (const char* target : {"volcano", "yunikorn", "kueue"}) {
                QTemporaryDir dir;
                Run r = runGantry({"export", "--from", manifest(in), "--target", target, "--out", dir.path(),
                                   "--quiet", "--single-file"});
                QVERIFY2(r.code == 0, qPrintable(QString(in) + " -> " + target + ": " + r.err));
                QVERIFY(QFile::exists(dir.filePath(QString(target) + ".yaml")));
                QVERIFY(QFile::exists(dir.filePath("export-report.txt")));
            }
    }

    // A second YuniKorn partition is left out at import; every target's report says so, by name.
    void exportReportNamesWhatTheImportLeftOut() {
        QString in = QString(GANTRY_TEST_DATA) + "/export/conversions/yunikorn-two-partitions.yaml";
        for (const char* target : {"yunikorn", "volcano", "kueue"}) {
            QTemporaryDir dir;
            Run r = runGantry({"export", "--from", in, "--target", target, "--out", dir.path()});
            QVERIFY2(r.code == 0, qPrintable(QString(target) + ": " + r.err));
            QFile f(dir.filePath("export-report.txt"));
            QVERIFY(f.open(QIODevice::ReadOnly));
            QString report = QString::fromUtf8(f.readAll());
            QVERIFY2(!report.contains("none: every queue and quota carried over"), qPrintable(report));
            QVERIFY2(report.contains("Left out when reading the input (1):\n  - partitions[1]: partition "
                                     "'batch' ignored: Gantry "
                                     "models one partition "
                                     "(the Kubernetes shim uses only 'default'); its 3 queues (root, "
                                     "nightly, adhoc) and limits are not carried over ["),
                     qPrintable(report));
            QVERIFY2(report.contains("yunikorn-two-partitions.yaml:23:"), qPrintable(report));
            QVERIFY(r.err.contains("partition 'batch' ignored"));
        }
    }

    // Decimal memory stays decimal in YuniKorn's queues.yaml: 10G, not 9765625Ki; binary stays binary.
    void exportKeepsQuantitiesReadable() {
        QString in = QString(GANTRY_TEST_DATA) + "/export/conversions/yunikorn-two-partitions.yaml";
        QTemporaryDir dir;
        Run r = runGantry({"export", "--from", in, "--target", "yunikorn", "--out", dir.path(), "--quiet",
                           "--single-file"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QFile f(dir.filePath("yunikorn.yaml"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(f.readAll());
        QVERIFY2(text.contains("memory: 10G") && text.contains("memory: 20G") && text.contains("memory: 8Gi"),
                 qPrintable(text));
        QVERIFY(!text.contains("Ki"));
    }

    void exportFailureWritesNothing() {
        QTemporaryDir dir;
        QString out = dir.filePath("out");
        // Volcano's importer takes this tree; Volcano's webhook would not (children exceed the parent).
        Run r = runGantry({"export", "--from", manifest("broken-volcano-children-over-parent.yaml"),
                           "--target", "volcano", "--out", out});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("/queues.yaml:"), qPrintable(r.err));
        QVERIFY(r.err.contains("Queue org, spec.deserved[nvidia.com/gpu]: sum of children's deserved"));
        QVERIFY(r.err.endsWith("gantry export: the volcano manifests do not validate; nothing written to " +
                               out + "\n"));
        QVERIFY(!QDir(out).exists());
        // Bad input: a located error, nothing written.
        Run bad = runGantry(
            {"export", "--from", manifest("broken-yaml-syntax.yaml"), "--target", "kueue", "--out", out});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("broken-yaml-syntax.yaml:"), qPrintable(bad.err));
        QVERIFY(!QDir(out).exists());
    }

    void exportUsage() {
        QCOMPARE(runGantry({"export", "--from", manifest("valid-volcano-hierarchy.yaml"), "--target", "slurm",
                            "--out", "x"})
                     .code,
                 1);
        QCOMPARE(runGantry({"export", "--target", "kueue", "--out", "x"}).code, 1);
        QCOMPARE(
            runGantry({"export", "--from", manifest("valid-volcano-hierarchy.yaml"), "--target", "kueue"})
                .code,
            1);
        Run help = runGantry({"export", "--help"});
        QCOMPARE(help.code, 0);
        QVERIFY(help.out.startsWith("Usage: gantry export --from INPUT..."));
    }
};

GANTRY_TEST(CliExportTest)
#include "test_cli_export.moc"
