#pragma once
// The cluster's nodes as a Qt item model: a flat table, or grouped under one row per pool, GPU model
// or topology value (zone, rack ...) with each group's totals. Topology columns follow the cluster's
// topology levels. Sorting and filtering are done by NodeFilterProxy on top.
#include "core/project_document.h"
#include "gpumap/gpu_occupancy.h"

#include <QAbstractItemModel>
#include <QSortFilterProxyModel>
#include <memory>
#include <vector>

namespace gantry::studio {

struct NodeGrouping {
    enum class Kind { None, Pool, GpuModel, Level };
    Kind kind = Kind::None;
    int level = -1; // index into the effective topology levels when kind == Level
    bool operator==(const NodeGrouping&) const = default;
};

class NodeTableModel : public QAbstractItemModel {
    Q_OBJECT
  public:
    enum Role { SortRole = Qt::UserRole + 1, NodeIndexRole, FilterTextRole };
    enum FixedColumn { Name, Status, Pool }; // then one column per topology level, then the rest
    enum TailColumn { GpuModel, Gpus, GpusUsed, Cpu, Memory, Taints, TailCount };

    explicit NodeTableModel(ProjectDocument* doc, QObject* parent = nullptr);

    void setGrouping(NodeGrouping grouping);
    NodeGrouping grouping() const { return grouping_; }
    void setOccupancy(std::shared_ptr<const GpuOccupancy> occupancy);
    const std::vector<TopologyLevel>& levels() const { return levels_; }
    int levelColumn(int level) const { return Pool + 1 + level; }
    int tailColumn(TailColumn c) const { return Pool + 1 + int(levels_.size()) + c; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    int nodeAt(const QModelIndex& index) const; // -1 for group rows
    QModelIndex indexOfNode(int node) const;
    int groupCount() const { return int(groups_.size()); }
    const Cluster& cluster() const { return doc_->project().cluster; }

  private:
    struct Group {
        QString name;
        std::vector<int> nodes;
    };
    void rebuild();
    QString groupKey(const Node& node) const;
    int usedMilli(int node) const;
    QVariant nodeData(int node, int column, int role) const;
    QVariant groupData(const Group& group, int column, int role) const;

    ProjectDocument* doc_;
    NodeGrouping grouping_;
    std::vector<TopologyLevel> levels_;
    std::vector<Group> groups_;
    std::vector<int> groupOfNode_, rowOfNode_;
    std::vector<int> nameRank_; // node -> position in natural name order
    std::shared_ptr<const GpuOccupancy> occupancy_;
};

// Sorts by SortRole and filters on free text: every space-separated term must match; "key=value"
// matches a label, "!term" excludes, anything else is a case-insensitive substring of the node's
// name, pool, GPU model, status or topology values.
class NodeFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
  public:
    explicit NodeFilterProxy(QObject* parent = nullptr);
    void setFilterQuery(const QString& query);
    QString filterQuery() const { return query_; }
    void refilter(); // after node edits, when a query is set
    bool nodeMatches(const Node& node, const std::vector<TopologyLevel>& levels) const;
    // Per node of the document: 1 when it passes the filter (all 1 when there is no filter).
    std::vector<uint8_t> matchVector(const Cluster& cluster, const std::vector<TopologyLevel>& levels) const;

  protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

  private:
    struct Term {
        QString key, value, text;
        bool negate = false;
    };
    QString query_;
    std::vector<Term> terms_;
};

} // namespace gantry::studio
