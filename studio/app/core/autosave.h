#pragma once
// Autosave and crash recovery. While a project has unsaved changes, a copy is written every
// interval to the studio's data folder next to a lock held by this process. A copy whose lock is
// no longer held belongs to a session that ended without saving (a crash): the next start offers
// it back. A clean close or a save removes the copy.
#include <QDateTime>
#include <QLockFile>
#include <QObject>
#include <QTimer>
#include <memory>

namespace gantry::studio {

class ProjectDocument;

struct RecoverableSession {
    QString autosavePath; // the .gantry copy
    QString originalPath; // where the project was saved before, if anywhere
    QString name;
    QDateTime savedAt;
};

class Autosaver : public QObject {
    Q_OBJECT
  public:
    // dir: where copies go (QStandardPaths::AppLocalDataLocation + "/autosave" in the studio).
    Autosaver(ProjectDocument* doc, const QString& dir, QObject* parent = nullptr);
    ~Autosaver() override;

    void setInterval(int ms) { timer_.setInterval(ms); }
    // Writes the copy now if the project changed since the last one. Returns false on failure.
    bool saveNow();
    // Removes this session's copy (after a save or a clean close).
    void discard();
    QString copyPath() const { return copyPath_; }

    // Copies left by sessions that are no longer running.
    static std::vector<RecoverableSession> findRecoverable(const QString& dir);
    // Removes a recovered or declined copy.
    static void remove(const RecoverableSession& session);

  signals:
    void failed(const QString& message);

  private:
    ProjectDocument* doc_;
    QString dir_, copyPath_;
    std::unique_ptr<QLockFile> lock_;
    QTimer timer_;
    uint64_t savedRevision_ = 0;
    bool reportedFailure_ = false;
};

} // namespace gantry::studio
