#pragma once
// The what-if job mix as a table: one row per workload template. Shape fields are edited in place;
// the arrival process and duration distribution in the detail form. Edits are undo commands.
#include "core/project_document.h"

#include <QAbstractTableModel>

namespace gantry::studio {

class WorkloadModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column {
        Name,
        Queue,
        Jobs,
        Replicas,
        Gang,
        GpuPerPod,
        CpuPerPod,
        MemoryPerPod,
        Priority,
        Arrival,
        Duration,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1 };

    explicit WorkloadModel(ProjectDocument* doc, QObject* parent = nullptr);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

  signals:
    void refused(const QString& why);

  private:
    ProjectDocument* doc_;
};

// Text forms used by the table and the form.
QString describeArrival(const ArrivalProcess& a, int jobs);
QString describeDuration(const DurationDistribution& d);
QString formatSeconds(double seconds);
// GPUs per pod as the user writes them: "8" (whole devices) or "0.5" (a share of one device).
QString gpuPerPodText(const WorkloadTemplate& w);
bool setGpuPerPod(WorkloadTemplate& w, const std::string& gpuResource, const QString& text, QString* error);

} // namespace gantry::studio
