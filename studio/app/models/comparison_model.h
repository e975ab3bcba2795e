#pragma once
// The profiles of a what-if compared measure by measure: a row per verdict (sim/compare.h), a column
// per profile, the winner's value in bold, and the verdict in words.
#include "whatif/whatif_runner.h"

#include <QAbstractTableModel>

namespace gantry::studio {

class ComparisonModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    explicit ComparisonModel(QObject* parent = nullptr);
    void setRun(const WhatIfRun& run);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<std::string> profiles_;
    std::vector<sim::Verdict> verdicts_;
};

} // namespace gantry::studio
