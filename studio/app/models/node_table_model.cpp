#include "models/node_table_model.h"

#include "core/topology_paths.h"

#include <QColor>
#include <QFont>
#include <algorithm>
#include <map>

namespace gantry::studio {
namespace {

QString statusText(const Node& n) {
    if (!n.ready) return QObject::tr("NotReady");
    if (n.unschedulable) return QObject::tr("Cordoned");
    return QObject::tr("Ready");
}

QString amountText(const std::string& resource, int64_t v) {
    return QString::fromStdString(formatAmount(resource, v));
}

QString gpuText(int64_t milli) {
    if (milli % 1000 == 0) return QString::number(milli / 1000);
    return QString::number(milli / 1000.0, 'f', milli % 100 == 0 ? 1 : 2);
}

constexpr quintptr GroupRow = 0; // internalId of top-level rows; node rows under a group carry group+1

} // namespace

NodeTableModel::NodeTableModel(ProjectDocument* doc, QObject* parent)
    : QAbstractItemModel(parent), doc_(doc) {
    rebuild();
    auto reset = [this] {
        beginResetModel();
        rebuild();
        endResetModel();
    };
    connect(doc_, &ProjectDocument::projectReplaced, this, reset);
    connect(doc_, &ProjectDocument::topologyChanged, this, reset);
    connect(doc_, &ProjectDocument::nodesReset, this, reset);
    connect(doc_, &ProjectDocument::nodesChanged, this, [this, reset](const std::vector<int>& nodes) {
        // A label change can move a node to another group: regroup then.
        if (grouping_.kind == NodeGrouping::Kind::Level) {
            reset();
            return;
        }
        for (int n : nodes) {
            QModelIndex i = indexOfNode(n);
            if (i.isValid()) emit dataChanged(i, i.siblingAtColumn(columnCount() - 1));
        }
    });
}

void NodeTableModel::setGrouping(NodeGrouping grouping) {
    if (grouping == grouping_) return;
    beginResetModel();
    grouping_ = grouping;
    rebuild();
    endResetModel();
}

void NodeTableModel::setOccupancy(std::shared_ptr<const GpuOccupancy> occupancy) {
    occupancy_ = std::move(occupancy);
    int c = tailColumn(GpusUsed);
    if (rowCount() > 0) emit dataChanged(index(0, c), index(rowCount() - 1, c));
    for (size_t g = 0; g < groups_.size() && grouping_.kind != NodeGrouping::Kind::None; ++g) {
        QModelIndex p = index(int(g), 0);
        if (rowCount(p) > 0) emit dataChanged(index(0, c, p), index(rowCount(p) - 1, c, p));
    }
}

QString NodeTableModel::groupKey(const Node& n) const {
    switch (grouping_.kind) {
    case NodeGrouping::Kind::None:
        return {};
    case NodeGrouping::Kind::Pool: {
        std::string pool = nodePool(n);
        return pool.empty() ? tr("(no pool)") : QString::fromStdString(pool);
    }
    case NodeGrouping::Kind::GpuModel:
        return n.gpus.model.empty() ? (gpuDeviceCount(n) > 0 ? tr("(unknown GPU)") : tr("(no GPU)"))
                                    : QString::fromStdString(n.gpus.model);
    case NodeGrouping::Kind::Level: {
        if (grouping_.level < 0 || size_t(grouping_.level) >= levels_.size()) return {};
        const auto& level = levels_[size_t(grouping_.level)];
        auto it = n.labels.find(level.nodeLabel);
        return it == n.labels.end() ? tr("(no %1)").arg(QString::fromStdString(level.name))
                                    : QString::fromStdString(it->second);
    }
    }
    return {};
}

void NodeTableModel::rebuild() {
    const auto& nodes = doc_->project().cluster.nodes;
    levels_ = effectiveLevels(doc_->project().cluster);
    // Names sort by a precomputed natural-order rank: sorting 10,000 rows then compares integers.
    std::vector<int> order(nodes.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = int(i);
    std::sort(order.begin(), order.end(),
              [&](int a, int b) { return naturalLess(nodes[size_t(a)].name, nodes[size_t(b)].name); });
    nameRank_.assign(nodes.size(), 0);
    for (size_t r = 0; r < order.size(); ++r) nameRank_[size_t(order[r])] = int(r);
    groups_.clear();
    groupOfNode_.assign(nodes.size(), -1);
    rowOfNode_.assign(nodes.size(), -1);
    if (grouping_.kind == NodeGrouping::Kind::None) {
        for (size_t i = 0; i < nodes.size(); ++i) rowOfNode_[i] = int(i);
        return;
    }
    std::map<std::string, std::vector<int>, decltype(&naturalLess)> byKey(&naturalLess);
    for (size_t i = 0; i < nodes.size(); ++i) byKey[groupKey(nodes[i]).toStdString()].push_back(int(i));
    for (auto& [key, members] : byKey) {
        int g = int(groups_.size());
        for (size_t r = 0; r < members.size(); ++r) {
            groupOfNode_[size_t(members[r])] = g;
            rowOfNode_[size_t(members[r])] = int(r);
        }
        groups_.push_back(Group{QString::fromStdString(key), std::move(members)});
    }
}

QModelIndex NodeTableModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= columnCount()) return {};
    if (!parent.isValid()) {
        if (row >= rowCount()) return {};
        return createIndex(row, column, GroupRow);
    }
    if (grouping_.kind == NodeGrouping::Kind::None || parent.internalId() != GroupRow) return {};
    if (size_t(parent.row()) >= groups_.size() || size_t(row) >= groups_[size_t(parent.row())].nodes.size())
        return {};
    return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex NodeTableModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == GroupRow) return {};
    return createIndex(int(child.internalId() - 1), 0, GroupRow);
}

int NodeTableModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid())
        return grouping_.kind == NodeGrouping::Kind::None ? int(doc_->project().cluster.nodes.size())
                                                          : int(groups_.size());
    if (parent.column() != 0 || parent.internalId() != GroupRow || grouping_.kind == NodeGrouping::Kind::None)
        return 0;
    return size_t(parent.row()) < groups_.size() ? int(groups_[size_t(parent.row())].nodes.size()) : 0;
}

int NodeTableModel::columnCount(const QModelIndex&) const {
    return Pool + 1 + int(levels_.size()) + TailCount;
}

int NodeTableModel::nodeAt(const QModelIndex& index) const {
    if (!index.isValid()) return -1;
    if (grouping_.kind == NodeGrouping::Kind::None) return index.row();
    if (index.internalId() == GroupRow) return -1;
    return groups_[size_t(index.internalId() - 1)].nodes[size_t(index.row())];
}

QModelIndex NodeTableModel::indexOfNode(int node) const {
    if (node < 0 || size_t(node) >= rowOfNode_.size()) return {};
    if (grouping_.kind == NodeGrouping::Kind::None) return createIndex(node, 0, GroupRow);
    return createIndex(rowOfNode_[size_t(node)], 0, quintptr(groupOfNode_[size_t(node)] + 1));
}

int NodeTableModel::usedMilli(int node) const {
    if (!occupancy_ || size_t(node) + 1 >= occupancy_->gpuOffset.size()) return -1;
    int sum = 0;
    for (int g = occupancy_->gpuOffset[size_t(node)]; g < occupancy_->gpuOffset[size_t(node) + 1]; ++g)
        sum += occupancy_->usedMilli[size_t(g)];
    return sum;
}

QVariant NodeTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    int node = nodeAt(index);
    if (role == NodeIndexRole) return node;
    if (node >= 0) return nodeData(node, index.column(), role);
    return groupData(groups_[size_t(index.row())], index.column(), role);
}

