// Saves and autosaves interrupted for real: a child process that saves and autosaves a project over
// and over (gantry-save-victim) is killed with SIGKILL at random moments, or runs into a file size
// limit as it would into a full disk. Whatever the moment, the project file is a whole project (the
// last one reported saved, or a later one) and the autosave copy can be recovered and read.
#include "atomic_file.h"
#include "core/autosave.h"
#include "core/project_document.h"
#include "core/project_files.h"
#include "project/project_reader.h"
#include "project/project_writer.h"
#include "test_registry.h"

#include <QDir>
#include <QProcess>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>
#include <csignal>
#include <random>

using namespace gantry;
using namespace gantry::studio;

namespace {

// The generation a saved project holds, checking that it is whole: its padding has the length that
// generation wrote.
int wholeGeneration(const QString& path) {
    Project p = readProjectFile(path.toStdString());
    const std::string prefix = "generation ";
    if (p.name.rfind(prefix, 0) != 0) return -1;
    int generation = std::stoi(p.name.substr(prefix.size()));
    return p.description == std::string(size_t(generation) * 4096, 'x') ? generation : -1;
}

// The last N of lines "WORD N" in the victim's output.
int lastReported(const QString& output, const QString& word) {
    int last = 0;
    for (const QString& line : output.split('\n'))
        if (line.startsWith(word + ' ')) last = line.mid(word.size() + 1).toInt();
    return last;
}

// Temporary files of atomic saves in a folder (.NAME.tmp-PID@HOST-XXXXXX).
QStringList temporaryFiles(const QString& dir) {
    return QDir(dir).entryList({".*.tmp-*"}, QDir::Hidden | QDir::Files);
}

} // namespace

class SaveInterruptionTest : public QObject {
    Q_OBJECT

    // Every copy an interrupted session left is recoverable: it reads as a whole project.
    static int checkRecoverable(const QString& dir, int atLeast) {
        int best = 0;
        for (const auto& s : Autosaver::findRecoverable(dir)) {
            int generation = wholeGeneration(s.autosavePath);
            if (generation < 0) return -1;
            best = std::max(best, generation);
            Autosaver::remove(s);
        }
        return atLeast > 0 && best < atLeast ? -1 : best;
    }

  private slots:
    void killedAtRandomMoments() {
        QTemporaryDir dir;
        const QString target = dir.filePath("plan.gantry"), autosaves = dir.filePath("autosave");
        std::mt19937 rng(17);
        std::uniform_int_distribution<int> delay(30, 600);
        int interruptedWithFile = 0;
        for (int round = 0; round < 16; ++round) {
            QProcess victim;
            victim.start(GANTRY_SAVE_VICTIM, {target, autosaves});
            QVERIFY(victim.waitForStarted());
            QThread::msleep(unsigned(delay(rng)));
            ::kill(pid_t(victim.processId()), SIGKILL);
            QVERIFY(victim.waitForFinished());
            QCOMPARE(victim.exitStatus(), QProcess::CrashExit);
            QString output = QString::fromUtf8(victim.readAllStandardOutput());
            int saved = lastReported(output, "saved"), autosaved = lastReported(output, "autosaved");
            if (QFile::exists(target)) {
                int onDisk = wholeGeneration(target);
                QVERIFY2(onDisk > 0,
                         qPrintable("round " + QString::number(round) + ": the project is not whole"));
                QVERIFY2(
                    onDisk >= saved,
                    qPrintable(QString("generation %1 on disk, %2 reported saved").arg(onDisk).arg(saved)));
                ++interruptedWithFile;
            }
            QVERIFY2(checkRecoverable(autosaves, autosaved) >= 0,
                     qPrintable("round " + QString::number(round) + ": the autosave is not recoverable"));
            // The writes go to unnamed files, named only to be renamed over the target: a kill between
            // the two leaves one named temporary file at most (formats/atomic_stream.cpp, commit), which
            // the next save of that file removes (each round's first save does).
            QVERIFY2(temporaryFiles(dir.path()).size() <= 1,
                     qPrintable(temporaryFiles(dir.path()).join(' ')));
            QVERIFY2(temporaryFiles(autosaves).size() <= 2, qPrintable(temporaryFiles(autosaves).join(' ')));
        }
        QVERIFY(interruptedWithFile > 8);
        // The promise: the next save and autosave after the last kill leave no temporary file behind.
        Project p = readProjectFile(target.toStdString());
        saveProject(p, target);
        ProjectDocument doc;
        Autosaver autosaver(&doc, autosaves);
        doc.replace(p, target, {}, true);
        QVERIFY(autosaver.saveNow());
        QCOMPARE(temporaryFiles(dir.path()), QStringList());
        QCOMPARE(temporaryFiles(autosaves), QStringList());
    }

