#include "tabs/plan_tab.h"

#include "core/cluster_commands.h"
#include "core/qt_text.h"
#include "models/plan_points_model.h"
#include "plan/node_change.h"
#include "profile/registry.h"
#include "widgets/plan_chart.h"
#include "widgets/result_charts.h"
#include "workspace.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QUndoStack>
#include <QVBoxLayout>
#include <algorithm>
#include <stdexcept>

namespace gantry::studio {
namespace {

QString signedCount(int64_t n) {
    return n > 0 ? QStringLiteral("+%1").arg(n) : QString::number(n);
}

QLabel* heading(const QString& text, QWidget* parent) {
    auto* l = new QLabel(text, parent);
    QFont f = l->font();
    f.setBold(true);
    l->setFont(f);
    return l;
}

void setChart(QChartView* view, QChart* chart) {
    QChart* old = view->chart();
    view->setChart(chart);
    if (old && old != chart) delete old;
}

const QStringList kDefaultSlos = {QStringLiteral("wait.p95<1h")};

} // namespace

QString planAnswerText(const PlanRun& run, size_t profile) {
    if (profile >= run.profiles.size()) return {};
    const ProfilePlan& p = run.profiles[profile];
    const plan::PlanResult& r = p.result;
    const QString pool = qs(run.pool.name);
    QString text = planTitle(p) + QStringLiteral(": ");
    if (r.cancelled) return text + QObject::tr("cancelled after %1 points").arg(r.points.size());
    if (!r.met || r.answer.empty()) {
        text += QObject::tr("no answer up to %1 %2 nodes").arg(signedCount(run.request.ranges[0].max), pool);
        if (!r.points.empty()) {
            const plan::PlanPoint& top = r.points.back();
            QStringList misses;
            for (size_t k = 0; k < run.request.slos.size() && k < top.sloPass.size(); ++k)
                if (!top.sloPass[k] && top.worst[k])
                    misses << QStringLiteral("%1 %2").arg(
                        qs(run.request.slos[k].metric.name()),
                        qs(sim::formatMetricValue(run.request.slos[k].metric.info().unit, *top.worst[k])));
            if (!misses.isEmpty()) text += QObject::tr(" (%1 there)").arg(misses.join(QStringLiteral(", ")));
        }
        return text;
    }
    const int64_t n = r.answer[0];
    text +=
        n == 0 ? QObject::tr("no change to %1 (%2 nodes)").arg(pool).arg(run.pool.nodes)
               : QObject::tr("%1 %2 %3 (%4 in the pool)")
                     .arg(signedCount(n), pool, std::abs(n) == 1 ? QObject::tr("node") : QObject::tr("nodes"))
                     .arg(run.pool.nodes + n);
    if (const plan::PlanPoint* a = r.answerPoint()) {
        QStringList margins;
        for (size_t k = 0; k < run.request.slos.size(); ++k)
            if (a->worst[k])
                margins << QStringLiteral("%1 %2").arg(qs(run.request.slos[k].metric.name()),
                                                       qs(run.request.slos[k].headroomText(*a->worst[k])));
        if (!margins.isEmpty()) text += QObject::tr(", margin: %1").arg(margins.join(QStringLiteral(", ")));
    }
    for (const auto& point : r.points)
        if (!point.pass && point.counts[0] == n - 1) {
            text += QObject::tr("; one node fewer fails");
            break;
        }
    if (!r.violations.empty())
        text +=
            r.violations.size() == 1
                ? QObject::tr("; 1 pair of points breaks the monotonic assumption")
                : QObject::tr("; %1 pairs of points break the monotonic assumption").arg(r.violations.size());
    return text;
}

PlanTab::PlanTab(Workspace* workspace, QWidget* parent) : QWidget(parent), ws_(workspace) {
    auto* outer = new QHBoxLayout(this);
    outer->setContentsMargins(10, 10, 10, 6);
    outer->setSpacing(12);

    // The question, on the left.
    auto* form = new QWidget(this);
    form->setMaximumWidth(340);
    form->setMinimumWidth(280);
    auto* left = new QVBoxLayout(form);
    left->setContentsMargins(0, 0, 0, 0);
    left->addWidget(heading(tr("Node type"), form));
    pool_ = new QComboBox(form);
    pool_->setToolTip(tr("The pool whose nodes the plan adds (or, with a negative range, removes)"));
    left->addWidget(pool_);

    left->addWidget(heading(tr("Service levels"), form));
    slos_ = new QListWidget(form);
    slos_->setToolTip(tr("One SLO per row, as gantry plan --slo takes them: wait.p95<1h, "
                         "queue[training].wait.p95<2h, pending_at_end==0, gpu.mean_allocation_pct>=70. "
                         "Double-click to edit."));
    slos_->setMaximumHeight(110);
    left->addWidget(slos_);
    auto* sloButtons = new QHBoxLayout;
    auto* addSlo = new QPushButton(tr("Add"), form);
    auto* removeSlo = new QPushButton(tr("Remove"), form);
    sloButtons->addWidget(addSlo);
    sloButtons->addWidget(removeSlo);
    sloButtons->addStretch(1);
    left->addLayout(sloButtons);
    sloError_ = new QLabel(form);
    sloError_->setWordWrap(true);
    sloError_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPalette red = sloError_->palette();
    red.setColor(QPalette::WindowText, QColor(0xc6, 0x28, 0x28));
    sloError_->setPalette(red);
    sloError_->setVisible(false);
    left->addWidget(sloError_);

    left->addWidget(heading(tr("Scheduler profiles"), form));
    profiles_ = new QListWidget(form);
    profiles_->setToolTip(tr("Each profile checked gets its own search: nodes needed under each "
                             "scheduler for the same SLOs"));
    profiles_->setMaximumHeight(100);
    left->addWidget(profiles_);
    auto* vary = new QFormLayout;
    varyField_ = new QLineEdit(form);
    varyField_->setPlaceholderText(tr("optional, e.g. kueue.admissionFairSharing.usageHalfLifeTime"));
    varyField_->setToolTip(
        tr("A policy field, as gantry sweep's set: names it (docs/planning.md); each profile "
           "that reads it is searched once per value"));
    varyValues_ = new QLineEdit(form);
    varyValues_->setPlaceholderText(tr("values, e.g. 1h, 6h, 24h"));
    vary->addRow(tr("Vary a policy field"), varyField_);
    vary->addRow(tr("over"), varyValues_);
    left->addLayout(vary);

    auto* numbers = new QFormLayout;
    seeds_ = new QSpinBox(form);
    seeds_->setRange(1, 50);
    seeds_->setValue(3);
    seeds_->setToolTip(tr("Draws of the workload per point; a point passes when every SLO holds in all"));
    min_ = new QSpinBox(form);
    max_ = new QSpinBox(form);
    for (QSpinBox* s : {min_, max_}) {
        s->setRange(-100000, 100000);
        s->setToolTip(tr("Nodes to add; negative: remove"));
    }
    numbers->addRow(tr("Seeds"), seeds_);
    numbers->addRow(tr("Fewest nodes to add"), min_);
    numbers->addRow(tr("Most nodes to add"), max_);
    left->addLayout(numbers);

    auto* buttons = new QHBoxLayout;
    plan_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Plan"), form);
    plan_->setToolTip(tr("Search for the fewest nodes that meet every SLO"));
    cancel_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("Cancel"), form);
    cancel_->setEnabled(false);
    buttons->addWidget(plan_);
    buttons->addWidget(cancel_);
    buttons->addStretch(1);
    left->addLayout(buttons);
    progress_ = new QProgressBar(form);
    progress_->setVisible(false);
    progress_->setFormat(tr("%v of ≤%m points"));
    left->addWidget(progress_);
    stage_ = new QLabel(form);
    stage_->setWordWrap(true);
    stage_->setForegroundRole(QPalette::PlaceholderText);
    left->addWidget(stage_);
    left->addStretch(1);
    outer->addWidget(form);

