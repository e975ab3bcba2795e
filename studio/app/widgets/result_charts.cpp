#include "widgets/result_charts.h"

#include "core/qt_text.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QChart>
#include <QGraphicsSimpleTextItem>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <map>

namespace gantry::studio {
namespace {

QString profileName(const WhatIfResult* r, const QString& fallback) {
    return r && !r->profile.empty() ? qs(r->profile) : fallback;
}

// The scheduler's name alone ("Volcano", "kube-scheduler"), for legends that hold four series.
QString shortProfileName(const WhatIfResult* r, const QString& fallback) {
    const QString name = profileName(r, fallback);
    return name.section(QLatin1Char(' '), 0, 0);
}

// A run too short for curves (no more than the samples before and after one session).
bool isSingleSession(const WhatIfResult* r) {
    return r && r->time.size() <= 2;
}

// One band of a stacked area chart over time: `values` on top of `below`, which it then raises.
void addStackedArea(QChart* chart, const std::vector<double>& t, double unit,
                    const std::vector<double>& values, std::vector<double>& below, double& ymax,
                    const QString& name, const QColor& fill) {
    auto* lower = new QLineSeries;
    auto* upper = new QLineSeries;
    for (size_t i = 0; i < t.size(); ++i) {
        const double v = i < values.size() ? values[i] : 0;
        lower->append(t[i] / unit, below[i]);
        below[i] += v;
        upper->append(t[i] / unit, below[i]);
        ymax = std::max(ymax, below[i]);
    }
    auto* area = new QAreaSeries(upper, lower);
    area->setName(name);
    area->setBrush(fill);
    area->setPen(QPen(fill.darker(120), 1));
    chart->addSeries(area);
}

// Simulated time below, GPUs on the left, every series of the chart attached to both.
void addTimeAndGpuAxes(QChart* chart, double tmax, double unit, const QString& unitName, double ymax,
                       const QPalette& palette) {
    auto* x = new QValueAxis;
    x->setRange(0, tmax / unit);
    x->applyNiceNumbers();
    x->setLabelFormat(QStringLiteral("%.3g"));
    auto* y = new QValueAxis;
    y->setRange(0, ymax);
    y->applyNiceNumbers();
    // A few GPUs (MIG slices count in sevenths) need a decimal, or ticks repeat ("1, 1, 2, 2").
    y->setLabelFormat(y->max() < 5 ? QStringLiteral("%.1f") : QStringLiteral("%.0f"));
    styleAxis(x, palette, QObject::tr("simulated time (%1)").arg(unitName));
    styleAxis(y, palette, QObject::tr("GPUs"));
    addAxes(chart, x, y);
}

} // namespace

void styleChart(QChart* chart, const QString& title, const QPalette& palette) {
    bool dark = palette.color(QPalette::Window).lightness() < 128;
    chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setBackgroundBrush(palette.base());
    chart->setBackgroundRoundness(4);
    chart->setTitle(title);
    QFont f = chart->titleFont();
    f.setBold(true);
    f.setPointSizeF(std::max(9.0, f.pointSizeF()));
    chart->setTitleFont(f);
    chart->setTitleBrush(palette.windowText());
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setLabelColor(palette.color(QPalette::WindowText));
    chart->setMargins(QMargins(6, 4, 6, 4));
    chart->setAnimationOptions(QChart::NoAnimation);
}

void styleAxis(QAbstractAxis* axis, const QPalette& palette, const QString& title) {
    axis->setLabelsColor(palette.color(QPalette::WindowText));
    axis->setTitleText(title);
    axis->setTitleBrush(palette.windowText());
    QColor grid = palette.color(QPalette::Mid);
    grid.setAlpha(90);
    axis->setGridLineColor(grid);
    QFont f = axis->titleFont();
    f.setBold(false);
    axis->setTitleFont(f);
}

QColor profileColor(size_t index) {
    static const QColor colors[] = {QColor(0x2f, 0x6f, 0xb3), QColor(0xe0, 0x7b, 0x1f),
                                    QColor(0x3a, 0x8f, 0x4a), QColor(0x8e, 0x4f, 0xa8)};
    return colors[index % 4];
}
QColor primaryColor() {
    return profileColor(0);
}

QChart* makeMessageChart(const QString& title, const QString& message, const QPalette& palette) {
    auto* chart = new QChart;
    styleChart(chart, title, palette);
    chart->legend()->hide();
    auto* text = new QGraphicsSimpleTextItem(message, chart);
    text->setBrush(palette.color(QPalette::PlaceholderText));
    QObject::connect(chart, &QChart::geometryChanged, chart, [chart, text] {
        QRectF r = chart->plotArea().isEmpty() ? chart->rect() : chart->plotArea();
        QRectF b = text->boundingRect();
        text->setPos(r.center().x() - b.width() / 2, r.center().y() - b.height() / 2);
    });
    return chart;
}

QChart* makeAllocationChart(const std::vector<const WhatIfResult*>& runs, const QPalette& palette) {
    const WhatIfResult* primary = runs.empty() ? nullptr : runs.front();
    if (!primary)
        return makeMessageChart(QObject::tr("GPU allocation and fragmentation"),
                                QObject::tr("Run the what-if to see results."), palette);
    auto* chart = new QChart;
    const bool hasFrag = !primary->fragmentationPct.empty();
    if (isSingleSession(primary)) {
        styleChart(
            chart,
            QObject::tr("GPU allocation and fragmentation, before and after the session (% of all GPUs)"),
            palette);
        auto* series = new QBarSeries;
        auto addSet = [&](const WhatIfResult* r, const QString& name, QColor color) {
            if (!r) return;
            auto* alloc = new QBarSet(QObject::tr("%1: allocated").arg(name));
            alloc->setColor(color);
            alloc->setBorderColor(color);
            for (double v : r->gpuAllocationPct) *alloc << v;
            series->append(alloc);
            if (!r->fragmentationPct.empty()) {
                auto* frag = new QBarSet(QObject::tr("%1: fragmented").arg(name));
                QColor fc = color.lighter(150);
                frag->setColor(fc);
                frag->setBorderColor(color);
                for (double v : r->fragmentationPct) *frag << v;
                series->append(frag);
            }
        };
        for (size_t i = 0; i < runs.size(); ++i)
            addSet(runs[i], profileName(runs[i], QObject::tr("policy")), profileColor(i));
        series->setLabelsVisible(true);
        series->setLabelsFormat(QStringLiteral("@value %"));
        series->setLabelsPrecision(3);
        chart->addSeries(series);
        auto* x = new QBarCategoryAxis;
        QStringList cats;
        for (size_t i = 0; i < primary->gpuAllocationPct.size(); ++i)
            cats << (i == 0 ? QObject::tr("Before") : QObject::tr("After"));
        x->append(cats);
        auto* y = new QValueAxis;
        y->setRange(0, 100);
        y->setLabelFormat(QStringLiteral("%d %"));
        styleAxis(x, palette);
        styleAxis(y, palette);
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        series->attachAxis(x);
        series->attachAxis(y);
        for (auto* set : series->barSets()) set->setLabelColor(palette.color(QPalette::WindowText));
        return chart;
    }
    styleChart(chart, QObject::tr("GPU allocation and fragmentation over time (% of all GPUs)"), palette);
    double tmax = 1;
    for (const auto* r : runs)
        if (!r->time.empty()) tmax = std::max(tmax, r->time.back());
    auto [unit, unitName] = timeUnit(tmax);
    auto addLine = [&](const WhatIfResult* r, const std::vector<double>& ys, const QString& name,
                       QColor color, Qt::PenStyle style) {
        if (!r || ys.empty()) return static_cast<QLineSeries*>(nullptr);
        auto* s = new QLineSeries;
        s->setName(name);
        for (size_t i = 0; i < ys.size() && i < r->time.size(); ++i) s->append(r->time[i] / unit, ys[i]);
        QPen pen(color, 2, style);
        s->setPen(pen);
        chart->addSeries(s);
        return s;
    };
    // Allocation solid, fragmentation dashed, one colour per profile (the first profile's
    // fragmentation in red when it runs alone).
    for (size_t i = 0; i < runs.size(); ++i) {
        const WhatIfResult* r = runs[i];
        const QString name = shortProfileName(r, QObject::tr("policy"));
        addLine(r, r->gpuAllocationPct, QObject::tr("Allocated · %1").arg(name), profileColor(i),
                Qt::SolidLine);
        if (hasFrag && !r->fragmentationPct.empty())
            addLine(r, r->fragmentationPct, QObject::tr("Fragmented · %1").arg(name),
                    runs.size() == 1 ? QColor(0xd3, 0x2f, 0x2f) : profileColor(i), Qt::DashLine);
    }
    auto* x = new QValueAxis;
    x->setRange(0, tmax / unit);
    x->applyNiceNumbers();
    x->setLabelFormat(QStringLiteral("%.3g"));
    auto* y = new QValueAxis;
    y->setRange(0, 100);
    y->setTickCount(5);
    y->setLabelFormat(QStringLiteral("%d %"));
    styleAxis(x, palette, QObject::tr("simulated time (%1)").arg(unitName));
    styleAxis(y, palette);
    addAxes(chart, x, y);
    return chart;
}

QChart* makeQueueChart(const std::vector<const WhatIfResult*>& runs, const QString& shareTerm,
                       const QPalette& palette) {
    const WhatIfResult* primary = runs.empty() ? nullptr : runs.front();
    const QString title = QObject::tr("Queue usage against %1 and guarantee (GPUs)").arg(shareTerm.toLower());
    if (!primary) return makeMessageChart(title, QObject::tr("Run the what-if to see results."), palette);
    if (primary->queues.empty())
        return makeMessageChart(title, QObject::tr("The project has no queues."), palette);
    auto* chart = new QChart;
    if (isSingleSession(primary)) {
        styleChart(chart,
                   QObject::tr("Queue usage after the session against %1 and guarantee (GPUs)")
                       .arg(shareTerm.toLower()),
                   palette);
        auto* series = new QBarSeries;
        QStringList cats;
        auto* used = new QBarSet(QObject::tr("used · %1").arg(profileName(primary, QObject::tr("policy"))));
        used->setColor(primaryColor());
        used->setBorderColor(primaryColor());
        std::vector<QBarSet*> usedOthers;
        for (size_t i = 1; i < runs.size(); ++i) {
            auto* set =
                new QBarSet(QObject::tr("used · %1").arg(profileName(runs[i], QObject::tr("comparison"))));
            set->setColor(profileColor(i));
            set->setBorderColor(profileColor(i));
            usedOthers.push_back(set);
        }
        auto* share = new QBarSet(shareTerm.toLower());
        QColor shareColor = palette.color(QPalette::Mid);
        share->setColor(shareColor);
        share->setBorderColor(shareColor.darker(120));
        auto* guarantee = new QBarSet(QObject::tr("guarantee"));
        guarantee->setColor(QColor(0x59, 0xa1, 0x4f));
        guarantee->setBorderColor(QColor(0x59, 0xa1, 0x4f));
        bool anyGuarantee = false;
        double ymax = 1;
        for (const auto& q : primary->queues) {
            cats << qs(q.queue);
            double u = q.usedGpus.empty() ? 0 : q.usedGpus.back();
            *used << u;
            double d = q.deserved.value_or(0), g = q.guarantee.value_or(0);
            *share << d;
            *guarantee << g;
            anyGuarantee = anyGuarantee || g > 0;
            ymax = std::max({ymax, u, d, g});
            for (size_t i = 1; i < runs.size(); ++i) {
                double c = 0;
                for (const auto& cq : runs[i]->queues)
                    if (cq.queue == q.queue && !cq.usedGpus.empty()) c = cq.usedGpus.back();
                *usedOthers[i - 1] << c;
                ymax = std::max(ymax, c);
            }
        }
        series->append(used);
        for (auto* set : usedOthers) series->append(set);
        series->append(share);
        if (anyGuarantee)
            series->append(guarantee);
        else
            delete guarantee;
        chart->addSeries(series);
        auto* x = new QBarCategoryAxis;
        x->append(cats);
        x->setLabelsAngle(cats.size() > 6 ? -45 : 0);
        auto* y = new QValueAxis;
        y->setRange(0, ymax * 1.1);
        y->setLabelFormat(QStringLiteral("%.0f"));
        styleAxis(x, palette);
        styleAxis(y, palette, QObject::tr("GPUs"));
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        series->attachAxis(x);
        series->attachAxis(y);
        return chart;
    }
    // Over time: the queues' usage stacked as areas, each queue's deserved as a dotted line.
    styleChart(chart, title, palette);
    const auto& t = primary->time;
    auto [unit, unitName] = timeUnit(t.empty() ? 1 : t.back());
    std::vector<double> below(t.size(), 0.0);
    static const QColor palette12[] = {
        QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b), QColor(0x59, 0xa1, 0x4f),
        QColor(0xe1, 0x57, 0x59), QColor(0x76, 0xb7, 0xb2), QColor(0xed, 0xc9, 0x48),
        QColor(0xb0, 0x7a, 0xa1), QColor(0xff, 0x9d, 0xa7), QColor(0x9c, 0x75, 0x5f),
        QColor(0x3b, 0x8e, 0xa5), QColor(0x8c, 0xd1, 0x7d), QColor(0xd3, 0x72, 0xc6)};
    double ymax = 1;
    // Leaf queues only: an inner queue's usage already contains its children's.
    std::vector<size_t> leaves;
    for (size_t k = 0; k < primary->queues.size(); ++k)
        if (primary->queues[k].leaf) leaves.push_back(k);
    for (size_t li = 0; li < leaves.size(); ++li) {
        const size_t k = li;
        const auto& q = primary->queues[leaves[li]];
        QColor c = palette12[k % 12];
        c.setAlpha(200);
        addStackedArea(chart, t, unit, q.usedGpus, below, ymax, qs(q.queue), c);
    }
    for (size_t li = 0; li < leaves.size(); ++li) {
        const size_t k = li;
        const auto& q = primary->queues[leaves[li]];
        if (!q.deserved) continue;
        auto* line = new QLineSeries;
        line->append(0, *q.deserved);
        line->append(t.empty() ? 1 : t.back() / unit, *q.deserved);
        line->setPen(QPen(palette12[k % 12].darker(140), 1.5, Qt::DotLine));
        line->setName(QObject::tr("%1 %2").arg(qs(q.queue), shareTerm.toLower()));
        chart->addSeries(line);
        ymax = std::max(ymax, *q.deserved);
        // Keep the legend to the stacked areas; the dotted lines carry their queue's colour.
        for (auto* m : chart->legend()->markers(line)) m->setVisible(false);
    }
    chart->legend()->setAlignment(Qt::AlignRight);
    addTimeAndGpuAxes(chart, t.empty() ? 1 : t.back(), unit, unitName, ymax * 1.1, palette);
    return chart;
}

