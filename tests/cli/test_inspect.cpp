// `gantry inspect` through the real binary: what it prints, its exit codes, its located errors.
#include "cli_run.h"
#include "input_loader.h"
#include "project/project_writer.h"
#include "test_registry.h"

#include <QProcess>
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

} // namespace

class InspectTest : public QObject {
    Q_OBJECT
  private slots:
    void sampleInventory() {
        auto r = runGantry({"inspect", sample()});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
        QVERIFY(r.out.startsWith("gpu-cloud-east\n  inventory: " + sample() + "\n"));
        QVERIFY(r.out.contains("Nodes: 124 (124 ready, 0 unschedulable)"));
        QVERIFY(r.out.contains("GPUs: 656\n"));
        QVERIFY(r.out.contains(QRegularExpression(R"(\n  NVIDIA-H100-80GB-HBM3 +32 +8 +256  80Gi\n)")));
        QVERIFY(r.out.contains(QRegularExpression(R"(\n  NVIDIA-GB200 +36 +4 +144  186Gi\n)")));
        QVERIFY(r.out.contains(QRegularExpression(R"(\n  \(no GPU\) +16 +0 +0  -\n)")));
        QVERIFY(r.out.contains("zone    topology.kubernetes.io/zone   2 domains over 124 nodes: us-east-1a "
                               "(80) us-east-1b (44)"));
        QVERIFY(r.out.contains("rack    topology.gantry.io/rack       18 domains over 124 nodes"));
        // The queue tree is indented by depth, with quotas.
        QVERIFY(r.out.contains(
            "\n  research  weight 6  deserved nvidia.com/gpu=416  capability nvidia.com/gpu=560\n"
            "    llm  weight 4  guarantee nvidia.com/gpu=96"));
        QVERIFY(r.out.contains("\n      pretrain  weight 3  not reclaimable  guarantee nvidia.com/gpu=96"));
        QVERIFY(r.out.contains("flavor l40s: nvidia.com/gpu=48 (borrow 16) (lend 8)"));
        QVERIFY(r.out.contains("Workloads: 8 templates, 298 jobs, 448 pods"));
        QVERIFY(r.out.contains("Pods: 0 (0 bound, 0 pending)"));
        QVERIFY(r.out.endsWith("\nWarnings: 0\n"));
    }
    void severalSnapshotFiles() {
        auto r = runGantry(
            {"inspect", data("importers/kubectl-list.json"), data("importers/volcano-objects.yaml")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("Nodes: 2 (1 ready, 1 unschedulable)"));
        QVERIFY(r.out.contains("Pods: 7 (1 bound, 6 pending); bound pods hold 8 of 8 GPUs"));
        QVERIFY(r.out.contains("  research  weight 4  priority 10  not reclaimable"));
        QVERIFY(r.out.contains("\n    research-nlp  Closed  deserved nvidia.com/gpu=16\n"));
        QVERIFY(
            r.out.contains("Policy: target volcano; Volcano actions enqueue, allocate, backfill, preempt"));
        QVERIFY(r.out.contains(
            "\nWarnings: 2\n  " + data("importers/kubectl-list.json") +
            ":92:9: warning: pod 'research/llm-pretrain-worker-0' names PodGroup 'llm-pretrain-7b'"));
    }
    void conformanceSnapshot() {
        auto r = runGantry(
            {"inspect", data("conformance/volcano/13-topology-hard-fits-one-hypernode/snapshot.yaml")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("Nodes: 4 (4 ready, 0 unschedulable)"));
        QVERIFY(r.out.contains("HyperNodes: 3 (tier 1: 2, tier 2: 1)"));
        QVERIFY(r.out.contains("Pods: 2 (0 bound, 2 pending)"));
        QVERIFY(r.out.contains("PodGroups: 1"));
    }
    void projectFile() {
        QTemporaryDir dir;
        QString path = dir.filePath("east.gantry");
        auto in = gantry::loadInputs({sample().toStdString()});
        gantry::writeProjectFile(path.toStdString(), in.project);
        auto r = runGantry({"inspect", path});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith("gpu-cloud-east\n  project: " + path + "\n"));
        // The same facts as from the inventory it was saved from.
        auto fromInventory = runGantry({"inspect", sample()});
        QCOMPARE(r.out.section('\n', 3), fromInventory.out.section('\n', 3));
    }
    void badInputIsLocated() {
        QTemporaryDir dir;
        QString bad = dir.filePath("bad.yaml");
        std::ofstream(bad.toStdString())
            << "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: q}\n"
               "spec:\n  capability: {cpu: -2}\n";
        auto r = runGantry({"inspect", bad});
        QCOMPARE(r.code, 2);
        QVERIFY(r.out.isEmpty());
        QCOMPARE(r.err,
                 bad + ":5:21: error: Queue 'q': spec.capability.cpu: quantity '-2' must not be negative\n");
        // Cross-object errors are all listed.
        QString dup = dir.filePath("dup.yaml");
        std::ofstream(dup.toStdString())
            << "apiVersion: v1\nkind: Node\nmetadata: {name: n}\n---\napiVersion: v1\nkind: Node\n"
               "metadata: {name: n}\n---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\n"
               "metadata: {name: q}\nspec: {parent: nowhere}\n";
        r = runGantry({"inspect", dup});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err, dup + ":5:1: error: duplicate node 'n' (first defined at " + dup + ":1:1)\n" + dup +
                            ":9:1: error: queue 'q' names parent 'nowhere', which does not exist\n");
        r = runGantry({"inspect", dir.filePath("missing.yaml")});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err,
                 dir.filePath("missing.yaml") + ": error: cannot open file: No such file or directory\n");
    }
    void usage() {
        auto r = runGantry({"inspect"});
        QCOMPARE(r.code, 1);
        QCOMPARE(r.err, QString("gantry inspect: no FILE given\nTry 'gantry inspect --help'.\n"));
        r = runGantry({"inspect", "--frobnicate", sample()});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.startsWith("gantry inspect: unknown option '--frobnicate'"));
        r = runGantry({"inspect", "--help"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith("Usage: gantry inspect [--json] FILE..."));
        r = runGantry({"--help"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains(
            QRegularExpression(R"(\n  inspect FILE\.\.\. +summarise a snapshot, inventory or project\n)")));
    }
};

GANTRY_TEST(InspectTest)
#include "test_inspect.moc"
