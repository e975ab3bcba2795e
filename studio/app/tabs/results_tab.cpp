#include "tabs/results_tab.h"

#include "core/quota_terms.h"
#include "models/pending_jobs_model.h"
#include "widgets/result_charts.h"
#include "widgets/stat_card.h"
#include "workspace.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

namespace gantry::studio {
namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString pct(double v) {
    return std::isnan(v) ? QObject::tr("n/a") : QStringLiteral("%1 %").arg(v, 0, 'f', 1);
}

double lastOr(const std::vector<double>& v, double fallback = std::nan("")) {
    return v.empty() ? fallback : v.back();
}

double waitPercentile(const WhatIfResult& r, double p) {
    std::vector<double> all;
    for (const auto& w : r.waits) all.insert(all.end(), w.waitSeconds.begin(), w.waitSeconds.end());
    return WhatIfResult::percentile(all, p);
}

double medianWait(const WhatIfResult& r) {
    return waitPercentile(r, 50);
}

QChartView* chartView(QWidget* parent) {
    auto* v = new QChartView(parent);
    v->setRenderHint(QPainter::Antialiasing);
    v->setMinimumHeight(220);
    return v;
}

void setChart(QChartView* view, QChart* chart) {
    QChart* old = view->chart();
    view->setChart(chart);
    if (old && old != chart) delete old;
}

} // namespace

