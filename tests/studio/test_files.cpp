// What the studio can open: type detection, snapshot loading through the real importer, located
// errors for bad files.
#include "core/project_files.h"
#include "input_error.h"
#include "studio_test_support.h"
#include "test_registry.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace gantry;
using namespace gantry::studio;

namespace {
QString write(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    QString path = dir.filePath(name);
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(text);
    return path;
}
} // namespace

class FilesTest : public QObject {
    Q_OBJECT
  private slots:
    void detection() {
        QTemporaryDir dir;
        QCOMPARE(detectFileKind(fixtures::labClusterPath()), FileKind::Snapshot);
        QCOMPARE(detectFileKind(write(dir, "a.gantry", "name: x\n")), FileKind::Project);
        QCOMPARE(detectFileKind(write(dir, "inv.yaml",
                                      "# my cluster\napiVersion: gantry.io/v1alpha1\nkind: Inventory\n")),
                 FileKind::Inventory);
        QCOMPARE(detectFileKind(write(dir, "nodes.json", "{\"apiVersion\": \"v1\", \"kind\": \"List\"}")),
                 FileKind::Snapshot);
        QCOMPARE(
            detectFileKind(write(dir, "volcano-scheduler.conf",
                                 "actions: \"enqueue, allocate\"\ntiers:\n- plugins:\n  - name: gang\n")),
            FileKind::SchedulerConf);
        QCOMPARE(detectFileKind(write(dir, "pods.csv", "name,cpu_milli\n")), FileKind::Trace);
        QCOMPARE(detectFileKind(dir.filePath("missing.yaml")), FileKind::Unknown);
        QCOMPARE(detectFileKind(QStringLiteral(GANTRY_SOURCE_DIR "/resources/samples/gpu-cloud-east.yaml")),
                 FileKind::Inventory);
    }

    void snapshotsOpenIntoAProject() {
        LoadedFile f = loadFile(fixtures::labClusterPath());
        QCOMPARE(f.kind, FileKind::Snapshot);
        QCOMPARE(f.project.cluster.nodes.size(), size_t(100));
        QCOMPARE(f.project.cluster.queues.size(), size_t(10));
        QCOMPARE(f.project.name, std::string("lab-cluster"));
        QCOMPARE(f.project.target, TargetScheduler::Volcano);
        // A plan started from a cluster is compared with the default kube-scheduler.
        QVERIFY(f.project.contrast == KubeSchedulerProfile{});
    }

    void severalSnapshotsMerge() {
        QTemporaryDir dir;
        QString nodes = write(dir, "nodes.yaml",
                              "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\nstatus:\n  allocatable:\n  "
                              "  cpu: '8'\n    nvidia.com/gpu: '8'\n");
        QString queues = write(dir, "queues.yaml",
                               "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata:\n  name: "
                               "q1\nspec:\n  weight: 2\n");
        LoadedFile f = loadFiles({nodes, queues});
        QCOMPARE(f.project.cluster.nodes.size(), size_t(1));
        QCOMPARE(f.project.cluster.queues.size(), size_t(1));
        QCOMPARE(f.project.cluster.nodes[0].gpus.count, 8);
    }

    void theSampleInventoryOpens() {
        LoadedFile f = loadFile(QStringLiteral(GANTRY_SOURCE_DIR "/resources/samples/gpu-cloud-east.yaml"));
        QCOMPARE(f.kind, FileKind::Inventory);
        QCOMPARE(f.project.name, std::string("gpu-cloud-east"));
        QVERIFY(f.project.cluster.nodes.size() > 100);
        QVERIFY(!f.project.cluster.queues.empty());
        QVERIFY(!f.project.workloads.empty());
    }

