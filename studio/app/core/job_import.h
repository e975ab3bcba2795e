#pragma once
// Adding jobs to the open project: the PodGroups (and their pods) of a file of job manifests
// (Volcano Jobs, batch Jobs, PyTorchJobs, PodGroups with pods) or of a trace become what-if jobs
// of the project's cluster, next to the ones it has. They arrive pending: a pod bound to a node
// in the file is unbound, since that node is another cluster's.
#include "core/project_document.h"

#include <QString>
#include <QStringList>
#include <QUndoCommand>
#include <vector>

namespace gantry::studio {

struct JobImport {
    std::vector<PodGroup> groups;
    std::vector<Pod> pods;     // of those groups
    QStringList skipped;       // jobs already in the project (namespace/name), not imported
    QStringList unknownQueues; // queues the imported jobs name that the project lacks
    int unbound = 0;           // pods that were bound in the file
};

// The jobs of `from` that `into` does not have yet.
JobImport jobsToImport(const Cluster& into, const Cluster& from);

// Appends the jobs to the cluster; undo takes them off again.
class ImportJobsCommand : public QUndoCommand {
  public:
    ImportJobsCommand(ProjectDocument* doc, JobImport jobs, const QString& fileName);
    void redo() override;
    void undo() override;

  private:
    ProjectDocument* doc_;
    std::vector<PodGroup> groups_;
    std::vector<Pod> pods_;
};

} // namespace gantry::studio
