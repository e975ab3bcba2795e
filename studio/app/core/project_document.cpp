#include "core/project_document.h"

#include <QFileInfo>

namespace gantry::studio {

ProjectDocument::ProjectDocument(QObject* parent) : QObject(parent) {
    connect(&undo_, &QUndoStack::cleanChanged, this, [this] {
        if (lastModified_ != isModified()) {
            lastModified_ = isModified();
            emit modifiedChanged(lastModified_);
        }
    });
}

QString ProjectDocument::displayName() const {
    if (!filePath_.isEmpty()) return QFileInfo(filePath_).fileName();
    if (!sourcePath_.isEmpty()) return QFileInfo(sourcePath_).fileName();
    if (!project_.name.empty()) return QString::fromStdString(project_.name);
    return tr("Untitled");
}

void ProjectDocument::replace(Project project, const QString& filePath, const QString& sourcePath,
                              bool modified, Diagnostics inputWarnings) {
    emit queuesAboutToBeReset();
    emit workloadsAboutToBeReset();
    project_ = std::move(project);
    filePath_ = filePath;
    sourcePath_ = sourcePath;
    inputWarnings_ = std::move(inputWarnings);
    undo_.clear();
    undo_.setClean();
    modifiedOutsideUndo_ = modified;
    ++revision_;
    replacing_ = true;
    emit queuesReset();
    emit workloadsReset();
    replacing_ = false;
    emit projectReplaced();
    emit filePathChanged(filePath_);
    lastModified_ = isModified();
    emit modifiedChanged(lastModified_);
    emit changed();
}

void ProjectDocument::markSaved(const QString& filePath) {
    filePath_ = filePath;
    sourcePath_ = filePath;
    modifiedOutsideUndo_ = false;
    undo_.setClean();
    if (lastModified_ != isModified()) {
        lastModified_ = isModified();
        emit modifiedChanged(lastModified_);
    }
    emit filePathChanged(filePath_);
}

void ProjectDocument::touched() {
    ++revision_;
    emit changed();
}

void ProjectDocument::announceQueueChanged(int queueIndex) {
    emit queueChanged(queueIndex);
    touched();
}

void ProjectDocument::beginQueuesReset() {
    emit queuesAboutToBeReset();
}

void ProjectDocument::endQueuesReset() {
    emit queuesReset();
    touched();
}

void ProjectDocument::announceNodesChanged(const std::vector<int>& nodeIndices) {
    emit nodesChanged(nodeIndices);
    touched();
}

void ProjectDocument::announceTopologyChanged() {
    emit topologyChanged();
    touched();
}

void ProjectDocument::announceNodesReset() {
    emit nodesReset();
    touched();
}

void ProjectDocument::announceJobsChanged() {
    emit jobsChanged();
    touched();
}

void ProjectDocument::announceWorkloadChanged(int workloadIndex) {
    emit workloadChanged(workloadIndex);
    touched();
}

void ProjectDocument::beginWorkloadsReset() {
    emit workloadsAboutToBeReset();
}

void ProjectDocument::endWorkloadsReset() {
    emit workloadsReset();
    touched();
}

void ProjectDocument::announcePolicyChanged() {
    emit policyChanged();
    touched();
}

void ProjectDocument::announceSettingsChanged() {
    emit settingsChanged();
    touched();
}

} // namespace gantry::studio
