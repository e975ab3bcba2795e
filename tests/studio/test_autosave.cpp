// Crash recovery: an autosaved copy whose session lock is gone is offered back; one whose session
// still runs is not; a clean end removes the copy.
#include "core/autosave.h"
#include "core/project_document.h"
#include "core/project_files.h"
#include "core/queue_commands.h"
#include "studio_test_support.h"
#include "test_registry.h"

#include <QLockFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace gantry;
using namespace gantry::studio;

namespace {
void touch(const QString& path, const QByteArray& text = "x") {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}
} // namespace

class AutosaveTest : public QObject {
    Q_OBJECT
  private slots:
    void copiesOfEndedSessionsAreRecoverable() {
        QTemporaryDir dir;
        // A crashed session: copy and metadata, no lock held.
        touch(dir.filePath("crashed.gantry"));
        touch(dir.filePath("crashed.gantry.json"),
              R"({"name": "lab.gantry", "originalPath": "/tmp/lab.gantry"})");
        // A running session: its lock is held.
        touch(dir.filePath("running.gantry"));
        QLockFile held(dir.filePath("running.lock"));
        QVERIFY(held.tryLock(0));
        auto found = Autosaver::findRecoverable(dir.path());
        QCOMPARE(found.size(), size_t(1));
        QCOMPARE(QFileInfo(found[0].autosavePath).fileName(), QStringLiteral("crashed.gantry"));
        QCOMPARE(found[0].name, QStringLiteral("lab.gantry"));
        QCOMPARE(found[0].originalPath, QStringLiteral("/tmp/lab.gantry"));
        Autosaver::remove(found[0]);
        QVERIFY(!QFile::exists(dir.filePath("crashed.gantry")));
        QVERIFY(!QFile::exists(dir.filePath("crashed.gantry.json")));
        QVERIFY(Autosaver::findRecoverable(dir.path()).empty());
    }

    void anUnsavedProjectIsWrittenAndCanBeRecovered() {
        QTemporaryDir dir;
        QString copy;
        {
            ProjectDocument doc;
            fixtures::openLab(doc);
            Autosaver saver(&doc, dir.path());
            copy = saver.copyPath();
            QVERIFY(saver.saveNow());
            QVERIFY(!QFile::exists(copy)); // nothing changed yet
            Queue q = doc.project().cluster.queues.front();
            q.weight = 17;
            doc.undoStack()->push(new EditQueueCommand(&doc, q, "w"));
            QVERIFY(saver.saveNow());
            QVERIFY(QFile::exists(copy));
            // Simulate a crash: the copy outlives the session (the destructor would remove it).
            QFile::copy(copy, copy + ".kept");
            QFile::copy(copy + ".json", copy + ".json.kept");
        }
        QFile::rename(copy + ".kept", copy);
        QFile::rename(copy + ".json.kept", copy + ".json");
        auto found = Autosaver::findRecoverable(dir.path());
        QCOMPARE(found.size(), size_t(1));
        QCOMPARE(found[0].name, QStringLiteral("lab-cluster.yaml"));
        LoadedFile recovered = loadFile(found[0].autosavePath);
        QCOMPARE(recovered.project.cluster.queues.front().weight, 17);
        QCOMPARE(recovered.project.cluster.nodes.size(), size_t(100));
    }

    void aSessionHoldsItsLockAndCleansUp() {
        QTemporaryDir dir;
        ProjectDocument doc;
        QString copy;
        {
            Autosaver saver(&doc, dir.path());
            copy = saver.copyPath();
            touch(copy); // as if a save had happened
            // While this session runs, its copy is not offered to another instance.
            QVERIFY(Autosaver::findRecoverable(dir.path()).empty());
            // Nothing to save for an unmodified project.
            QVERIFY(saver.saveNow());
        }
        QVERIFY(!QFile::exists(copy)); // a clean end removes it
    }
};

GANTRY_TEST(AutosaveTest)
#include "test_autosave.moc"
