#include "models/imported_jobs_model.h"

#include <cmath>
#include <unordered_map>

namespace gantry::studio {

namespace {

bool annotated(const PodGroup& g, const char* key, const char* value = nullptr) {
    auto it = g.annotations.find(key);
    return it != g.annotations.end() && (!value || it->second == value);
}

// "45s", "1h 20m", "2d 3h": a span at a glance.
QString spanText(double s) {
    const int64_t t = int64_t(std::llround(s));
    if (t < 60) return QObject::tr("%1s").arg(t);
    if (t < 3600) return QObject::tr("%1m").arg(t / 60);
    if (t < 86400)
        return t % 3600 / 60 ? QObject::tr("%1h %2m").arg(t / 3600).arg(t % 3600 / 60)
                             : QObject::tr("%1h").arg(t / 3600);
    return t % 86400 / 3600 ? QObject::tr("%1d %2h").arg(t / 86400).arg(t % 86400 / 3600)
                            : QObject::tr("%1d").arg(t / 86400);
}

} // namespace

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
        return c >= GangMin && c != Duration ? int(Qt::AlignRight | Qt::AlignVCenter)
                                             : int(Qt::AlignLeft | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != SortRole) return {};
    switch (c) {
    case Job:
        return QString::fromStdString(g.key());
    case Origin: {
        // A history's job says which controller made it (gantry.io/owner: Kind/name).
        auto owner = g.annotations.find("gantry.io/owner");
        if (owner != g.annotations.end())
            return QString::fromStdString(owner->second.substr(0, owner->second.find('/')));
        return QString::fromStdString(g.origin.empty() ? std::string("PodGroup") : g.origin);
    }
    case Arrival:
        if (!annotated(g, "gantry.io/arrival") && g.arrivalSeconds == 0)
            return role == SortRole ? QVariant(-1.0) : QVariant();
        return role == SortRole ? QVariant(g.arrivalSeconds)
                                : QVariant(QStringLiteral("+") + spanText(g.arrivalSeconds));
    case Duration: {
        const bool open = annotated(g, "gantry.io/open-ended", "true");
        if (role == SortRole) return g.durationSeconds;
        if (annotated(g, "gantry.io/never-ran", "true"))
            return open ? tr("never ran; until the end") : tr("never ran");
        if (g.durationSeconds == 0)
            return annotated(g, "gantry.io/duration") ? tr("until the end") : QVariant();
        return open ? tr("≥ %1 (open-ended)").arg(spanText(g.durationSeconds)) : spanText(g.durationSeconds);
    }
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
    case Arrival:
        return tr("Arrives");
    case Duration:
        return tr("Runs for");
    case Pending:
        return tr("Pods pending");
    }
    return {};
}

} // namespace gantry::studio
