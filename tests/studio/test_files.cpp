// What the studio can open: type detection, snapshot loading through the real importer, located
// errors for bad files.
#include <QTemporaryDir>
#include <QtTest>

#include "core/project_files.h"
#include "input_error.h"
#include "studio_test_support.h"
#include "test_registry.h"

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
        QCOMPARE(detectFileKind(write(dir, "a.gantry", "gantry: 1\n")), FileKind::Project);
        QCOMPARE(detectFileKind(write(dir, "inv.yaml", "# my cluster\npools:\n  - name: h100\n")), FileKind::Inventory);
        QCOMPARE(detectFileKind(write(dir, "nodes.json", "{\"apiVersion\": \"v1\", \"kind\": \"List\"}")), FileKind::Snapshot);
        QCOMPARE(detectFileKind(write(dir, "pods.csv", "name,cpu_milli\n")), FileKind::Trace);
        QCOMPARE(detectFileKind(write(dir, "notes.txt", "hello\n")), FileKind::Unknown);
    }

    void snapshotsOpenIntoAProject() {
        LoadedFile f = loadFile(fixtures::labClusterPath());
        QCOMPARE(f.kind, FileKind::Snapshot);
        QCOMPARE(f.project.cluster.nodes.size(), size_t(100));
        QCOMPARE(f.project.cluster.queues.size(), size_t(10));
        QCOMPARE(f.project.name, std::string("lab-cluster"));
        QCOMPARE(f.project.target, TargetScheduler::Volcano);
    }

    void severalSnapshotsMerge() {
        QTemporaryDir dir;
        QString nodes = write(dir, "nodes.yaml",
                              "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\nstatus:\n  allocatable:\n    cpu: '8'\n    nvidia.com/gpu: '8'\n");
        QString queues = write(dir, "queues.yaml",
                               "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata:\n  name: q1\nspec:\n  weight: 2\n");
        LoadedFile f = loadFiles({nodes, queues});
        QCOMPARE(f.project.cluster.nodes.size(), size_t(1));
        QCOMPARE(f.project.cluster.queues.size(), size_t(1));
        QCOMPARE(f.project.cluster.nodes[0].gpus.count, 8);
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
        QString negative = write(dir, "neg.yaml", "apiVersion: v1\nkind: Node\nmetadata:\n  name: n\nstatus:\n  allocatable:\n    cpu: '-4'\n");
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