    void projectsSaveAndReopenUnchanged() {
        QTemporaryDir dir;
        Project p = loadFile(fixtures::labClusterPath()).project;
        p.contrast = KubeSchedulerProfile{};
        p.cluster.queues[0].weight = 9;
        QString path = dir.filePath("lab.gantry");
        saveProject(p, path);
        LoadedFile back = loadFile(path);
        QCOMPARE(back.kind, FileKind::Project);
        QVERIFY(back.project.cluster.queues == p.cluster.queues);
        QVERIFY(back.project.cluster.nodes == p.cluster.nodes);
        QVERIFY(back.project.contrast == p.contrast);
        QVERIFY(back.project == p);
        // A saved project keeps its own choice: no comparison stays none.
        p.contrast.reset();
        saveProject(p, path);
        QVERIFY(!loadFile(path).project.contrast);
        // A save into a folder that does not exist fails with the path in the message.
        try {
            saveProject(p, dir.filePath("no/such/folder/lab.gantry"));
            QFAIL("expected an error");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains("no/such/folder"), e.what());
        }
    }

    void aSchedulerConfigurationIsAPolicy() {
        QTemporaryDir dir;
        QString conf =
            write(dir, "volcano-scheduler.conf",
                  "actions: \"enqueue, allocate, preempt, backfill\"\ntiers:\n- plugins:\n  - name: "
                  "priority\n  - name: gang\n"
                  "- plugins:\n  - name: drf\n  - name: predicates\n  - name: capacity\n  - name: binpack\n");
        LoadedFile f = loadFile(conf);
        QCOMPARE(f.kind, FileKind::SchedulerConf);
        QVERIFY(f.schedulerConf);
        QCOMPARE(f.schedulerConf->actions,
                 (std::vector<std::string>{"enqueue", "allocate", "preempt", "backfill"}));
        QVERIFY(f.schedulerConf->plugin("capacity"));
    }

    void aTraceOpensAsClusterAndJobs() {
        const QString dir = QStringLiteral(GANTRY_SOURCE_DIR "/resources/traces/alibaba-gpu-v2023/");
        LoadedFile f =
            loadFiles({dir + "openb_pod_list_gpuspec33.csv", dir + "openb_node_list_gpu_node.csv"});
        QCOMPARE(f.kind, FileKind::Trace);
        QCOMPARE(f.project.cluster.nodes.size(), size_t(1213));
        QVERIFY(!f.project.cluster.pods.empty());
        QCOMPARE(f.project.cluster.podGroups.size(), f.project.cluster.pods.size()); // one-pod jobs
        for (const auto& p : f.project.cluster.pods) QVERIFY(p.nodeName.empty());
        QVERIFY(f.project.cluster.findQueue("default"));
        QVERIFY(f.project.volcano.plugin("deviceshare"));
        // One file of a trace is not enough, and the message says what to open.
        try {
            loadFile(dir + "openb_node_list_gpu_node.csv");
            QFAIL("expected an error");
        } catch (const std::runtime_error& e) {
            QVERIFY(QString::fromUtf8(e.what()).contains("two CSV files"));
        }
    }

    void badInputIsLocated() {
        QTemporaryDir dir;
        QString bad = write(dir, "broken.yaml", "apiVersion: v1\nkind: Node\nmetadata:\n  name: [unclosed\n");
        try {
            loadFile(bad);
            QFAIL("expected an error");
        } catch (const InputError& e) {
            QVERIFY2(QString::fromStdString(e.what()).startsWith(bad + ":"), e.what());
            QVERIFY(e.diagnostic().where.line > 0);
        }
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, loadFile(dir.filePath("missing.yaml")));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, loadFile(write(dir, "notes.txt", "hello")));
        QString negative = write(
            dir, "neg.yaml",
            "apiVersion: v1\nkind: Node\nmetadata:\n  name: n\nstatus:\n  allocatable:\n    cpu: '-4'\n");
        try {
            loadFile(negative);
            QFAIL("expected an error");
        } catch (const InputError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(":7:"), e.what());
        }
    }
};

GANTRY_TEST(FilesTest)
#include "test_files.moc"
