#pragma once
// The points a plan tried, a row each: the profile, the node count, whether every SLO held in every
// seed, the round that tried it, each SLO's worst seed, and what the row means for the answer (the
// answer itself, or a pair of points that breaks the monotonic assumption).
#include "whatif/plan_runner.h"

#include <QAbstractTableModel>

namespace gantry::studio {

class PlanPointsModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum { SortRole = Qt::UserRole + 1 };
    enum Column { Profile, Nodes, Pass, Round, FirstSlo };

    explicit PlanPointsModel(QObject* parent = nullptr);
    // `run` may be a plan still going: its points so far.
    void setRun(const PlanRun& run);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The row's point and its profile's index in the run, for tests and selections.
    const plan::PlanPoint& point(int row) const { return *rows_[size_t(row)].point; }
    int profileOf(int row) const { return int(rows_[size_t(row)].profile); }

  private:
    struct Row {
        size_t profile = 0;
        const plan::PlanPoint* point = nullptr;
        bool answer = false;
        QString note; // the answer, or how the point breaks the monotonic assumption
    };
    QVariant display(const Row& row, int column) const;

    PlanRun run_;
    std::vector<Row> rows_;
};

} // namespace gantry::studio
