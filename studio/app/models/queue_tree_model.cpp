#include "models/queue_tree_model.h"

#include "core/queue_commands.h"
#include "core/quota_validation.h"

#include <QApplication>
#include <QDataStream>
#include <QIODevice>
#include <QMimeData>
#include <QStyle>
#include <unordered_map>

namespace gantry::studio {

QueueTreeModel::QueueTreeModel(ProjectDocument* doc, QObject* parent)
    : QAbstractItemModel(parent), doc_(doc) {
    rebuild();
    connect(doc_, &ProjectDocument::queuesAboutToBeReset, this, [this] { beginResetModel(); });
    connect(doc_, &ProjectDocument::queuesReset, this, [this] {
        rebuild();
        endResetModel();
    });
    connect(doc_, &ProjectDocument::queueChanged, this, [this](int queue) {
        if (queue < 0 || size_t(queue) >= itemOfQueue_.size()) return;
        // Shares and validation of parent, siblings and children depend on this queue too.
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        std::vector<int> stack(items_[0].children.begin(), items_[0].children.end());
        while (!stack.empty()) {
            int it = stack.back();
            stack.pop_back();
            const auto& item = items_[size_t(it)];
            if (!item.children.empty()) {
                QModelIndex p = createIndex(item.row, 0, quintptr(it));
                emit dataChanged(index(0, 0, p), index(int(item.children.size()) - 1, ColumnCount - 1, p));
                stack.insert(stack.end(), item.children.begin(), item.children.end());
            }
        }
    });
    connect(doc_, &ProjectDocument::policyChanged, this, [this] {
        emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
        beginResetModel();
        rebuild();
        endResetModel();
    });
    connect(doc_, &ProjectDocument::projectReplaced, this, [this] {
        beginResetModel();
        rebuild();
        endResetModel();
    });
}

void QueueTreeModel::rebuild() {
    const auto& queues = doc_->project().cluster.queues;
    resource_ = primaryGpuResource(doc_->project().cluster);
    items_.assign(1, Item{});
    itemOfQueue_.assign(queues.size(), -1);
    std::unordered_map<std::string, int> byName;
    for (size_t i = 0; i < queues.size(); ++i) byName.emplace(queues[i].name, int(i));
    std::vector<std::vector<int>> kids(queues.size());
    std::vector<int> tops;
    for (size_t i = 0; i < queues.size(); ++i) {
        const auto& p = queues[i].parent;
        auto it = p.empty() || p == "root" ? byName.end() : byName.find(p);
        if (it == byName.end() || it->second == int(i))
            tops.push_back(int(i));
        else
            kids[size_t(it->second)].push_back(int(i));
    }
    // Breadth-first from the tops; whatever is left sits in a cycle and is shown at the top level.
    auto attach = [&](int queue, int parentItem, bool orphan) {
        Item item;
        item.queue = queue;
        item.parent = parentItem;
        item.row = int(items_[size_t(parentItem)].children.size());
        item.orphan = orphan;
        int id = int(items_.size());
        items_.push_back(item);
        items_[size_t(parentItem)].children.push_back(id);
        itemOfQueue_[size_t(queue)] = id;
        return id;
    };
    std::vector<int> frontier;
    for (int q : tops) {
        const auto& p = queues[size_t(q)].parent;
        frontier.push_back(attach(q, 0, !p.empty() && p != "root"));
    }
    for (size_t k = 0; k < frontier.size(); ++k) {
        int item = frontier[k];
        for (int child : kids[size_t(items_[size_t(item)].queue)])
            if (itemOfQueue_[size_t(child)] < 0) frontier.push_back(attach(child, item, false));
    }
    for (size_t q = 0; q < queues.size(); ++q)
        if (itemOfQueue_[q] < 0) attach(int(q), 0, true);
}

int QueueTreeModel::itemOf(const QModelIndex& index) const {
    return index.isValid() ? int(index.internalId()) : 0;
}

QModelIndex QueueTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (column < 0 || column >= ColumnCount || row < 0) return {};
    int p = itemOf(parent);
    if (size_t(p) >= items_.size() || size_t(row) >= items_[size_t(p)].children.size()) return {};
    return createIndex(row, column, quintptr(items_[size_t(p)].children[size_t(row)]));
}

