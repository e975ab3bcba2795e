#pragma once
// The jobs a what-if run left waiting, with the scheduler's reason for each.
#include "whatif/whatif_result.h"

#include <QAbstractTableModel>
#include <memory>

namespace gantry::studio {

class PendingJobsModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { Job, Queue, Pods, GangMin, Placeable, Gpus, Waiting, Reason, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1 };

    explicit PendingJobsModel(QObject* parent = nullptr);
    void setResult(std::shared_ptr<const WhatIfResult> result);
    const WhatIfResult* result() const { return result_.get(); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::shared_ptr<const WhatIfResult> result_;
};

} // namespace gantry::studio
