#include "core/autosave.h"

#include "atomic_file.h"
#include "core/project_document.h"
#include "core/project_files.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUuid>
#include <exception>

namespace gantry::studio {

Autosaver::Autosaver(ProjectDocument* doc, const QString& dir, QObject* parent)
    : QObject(parent), doc_(doc), dir_(dir) {
    QDir().mkpath(dir_);
    removeOrphanedTemporaryFiles(dir_.toStdString()); // left by sessions killed mid-save
    QString id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    copyPath_ = QDir(dir_).filePath(id + ".gantry");
    lock_ = std::make_unique<QLockFile>(QDir(dir_).filePath(id + ".lock"));
    lock_->setStaleLockTime(0);
    lock_->tryLock(0);
    timer_.setInterval(60 * 1000);
    connect(&timer_, &QTimer::timeout, this, &Autosaver::saveNow);
    timer_.start();
    connect(doc_, &ProjectDocument::modifiedChanged, this, [this](bool modified) {
        if (!modified) discard();
    });
}

Autosaver::~Autosaver() {
    // Reaching the destructor means a clean exit: the copy is not needed for recovery.
    discard();
    if (lock_) lock_->unlock();
}

bool Autosaver::saveNow() {
    if (!doc_->isModified() || doc_->revision() == savedRevision_) return true;
    try {
        saveProject(doc_->project(), copyPath_);
        QJsonObject meta{{"originalPath", doc_->filePath()},
                         {"name", doc_->displayName()},
                         {"savedAt", QDateTime::currentDateTimeUtc().toString(Qt::ISODate)}};
        writeFileAtomically((copyPath_ + ".json").toStdString(), QJsonDocument(meta).toJson().toStdString());
        savedRevision_ = doc_->revision();
        return true;
    } catch (const std::exception& e) {
        if (!reportedFailure_) emit failed(tr("Autosave failed: %1").arg(QString::fromUtf8(e.what())));
        reportedFailure_ = true;
        return false;
    }
}

void Autosaver::discard() {
    QFile::remove(copyPath_);
    QFile::remove(copyPath_ + ".json");
    savedRevision_ = 0;
}

std::vector<RecoverableSession> Autosaver::findRecoverable(const QString& dir) {
    std::vector<RecoverableSession> out;
    QDir d(dir);
    for (const QFileInfo& copy : d.entryInfoList({"*.gantry"}, QDir::Files, QDir::Time)) {
        QLockFile lock(d.filePath(copy.completeBaseName() + ".lock"));
        lock.setStaleLockTime(0);
        if (!lock.tryLock(0)) continue; // its session is still running
        lock.unlock();
        RecoverableSession s;
        s.autosavePath = copy.absoluteFilePath();
        s.savedAt = copy.lastModified();
        QFile metaFile(copy.absoluteFilePath() + ".json");
        if (metaFile.open(QIODevice::ReadOnly)) {
            QJsonObject meta = QJsonDocument::fromJson(metaFile.readAll()).object();
            s.originalPath = meta.value("originalPath").toString();
            s.name = meta.value("name").toString();
        }
        if (s.name.isEmpty()) s.name = QObject::tr("Untitled");
        out.push_back(s);
    }
    return out;
}

void Autosaver::remove(const RecoverableSession& session) {
    QFile::remove(session.autosavePath);
    QFile::remove(session.autosavePath + ".json");
    QFileInfo info(session.autosavePath);
    QFile::remove(info.dir().filePath(info.completeBaseName() + ".lock"));
}

} // namespace gantry::studio