QVariant NodeTableModel::nodeData(int nodeIndex, int column, int role) const {
    const Node& n = doc_->project().cluster.nodes[size_t(nodeIndex)];
    const int levelFirst = Pool + 1, tail = Pool + 1 + int(levels_.size());
    if (role == Qt::TextAlignmentRole)
        return column >= tail + Gpus && column <= tail + Memory ? int(Qt::AlignRight | Qt::AlignVCenter)
                                                                : int(Qt::AlignLeft | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && column == Status && (!n.ready || n.unschedulable))
        return QColor(!n.ready ? QColor(0xd6, 0x3b, 0x3b) : QColor(0xc0, 0x7a, 0x00));
    if (role == Qt::ToolTipRole && column == Name) {
        QStringList labels;
        for (const auto& [k, v] : n.labels) labels << QString::fromStdString(k + "=" + v);
        return QString::fromStdString(n.name) + (labels.isEmpty() ? QString() : "\n" + labels.join('\n'));
    }
    if (role != Qt::DisplayRole && role != SortRole && role != FilterTextRole) return {};
    const bool sort = role == SortRole;
    if (column == Name)
        return sort ? QVariant(nameRank_[size_t(nodeIndex)]) : QVariant(QString::fromStdString(n.name));
    if (column == Status) return statusText(n);
    if (column == Pool) return QString::fromStdString(nodePool(n));
    if (column >= levelFirst && column < tail) {
        auto it = n.labels.find(levels_[size_t(column - levelFirst)].nodeLabel);
        return it == n.labels.end() ? QString() : QString::fromStdString(it->second);
    }
    switch (column - tail) {
    case GpuModel:
        return QString::fromStdString(n.gpus.model);
    case Gpus:
        return gpuDeviceCount(n);
    case GpusUsed: {
        int used = usedMilli(nodeIndex);
        if (used < 0) return sort ? QVariant(-1) : QVariant();
        return sort ? QVariant(used) : QVariant(gpuText(used));
    }
    case Cpu: {
        int64_t v = n.allocatable.get(res::Cpu);
        return sort ? QVariant(qlonglong(v)) : QVariant(amountText("cpu", v));
    }
    case Memory: {
        int64_t v = n.allocatable.get(res::Memory);
        return sort ? QVariant(qlonglong(v)) : QVariant(amountText("memory", v));
    }
    case Taints: {
        QStringList t;
        for (const auto& taint : n.taints)
            t << QString::fromStdString(taint.key + (taint.value.empty() ? "" : "=" + taint.value) + ":" +
                                        toString(taint.effect));
        return sort ? QVariant(int(n.taints.size())) : QVariant(t.join(", "));
    }
    }
    return {};
}

QVariant NodeTableModel::groupData(const Group& group, int column, int role) const {
    const int tail = Pool + 1 + int(levels_.size());
    if (role == Qt::FontRole) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::TextAlignmentRole)
        return column >= tail + Gpus && column <= tail + Memory ? int(Qt::AlignRight | Qt::AlignVCenter)
                                                                : int(Qt::AlignLeft | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != SortRole) return {};
    const bool sort = role == SortRole;
    const auto& nodes = doc_->project().cluster.nodes;
    if (column == Name)
        return sort ? QVariant(int(&group - groups_.data()))
                    : QVariant(group.name); // groups are in natural order
    if (column == Status) {
        int notReady = 0, cordoned = 0;
        for (int n : group.nodes) {
            notReady += !nodes[size_t(n)].ready;
            cordoned += nodes[size_t(n)].ready && nodes[size_t(n)].unschedulable;
        }
        if (sort) return int(group.nodes.size());
        QString s = tr("%n node(s)", "", int(group.nodes.size()));
        if (notReady) s += tr(", %1 not ready").arg(notReady);
        if (cordoned) s += tr(", %1 cordoned").arg(cordoned);
        return s;
    }
    int64_t gpus = 0, used = 0, cpu = 0, mem = 0;
    bool haveUsed = occupancy_ != nullptr;
    for (int n : group.nodes) {
        gpus += gpuDeviceCount(nodes[size_t(n)]);
        cpu += nodes[size_t(n)].allocatable.get(res::Cpu);
        mem += nodes[size_t(n)].allocatable.get(res::Memory);
        if (haveUsed) used += std::max(0, usedMilli(n));
    }
    switch (column - tail) {
    case Gpus:
        return qlonglong(gpus);
    case GpusUsed:
        if (!haveUsed) return {};
        return sort ? QVariant(qlonglong(used))
                    : QVariant(QStringLiteral("%1 (%2 %)")
                                   .arg(gpuText(used))
                                   .arg(gpus ? used / 10.0 / double(gpus) : 0.0, 0, 'f', 0));
    case Cpu:
        return sort ? QVariant(qlonglong(cpu)) : QVariant(amountText("cpu", cpu));
    case Memory:
        return sort ? QVariant(qlonglong(mem)) : QVariant(amountText("memory", mem));
    }
    return {};
}

