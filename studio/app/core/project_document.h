#pragma once
// The open project: the one place the studio keeps a gantry::Project. Views read it; only undo
// commands (core/*_commands.h) change it, and they announce each change through these signals so
// models can update precisely.
#include "model/diagnostic.h"
#include "model/project.h"

#include <QObject>
#include <QString>
#include <QUndoStack>
#include <cstdint>
#include <vector>

namespace gantry::studio {

class ProjectDocument : public QObject {
    Q_OBJECT
  public:
    explicit ProjectDocument(QObject* parent = nullptr);

    const Project& project() const { return project_; }
    QUndoStack* undoStack() { return &undo_; }

    // Where Save writes; empty for a new project or one opened from a snapshot or inventory.
    QString filePath() const { return filePath_; }
    // The file the project came from (a .gantry, snapshot, inventory ...); for titles and messages.
    QString sourcePath() const { return sourcePath_; }
    QString displayName() const;
    bool isModified() const { return !undo_.isClean() || modifiedOutsideUndo_; }
    // Increments on every change; results and autosaves compare it to know they are stale.
    uint64_t revision() const { return revision_; }
    // True while replace() announces the new project (listeners of the finer signals can wait for
    // projectReplaced instead of doing the same work twice).
    bool isReplacing() const { return replacing_; }

    // What reading the source said: objects skipped, fields assumed, a YuniKorn partition left out.
    // The export report lists them as losses, as `gantry export --from SOURCE` does.
    const Diagnostics& inputWarnings() const { return inputWarnings_; }

    // New / Open / recovery: replaces everything and clears the undo history.
    void replace(Project project, const QString& filePath, const QString& sourcePath, bool modified = false,
                 Diagnostics inputWarnings = {});
    void markSaved(const QString& filePath);

    // For undo commands only: mutate through edit(), then announce what changed.
    Project& edit() { return project_; }
    void announceQueueChanged(int queueIndex);
    void beginQueuesReset();
    void endQueuesReset();
    void announceNodesChanged(const std::vector<int>& nodeIndices);
    void announceTopologyChanged();
    void announceNodesReset();
    void announceWorkloadChanged(int workloadIndex);
    void beginWorkloadsReset();
    void endWorkloadsReset();
    void announcePolicyChanged();
    void announceSettingsChanged();
    void announceJobsChanged();

  signals:
    void projectReplaced();
    void queueChanged(int queueIndex);
    void queuesAboutToBeReset();
    void queuesReset();
    void nodesChanged(const std::vector<int>& nodeIndices); // labels / taints of these nodes
    void topologyChanged();                                 // topology levels or hypernodes
    void nodesReset(); // nodes added or removed, and the HyperNodes made from their labels
    void workloadChanged(int workloadIndex);
    void workloadsAboutToBeReset();
    void workloadsReset();
    void policyChanged();   // target scheduler, scheduler configuration, contrast profile
    void settingsChanged(); // simulation settings, name, description
    void jobsChanged();     // the cluster's what-if jobs (PodGroups and their pods)
    void modifiedChanged(bool modified);
    void filePathChanged(const QString& path);
    void changed(); // after any of the above

  private:
    void touched();

    Project project_;
    QUndoStack undo_;
    QString filePath_;
    QString sourcePath_;
    Diagnostics inputWarnings_;
    bool modifiedOutsideUndo_ = false;
    bool lastModified_ = false;
    bool replacing_ = false;
    uint64_t revision_ = 0;
};

} // namespace gantry::studio