QModelIndex QueueTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid()) return {};
    int p = items_[child.internalId()].parent;
    if (p <= 0) return {};
    return createIndex(items_[size_t(p)].row, 0, quintptr(p));
}

int QueueTreeModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0) return 0;
    int p = itemOf(parent);
    return size_t(p) < items_.size() ? int(items_[size_t(p)].children.size()) : 0;
}

int QueueTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QuotaField QueueTreeModel::quotaField(int column) const {
    static const QuotaField volcano[] = {QuotaField::Low, QuotaField::Share, QuotaField::High};
    static const QuotaField other[] = {QuotaField::Share, QuotaField::High, QuotaField::Low};
    int k = std::clamp(column - QuotaA, 0, 2);
    return doc_->project().target == TargetScheduler::Volcano ? volcano[k] : other[k];
}

const Queue* QueueTreeModel::queue(const QModelIndex& index) const {
    int item = itemOf(index);
    if (item <= 0) return nullptr;
    return &doc_->project().cluster.queues[size_t(items_[size_t(item)].queue)];
}

std::string QueueTreeModel::queueName(const QModelIndex& index) const {
    const Queue* q = queue(index);
    return q ? q->name : std::string();
}

QModelIndex QueueTreeModel::indexOfQueue(const std::string& name, int column) const {
    int q = queueIndex(doc_->project(), name);
    if (q < 0 || size_t(q) >= itemOfQueue_.size() || itemOfQueue_[size_t(q)] < 0) return {};
    int item = itemOfQueue_[size_t(q)];
    return createIndex(items_[size_t(item)].row, column, quintptr(item));
}

double QueueTreeModel::shareOf(int item, bool siblings) const {
    const auto& project = doc_->project();
    const auto target = project.target;
    const Item& it = items_[size_t(item)];
    int64_t whole = 0;
    if (it.parent > 0) {
        auto pv =
            entitlement(project.cluster.queues[size_t(items_[size_t(it.parent)].queue)], target, resource_);
        if (!pv) return -1;
        whole = *pv;
    } else {
        whole = clusterTotal(project.cluster, resource_);
    }
    if (whole <= 0) return -1;
    int64_t part = 0;
    if (siblings) {
        for (int s : items_[size_t(it.parent > 0 ? it.parent : 0)].children)
            part += entitlement(project.cluster.queues[size_t(items_[size_t(s)].queue)], target, resource_)
                        .value_or(0);
    } else {
        auto v = entitlement(project.cluster.queues[size_t(it.queue)], target, resource_);
        if (!v) return -1;
        part = *v;
    }
    return double(part) / double(whole);
}

namespace {
QString kindText(const Queue& q) {
    QString kind;
    switch (q.kind) {
    case Queue::Kind::Queue:
        kind = QObject::tr("Queue");
        break;
    case Queue::Kind::KueueClusterQueue:
        kind = QObject::tr("ClusterQueue");
        break;
    case Queue::Kind::KueueCohort:
        kind = QObject::tr("Cohort");
        break;
    case Queue::Kind::YuniKornQueue:
        kind = QObject::tr("YuniKorn queue");
        break;
    }
    if (q.state != QueueState::Open) kind += QStringLiteral(" · ") + toString(q.state);
    return kind;
}
} // namespace