QVariant NodeTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    const int levelFirst = Pool + 1, tail = Pool + 1 + int(levels_.size());
    if (section == Name) return grouping_.kind == NodeGrouping::Kind::None ? tr("Node") : tr("Group / node");
    if (section == Status) return tr("Status");
    if (section == Pool) return tr("Pool");
    if (section >= levelFirst && section < tail) {
        QString name = QString::fromStdString(levels_[size_t(section - levelFirst)].name);
        return name.isEmpty() ? name : name.front().toUpper() + name.mid(1);
    }
    switch (section - tail) {
    case GpuModel:
        return tr("GPU model");
    case Gpus:
        return tr("GPUs");
    case GpusUsed:
        return tr("GPUs in use");
    case Cpu:
        return tr("CPU");
    case Memory:
        return tr("Memory");
    case Taints:
        return tr("Taints");
    }
    return {};
}

NodeFilterProxy::NodeFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setRecursiveFilteringEnabled(true);
    // Re-sorting 10,000 rows on every occupancy or label update would stall the window; the view
    // sorts on a header click and after resets, and refilter() re-applies the query after edits.
    setDynamicSortFilter(false);
    setSortRole(NodeTableModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void NodeFilterProxy::refilter() {
    if (!terms_.empty()) invalidateFilter();
}

void NodeFilterProxy::setFilterQuery(const QString& query) {
    if (query == query_) return;
    query_ = query;
    terms_.clear();
    for (QString word : query.split(' ', Qt::SkipEmptyParts)) {
        Term t;
        if (word.startsWith('!')) {
            t.negate = true;
            word = word.mid(1);
        }
        int eq = word.indexOf('=');
        if (eq > 0) {
            t.key = word.left(eq);
            t.value = word.mid(eq + 1);
        } else {
            t.text = word;
        }
        if (!t.key.isEmpty() || !t.text.isEmpty()) terms_.push_back(t);
    }
    invalidateFilter();
}

bool NodeFilterProxy::nodeMatches(const Node& n, const std::vector<TopologyLevel>& levels) const {
    for (const auto& t : terms_) {
        bool hit = false;
        if (!t.key.isEmpty()) {
            auto it = n.labels.find(t.key.toStdString());
            hit = it != n.labels.end() && (t.value == "*" || QString::fromStdString(it->second) == t.value);
        } else {
            auto has = [&](const std::string& s) {
                return QString::fromStdString(s).contains(t.text, Qt::CaseInsensitive);
            };
            hit = has(n.name) || has(nodePool(n)) || has(n.gpus.model) ||
                  statusText(n).contains(t.text, Qt::CaseInsensitive);
            for (size_t l = 0; !hit && l < levels.size(); ++l) {
                auto it = n.labels.find(levels[l].nodeLabel);
                hit = it != n.labels.end() && has(it->second);
            }
        }
        if (hit == t.negate) return false;
    }
    return true;
}

std::vector<uint8_t> NodeFilterProxy::matchVector(const Cluster& cluster,
                                                  const std::vector<TopologyLevel>& levels) const {
    std::vector<uint8_t> out(cluster.nodes.size(), 1);
    if (terms_.empty()) return out;
    for (size_t i = 0; i < cluster.nodes.size(); ++i) out[i] = nodeMatches(cluster.nodes[i], levels) ? 1 : 0;
    return out;
}

bool NodeFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    if (terms_.empty()) return true;
    auto* model = static_cast<const NodeTableModel*>(sourceModel());
    int node = model->nodeAt(model->index(sourceRow, 0, sourceParent));
    if (node < 0) return false; // groups are shown when one of their nodes matches (recursive filtering)
    return nodeMatches(model->cluster().nodes[size_t(node)], model->levels());
}

bool NodeFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    QVariant l = left.data(sortRole()), r = right.data(sortRole());
    if (l.typeId() == QMetaType::QString && r.typeId() == QMetaType::QString)
        return naturalLessCaseInsensitive(l.toString(), r.toString());
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace gantry::studio
