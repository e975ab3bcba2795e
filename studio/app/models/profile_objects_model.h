#pragma once
// The scheduler's own objects after a what-if, in its words: Kueue's ClusterQueues (usage against
// nominal quota, borrowed and lent) and workload classes (time to admission), YuniKorn's queues
// (usage against guaranteed and max, fair share). One row per object, one column per measure; a
// measure over time shows its mean and peak.
#include "whatif/whatif_result.h"

#include <QAbstractTableModel>
#include <memory>
#include <string>
#include <vector>

namespace gantry::studio {

class ProfileObjectsModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Role { SortRole = Qt::UserRole + 1 };

    explicit ProfileObjectsModel(QObject* parent = nullptr);
    void setResult(std::shared_ptr<const WhatIfResult> result);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    struct Measure {
        std::string key;
        bool overTime = false; // a series (mean and peak) rather than a total
    };
    const std::vector<engine::ObjectSeries>& objects() const;

    std::shared_ptr<const WhatIfResult> result_;
    std::vector<Measure> measures_; // the columns after kind and name
};

} // namespace gantry::studio
