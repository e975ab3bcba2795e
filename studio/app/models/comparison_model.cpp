#include "models/comparison_model.h"

#include <QColor>
#include <QFont>

namespace gantry::studio {

ComparisonModel::ComparisonModel(QObject* parent) : QAbstractTableModel(parent) {}

void ComparisonModel::setRun(const WhatIfRun& run) {
    beginResetModel();
    profiles_.clear();
    for (const auto& r : run.results) profiles_.push_back(r->profileName);
    verdicts_ = run.verdicts;
    endResetModel();
}

int ComparisonModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(verdicts_.size());
}

int ComparisonModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() || verdicts_.empty() ? 0 : int(profiles_.size()) + 2;
}

QVariant ComparisonModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || size_t(index.row()) >= verdicts_.size()) return {};
    const sim::Verdict& v = verdicts_[size_t(index.row())];
    const int column = index.column(), profiles = int(profiles_.size());
    const bool value = column >= 1 && column <= profiles;
    const size_t run = size_t(column - 1);
    switch (role) {
    case Qt::DisplayRole:
        if (column == 0) return QString::fromStdString(v.title);
        if (value)
            return v.values[run] ? QString::fromStdString(sim::formatMetricValue(v.unit, *v.values[run]))
                                 : "–";
        return QString::fromStdString(v.text);
    case Qt::ToolTipRole:
        if (column == 0)
            return QObject::tr("%1 (%2 is better) · metric %3")
                .arg(QString::fromStdString(v.title),
                     v.lowerIsBetter ? QObject::tr("lower") : QObject::tr("higher"),
                     QString::fromStdString(v.metric));
        return QString::fromStdString(v.text);
    case Qt::FontRole:
        if (value && v.best == int(run)) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ForegroundRole:
        if (value && v.best == int(run)) return QColor(0x2e, 0x7d, 0x32);
        return {};
    case Qt::TextAlignmentRole:
        if (value) return int(Qt::AlignRight | Qt::AlignVCenter);
        return int(Qt::AlignLeft | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    if (section == 0) return tr("Measure");
    if (section <= int(profiles_.size())) return QString::fromStdString(profiles_[size_t(section - 1)]);
    return tr("Verdict");
}

} // namespace gantry::studio
