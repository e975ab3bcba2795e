#include "widgets/fair_share_chart.h"

#include "widgets/result_charts.h"

#include <QChart>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace gantry::studio {

namespace {

// The measure of an object that is its fair-share usage, or null.
const std::vector<double>* usageOf(const engine::ObjectSeries& o, QString* measure) {
    for (const auto& [name, values] : o.series)
        if (name == "afs_usage" || name.rfind("decayed_usage_", 0) == 0) {
            *measure = QString::fromStdString(name);
            return &values;
        }
    return nullptr;
}

} // namespace

QChart* makeFairShareChart(const WhatIfResult* run, const QPalette& palette) {
    const sim::SimResult* r = run ? run->sim.get() : nullptr;
    if (!r || r->time.size() < 2) return nullptr;
    std::vector<std::pair<const engine::ObjectSeries*, const std::vector<double>*>> lines;
    QString measure;
    for (const auto& o : r->objects)
        if (const auto* v = usageOf(o, &measure)) lines.emplace_back(&o, v);
    if (lines.empty()) return nullptr;
    const bool kueue = lines.front().first->kind == "LocalQueue";
    auto* chart = new QChart;
    styleChart(chart,
               kueue ? QObject::tr("Admission Fair Sharing: each LocalQueue's usage")
                     : QObject::tr("fairshare: each namespace's decayed usage"),
               palette);
    const double tmax = r->time.back();
    const double unit = tmax > 3 * 86400 ? 86400 : tmax > 3 * 3600 ? 3600 : 60;
    const QString unitName = unit == 86400  ? QObject::tr("days")
                             : unit == 3600 ? QObject::tr("hours")
                                            : QObject::tr("minutes");
    double ymax = 0;
    // The busiest first: a chart of many tenants keeps its legend to the ones that matter.
    std::stable_sort(lines.begin(), lines.end(), [](const auto& a, const auto& b) {
        return *std::max_element(a.second->begin(), a.second->end()) >
               *std::max_element(b.second->begin(), b.second->end());
    });
    if (lines.size() > 12) lines.resize(12);
    for (const auto& [object, values] : lines) {
        auto* line = new QLineSeries;
        line->setName(QString::fromStdString(object->name));
        for (size_t i = 0; i < values->size() && i < r->time.size(); ++i) {
            const double y = (*values)[i];
            if (!std::isfinite(y)) continue;
            line->append(r->time[i] / unit, y);
            ymax = std::max(ymax, y);
        }
        chart->addSeries(line);
    }
    auto* x = new QValueAxis;
    x->setRange(0, tmax / unit);
    x->applyNiceNumbers();
    x->setLabelFormat(QStringLiteral("%.3g"));
    auto* y = new QValueAxis;
    y->setRange(0, ymax > 0 ? ymax * 1.05 : 1);
    y->applyNiceNumbers();
    y->setLabelFormat(QStringLiteral("%.3g"));
    styleAxis(x, palette, QObject::tr("simulated time (%1)").arg(unitName));
    // decayed_usage_<resource>[_gib]_hours: in the unit people count that resource's use in.
    QString unitOfUse = QObject::tr("resource-hours");
    if (measure.contains(QStringLiteral("gpu")))
        unitOfUse = QObject::tr("GPU-hours");
    else if (measure.startsWith(QStringLiteral("decayed_usage_cpu")))
        unitOfUse = QObject::tr("core-hours");
    else if (measure.contains(QStringLiteral("_gib_")))
        unitOfUse = QObject::tr("GiB-hours");
    styleAxis(y, palette,
              kueue ? QObject::tr("usage (weighted consumed resources)")
                    : QObject::tr("decayed %1").arg(unitOfUse));
    addAxes(chart, x, y);
    return chart;
}

} // namespace gantry::studio