    // The answers, the curve and the points, on the right.
    auto* right = new QVBoxLayout;
    answer_ = new QLabel(this);
    answer_->setWordWrap(true);
    answer_->setTextFormat(Qt::RichText);
    answer_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    answer_->setMargin(8);
    answer_->setAutoFillBackground(true);
    QPalette banner = answer_->palette();
    banner.setColor(QPalette::Window, palette().color(QPalette::AlternateBase));
    answer_->setPalette(banner);
    right->addWidget(answer_);

    auto* chartBar = new QHBoxLayout;
    chartBar->addWidget(new QLabel(tr("Chart:"), this));
    metric_ = new QComboBox(this);
    metric_->setToolTip(tr("The SLO whose metric the chart shows"));
    chartBar->addWidget(metric_);
    chartBar->addStretch(1);
    applyOf_ = new QComboBox(this);
    apply_ = new QPushButton(tr("Apply"), this);
    apply_->setToolTip(tr("Add (or remove) the answer's nodes in the project, as one step you can undo"));
    chartBar->addWidget(applyOf_);
    chartBar->addWidget(apply_);
    right->addLayout(chartBar);

    auto* split = new QSplitter(Qt::Vertical, this);
    chart_ = new QChartView(split);
    chart_->setRenderHint(QPainter::Antialiasing);
    chart_->setMinimumHeight(260);
    points_ = new PlanPointsModel(this);
    auto* sorter = new QSortFilterProxyModel(this);
    sorter->setSourceModel(points_);
    sorter->setSortRole(PlanPointsModel::SortRole);
    table_ = new QTableView(split);
    table_->setModel(sorter);
    table_->setSortingEnabled(true);
    table_->sortByColumn(-1, Qt::AscendingOrder);
    table_->setAlternatingRowColors(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setWordWrap(false);
    split->addWidget(chart_);
    split->addWidget(table_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    right->addWidget(split, 1);
    outer->addLayout(right, 1);

    connect(addSlo, &QPushButton::clicked, this, [this] {
        auto* item = new QListWidgetItem(QStringLiteral("pending_at_end==0"), slos_);
        item->setFlags(item->flags() | Qt::ItemIsEditable);
        slos_->setCurrentItem(item);
        slos_->editItem(item);
        checkSlos();
    });
    connect(removeSlo, &QPushButton::clicked, this, [this] {
        delete slos_->currentItem();
        checkSlos();
    });
    connect(slos_, &QListWidget::itemChanged, this, [this] { checkSlos(); });
    connect(plan_, &QPushButton::clicked, this, [this] { startPlan(); });
    connect(metric_, &QComboBox::currentIndexChanged, this, &PlanTab::refreshChart);
    connect(apply_, &QPushButton::clicked, this,
            [this] { applyAnswer(size_t(applyOf_->currentData().toInt())); });

    PlanRunner* planner = ws_->planner();
    connect(cancel_, &QPushButton::clicked, planner, &PlanRunner::cancel);
    connect(planner, &PlanRunner::runningChanged, this, [this](bool running) {
        plan_->setEnabled(!running);
        cancel_->setEnabled(running);
        progress_->setVisible(running);
        refreshApply();
    });
    connect(planner, &PlanRunner::progress, this, [this](int done, int most, const QString& stage) {
        progress_->setRange(0, std::max({most, done, 1}));
        progress_->setValue(done);
        stage_->setText(stage);
    });
    connect(planner, &PlanRunner::pointFinished, this, [this](int profile, const plan::PlanPoint& point) {
        if (size_t(profile) >= shown_.profiles.size()) return;
        shown_.profiles[size_t(profile)].result.points.push_back(point);
        points_->setRun(shown_);
        refreshChart();
    });
    connect(planner, &PlanRunner::finished, this, [this](const PlanRun& run) {
        size_t points = 0;
        for (const auto& p : run.profiles) points += p.result.points.size();
        stage_->setText(tr("Finished: %1 points tried.").arg(points));
        showRun(run, true);
    });
    connect(planner, &PlanRunner::cancelled, this, [this] {
        size_t points = 0;
        for (const auto& p : shown_.profiles) points += p.result.points.size();
        stage_->setText(tr("Cancelled after %1 points.").arg(points));
        answer_->setText(tr("Cancelled: no answer. The points measured before are shown."));
    });
    connect(planner, &PlanRunner::failed, this, [this](const QString& message) {
        stage_->setText(message);
        emit statusMessage(tr("Plan not run: %1").arg(message), 8000);
    });

    auto* doc = ws_->document();
    connect(doc, &ProjectDocument::projectReplaced, this, [this] {
        refreshPools();
        refreshProfiles();
        showRun({}, false);
        stage_->clear();
    });
    connect(doc, &ProjectDocument::nodesReset, this, [this] {
        refreshPools();
        refreshApply();
    });
    connect(doc, &ProjectDocument::policyChanged, this, &PlanTab::refreshProfiles);
    connect(doc, &ProjectDocument::changed, this, &PlanTab::refreshApply);

    for (const QString& text : kDefaultSlos) {
        auto* item = new QListWidgetItem(text, slos_);
        item->setFlags(item->flags() | Qt::ItemIsEditable);
    }
    refreshPools();
    refreshProfiles();
    showRun({}, false);
}

void PlanTab::refreshPools() {
    const QString current = pool_->currentData().toString();
    const bool first = pool_->count() == 0;
    pool_->clear();
    for (const auto& p : plan::nodePools(ws_->document()->project().cluster)) {
        QString label =
            tr("%1 · %2 %3").arg(qs(p.name)).arg(p.nodes).arg(p.nodes == 1 ? tr("node") : tr("nodes"));
        if (p.gpusPerNode > 0)
            label += tr(" · %1× %2").arg(p.gpusPerNode).arg(p.gpuModel.empty() ? tr("GPU") : qs(p.gpuModel));
        pool_->addItem(label, qs(p.name));
    }
    const int keep = pool_->findData(current);
    if (keep >= 0) pool_->setCurrentIndex(keep);
    // The default range: up to the pool's size (at least 8), as `gantry plan` takes it.
    if (first || keep < 0) {
        int64_t nodes = 0;
        for (const auto& p : plan::nodePools(ws_->document()->project().cluster))
            if (qs(p.name) == pool_->currentData().toString()) nodes = p.nodes;
        min_->setValue(0);
        max_->setValue(int(std::max<int64_t>(8, nodes)));
    }
    plan_->setEnabled(pool_->count() > 0 && !ws_->planner()->isRunning());
}

void PlanTab::refreshProfiles() {
    std::vector<std::string> checked;
    for (int i = 0; i < profiles_->count(); ++i)
        if (profiles_->item(i)->checkState() == Qt::Checked)
            checked.push_back(profiles_->item(i)->data(Qt::UserRole).toString().toStdString());
    if (checked.empty()) checked = engine::whatIfProfiles(ws_->document()->project());
    profiles_->clear();
    for (const auto& info : engine::profiles()) {
        auto* item =
            new QListWidgetItem(QStringLiteral("%1 (%2)").arg(qs(info.title), qs(info.name)), profiles_);
        item->setData(Qt::UserRole, qs(info.name));
        item->setToolTip(qs(info.summary));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(std::count(checked.begin(), checked.end(), info.name) ? Qt::Checked
                                                                                  : Qt::Unchecked);
    }
}

PlanSettings PlanTab::settings() const {
    PlanSettings s;
    s.nodeType = pool_->currentData().toString().toStdString();
    for (int i = 0; i < slos_->count(); ++i) {
        const QString text = slos_->item(i)->text().trimmed();
        if (!text.isEmpty()) s.slos.push_back(text.toStdString());
    }
    for (int i = 0; i < profiles_->count(); ++i)
        if (profiles_->item(i)->checkState() == Qt::Checked)
            s.profiles.push_back(profiles_->item(i)->data(Qt::UserRole).toString().toStdString());
    s.seeds = seeds_->value();
    s.min = min_->value();
    s.max = max_->value();
    s.varyField = varyField_->text().trimmed().toStdString();
    for (const QString& v : varyValues_->text().split(',', Qt::SkipEmptyParts))
        if (!v.trimmed().isEmpty()) s.varyValues.push_back(v.trimmed().toStdString());
    return s;
}

void PlanTab::setSettings(const PlanSettings& s) {
    const int pool = pool_->findData(qs(s.nodeType));
    if (pool >= 0) pool_->setCurrentIndex(pool);
    slos_->clear();
    for (const auto& text : s.slos) {
        auto* item = new QListWidgetItem(qs(text), slos_);
        item->setFlags(item->flags() | Qt::ItemIsEditable);
    }
    for (int i = 0; i < profiles_->count(); ++i) {
        const std::string name = profiles_->item(i)->data(Qt::UserRole).toString().toStdString();
        profiles_->item(i)->setCheckState(
            std::count(s.profiles.begin(), s.profiles.end(), name) ? Qt::Checked : Qt::Unchecked);
    }
    seeds_->setValue(s.seeds);
    min_->setValue(int(s.min));
    max_->setValue(int(s.max));
    varyField_->setText(qs(s.varyField));
    QStringList values;
    for (const auto& v : s.varyValues) values << qs(v);
    varyValues_->setText(values.join(QStringLiteral(", ")));
    checkSlos();
}

bool PlanTab::checkSlos() {
    const PlanSettings s = settings();
    const SloCheck check = parseSlos(s.slos);
    const QSignalBlocker quiet(slos_); // recolouring a row is no edit of it
    for (int i = 0; i < slos_->count(); ++i) slos_->item(i)->setForeground(palette().color(QPalette::Text));
    if (check.bad < 0) {
        sloError_->clear();
        sloError_->setVisible(false);
        return true;
    }
    // Name the row and the column, the way the command line does.
    for (int i = 0; i < slos_->count(); ++i)
        if (slos_->item(i)->text().trimmed().toStdString() == s.slos[size_t(check.bad)])
            slos_->item(i)->setForeground(QColor(0xc6, 0x28, 0x28));
    sloError_->setText(tr("'%1', column %2: %3")
                           .arg(qs(s.slos[size_t(check.bad)]))
                           .arg(check.error.column)
                           .arg(qs(check.error.message)));
    sloError_->setVisible(true);
    return false;
}

QString PlanTab::sloError() const {
    return sloError_->text();
}

QString PlanTab::answerText() const {
    return answer_->text();
}

bool PlanTab::startPlan() {
    if (!checkSlos()) return false;
    const PlanSettings s = settings();
    const Project& project = ws_->document()->project();
    if (!ws_->planner()->start(project, ws_->document()->revision(), s)) return false;
    // What the view shows while the points come in.
    PlanRun live;
    live.request.types = {plan::NodeType::pool(s.nodeType)};
    live.request.ranges = {{s.min, s.max, 1}};
    live.request.slos = parseSlos(s.slos).slos;
    live.pool = plan::summaryOf(project.cluster, live.request.types[0]);
    live.profiles = planColumns(s);
    showRun(live, false);
    stage_->setText(tr("Starting…"));
    return true;
}

void PlanTab::showRun(const PlanRun& run, bool answered) {
    shown_ = run;
    points_->setRun(shown_);
    table_->resizeColumnsToContents();
    const int metric = std::max(0, metric_->currentIndex());
    metric_->blockSignals(true);
    metric_->clear();
    for (const auto& slo : shown_.request.slos) metric_->addItem(qs(slo.metric.name()));
    metric_->setCurrentIndex(std::min(metric, metric_->count() - 1));
    metric_->blockSignals(false);
    refreshChart();

    QStringList lines;
    for (size_t i = 0; answered && i < shown_.profiles.size(); ++i) {
        const ProfilePlan& p = shown_.profiles[i];
        const QString text = planAnswerText(shown_, i).toHtmlEscaped();
        lines << QStringLiteral("<span style='color:%1'>■</span> %2")
                     .arg(profileColor(i).name(),
                          p.result.met ? QStringLiteral("<b>%1</b>").arg(text) : text);
    }
    if (lines.isEmpty())
        lines
            << (shown_.profiles.empty()
                    ? tr("Choose the pool, the service levels and the profiles, then press <b>Plan</b>: the "
                         "search finds the fewest nodes for which every SLO holds in every seed's run, under "
                         "each profile.")
                    : tr("Planning: the points appear as they are measured."));
    answer_->setText(lines.join(QStringLiteral("<br>")));
    refreshApply();
}

void PlanTab::refreshChart() {
    const size_t slo = size_t(std::max(0, metric_->currentIndex()));
    QChart* chart = makePlanChart(shown_, slo, palette());
    if (!chart)
        chart = makeMessageChart(
            tr("Plan"), shown_.profiles.empty() ? tr("No plan yet.") : tr("Waiting for the first point…"),
            palette());
    setChart(chart_, chart);
}

void PlanTab::refreshApply() {
    const PlanRun& run = ws_->planner()->last();
    const int keep = applyOf_->currentIndex();
    applyOf_->blockSignals(true);
    applyOf_->clear();
    const bool current = !run.profiles.empty() && !ws_->planner()->isRunning() && run.cluster &&
                         ws_->document()->project().cluster == *run.cluster;
    for (size_t i = 0; current && i < run.profiles.size(); ++i) {
        const plan::PlanResult& r = run.profiles[i].result;
        if (!r.met || r.answer.empty() || r.answer[0] == 0) continue;
        applyOf_->addItem(tr("%1's answer: %2 %3")
                              .arg(planTitle(run.profiles[i]), signedCount(r.answer[0]), qs(run.pool.name)),
                          int(i));
    }
    if (keep >= 0 && keep < applyOf_->count()) applyOf_->setCurrentIndex(keep);
    applyOf_->blockSignals(false);
    applyOf_->setEnabled(applyOf_->count() > 1);
    apply_->setEnabled(applyOf_->count() > 0);
    apply_->setToolTip(applyOf_->count() > 0
                           ? tr("Add (or remove) the answer's nodes in the project, as one step you can undo")
                           : tr("Nothing to apply: no plan with an answer that changes the pool, or the "
                                "project's nodes changed since the plan"));
}

bool PlanTab::applyAnswer(size_t index) {
    const PlanRun& run = ws_->planner()->last();
    if (index >= run.profiles.size() || ws_->planner()->isRunning()) return false;
    const plan::PlanResult& r = run.profiles[index].result;
    if (!r.met || r.answer.empty() || r.answer[0] == 0) return false;
    if (!run.cluster || ws_->document()->project().cluster != *run.cluster) {
        emit statusMessage(tr("The project's nodes changed since the plan: plan again."), 8000);
        return false;
    }
    try {
        ws_->document()->undoStack()->push(
            new ChangePoolCommand(ws_->document(), run.pool.name, r.answer[0]));
    } catch (const std::invalid_argument& e) {
        emit statusMessage(tr("Cannot apply the answer: %1").arg(qs(e.what())), 8000);
        return false;
    }
    emit statusMessage(tr("Applied %1's answer: %2 %3 nodes (Ctrl+Z undoes it).")
                           .arg(planTitle(run.profiles[index]), signedCount(r.answer[0]), qs(run.pool.name)),
                       8000);
    return true;
}

} // namespace gantry::studio