QChart* makeWaitChart(const std::vector<const WhatIfResult*>& runs, const QPalette& palette) {
    const WhatIfResult* primary = runs.empty() ? nullptr : runs.front();
    const QString title = QObject::tr("Wait time per queue (box: p25–p75, whiskers: min–max)");
    if (!primary) return makeMessageChart(title, QObject::tr("Run the what-if to see results."), palette);
    if (isSingleSession(primary))
        return makeMessageChart(
            title,
            QObject::tr("Wait times come from the time-based simulation.\nThis run is a single "
                        "scheduling session: every job arrives at t = 0."),
            palette);
    auto* chart = new QChart;
    styleChart(chart, title, palette);
    auto [unit, unitName] = timeUnit([&] {
        double m = 1;
        for (const auto* r : runs)
            for (const auto& w : r->waits)
                for (double v : w.waitSeconds) m = std::max(m, v);
        return m;
    }());
    QStringList cats;
    for (const auto& w : primary->waits) cats << qs(w.queue);
    double ymax = 0;
    auto addSeries = [&](const WhatIfResult* r, const QString& name, QColor color) {
        if (!r) return;
        auto* series = new QBoxPlotSeries;
        series->setName(name);
        series->setBrush(color.lighter(140));
        series->setPen(QPen(color.darker(120), 1));
        for (const auto& queue : cats) {
            std::vector<double> v;
            for (const auto& w : r->waits)
                if (qs(w.queue) == queue) v = w.waitSeconds;
            auto* box = new QBoxSet(queue);
            if (!v.empty()) {
                std::sort(v.begin(), v.end());
                auto pct = [&](double p) { return WhatIfResult::percentile(v, p) / unit; };
                box->setValue(QBoxSet::LowerExtreme, v.front() / unit);
                box->setValue(QBoxSet::LowerQuartile, pct(25));
                box->setValue(QBoxSet::Median, pct(50));
                box->setValue(QBoxSet::UpperQuartile, pct(75));
                box->setValue(QBoxSet::UpperExtreme, v.back() / unit);
                ymax = std::max(ymax, v.back() / unit);
            }
            series->append(box);
        }
        chart->addSeries(series);
    };
    for (size_t i = 0; i < runs.size(); ++i)
        addSeries(runs[i], shortProfileName(runs[i], QObject::tr("policy")), profileColor(i));
    auto* x = new QBarCategoryAxis;
    x->append(cats);
    x->setLabelsAngle(cats.size() > 6 ? -45 : 0);
    auto* y = new QValueAxis;
    y->setRange(0, std::max(ymax * 1.1, 1.0));
    y->applyNiceNumbers();
    y->setLabelFormat(QStringLiteral("%.3g"));
    styleAxis(x, palette);
    styleAxis(y, palette, QObject::tr("wait (%1)").arg(unitName));
    addAxes(chart, x, y);
    return chart;
}