QVariant QueueTreeModel::data(const QModelIndex& index, int role) const {
    const Queue* q = queue(index);
    if (!q) return {};
    const auto target = doc_->project().target;
    const int column = index.column();
    const Item& item = items_[index.internalId()];
    if (role == QueueNameRole) return QString::fromStdString(q->name);
    if (role == ShareRole) return shareOf(int(index.internalId()), false);
    if (role == SiblingShareRole) return shareOf(int(index.internalId()), true);
    if (role == ProblemRole || ((role == Qt::ToolTipRole || role == Qt::DecorationRole) && column == Name)) {
        QString problem;
        if (item.orphan)
            problem = tr("Parent '%1' does not exist or forms a cycle; shown at the top level.")
                          .arg(QString::fromStdString(q->parent));
        else
            for (const auto& issue : validateQueue(doc_->project(), q->name, target))
                if (issue.severity == Severity::Error) {
                    problem = issue.message;
                    break;
                }
        if (role == ProblemRole) return problem;
        if (role == Qt::DecorationRole)
            return problem.isEmpty()
                       ? QVariant()
                       : QVariant(QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning));
        if (!problem.isEmpty()) return problem;
        return QString::fromStdString(q->name);
    }
    bool display = role == Qt::DisplayRole || role == Qt::EditRole || role == SortRole;
    if (column >= QuotaA && column <= QuotaC) {
        if (target == TargetScheduler::YuniKorn && column == QuotaC) {
            if (role == Qt::DisplayRole)
                return q->maxApplications ? QVariant(qulonglong(q->maxApplications)) : QVariant(QString());
            if (role == Qt::EditRole || role == SortRole) return qulonglong(q->maxApplications);
            if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
            return {};
        }
        auto v = quotaValue(*q, target, quotaField(column), resource_);
        if (role == SortRole) return v ? double(*v) : -1.0;
        if (role == Qt::DisplayRole || role == Qt::EditRole)
            return v ? QString::fromStdString(formatAmount(resource_, *v)) : QString();
        if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    if (!display) {
        if (role == Qt::TextAlignmentRole && (column == Weight || column == Share))
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    switch (column) {
    case Name:
        return QString::fromStdString(q->name);
    case Kind:
        return kindText(*q);
    case Weight:
        return q->weight;
    case Share: {
        double s = shareOf(int(index.internalId()), false);
        if (role == SortRole) return s;
        return s < 0 ? QString() : QStringLiteral("%1 %").arg(s * 100, 0, 'f', 0);
    }
    }
    return {};
}

QVariant QueueTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    const auto target = doc_->project().target;
    QuotaTerms terms = quotaTerms(target);
    QString gpu =
        QString::fromStdString(resource_ == std::string(res::NvidiaGpu) ? std::string("GPU") : resource_);
    auto quotaName = [&](QuotaField f) {
        return f == QuotaField::Low ? terms.low : f == QuotaField::Share ? terms.share : terms.high;
    };
    switch (section) {
    case Name:
        return tr("Queue");
    case Kind:
        return tr("Kind");
    case Weight:
        return tr("Weight");
    case QuotaA:
    case QuotaB:
    case QuotaC:
        if (target == TargetScheduler::YuniKorn && section == QuotaC) return tr("Max apps");
        return tr("%1 (%2)").arg(quotaName(quotaField(section)), gpu);
    case Share:
        return tr("Share (%1)").arg(terms.shareOfParent);
    }
    return {};
}

Qt::ItemFlags QueueTreeModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::ItemIsDropEnabled;
    Qt::ItemFlags f =
        Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled | Qt::ItemIsDropEnabled;
    int c = index.column();
    if (c == Name || c == Weight || (c >= QuotaA && c <= QuotaC)) f |= Qt::ItemIsEditable;
    return f;
}

