#include "models/plan_points_model.h"

#include "core/qt_text.h"
#include "profile/registry.h"

#include <QColor>
#include <QFont>
#include <algorithm>

namespace gantry::studio {
namespace {

QString signedCount(int64_t n) {
    return n > 0 ? QStringLiteral("+%1").arg(n) : QString::number(n);
}

} // namespace

PlanPointsModel::PlanPointsModel(QObject* parent) : QAbstractTableModel(parent) {}

void PlanPointsModel::setRun(const PlanRun& run) {
    beginResetModel();
    run_ = run;
    rows_.clear();
    for (size_t i = 0; i < run_.profiles.size(); ++i) {
        const plan::PlanResult& r = run_.profiles[i].result;
        std::vector<Row> rows;
        for (const auto& p : r.points) {
            Row row{i, &p, r.met && p.counts == r.answer, {}};
            QStringList notes;
            if (row.answer) notes << tr("answer");
            for (const auto& v : r.violations) {
                if (v.failing == p.counts)
                    notes << tr("fails although %1 passed").arg(signedCount(v.passing[0]));
                if (v.passing == p.counts)
                    notes << tr("passes although %1 failed").arg(signedCount(v.failing[0]));
            }
            row.note = notes.join(QStringLiteral("; "));
            rows.push_back(std::move(row));
        }
        std::sort(rows.begin(), rows.end(),
                  [](const Row& a, const Row& b) { return a.point->counts < b.point->counts; });
        rows_.insert(rows_.end(), rows.begin(), rows.end());
    }
    endResetModel();
}

int PlanPointsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

int PlanPointsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : FirstSlo + int(run_.request.slos.size()) + 1;
}

QVariant PlanPointsModel::display(const Row& row, int column) const {
    const plan::PlanPoint& p = *row.point;
    const size_t slos = run_.request.slos.size();
    switch (column) {
    case Profile:
        return planTitle(run_.profiles[row.profile]);
    case Nodes:
        return tr("%1 (%2)").arg(signedCount(p.counts[0])).arg(run_.pool.nodes + p.counts[0]);
    case Pass:
        return p.pass ? tr("yes") : tr("no");
    case Round:
        return p.round + 1;
    default:
        break;
    }
    const size_t k = size_t(column - FirstSlo);
    if (k == slos) return row.note;
    if (k >= p.worst.size() || !p.worst[k]) return tr("n/a");
    const plan::Slo& slo = run_.request.slos[k];
    const QString value = qs(sim::formatMetricValue(slo.metric.info().unit, *p.worst[k]));
    return p.sloPass[k] ? value : tr("%1 ✗").arg(value);
}

QVariant PlanPointsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || size_t(index.row()) >= rows_.size()) return {};
    const Row& row = rows_[size_t(index.row())];
    const int column = index.column();
    const bool sloColumn = column >= FirstSlo && size_t(column - FirstSlo) < run_.request.slos.size();
    switch (role) {
    case Qt::DisplayRole:
        return display(row, column);
    case SortRole:
        if (column == Nodes) return qlonglong(row.point->counts[0]);
        if (sloColumn) {
            const auto& v = row.point->worst[size_t(column - FirstSlo)];
            return v ? QVariant(*v) : QVariant();
        }
        return display(row, column);
    case Qt::ToolTipRole: {
        // Every seed kept, with the SLOs' values: what decided the point.
        QStringList lines;
        for (const auto& s : row.point->seeds) {
            QStringList values;
            for (size_t k = 0; k < run_.request.slos.size() && k < s.sloValues.size(); ++k)
                values << QStringLiteral("%1 %2").arg(
                    qs(run_.request.slos[k].metric.name()),
                    s.sloValues[k]
                        ? qs(sim::formatMetricValue(run_.request.slos[k].metric.info().unit, *s.sloValues[k]))
                        : tr("n/a"));
            lines << tr("seed %1: %2").arg(s.seed).arg(values.join(QStringLiteral(", ")));
        }
        if (!row.note.isEmpty()) lines << row.note;
        return lines.join('\n');
    }
    case Qt::FontRole:
        if (row.answer) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ForegroundRole:
        if (!row.note.isEmpty() && !row.answer) return QColor(0xd3, 0x2f, 0x2f);
        if (column == Pass) return row.point->pass ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28);
        if (sloColumn && !row.point->sloPass[size_t(column - FirstSlo)]) return QColor(0xc6, 0x28, 0x28);
        return {};
    case Qt::TextAlignmentRole:
        if (column == Nodes || column == Round || sloColumn) return int(Qt::AlignRight | Qt::AlignVCenter);
        return int(Qt::AlignLeft | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant PlanPointsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Profile:
        return tr("Profile");
    case Nodes:
        return tr("%1 nodes").arg(qs(run_.pool.name));
    case Pass:
        return tr("Pass");
    case Round:
        return tr("Round");
    default:
        break;
    }
    const size_t k = size_t(section - FirstSlo);
    if (k < run_.request.slos.size()) return qs(run_.request.slos[k].text);
    return tr("Note");
}

} // namespace gantry::studio
