#include "tabs/results_tab.h"

#include "core/qt_text.h"
#include "core/quota_terms.h"
#include "models/comparison_model.h"
#include "models/pending_jobs_model.h"
#include "models/profile_objects_model.h"
#include "profile/registry.h"
#include "widgets/fair_share_chart.h"
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
#include <algorithm>
#include <cmath>

namespace gantry::studio {
namespace {

QString pct(double v) {
    return std::isnan(v) ? QObject::tr("n/a") : QStringLiteral("%1 %").arg(v, 0, 'f', 1);
}

double lastOr(const std::vector<double>& v, double fallback = std::nan("")) {
    return v.empty() ? fallback : v.back();
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
    partialCard_ = new StatCard(tr("Held by half-started gangs"), this);
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

    // Which profile's run the pending jobs, the reasons and the idle GPUs show.
    profileOf_ = new QComboBox(bottom_);
    profileOf_->setVisible(false);
    bottom_->setCornerWidget(profileOf_, Qt::TopRightCorner);
    pending_ = new PendingJobsModel(this);
    auto* sorter = new QSortFilterProxyModel(this);
    sorter->setSourceModel(pending_);
    sorter->setSortRole(PendingJobsModel::SortRole);
    pendingTable_ = new QTableView(bottom_);
    pendingTable_->setModel(sorter);
    pendingTable_->setSortingEnabled(true);
    pendingTable_->setAlternatingRowColors(true);
    pendingTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    pendingTable_->verticalHeader()->setVisible(false);
    pendingTable_->horizontalHeader()->setStretchLastSection(true);
    pendingTable_->setWordWrap(false);
    bottom_->addTab(pendingTable_, tr("Pending jobs"));

    compare_ = new ComparisonModel(this);
    compareTable_ = new QTableView(bottom_);
    compareTable_->setModel(compare_);
    compareTable_->verticalHeader()->setVisible(false);
    compareTable_->horizontalHeader()->setStretchLastSection(true);
    compareTable_->setAlternatingRowColors(true);
    compareTable_->setWordWrap(false);
    compareTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    bottom_->addTab(compareTable_, tr("Compare"));

    reasons_ = new QTableWidget(0, 3, bottom_);
    reasons_->setHorizontalHeaderLabels({tr("Why jobs waited"), tr("Job-hours"), tr("Jobs")});
    reasons_->verticalHeader()->setVisible(false);
    reasons_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    reasons_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    reasons_->setAlternatingRowColors(true);
    reasons_->setWordWrap(false);
    bottom_->addTab(reasons_, tr("Why jobs waited"));

    idleChart_ = chartView(bottom_);
    bottom_->addTab(idleChart_, tr("Idle GPUs"));

    // The scheduler's own objects (Kueue's ClusterQueues, YuniKorn's queues), in its words.
    objects_ = new ProfileObjectsModel(this);
    auto* objectSorter = new QSortFilterProxyModel(this);
    objectSorter->setSourceModel(objects_);
    objectSorter->setSortRole(ProfileObjectsModel::SortRole);
    objectsTable_ = new QTableView(bottom_);
    objectsTable_->setModel(objectSorter);
    objectsTable_->setSortingEnabled(true);
    objectsTable_->sortByColumn(-1, Qt::AscendingOrder); // the profile's own order until asked
    objectsTable_->setAlternatingRowColors(true);
    objectsTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    objectsTable_->verticalHeader()->setVisible(false);
    objectsTable_->setWordWrap(false);
    bottom_->addTab(objectsTable_, tr("Scheduler's objects"));

    // What a fair-share scheduler remembers (Kueue's AFS, Volcano's fairshare), over time.
    fairShareChart_ = chartView(bottom_);
    bottom_->addTab(fairShareChart_, tr("Fair-share usage"));

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
        // The profiles ran side by side: the run took as long as the longest.
        double ms = 0;
        for (const auto& r : run.results) ms = std::max(ms, r->elapsedMs);
        stage_->setText(
            run.results.size() > 1
                ? tr("%1 profiles finished in %2 s.").arg(run.results.size()).arg(ms / 1000.0, 0, 'f', 2)
                : tr("Finished in %1 s.").arg(ms / 1000.0, 0, 'f', 2));
    });
    connect(profileOf_, &QComboBox::currentIndexChanged, this, &ResultsTab::showProfile);
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
    } else if (!run.primary()) {
        QStringList names;
        for (const auto& name : engine::whatIfProfiles(ws_->document()->project())) names << qs(name);
        parts << (names.size() > 1 ? tr("Press <b>Run what-if</b> (F5) to schedule the project's workloads "
                                        "under %1, side by "
                                        "side, each with the policy the project would export for it.")
                                         .arg(names.join(QStringLiteral(", ")))
                                   : tr("Press <b>Run what-if</b> (F5) to schedule the project's workloads "
                                        "with its policy."));
    } else {
        for (const auto& r : run.results)
            if (!r->note.empty()) parts << qs(r->note).toHtmlEscaped();
        if (!run.primary()->warnings.empty()) {
            QStringList w;
            for (const auto& x : run.primary()->warnings) w << qs(x);
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
    std::vector<const WhatIfResult*> runs;
    for (const auto& r : run.results) runs.push_back(r.get());
    const WhatIfResult* a = runs.empty() ? nullptr : runs.front();
    refreshBanner();
    QString share = quotaTerms(ws_->document()->project().target).share;
    setChart(allocChart_, makeAllocationChart(runs, palette()));
    setChart(queueChart_, makeQueueChart(runs, share, palette()));
    setChart(waitChart_, makeWaitChart(runs, palette()));

    // A card shows the first profile's figure; the others' follow in its detail line.
    auto others = [&](auto f) {
        QStringList parts;
        for (size_t i = 1; i < runs.size(); ++i)
            parts << tr("%1 %2").arg(qs(runs[i]->profileName), f(*runs[i]));
        return parts.join(QStringLiteral(" · "));
    };
    if (a) {
        auto mean = [](const std::vector<double>& v, const WhatIfResult& r) { return pct(r.timeMean(v)); };
        allocCard_->setValue(
            pct(a->timeMean(a->gpuAllocationPct)),
            runs.size() > 1 ? others([&](const WhatIfResult& r) { return mean(r.gpuAllocationPct, r); })
                            : tr("mean · peak %1, end %2")
                                  .arg(pct(a->peak(a->gpuAllocationPct)), pct(lastOr(a->gpuAllocationPct))));
        fragCard_->setValue(pct(a->timeMean(a->fragmentationPct)),
                            runs.size() > 1
                                ? others([&](const WhatIfResult& r) { return mean(r.fragmentationPct, r); })
                                : tr("mean, of all GPUs · end %1").arg(pct(lastOr(a->fragmentationPct))));
        // Jobs the scheduler gave up (YuniKorn's Hard gangs whose placeholders timed out, rejected
        // applications) are neither started nor pending: said here, listed by `gantry simulate`.
        const int64_t failed = a->sim ? a->sim->jobsFailed : 0;
        QStringList startedDetail;
        if (failed > 0) startedDetail << tr("%n failed", nullptr, int(failed));
        if (runs.size() > 1)
            startedDetail << others([](const WhatIfResult& r) {
                const int64_t f = r.sim ? r.sim->jobsFailed : 0;
                return f > 0 ? tr("%1 (%2 failed)").arg(r.jobsStarted).arg(f)
                             : QString::number(r.jobsStarted);
            });
        startedCard_->setValue(tr("%1 of %2").arg(a->jobsStarted).arg(a->jobsTotal),
                               startedDetail.join(QStringLiteral(" · ")));
        pendingCard_->setValue(formatCount(qint64(a->pending.size())), others([](const WhatIfResult& r) {
                                   return formatCount(qint64(r.pending.size()));
                               }));
        const double held = a->sim ? a->sim->partialHoldGpuHours : 0;
        partialCard_->setValue(
            tr("%1 GPU-h").arg(held, 0, 'f', 0),
            runs.size() > 1 ? others([](const WhatIfResult& r) {
                return tr("%1 GPU-h").arg(r.sim ? r.sim->partialHoldGpuHours : 0, 0, 'f', 0);
            })
                            : tr("held by gangs not yet complete · %1 at the end").arg(a->jobsPartial));
        allocCard_->setAccent(profileColor(0));
    } else {
        for (auto* c : {allocCard_, fragCard_, startedCard_, pendingCard_, partialCard_})
            c->setValue(QStringLiteral("–"));
    }

    const int shown = profileOf_->currentIndex();
    profileOf_->blockSignals(true);
    profileOf_->clear();
    for (const auto* r : runs) profileOf_->addItem(tr("Under %1").arg(qs(r->profileName)));
    profileOf_->setVisible(runs.size() > 1);
    profileOf_->setCurrentIndex(shown >= 0 && size_t(shown) < runs.size() ? shown : 0);
    profileOf_->blockSignals(false);
    showProfile(profileOf_->currentIndex());

    compare_->setRun(run);
    compareTable_->resizeColumnsToContents();
    bottom_->setTabText(1, run.verdicts.empty() ? tr("Compare") : tr("Compare (%1)").arg(run.results.size()));
    bottom_->setTabEnabled(1, !run.verdicts.empty());
    // With several profiles the comparison is the first thing to read; alone, the pending jobs or,
    // with nothing pending, the reasons over the run.
    if (!run.verdicts.empty())
        bottom_->setCurrentIndex(1);
    else if (a && a->pending.empty() && !a->pendingReasons.empty())
        bottom_->setCurrentIndex(2);
    else
        bottom_->setCurrentIndex(0);
}

QStringList ResultsTab::tableNames() {
    return {"pending", "compare", "reasons", "idle", "objects", "fairshare"}; // the order of the tabs
}

bool ResultsTab::showTable(const QString& name) {
    const int index = int(tableNames().indexOf(name.toLower()));
    if (index < 0 || !bottom_->isTabEnabled(index)) return false;
    bottom_->setCurrentIndex(index);
    return true;
}

void ResultsTab::showProfile(int index) {
    const auto& run = ws_->results();
    const auto result =
        index >= 0 && size_t(index) < run.results.size() ? run.results[size_t(index)] : nullptr;
    const WhatIfResult* a = result.get();
    pending_->setResult(result);
    pendingTable_->resizeColumnsToContents();
    bottom_->setTabText(0, a ? tr("Pending jobs (%1)").arg(a->pending.size()) : tr("Pending jobs"));
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
    setChart(idleChart_, makeIdleChart(a, palette()));

    objects_->setResult(result);
    objectsTable_->resizeColumnsToContents();
    const int objectsTab = bottom_->indexOf(objectsTable_);
    const auto* info = a ? engine::findProfile(a->profileName) : nullptr;
    const QString who = info ? qs(info->title) : tr("Scheduler");
    bottom_->setTabText(objectsTab, tr("%1's objects (%2)").arg(who).arg(objects_->rowCount()));
    bottom_->setTabEnabled(objectsTab, objects_->rowCount() > 0);

    QChart* fairShare = makeFairShareChart(a, palette());
    const int fairShareTab = bottom_->indexOf(fairShareChart_);
    bottom_->setTabEnabled(fairShareTab, fairShare != nullptr);
    setChart(fairShareChart_,
             fairShare
                 ? fairShare
                 : makeMessageChart(tr("Fair-share usage"),
                                    tr("No fair-share usage in this run (Kueue's Admission Fair Sharing "
                                       "or Volcano's fairshare plugin)."),
                                    palette()));
}

} // namespace gantry::studio