ResultsTab::ResultsTab(Workspace* workspace, QWidget* parent) : QWidget(parent), ws_(workspace) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(10, 10, 10, 6);
    outer->setSpacing(8);

    auto* bar = new QHBoxLayout;
    run_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Run what-if"), this);
    run_->setToolTip(tr("Run the project's workloads with its policy (F5)"));
    cancel_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("Cancel"), this);
    cancel_->setEnabled(false);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setTextVisible(false);
    progress_->setMaximumWidth(280);
    progress_->setVisible(false);
    stage_ = new QLabel(this);
    stage_->setForegroundRole(QPalette::PlaceholderText);
    bar->addWidget(run_);
    bar->addWidget(cancel_);
    bar->addWidget(progress_);
    bar->addWidget(stage_, 1);
    outer->addLayout(bar);

    banner_ = new QLabel(this);
    banner_->setWordWrap(true);
    banner_->setTextFormat(Qt::RichText);
    banner_->setObjectName("ResultsBanner");
    banner_->setMargin(8);
    banner_->setAutoFillBackground(true);
    outer->addWidget(banner_);

    auto* cards = new QHBoxLayout;
    cards->setSpacing(8);
    allocCard_ = new StatCard(tr("GPU allocation"), this);
    fragCard_ = new StatCard(tr("GPU fragmentation"), this);
    startedCard_ = new StatCard(tr("Jobs started"), this);
    pendingCard_ = new StatCard(tr("Jobs pending"), this);
    partialCard_ = new StatCard(tr("Gangs half-started"), this);
    allocCard_->setAccent(primaryColor());
    fragCard_->setAccent(QColor(0xd3, 0x2f, 0x2f));
    for (auto* c : {allocCard_, fragCard_, startedCard_, pendingCard_, partialCard_}) cards->addWidget(c);
    outer->addLayout(cards);

    auto* grid = new QGridLayout;
    grid->setSpacing(8);
    allocChart_ = chartView(this);
    queueChart_ = chartView(this);
    // Time charts zoom into a range (a week's run keeps its busy first hours readable).
    for (QChartView* v : {allocChart_, queueChart_}) {
        v->setRubberBand(QChartView::HorizontalRubberBand);
        v->setToolTip(tr("Drag across the chart to zoom into a time range; right-click to zoom out."));
    }
    waitChart_ = chartView(this);
    bottom_ = new QTabWidget(this);
    bottom_->setDocumentMode(true);

    auto* pendingPage = new QWidget(bottom_);
    auto* pendingLayout = new QVBoxLayout(pendingPage);
    pendingLayout->setContentsMargins(0, 4, 0, 0);
    pendingOf_ = new QComboBox(pendingPage);
    pendingOf_->setVisible(false);
    pendingLayout->addWidget(pendingOf_);
    pending_ = new PendingJobsModel(this);
    auto* sorter = new QSortFilterProxyModel(this);
    sorter->setSourceModel(pending_);
    sorter->setSortRole(PendingJobsModel::SortRole);
    pendingTable_ = new QTableView(pendingPage);
    pendingTable_->setModel(sorter);
    pendingTable_->setSortingEnabled(true);
    pendingTable_->setAlternatingRowColors(true);
    pendingTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    pendingTable_->verticalHeader()->setVisible(false);
    pendingTable_->horizontalHeader()->setStretchLastSection(true);
    pendingTable_->setWordWrap(false);
    pendingLayout->addWidget(pendingTable_);
    bottom_->addTab(pendingPage, tr("Pending jobs"));

    compare_ = new QTableWidget(0, 4, bottom_);
    compare_->setHorizontalHeaderLabels({tr("Measure"), tr("Policy"), tr("Comparison"), tr("Difference")});
    compare_->verticalHeader()->setVisible(false);
    compare_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    compare_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    compare_->setAlternatingRowColors(true);
    bottom_->addTab(compare_, tr("Side by side"));

    reasons_ = new QTableWidget(0, 3, bottom_);
    reasons_->setHorizontalHeaderLabels({tr("Why jobs waited"), tr("Job-hours"), tr("Jobs")});
    reasons_->verticalHeader()->setVisible(false);
    reasons_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    reasons_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    reasons_->setAlternatingRowColors(true);
    reasons_->setWordWrap(false);
    bottom_->addTab(reasons_, tr("Why jobs waited"));

    grid->addWidget(allocChart_, 0, 0);
    grid->addWidget(queueChart_, 0, 1);
    grid->addWidget(waitChart_, 1, 0);
    grid->addWidget(bottom_, 1, 1);
    grid->setRowStretch(0, 1);
    grid->setRowStretch(1, 1);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    outer->addLayout(grid, 1);

    auto* runner = ws_->runner();
    connect(run_, &QPushButton::clicked, this, [this] { ws_->runWhatIf(); });
    connect(cancel_, &QPushButton::clicked, runner, &WhatIfRunner::cancel);
    connect(runner, &WhatIfRunner::runningChanged, this, [this](bool running) {
        run_->setEnabled(!running);
        cancel_->setEnabled(running);
        progress_->setVisible(running);
        if (running) {
            progress_->setValue(0);
            stage_->setText(tr("Starting…"));
        }
    });
    connect(runner, &WhatIfRunner::progress, this, [this](double f, const QString& stage) {
        if (f < 0) {
            progress_->setRange(0, 0); // busy: the simulator does not say how far it is
        } else {
            progress_->setRange(0, 1000);
            progress_->setValue(int(f * 1000));
        }
        stage_->setText(stage);
    });
    connect(runner, &WhatIfRunner::cancelled, this,
            [this] { stage_->setText(tr("Cancelled. The previous results are still shown.")); });
    connect(runner, &WhatIfRunner::failed, this, [this](const QString& message) {
        stage_->setText(QString());
        refreshBanner();
        emit statusMessage(tr("What-if not run: %1").arg(message), 8000);
    });
    connect(runner, &WhatIfRunner::finished, this, [this](const WhatIfRun& run) {
        stage_->setText(
            tr("Finished in %1 s.")
                .arg((run.primary->elapsedMs + (run.contrast ? run.contrast->elapsedMs : 0)) / 1000.0, 0, 'f',
                     2));
    });
    connect(pendingOf_, &QComboBox::currentIndexChanged, this, [this] {
        const auto& run = ws_->results();
        pending_->setResult(pendingOf_->currentIndex() == 1 ? run.contrast : run.primary);
    });
    connect(ws_, &Workspace::resultsChanged, this, &ResultsTab::refresh);
    connect(ws_->document(), &ProjectDocument::policyChanged, this, &ResultsTab::refreshBanner);
    refresh();
}

void ResultsTab::refreshBanner() {
    const auto& run = ws_->results();
    QString why = ws_->runner()->unavailableReason();
    QStringList parts;
    QColor background = palette().color(QPalette::AlternateBase);
    if (!why.isEmpty()) {
        parts << tr("<b>What-if runs are not available in this build.</b> %1").arg(why.toHtmlEscaped());
        background = QColor(0xfd, 0xec, 0xc8);
    } else if (!run.primary) {
        parts << tr("Press <b>Run what-if</b> (F5) to schedule the project's workloads with its policy%1.")
                     .arg(ws_->document()->project().contrast ? tr(" and with the comparison profile")
                                                              : QString());
    } else {
        if (!run.primary->note.empty()) parts << qs(run.primary->note).toHtmlEscaped();
        if (!run.primary->warnings.empty()) {
            QStringList w;
            for (const auto& x : run.primary->warnings) w << qs(x);
            parts << tr("<span title='%1'>%n note(s) from the engine about what it does not model (hover to "
                        "read).</span>",
                        "", int(w.size()))
                         .arg(w.join('\n').toHtmlEscaped());
        }
        if (ws_->resultsStale()) {
            parts << tr(
                "<b>The project changed since this run</b>; run it again to bring the results up to date.");
            background = QColor(0xfd, 0xec, 0xc8);
        }
    }
    if (palette().color(QPalette::Window).lightness() < 128 &&
        background != palette().color(QPalette::AlternateBase))
        background = QColor(0x5a, 0x47, 0x1c);
    QPalette p = banner_->palette();
    p.setColor(QPalette::Window, background);
    banner_->setPalette(p);
    banner_->setText(parts.join(QStringLiteral("<br>")));
    banner_->setVisible(!parts.isEmpty());
    run_->setEnabled(why.isEmpty() && !ws_->runner()->isRunning());
}

