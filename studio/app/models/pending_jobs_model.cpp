#include "models/pending_jobs_model.h"

#include "models/workload_model.h"

namespace gantry::studio {

PendingJobsModel::PendingJobsModel(QObject* parent) : QAbstractTableModel(parent) {}

void PendingJobsModel::setResult(std::shared_ptr<const WhatIfResult> result) {
    beginResetModel();
    result_ = std::move(result);
    endResetModel();
}

int PendingJobsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !result_ ? 0 : int(result_->pending.size());
}

int PendingJobsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PendingJobsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !result_ || size_t(index.row()) >= result_->pending.size()) return {};
    const auto& j = result_->pending[size_t(index.row())];
    const int c = index.column();
    if (role == Qt::TextAlignmentRole)
        return c >= Pods && c <= Waiting ? int(Qt::AlignRight | Qt::AlignVCenter)
                                         : int(Qt::AlignLeft | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && c == Reason) return QString::fromStdString(j.reason);
    if (role != Qt::DisplayRole && role != SortRole) return {};
    const bool sort = role == SortRole;
    switch (c) {
    case Job:
        return QString::fromStdString(j.job);
    case Queue:
        return QString::fromStdString(j.queue);
    case Pods:
        return j.pods;
    case GangMin:
        return j.minMember;
    case Placeable:
        if (j.placeable < 0) return sort ? QVariant(-1) : QVariant(QString());
        return j.placeable;
    case Gpus:
        return sort ? QVariant(j.gpus) : QVariant(QString::number(j.gpus, 'g', 4));
    case Waiting:
        return sort ? QVariant(j.waitingSeconds) : QVariant(formatSeconds(j.waitingSeconds));
    case Reason:
        return QString::fromStdString(j.reason);
    }
    return {};
}

QVariant PendingJobsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Job:
        return tr("Job");
    case Queue:
        return tr("Queue");
    case Pods:
        return tr("Pods");
    case GangMin:
        return tr("Gang min");
    case Placeable:
        return tr("Placeable");
    case Gpus:
        return tr("GPUs");
    case Waiting:
        return tr("Waiting");
    case Reason:
        return tr("Why it is pending");
    }
    return {};
}

} // namespace gantry::studio