    void orphanedTemporaryFilesAreRemoved() {
        // What a save killed on a filesystem without O_TMPFILE leaves: a named temporary file whose
        // writer is gone. The next save of the same file removes it, and only it.
        QTemporaryDir dir;
        const QString target = dir.filePath("plan.gantry");
        QProcess gone;
        gone.start("sleep", {"0.1"});
        QVERIFY(gone.waitForStarted());
        const qint64 gonePid = gone.processId();
        QVERIFY(gone.waitForFinished());
        const QString host = QSysInfo::machineHostName();
        const QString orphan = dir.filePath(QString(".plan.gantry.tmp-%1@%2-abc123").arg(gonePid).arg(host));
        const QString oldOrphan = dir.filePath(QString(".plan.gantry.tmp-%1-abc123").arg(gonePid)); // no host
        const QString live = dir.filePath(
            QString(".plan.gantry.tmp-%1@%2-def456").arg(QCoreApplication::applicationPid()).arg(host));
        const QString other = dir.filePath(QString(".other.gantry.tmp-%1@%2-abc123").arg(gonePid).arg(host));
        // On a shared (NFS) folder: the pid is another machine's, whose processes this one cannot see.
        const QString remote =
            dir.filePath(QString(".plan.gantry.tmp-%1@%2-x-abc123").arg(gonePid).arg(host));
        for (const QString& f : {orphan, oldOrphan, live, other, remote}) {
            QFile file(f);
            QVERIFY(file.open(QIODevice::WriteOnly));
        }
        Project p;
        p.name = "after the crash";
        writeProjectFile(target.toStdString(), p);
        QVERIFY(!QFile::exists(orphan));
        QVERIFY(!QFile::exists(oldOrphan));
        QVERIFY(QFile::exists(remote));
        QVERIFY(QFile::exists(live));  // its writer may still be saving
        QVERIFY(QFile::exists(other)); // another file's business
        QCOMPARE(readProjectFile(target.toStdString()).name, std::string("after the crash"));
        // A folder of many writers (the autosaves) is cleaned whole when a session starts: every
        // dead writer's file of this host goes, the living writer's and the other host's stay.
        removeOrphanedTemporaryFiles(dir.path().toStdString());
        QVERIFY(!QFile::exists(other));
        QVERIFY(QFile::exists(remote));
        QVERIFY(QFile::exists(live));
    }

    void fullDiskKeepsThePreviousFile() {
        QTemporaryDir dir;
        const QString target = dir.filePath("plan.gantry"), autosaves = dir.filePath("autosave");
        QProcess victim;
        victim.start(GANTRY_SAVE_VICTIM, {target, autosaves, QString::number(256 * 1024)});
        QVERIFY(victim.waitForStarted());
        QString output;
        while (!output.contains("autosave failed") && victim.state() == QProcess::Running) {
            victim.waitForReadyRead(1000);
            output += QString::fromUtf8(victim.readAllStandardOutput());
        }
        ::kill(pid_t(victim.processId()), SIGKILL);
        victim.waitForFinished();
        output += QString::fromUtf8(victim.readAllStandardOutput());
        QVERIFY2(output.contains("save failed"), qPrintable(output.right(400)));
        QVERIFY2(output.contains("File too large"), qPrintable(output.right(400)));
        int saved = lastReported(output, "saved"), autosaved = lastReported(output, "autosaved");
        QVERIFY(saved > 0 && autosaved > 0);
        QCOMPARE(wholeGeneration(target), saved);
        QCOMPARE(checkRecoverable(autosaves, autosaved), autosaved);
        // The failed writes left no temporary files behind.
        QCOMPARE(temporaryFiles(dir.path()), QStringList());
    }
};

GANTRY_TEST(SaveInterruptionTest)
#include "test_save_interruption.moc"
