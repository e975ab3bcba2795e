#pragma once
// The jobs (PodGroups) that came with a snapshot, with their pods counted: what each job holds, when
// it arrives and how long it runs (a history's jobs carry both), and how many of its pods wait.
// Read-only; they take part in every what-if as they are.
#include "core/project_document.h"

#include <QAbstractTableModel>
#include <vector>

namespace gantry::studio {

class ImportedJobsModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { Job, Origin, Queue, GangMin, Pods, Gpus, Arrival, Duration, Pending, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1 };

    explicit ImportedJobsModel(ProjectDocument* doc, QObject* parent = nullptr);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    int jobsWaiting() const;

  private:
    struct Counts {
        int pods = 0, pending = 0;
        int64_t gpuMilli = 0;
    };
    void recount();
    ProjectDocument* doc_;
    std::vector<Counts> counts_; // per PodGroup
};

} // namespace gantry::studio
