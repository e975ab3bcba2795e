#include "widgets/history_charts.h"

#include "widgets/result_charts.h"
#include "widgets/stat_card.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QStackedBarSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace gantry::studio {

namespace {

bool has(const PodGroup& g, const char* key, const char* value) {
    auto it = g.annotations.find(key);
    return it != g.annotations.end() && it->second == value;
}

QChartView* chartView(QWidget* parent) {
    auto* v = new QChartView(parent);
    v->setRenderHint(QPainter::Antialiasing);
    v->setMinimumHeight(190);
    return v;
}

void setChart(QChartView* view, QChart* chart) {
    QChart* old = view->chart();
    view->setChart(chart);
    if (old && old != chart) delete old;
}

// A bucket size that gives at most about 60 bars over the window: an hour, 6 hours, a day, a week.
double bucketFor(double window) {
    for (double b : {600.0, 3600.0, 6 * 3600.0, 86400.0, 7 * 86400.0})
        if (window / b <= 60) return b;
    return 30 * 86400.0;
}

QString bucketName(double b) {
    if (b == 600) return QObject::tr("10 minutes");
    if (b == 3600) return QObject::tr("hour");
    if (b == 6 * 3600) return QObject::tr("6 hours");
    if (b == 86400) return QObject::tr("day");
    if (b == 7 * 86400) return QObject::tr("week");
    return QObject::tr("30 days");
}

QChart* arrivalsChart(const std::vector<TimedJob>& jobs, const QPalette& palette) {
    double end = 0;
    for (const auto& j : jobs) end = std::max(end, j.arrival);
    const double bucket = bucketFor(std::max(end, 3600.0));
    const size_t n = size_t(end / bucket) + 1;
    std::vector<double> count(n, 0), gpus(n, 0);
    for (const auto& j : jobs) {
        const size_t b = std::min(n - 1, size_t(j.arrival / bucket));
        count[b] += 1;
        gpus[b] += double(j.gpuMilli) / 1000;
    }
    // Steps: each bucket's value held over it. The x axis counts days (or hours for a short window).
    const bool days = end >= 2 * 86400;
    const double unit = days ? 86400 : 3600;
    auto* jobsLine = new QLineSeries;
    jobsLine->setName(QObject::tr("jobs arriving per %1").arg(bucketName(bucket)));
    auto* gpuLine = new QLineSeries;
    gpuLine->setName(QObject::tr("GPUs they ask for"));
    double maxJobs = 1, maxGpus = 1;
    for (size_t b = 0; b < n; ++b) {
        const double x0 = double(b) * bucket / unit, x1 = double(b + 1) * bucket / unit;
        jobsLine->append(x0, count[b]);
        jobsLine->append(x1, count[b]);
        gpuLine->append(x0, gpus[b]);
        gpuLine->append(x1, gpus[b]);
        maxJobs = std::max(maxJobs, count[b]);
        maxGpus = std::max(maxGpus, gpus[b]);
    }
    auto* chart = new QChart;
    styleChart(chart, QObject::tr("Arrivals over time"), palette);
    chart->addSeries(jobsLine);
    chart->addSeries(gpuLine);
    jobsLine->setColor(primaryColor());
    gpuLine->setColor(QColor(0xe0, 0x7b, 0x1f));
    auto* x = new QValueAxis;
    const double xMax = double(n) * bucket / unit;
    x->setRange(0, xMax);
    x->setLabelFormat("%.0f");
    x->setTickType(QValueAxis::TicksDynamic);
    x->setTickAnchor(0);
    x->setTickInterval(days ? (xMax > 40   ? 7
                               : xMax > 14 ? 5
                               : xMax > 7  ? 2
                                           : 1)
                            : (xMax > 24  ? 6
                               : xMax > 8 ? 2
                                          : 1));
    styleAxis(x, palette, days ? QObject::tr("days into the window") : QObject::tr("hours into the window"));
    auto* yJobs = new QValueAxis;
    yJobs->setRange(0, maxJobs * 1.1);
    yJobs->setLabelFormat("%.0f");
    styleAxis(yJobs, palette, QObject::tr("jobs"));
    auto* yGpus = new QValueAxis;
    yGpus->setRange(0, maxGpus * 1.1);
    yGpus->setLabelFormat("%.0f");
    styleAxis(yGpus, palette, QObject::tr("GPUs"));
    yJobs->applyNiceNumbers();
    yGpus->applyNiceNumbers();
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(yJobs, Qt::AlignLeft);
    chart->addAxis(yGpus, Qt::AlignRight);
    jobsLine->attachAxis(x);
    jobsLine->attachAxis(yJobs);
    gpuLine->attachAxis(x);
    gpuLine->attachAxis(yGpus);
    return chart;
}

QChart* barChart(const QString& title, const QStringList& categories, const std::vector<QBarSet*>& sets,
                 const QString& xTitle, const QPalette& palette) {
    auto* series = new QStackedBarSeries;
    double top = 1;
    std::vector<double> sum(size_t(categories.size()), 0);
    for (QBarSet* s : sets) {
        series->append(s);
        for (int i = 0; i < s->count(); ++i) sum[size_t(i)] += s->at(i);
    }
    for (double v : sum) top = std::max(top, v);
    auto* chart = new QChart;
    styleChart(chart, title, palette);
    chart->addSeries(series);
    auto* x = new QBarCategoryAxis;
    x->append(categories);
    styleAxis(x, palette, xTitle);
    // Every bucket named, even in a narrow chart.
    QFont small = x->labelsFont();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    x->setLabelsFont(small);
    auto* y = new QValueAxis;
    y->setRange(0, top * 1.1);
    y->setLabelFormat("%.0f");
    y->applyNiceNumbers();
    styleAxis(y, palette, QObject::tr("jobs"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    chart->legend()->setVisible(sets.size() > 1);
    return chart;
}

} // namespace

std::vector<TimedJob> timedJobs(const Cluster& c) {
    std::unordered_map<std::string, size_t> index;
    std::vector<TimedJob> out;
    for (const auto& g : c.podGroups) {
        if (!g.annotations.count("gantry.io/arrival")) continue;
        TimedJob j;
        j.arrival = g.arrivalSeconds;
        j.duration = g.durationSeconds;
        j.openEnded = has(g, "gantry.io/open-ended", "true");
        j.neverRan = has(g, "gantry.io/never-ran", "true");
        index.emplace(g.key(), out.size());
        out.push_back(j);
    }
    if (out.empty()) return out;
    for (const auto& p : c.pods) {
        if (p.group.empty()) continue;
        auto it = index.find(p.ns + '/' + p.group);
        if (it == index.end()) continue;
        TimedJob& j = out[it->second];
        ++j.pods;
        int64_t milli = p.gpu.totalMilli();
        if (milli == 0)
            for (const auto& [name, amount] : p.requests)
                if (isGpuResource(name)) milli += amount;
        j.gpuMilli += milli;
    }
    return out;
}

HistoryCharts::HistoryCharts(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    outer->addWidget(summary_);
    auto* row = new QHBoxLayout;
    arrivals_ = chartView(this);
    sizes_ = chartView(this);
    durations_ = chartView(this);
    row->addWidget(arrivals_, 4);
    row->addWidget(sizes_, 3);
    row->addWidget(durations_, 3);
    outer->addLayout(row, 1);
    setVisible(false);
}

void HistoryCharts::refresh(const Cluster& cluster) {
    const std::vector<TimedJob> jobs = timedJobs(cluster);
    jobs_ = int(jobs.size());
    setVisible(!jobs.empty());
    if (jobs.empty()) return;
    const QPalette& pal = palette();

    // Sizes: GPUs per job.
    const QStringList sizeNames = {"0", "1", "2", "≤4", "≤8", "≤16", "≤64", "≤256", ">256"};
    const double sizeTop[] = {0, 1, 2, 4, 8, 16, 64, 256, 1e18};
    auto* sizeSet = new QBarSet(tr("jobs"));
    std::vector<double> sizeCount(size_t(sizeNames.size()), 0);
    // Durations: finished jobs by how long they ran; open-ended ones by how long they had run. (No
    // "<" in a label: the chart reads labels as rich text.)
    const QStringList durationNames = {tr("never"), "≤10m", "≤1h", "≤4h", "≤12h", "≤1d", "≤3d", ">3d"};
    const double durationTop[] = {0, 600, 3600, 4 * 3600, 12 * 3600, 86400, 3 * 86400, 1e18};
    std::vector<double> finished(size_t(durationNames.size()), 0), open(size_t(durationNames.size()), 0);
    double gpuHours = 0, span = 0;
    int64_t pods = 0;
    int openEnded = 0;
    std::vector<double> durationsRan;
    for (const auto& j : jobs) {
        const double gpus = double(j.gpuMilli) / 1000;
        size_t s = 0;
        while (gpus > sizeTop[s]) ++s;
        sizeCount[s] += 1;
        size_t d = 0;
        if (!j.neverRan)
            while (d == 0 || j.duration > durationTop[d]) ++d;
        (j.openEnded ? open : finished)[d] += 1;
        openEnded += j.openEnded;
        pods += j.pods;
        span = std::max(span, j.arrival);
        if (!j.neverRan) {
            gpuHours += gpus * j.duration / 3600;
            durationsRan.push_back(j.duration);
        }
    }
    for (double v : sizeCount) sizeSet->append(v);
    sizeSet->setColor(primaryColor());
    auto* finishedSet = new QBarSet(tr("finished"));
    auto* openSet = new QBarSet(tr("open-ended"));
    for (size_t i = 0; i < finished.size(); ++i) {
        finishedSet->append(finished[i]);
        openSet->append(open[i]);
    }
    finishedSet->setColor(primaryColor());
    openSet->setColor(QColor(0x9e, 0x9e, 0x9e));
    setChart(arrivals_, arrivalsChart(jobs, pal));
    setChart(sizes_, barChart(tr("Sizes (GPUs per job)"), sizeNames, {sizeSet}, QString(), pal));
    setChart(durations_,
             barChart(tr("Durations (ran for)"), durationNames, {finishedSet, openSet}, QString(), pal));

    std::sort(durationsRan.begin(), durationsRan.end());
    auto quantile = [&](double q) {
        return durationsRan.empty() ? 0.0 : durationsRan[size_t(q * double(durationsRan.size() - 1))];
    };
    auto hours = [](double s) { return QString::number(s / 3600, 'f', s < 36000 ? 1 : 0); };
    // A history says where it was read (gantry.io/history: the Prometheus and the window).
    QString title = tr("<b>Timed jobs</b>");
    for (const auto& g : cluster.podGroups)
        if (auto it = g.annotations.find("gantry.io/history"); it != g.annotations.end()) {
            title = tr("<b>History</b> of %1").arg(QString::fromStdString(it->second).toHtmlEscaped());
            break;
        }
    summary_->setText(tr("%8 — %1 jobs (%2 pods) arriving over %3 days · %4 GPU-hours as they ran · "
                         "duration median %5 h, p95 %6 h · %7 open-ended at the window's end")
                          .arg(formatCount(qint64(jobs.size())), formatCount(pods),
                               QString::number(span / 86400, 'f', 1),
                               formatCount(qint64(std::llround(gpuHours))), hours(quantile(0.5)),
                               hours(quantile(0.95)), formatCount(openEnded), title));
}

} // namespace gantry::studio
