#include "models/imported_jobs_model.h"

#include <unordered_map>

namespace gantry::studio {

ImportedJobsModel::ImportedJobsModel(ProjectDocument* doc, QObject* parent)
    : QAbstractTableModel(parent), doc_(doc) {
    recount();
    auto reset = [this] {
        beginResetModel();
        recount();
        endResetModel();
    };
    connect(doc_, &ProjectDocument::projectReplaced, this, reset);
    connect(doc_, &ProjectDocument::jobsChanged, this, reset);
    // Renaming a queue renames it in the PodGroups too.
    connect(doc_, &ProjectDocument::queuesReset, this, [this, reset] {
        if (!doc_->isReplacing()) reset();
    });
}

void ImportedJobsModel::recount() {
    const auto& c = doc_->project().cluster;
    counts_.assign(c.podGroups.size(), Counts{});
    std::unordered_map<std::string, size_t> index;
    index.reserve(c.podGroups.size());
    for (size_t i = 0; i < c.podGroups.size(); ++i) index.emplace(c.podGroups[i].key(), i);
    for (const auto& p : c.pods) {
        if (p.group.empty() || p.phase == PodPhase::Succeeded || p.phase == PodPhase::Failed) continue;
        auto it = index.find(p.ns + '/' + p.group);
        if (it == index.end()) continue;
        Counts& k = counts_[it->second];
        k.pods += 1;
        k.pending += p.nodeName.empty();
        int64_t milli = p.gpu.totalMilli();
        if (milli == 0)
            for (const auto& [name, amount] : p.requests)
                if (isGpuResource(name)) milli += amount;
        k.gpuMilli += milli;
    }
}

int ImportedJobsModel::jobsWaiting() const {
    int n = 0;
    for (const auto& k : counts_) n += k.pending > 0;
    return n;
}

int ImportedJobsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(counts_.size());
}

int ImportedJobsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ImportedJobsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || size_t(index.row()) >= counts_.size()) return {};
    const auto& g = doc_->project().cluster.podGroups[size_t(index.row())];
    const Counts& k = counts_[size_t(index.row())];
    const int c = index.column();
    if (role == Qt::TextAlignmentRole)
        return c >= GangMin ? int(Qt::AlignRight | Qt::AlignVCenter) : int(Qt::AlignLeft | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != SortRole) return {};
    switch (c) {
    case Job:
        return QString::fromStdString(g.key());
    case Origin:
        return QString::fromStdString(g.origin.empty() ? std::string("PodGroup") : g.origin);
    case Queue:
        return QString::fromStdString(g.queue);
    case GangMin:
        return g.minMember;
    case Pods:
        return k.pods;
    case Gpus:
        return role == SortRole ? QVariant(double(k.gpuMilli))
                                : QVariant(QString::number(k.gpuMilli / 1000.0, 'g', 6));
    case Pending:
        return k.pending;
    }
    return {};
}

QVariant ImportedJobsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Job:
        return tr("Job");
    case Origin:
        return tr("Kind");
    case Queue:
        return tr("Queue");
    case GangMin:
        return tr("Gang min");
    case Pods:
        return tr("Pods");
    case Gpus:
        return tr("GPUs");
    case Pending:
        return tr("Pods pending");
    }
    return {};
}

} // namespace gantry::studio