void ResultsTab::refresh() {
    const auto& run = ws_->results();
    const WhatIfResult* a = run.primary.get();
    const WhatIfResult* b = run.contrast.get();
    refreshBanner();
    QString share = quotaTerms(ws_->document()->project().target).share;
    setChart(allocChart_, makeAllocationChart(a, b, palette()));
    setChart(queueChart_, makeQueueChart(a, b, share, palette()));
    setChart(waitChart_, makeWaitChart(a, b, palette()));

    auto secondLine = [&](auto f) { return b ? tr("%1: %2").arg(qs(b->profile), f(*b)) : QString(); };
    if (a) {
        // Over time: the time-weighted mean, with the peak and the end in the detail line.
        auto allocDetail = [&](const WhatIfResult& r) {
            return tr("mean · peak %1, end %2")
                .arg(pct(r.peak(r.gpuAllocationPct)), pct(lastOr(r.gpuAllocationPct)));
        };
        allocCard_->setValue(pct(a->timeMean(a->gpuAllocationPct)),
                             b ? tr("%1: %2 mean").arg(qs(b->profile), pct(b->timeMean(b->gpuAllocationPct)))
                               : allocDetail(*a));
        fragCard_->setValue(pct(a->timeMean(a->fragmentationPct)),
                            b ? tr("%1: %2 mean").arg(qs(b->profile), pct(b->timeMean(b->fragmentationPct)))
                              : tr("mean, of all GPUs · end %1").arg(pct(lastOr(a->fragmentationPct))));
        startedCard_->setValue(tr("%1 of %2").arg(a->jobsStarted).arg(a->jobsTotal),
                               secondLine([](const WhatIfResult& r) {
                                   return tr("%1 of %2").arg(r.jobsStarted).arg(r.jobsTotal);
                               }));
        pendingCard_->setValue(formatCount(qint64(a->pending.size())), secondLine([](const WhatIfResult& r) {
                                   return formatCount(qint64(r.pending.size()));
                               }));
        partialCard_->setValue(formatCount(a->jobsPartial),
                               secondLine([](const WhatIfResult& r) { return formatCount(r.jobsPartial); }));
    } else {
        for (auto* c : {allocCard_, fragCard_, startedCard_, pendingCard_, partialCard_})
            c->setValue(QStringLiteral("–"));
    }

    pendingOf_->blockSignals(true);
    pendingOf_->clear();
    if (a) pendingOf_->addItem(tr("Pending under %1").arg(qs(a->profile)));
    if (b) pendingOf_->addItem(tr("Pending under %1").arg(qs(b->profile)));
    pendingOf_->setVisible(b != nullptr);
    pendingOf_->blockSignals(false);
    pending_->setResult(run.primary);
    pendingTable_->resizeColumnsToContents();
    bottom_->setTabText(0, a ? tr("Pending jobs (%1)").arg(a->pending.size()) : tr("Pending jobs"));

    // Why jobs waited, over the whole run (the policy's run).
    reasons_->setRowCount(a ? int(a->pendingReasons.size()) : 0);
    for (size_t i = 0; a && i < a->pendingReasons.size(); ++i) {
        const auto& r = a->pendingReasons[i];
        auto* reason = new QTableWidgetItem(qs(r.reason));
        reason->setToolTip(qs(r.reason));
        reasons_->setItem(int(i), 0, reason);
        auto* hours = new QTableWidgetItem(QLocale().toString(r.jobSeconds / 3600.0, 'f', 1));
        hours->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        reasons_->setItem(int(i), 1, hours);
        auto* jobs = new QTableWidgetItem(QString::number(r.jobs));
        jobs->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        reasons_->setItem(int(i), 2, jobs);
    }
    reasons_->resizeColumnToContents(1);
    reasons_->resizeColumnToContents(2);
    bottom_->setTabText(2,
                        a ? tr("Why jobs waited (%1)").arg(a->pendingReasons.size()) : tr("Why jobs waited"));
    // With nothing pending at the end, the comparison (when one ran) or the reasons over the run
    // are the more useful page.
    if (a && a->pending.empty() && bottom_->currentIndex() == 0) {
        if (b)
            bottom_->setCurrentIndex(1);
        else if (!a->pendingReasons.empty())
            bottom_->setCurrentIndex(2);
    }

    // Side by side.
    struct Row {
        QString name;
        std::function<double(const WhatIfResult&)> value;
        bool percent;
        bool lowerIsBetter;
    };
    std::vector<Row> rows = {
        {tr("GPU allocation, mean over time"),
         [](const WhatIfResult& r) { return r.timeMean(r.gpuAllocationPct); }, true, false},
        {tr("GPU allocation, peak"), [](const WhatIfResult& r) { return r.peak(r.gpuAllocationPct); }, true,
         false},
        {tr("GPU fragmentation, mean over time"),
         [](const WhatIfResult& r) { return r.timeMean(r.fragmentationPct); }, true, true},
        {tr("Jobs started"), [](const WhatIfResult& r) { return double(r.jobsStarted); }, false, false},
        {tr("Jobs completed"), [](const WhatIfResult& r) { return double(r.jobsCompleted); }, false, false},
        {tr("Jobs pending"), [](const WhatIfResult& r) { return double(r.pending.size()); }, false, true},
        {tr("Gangs half-started (holding GPUs, cannot run)"),
         [](const WhatIfResult& r) { return double(r.jobsPartial); }, false, true},
        {tr("Pods bound"), [](const WhatIfResult& r) { return double(r.podsBound); }, false, false},
        {tr("Pod evictions"), [](const WhatIfResult& r) { return double(r.evictions); }, false, true},
        {tr("Job restarts (preempted)"), [](const WhatIfResult& r) { return double(r.jobRestarts); }, false,
         true},
        {tr("GPU-hours of work lost to restarts"), [](const WhatIfResult& r) { return r.lostGpuHours; },
         false, true},
        {tr("Median wait (s)"), [](const WhatIfResult& r) { return medianWait(r); }, false, true},
        {tr("95th percentile wait (s)"), [](const WhatIfResult& r) { return waitPercentile(r, 95); }, false,
         true},
    };
    compare_->setRowCount(a ? int(rows.size()) : 0);
    compare_->setHorizontalHeaderLabels({tr("Measure"), a ? qs(a->profile) : tr("Policy"),
                                         b ? qs(b->profile) : tr("Comparison"), tr("Difference")});
    for (size_t i = 0; a && i < rows.size(); ++i) {
        const Row& r = rows[i];
        auto text = [&](double v) {
            if (std::isnan(v)) return tr("n/a");
            return r.percent ? pct(v)
                             : QLocale().toString(v, 'f', std::abs(v - std::round(v)) < 1e-9 ? 0 : 1);
        };
        double va = r.value(*a);
        compare_->setItem(int(i), 0, new QTableWidgetItem(r.name));
        compare_->setItem(int(i), 1, new QTableWidgetItem(text(va)));
        if (b) {
            double vb = r.value(*b);
            compare_->setItem(int(i), 2, new QTableWidgetItem(text(vb)));
            auto* diff = new QTableWidgetItem;
            if (!std::isnan(va) && !std::isnan(vb)) {
                double d = va - vb;
                // Differences below what is shown (0.1 pp, or 0.1 of a count) read as none.
                if (std::abs(d) < 0.05) d = 0;
                diff->setText((d > 0 ? QStringLiteral("+") : QString()) +
                              (r.percent ? QStringLiteral("%1 pp").arg(d, 0, 'f', 1) : text(d)));
                bool better = r.lowerIsBetter ? d < 0 : d > 0;
                if (std::abs(d) > 1e-9)
                    diff->setForeground(better ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28));
            }
            compare_->setItem(int(i), 3, diff);
        } else {
            compare_->setItem(int(i), 2, new QTableWidgetItem(tr("—")));
            compare_->setItem(int(i), 3, new QTableWidgetItem);
        }
        for (int c = 1; c <= 3; ++c)
            if (compare_->item(int(i), c))
                compare_->item(int(i), c)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    compare_->resizeColumnsToContents();
    compare_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
}

} // namespace gantry::studio