QChart* makeIdleChart(const WhatIfResult* run, const QPalette& palette) {
    const QString title = QObject::tr("Idle GPUs by why they are idle");
    const sim::SimResult* r = run ? run->sim.get() : nullptr;
    if (!r) return makeMessageChart(title, QObject::tr("Run the what-if to see results."), palette);
    if (r->idle.usable.empty() || r->time.size() < 2)
        return makeMessageChart(title, QObject::tr("Fragmentation was not measured in this run."), palette);
    auto* chart = new QChart;
    styleChart(chart, QObject::tr("Idle GPUs by why they are idle · %1").arg(shortProfileName(run, {})),
               palette);
    const auto& t = r->time;
    auto [unit, unitName] = timeUnit(t.back());
    struct Band {
        const std::vector<double>* values;
        QString name;
        QColor color;
    };
    const Band bands[] = {
        {&r->idle.stranded, QObject::tr("stranded (CPU or memory used up)"), QColor(0xc6, 0x28, 0x28)},
        {&r->idle.fractional, QObject::tr("fractional (partly shared GPUs)"), QColor(0xef, 0x8a, 0x1f)},
        {&r->idle.scattered, QObject::tr("scattered (no node fits the common jobs)"),
         QColor(0xe5, 0xc1, 0x3a)},
        {&r->idle.usable, QObject::tr("usable"), QColor(0x7c, 0xb3, 0x7c)},
        // Violet: apart from the warm colours of the other reasons.
        {&r->idle.migLayout, QObject::tr("MIG layout (free slices no pod's profile fits)"),
         QColor(0x7e, 0x57, 0xc2)}};
    std::vector<double> below(t.size(), 0.0);
    double ymax = 1;
    for (const auto& band : bands)
        if (!band.values->empty())
            addStackedArea(chart, t, unit, *band.values, below, ymax, band.name, band.color);
    addTimeAndGpuAxes(chart, t.back(), unit, unitName, ymax * 1.05, palette);
    return chart;
}

std::pair<double, QString> timeUnit(double maxSeconds) {
    if (maxSeconds > 3 * 86400) return {86400, QObject::tr("days")};
    if (maxSeconds > 3 * 3600) return {3600, QObject::tr("hours")};
    if (maxSeconds > 180) return {60, QObject::tr("minutes")};
    return {1, QObject::tr("seconds")};
}

void addAxes(QChart* chart, QAbstractAxis* x, QAbstractAxis* y) {
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (auto* series : chart->series()) {
        series->attachAxis(x);
        series->attachAxis(y);
    }
}

} // namespace gantry::studio
