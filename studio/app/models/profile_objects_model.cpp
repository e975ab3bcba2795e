#include "models/profile_objects_model.h"

#include "models/workload_model.h"
#include "profile/object_measures.h"

#include <algorithm>
#include <cstdlib>

namespace gantry::studio {

namespace {

constexpr int kFixedColumns = 2; // kind, name

template <class Pairs> const typename Pairs::value_type* find(const Pairs& pairs, const std::string& key) {
    auto it = std::find_if(pairs.begin(), pairs.end(), [&](const auto& p) { return p.first == key; });
    return it == pairs.end() ? nullptr : &*it;
}

// Long headers break at the blank nearest their middle, so that the columns stay narrow.
QString twoLines(QString label) {
    if (label.size() < 18) return label;
    const qsizetype middle = label.size() / 2;
    qsizetype best = -1;
    for (qsizetype i = 0; i < label.size(); ++i)
        if (label[i] == ' ' && (best < 0 || std::abs(i - middle) < std::abs(best - middle))) best = i;
    if (best > 0) label[best] = '\n';
    return label;
}

} // namespace

ProfileObjectsModel::ProfileObjectsModel(QObject* parent) : QAbstractTableModel(parent) {}

const std::vector<engine::ObjectSeries>& ProfileObjectsModel::objects() const {
    static const std::vector<engine::ObjectSeries> none;
    return result_ && result_->sim ? result_->sim->objects : none;
}

void ProfileObjectsModel::setResult(std::shared_ptr<const WhatIfResult> result) {
    beginResetModel();
    result_ = std::move(result);
    measures_.clear();
    auto add = [&](const std::string& key, bool overTime) {
        auto same = [&](const Measure& m) { return m.key == key && m.overTime == overTime; };
        if (std::none_of(measures_.begin(), measures_.end(), same)) measures_.push_back({key, overTime});
    };
    // Totals first, then the series that were ever non-zero (a ClusterQueue that never borrowed
    // leaves "borrowed" out unless another one did).
    for (const auto& o : objects())
        for (const auto& [key, value] : o.totals) add(key, false);
    for (const auto& o : objects())
        for (const auto& [key, values] : o.series)
            if (engine::summarizeSeries(values).peak != 0) add(key, true);
    // A GPU cluster is planned by its GPUs: their measures lead, the others keep their order.
    std::stable_partition(measures_.begin(), measures_.end(),
                          [](const Measure& m) { return m.key.find("gpu") != std::string::npos; });
    endResetModel();
}

int ProfileObjectsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(objects().size());
}

int ProfileObjectsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() || objects().empty() ? 0 : kFixedColumns + int(measures_.size());
}

QVariant ProfileObjectsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || size_t(index.row()) >= objects().size()) return {};
    const auto& o = objects()[size_t(index.row())];
    const int c = index.column();
    if (role == Qt::TextAlignmentRole)
        return c >= kFixedColumns ? int(Qt::AlignRight | Qt::AlignVCenter)
                                  : int(Qt::AlignLeft | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != SortRole) return {};
    if (c == 0) return QString::fromStdString(o.kind);
    if (c == 1) return QString::fromStdString(o.name);
    if (size_t(c - kFixedColumns) >= measures_.size()) return {};
    const Measure& m = measures_[size_t(c - kFixedColumns)];
    const bool sort = role == SortRole;
    if (m.overTime) {
        const auto* series = find(o.series, m.key);
        const engine::SeriesSummary s =
            series ? engine::summarizeSeries(series->second) : engine::SeriesSummary{};
        if (s.samples == 0) return sort ? QVariant(-1.0) : QVariant();
        return sort ? QVariant(s.mean)
                    : QVariant(tr("%1 · %2").arg(s.mean, 0, 'f', 1).arg(s.peak, 0, 'g', 6));
    }
    const auto* t = find(o.totals, m.key);
    if (!t) return sort ? QVariant(-1.0) : QVariant();
    if (sort) return t->second;
    if (engine::isDurationMeasure(m.key)) return formatSeconds(t->second);
    return t->second == double(qint64(t->second)) ? QString::number(qint64(t->second))
                                                  : QString::number(t->second, 'f', 1);
}

QVariant ProfileObjectsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (section == 0) return role == Qt::DisplayRole ? tr("Kind") : QVariant();
    if (section == 1) return role == Qt::DisplayRole ? tr("Name") : QVariant();
    if (size_t(section - kFixedColumns) >= measures_.size()) return {};
    const Measure& m = measures_[size_t(section - kFixedColumns)];
    const QString label = QString::fromStdString(engine::measureLabel(m.key));
    if (role == Qt::DisplayRole) return twoLines(m.overTime ? tr("%1 (mean · peak)").arg(label) : label);
    if (role == Qt::ToolTipRole)
        return m.overTime ? tr("%1 over the run: its mean and its peak").arg(label) : label;
    return {};
}

} // namespace gantry::studio
