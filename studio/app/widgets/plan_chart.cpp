#include "widgets/plan_chart.h"

#include "profile/registry.h"
#include "widgets/result_charts.h"

#include <QChart>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

namespace gantry::studio {
namespace {

// The axis unit that keeps a metric's values readable: hours, minutes or seconds for durations.
std::pair<double, QString> unitOf(sim::MetricUnit unit, double largest) {
    switch (unit) {
    case sim::MetricUnit::Seconds:
        if (largest >= 2 * 3600) return {3600, QObject::tr("hours")};
        if (largest >= 120) return {60, QObject::tr("minutes")};
        return {1, QObject::tr("seconds")};
    case sim::MetricUnit::Percent:
        return {1, QStringLiteral("%")};
    case sim::MetricUnit::GpuHours:
        return {1, QObject::tr("GPU-hours")};
    case sim::MetricUnit::Gpus:
        return {1, QObject::tr("GPUs")};
    case sim::MetricUnit::Count:
        break;
    }
    return {1, QString()};
}

QScatterSeries* markers(QScatterSeries::MarkerShape shape, double size, const QColor& fill,
                        const QColor& edge) {
    auto* s = new QScatterSeries;
    s->setMarkerShape(shape);
    s->setMarkerSize(size);
    s->setColor(fill);
    s->setBorderColor(edge);
    return s;
}

} // namespace

QChart* makePlanChart(const PlanRun& run, size_t sloIndex, const QPalette& palette) {
    if (sloIndex >= run.request.slos.size()) return nullptr;
    const plan::Slo& slo = run.request.slos[sloIndex];
    double largest = std::fabs(slo.threshold);
    int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
    for (const auto& p : run.profiles)
        for (const auto& point : p.result.points) {
            lo = std::min(lo, point.counts[0]);
            hi = std::max(hi, point.counts[0]);
            if (sloIndex < point.worst.size() && point.worst[sloIndex])
                largest = std::max(largest, std::fabs(*point.worst[sloIndex]));
        }
    if (lo > hi) return nullptr;
    const auto [unit, unitName] = unitOf(slo.metric.info().unit, largest);
    const int64_t now = run.pool.nodes;
    const QString pool = QString::fromStdString(run.pool.name);

    auto* chart = new QChart;
    styleChart(
        chart,
        QObject::tr("%1 (worst seed) against %2 nodes").arg(QString::fromStdString(slo.metric.name()), pool),
        palette);
    std::vector<QScatterSeries*> unlisted;
    double ymax = std::fabs(slo.threshold) / unit;
    bool broken = false;
    auto* violations =
        markers(QScatterSeries::MarkerShapeCircle, 20, Qt::transparent, QColor(0xd3, 0x2f, 0x2f));
    violations->setName(QObject::tr("monotonic assumption broken"));
    violations->setPen(QPen(QColor(0xd3, 0x2f, 0x2f), 2));
    for (size_t i = 0; i < run.profiles.size(); ++i) {
        const ProfilePlan& p = run.profiles[i];
        const QColor color = profileColor(i);
        auto* line = new QLineSeries;
        line->setName(planTitle(p));
        line->setPen(QPen(color, 2));
        auto* passed = markers(QScatterSeries::MarkerShapeCircle, 9, color, color);
        auto* failed = markers(QScatterSeries::MarkerShapeCircle, 9, palette.color(QPalette::Base), color);
        auto* answer = markers(QScatterSeries::MarkerShapeStar, 22, color, color.darker(140));
        std::vector<plan::PlanPoint> points = p.result.points;
        std::sort(points.begin(), points.end(),
                  [](const plan::PlanPoint& a, const plan::PlanPoint& b) { return a.counts < b.counts; });
        for (const auto& point : points) {
            if (sloIndex >= point.worst.size() || !point.worst[sloIndex]) continue;
            const double x = double(now + point.counts[0]);
            const double y = *point.worst[sloIndex] / unit;
            ymax = std::max(ymax, y);
            line->append(x, y);
            (point.pass ? passed : failed)->append(x, y);
            if (p.result.met && point.counts == p.result.answer) answer->append(x, y);
            for (const auto& v : p.result.violations)
                if (v.passing == point.counts || v.failing == point.counts) {
                    violations->append(x, y);
                    broken = true;
                    break;
                }
        }
        chart->addSeries(line);
        for (auto* s : {failed, passed, answer}) {
            chart->addSeries(s);
            unlisted.push_back(s);
        }
    }
    auto* threshold = new QLineSeries;
    // The legend reads names as rich text: "<" must be escaped.
    threshold->setName(
        QObject::tr("SLO %1 %2")
            .arg(QString::fromUtf8(slo.symbol()),
                 QString::fromStdString(sim::formatMetricValue(slo.metric.info().unit, slo.threshold)))
            .toHtmlEscaped());
    QPen dashed(QColor(0xd3, 0x2f, 0x2f), 2, Qt::DashLine);
    threshold->setPen(dashed);
    const double x0 = double(now + lo) - 0.5, x1 = double(now + hi) + 0.5;
    threshold->append(x0, slo.threshold / unit);
    threshold->append(x1, slo.threshold / unit);
    chart->addSeries(threshold);
    if (broken)
        chart->addSeries(violations);
    else
        delete violations;

    auto* x = new QValueAxis;
    x->setRange(x0, x1);
    x->setLabelFormat(QStringLiteral("%.0f"));
    x->setTickType(QValueAxis::TicksDynamic);
    x->setTickAnchor(double(now));
    x->setTickInterval(std::max(1.0, std::ceil(double(hi - lo + 1) / 12)));
    auto* y = new QValueAxis;
    y->setRange(0, ymax * 1.08);
    y->applyNiceNumbers();
    y->setLabelFormat(QStringLiteral("%.3g"));
    styleAxis(x, palette, QObject::tr("%1 nodes (%2 now)").arg(pool).arg(now));
    styleAxis(y, palette,
              unitName.isEmpty()
                  ? QString::fromStdString(slo.metric.name())
                  : QStringLiteral("%1 (%2)").arg(QString::fromStdString(slo.metric.name()), unitName));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (auto* series : chart->series()) {
        series->attachAxis(x);
        series->attachAxis(y);
    }
    for (auto* s : unlisted)
        for (auto* m : chart->legend()->markers(s)) m->setVisible(false);
    // The rings are hollow; the legend shows their colour.
    if (broken)
        for (auto* m : chart->legend()->markers(violations)) m->setBrush(QColor(0xd3, 0x2f, 0x2f));
    return chart;
}

} // namespace gantry::studio