bool QueueTreeModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole) return false;
    const Queue* q = queue(index);
    if (!q) return false;
    const auto target = doc_->project().target;
    const QString text = value.toString().trimmed();
    switch (index.column()) {
    case Name: {
        std::string to = text.toStdString();
        if (to == q->name) return false;
        if (to.empty()) {
            emit refused(tr("A queue needs a name."));
            return false;
        }
        if (queueIndex(doc_->project(), to) >= 0) {
            emit refused(tr("There is already a queue named '%1'.").arg(text));
            return false;
        }
        doc_->undoStack()->push(new RenameQueueCommand(doc_, q->name, to));
        return true;
    }
    case Weight: {
        bool ok = false;
        int w = text.toInt(&ok);
        if (!ok || w < 1 || w > 65535) {
            emit refused(tr("Weight must be a whole number from 1 to 65535."));
            return false;
        }
        if (w == q->weight) return false;
        Queue after = *q;
        after.weight = w;
        doc_->undoStack()->push(new EditQueueCommand(
            doc_, after, tr("Set weight of %1 to %2").arg(QString::fromStdString(q->name)).arg(w)));
        return true;
    }
    case QuotaA:
    case QuotaB:
    case QuotaC: {
        Queue after = *q;
        if (target == TargetScheduler::YuniKorn && index.column() == QuotaC) {
            bool ok = false;
            qulonglong n = text.isEmpty() ? 0 : text.toULongLong(&ok);
            if (!text.isEmpty() && !ok) {
                emit refused(tr("Max applications must be a whole number (empty = unlimited)."));
                return false;
            }
            after.maxApplications = n;
        } else {
            std::optional<int64_t> amount;
            if (!text.isEmpty()) {
                std::string error;
                amount = parseAmount(resource_, text.toStdString(), &error);
                if (!amount || *amount < 0) {
                    emit refused(tr("'%1' is not a valid %2 quantity: %3")
                                     .arg(text, QString::fromStdString(resource_),
                                          error.empty() ? tr("it must not be negative")
                                                        : QString::fromStdString(error)));
                    return false;
                }
            }
            setQuotaValue(after, target, quotaField(index.column()), resource_, amount);
        }
        if (after == *q) return false;
        QString field = headerData(index.column(), Qt::Horizontal, Qt::DisplayRole).toString();
        doc_->undoStack()->push(new EditQueueCommand(
            doc_, after,
            tr("Set %1 of %2 to %3")
                .arg(field, QString::fromStdString(q->name), text.isEmpty() ? tr("unset") : text)));
        return true;
    }
    }
    return false;
}

QStringList QueueTreeModel::mimeTypes() const {
    return {MimeType};
}

QMimeData* QueueTreeModel::mimeData(const QModelIndexList& indexes) const {
    QStringList names;
    for (const auto& i : indexes)
        if (i.column() == 0) names << QString::fromStdString(queueName(i));
    names.removeDuplicates();
    if (names.isEmpty()) return nullptr;
    auto* data = new QMimeData;
    QByteArray bytes;
    QDataStream stream(&bytes, QIODevice::WriteOnly);
    stream << names;
    data->setData(MimeType, bytes);
    data->setText(names.join('\n'));
    return data;
}

namespace {
QStringList namesFrom(const QMimeData* data) {
    QStringList names;
    if (!data || !data->hasFormat(QueueTreeModel::MimeType)) return names;
    QByteArray bytes = data->data(QueueTreeModel::MimeType);
    QDataStream stream(&bytes, QIODevice::ReadOnly);
    stream >> names;
    return names;
}
} // namespace

bool QueueTreeModel::canDropMimeData(const QMimeData* data, Qt::DropAction action, int, int,
                                     const QModelIndex& parent) const {
    if (action != Qt::MoveAction) return false;
    QStringList names = namesFrom(data);
    if (names.isEmpty()) return false;
    std::string target = queueName(parent.siblingAtColumn(0));
    for (const auto& n : names)
        if (!canReparent(doc_->project(), n.toStdString(), target, nullptr)) return false;
    return true;
}

bool QueueTreeModel::dropMimeData(const QMimeData* data, Qt::DropAction action, int, int,
                                  const QModelIndex& parent) {
    if (action != Qt::MoveAction) return false;
    QStringList names = namesFrom(data);
    std::string target = queueName(parent.siblingAtColumn(0));
    std::vector<std::string> moving;
    for (const auto& n : names) {
        QString why;
        std::string name = n.toStdString();
        if (!canReparent(doc_->project(), name, target, &why)) {
            emit refused(why);
            return false;
        }
        int qi = queueIndex(doc_->project(), name);
        if (doc_->project().cluster.queues[size_t(qi)].parent != target) moving.push_back(name);
    }
    if (moving.empty()) return false;
    // The view asks removeRows() after a successful move; this model does not implement it, so the
    // command's re-parenting is the only change.
    if (moving.size() == 1) {
        doc_->undoStack()->push(new ReparentQueueCommand(doc_, moving.front(), target));
    } else {
        doc_->undoStack()->beginMacro(tr("Move %1 queues").arg(moving.size()));
        for (const auto& n : moving) doc_->undoStack()->push(new ReparentQueueCommand(doc_, n, target));
        doc_->undoStack()->endMacro();
    }
    return true;
}

} // namespace gantry::studio
