#include "tabs/workloads_tab.h"

#include "core/job_import.h"
#include "core/project_commands.h"
#include "core/project_files.h"
#include "core/qt_text.h"
#include "core/quota_terms.h"
#include "models/imported_jobs_model.h"
#include "models/workload_model.h"
#include "widgets/history_charts.h"
#include "widgets/stat_card.h"
#include "workspace.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <map>

namespace gantry::studio {
namespace {

// Offers the project's queues (leaves first) when editing a workload's queue.
class QueueDelegate : public QStyledItemDelegate {
  public:
    QueueDelegate(ProjectDocument* doc, QObject* parent) : QStyledItemDelegate(parent), doc_(doc) {}
    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem&, const QModelIndex&) const override {
        auto* box = new QComboBox(parent);
        box->setEditable(true);
        const auto& queues = doc_->project().cluster.queues;
        for (const auto& q : queues) {
            bool isParent = false;
            for (const auto& c : queues) isParent = isParent || c.parent == q.name;
            if (!isParent) box->addItem(qs(q.name));
        }
        return box;
    }
    void setEditorData(QWidget* editor, const QModelIndex& index) const override {
        static_cast<QComboBox*>(editor)->setEditText(index.data(Qt::EditRole).toString());
    }
    void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override {
        model->setData(index, static_cast<QComboBox*>(editor)->currentText());
    }

  private:
    ProjectDocument* doc_;
};

QDoubleSpinBox* secondsBox(QWidget* parent, double max = 1e8) {
    auto* b = new QDoubleSpinBox(parent);
    b->setRange(0, max);
    b->setDecimals(0);
    b->setSuffix(QObject::tr(" s"));
    b->setSingleStep(60);
    return b;
}

} // namespace

WorkloadsTab::WorkloadsTab(Workspace* workspace, QWidget* parent) : QWidget(parent), ws_(workspace) {
    auto* doc = ws_->document();
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(10, 10, 10, 6);

    auto* bar = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add workload"), this);
    auto* duplicate = new QPushButton(tr("Duplicate"), this);
    auto* remove = new QPushButton(tr("Remove"), this);
    summary_ = new QLabel(this);
    summary_->setForegroundRole(QPalette::PlaceholderText);
    bar->addWidget(add);
    bar->addWidget(duplicate);
    bar->addWidget(remove);
    bar->addSpacing(16);
    bar->addWidget(summary_, 1);
    outer->addLayout(bar);

    auto* vsplit = vsplit_ = new QSplitter(Qt::Vertical, this);
    vsplit->setChildrenCollapsible(false);
    outer->addWidget(vsplit, 1);
    auto* hsplit = new QSplitter(Qt::Horizontal, vsplit);
    hsplit->setChildrenCollapsible(false);

    model_ = new WorkloadModel(doc, this);
    table_ = new QTableView(hsplit);
    table_->setModel(model_);
    table_->setItemDelegateForColumn(WorkloadModel::Queue, new QueueDelegate(doc, table_));
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                            QAbstractItemView::AnyKeyPressed);

    // The form scrolls rather than hold the pane's height: a replayed history's charts and jobs
    // below get the room when there are no templates to edit.
    auto* detailScroll = new QScrollArea(hsplit);
    detailScroll->setFrameShape(QFrame::NoFrame);
    detailScroll->setWidgetResizable(true);
    detail_ = new QGroupBox(tr("Arrival, duration and placement"));
    auto* form = new QFormLayout(detail_);
    arrivalKind_ = new QComboBox(detail_);
    arrivalKind_->addItem(tr("Fixed (all at once, or every interval)"), int(ArrivalProcess::Kind::Fixed));
    arrivalKind_->addItem(tr("Poisson"), int(ArrivalProcess::Kind::Poisson));
    arrivalKind_->addItem(tr("Bursts"), int(ArrivalProcess::Kind::Burst));
    arrivalStart_ = secondsBox(detail_);
    arrivalInterval_ = secondsBox(detail_);
    arrivalRate_ = new QDoubleSpinBox(detail_);
    arrivalRate_->setRange(0, 1e6);
    arrivalRate_->setDecimals(2);
    arrivalRate_->setSuffix(tr(" jobs/h"));
    burstSize_ = new QSpinBox(detail_);
    burstSize_->setRange(1, 100000);
    durationKind_ = new QComboBox(detail_);
    durationKind_->addItem(tr("Fixed"), int(DurationDistribution::Kind::Fixed));
    durationKind_->addItem(tr("Exponential"), int(DurationDistribution::Kind::Exponential));
    durationKind_->addItem(tr("Uniform"), int(DurationDistribution::Kind::Uniform));
    durationKind_->addItem(tr("Log-normal"), int(DurationDistribution::Kind::LogNormal));
    durationMean_ = secondsBox(detail_);
    durationMin_ = secondsBox(detail_);
    durationMax_ = secondsBox(detail_);
    durationSigma_ = new QDoubleSpinBox(detail_);
    durationSigma_->setRange(0.01, 5);
    durationSigma_->setSingleStep(0.1);
    checkpoint_ = secondsBox(detail_);
    checkpoint_->setSpecialValueText(tr("none (restart from zero)"));
    preemptable_ = new QCheckBox(tr("May be preempted"), detail_);
    topologyMode_ = new QComboBox(detail_);
    topologyMode_->addItem(tr("None"), int(NetworkTopologyConstraint::Mode::None));
    topologyMode_->addItem(tr("Hard: within one HyperNode"), int(NetworkTopologyConstraint::Mode::Hard));
    topologyMode_->addItem(tr("Soft: prefer the lowest tier"), int(NetworkTopologyConstraint::Mode::Soft));
    highestTier_ = new QSpinBox(detail_);
    highestTier_->setRange(0, 16);
    highestTier_->setSpecialValueText(tr("any"));
    gpuModels_ = new QLineEdit(detail_);
    gpuModels_->setPlaceholderText(tr("any model; or e.g. H100-SXM5-80GB, A100-SXM4-80GB"));
    nodeSelector_ = new QLineEdit(detail_);
    nodeSelector_->setPlaceholderText(tr("key=value, key=value"));
    namespace_ = new QLineEdit(detail_);
    form->addRow(tr("Arrival"), arrivalKind_);
    form->addRow(tr("Starting at"), arrivalStart_);
    form->addRow(tr("Interval"), arrivalInterval_);
    form->addRow(tr("Rate"), arrivalRate_);
    form->addRow(tr("Burst size"), burstSize_);
    form->addRow(tr("Duration"), durationKind_);
    form->addRow(tr("Mean / median"), durationMean_);
    form->addRow(tr("Minimum"), durationMin_);
    form->addRow(tr("Maximum"), durationMax_);
    form->addRow(tr("Sigma"), durationSigma_);
    form->addRow(tr("Checkpoint every"), checkpoint_);
    form->addRow(QString(), preemptable_);
    form->addRow(tr("Network topology"), topologyMode_);
    form->addRow(tr("Highest tier"), highestTier_);
    form->addRow(tr("GPU models"), gpuModels_);
    form->addRow(tr("Node selector"), nodeSelector_);
    form->addRow(tr("Namespace"), namespace_);
    detailScroll->setWidget(detail_);
    hsplit->setStretchFactor(0, 3);
    hsplit->setStretchFactor(1, 1);
    hsplit->setSizes({1100, 420});

    auto* importedBox = new QWidget(vsplit);
    auto* importedLayout = new QVBoxLayout(importedBox);
    importedLayout->setContentsMargins(0, 6, 0, 0);
    auto* importedBar = new QHBoxLayout;
    importedNote_ = new QLabel(importedBox);
    auto* importJobsButton = new QPushButton(tr("Import jobs…"), importedBox);
    importJobsButton->setToolTip(
        tr("Add the jobs of a file of manifests (Volcano Jobs, batch Jobs, PyTorchJobs, "
           "PodGroups with their pods) or of a GPU trace to the what-if"));
    importedBar->addWidget(importedNote_, 1);
    importedBar->addWidget(importJobsButton);
    importedLayout->addLayout(importedBar);
    connect(importJobsButton, &QPushButton::clicked, this, [this] {
        QSettings settings;
        const QStringList files = QFileDialog::getOpenFileNames(
            this, tr("Import jobs"), settings.value("files/lastDir").toString(),
            tr("Job manifests and traces (*.yaml *.yml *.json *.csv);;All files (*)"));
        if (files.isEmpty()) return;
        QString error;
        const QString summary = importJobs(files, &error);
        if (!error.isEmpty())
            QMessageBox::warning(this, tr("No jobs imported"), error);
        else
            emit statusMessage(summary);
    });
    history_ = new HistoryCharts(importedBox);
    importedLayout->addWidget(history_, 3);
    importedModel_ = new ImportedJobsModel(doc, this);
    auto* importedSorter = new QSortFilterProxyModel(this);
    importedSorter->setSourceModel(importedModel_);
    importedSorter->setSortRole(ImportedJobsModel::SortRole);
    imported_ = new QTableView(importedBox);
    imported_->setModel(importedSorter);
    imported_->verticalHeader()->setVisible(false);
    imported_->horizontalHeader()->setStretchLastSection(true);
    imported_->horizontalHeader()->setResizeContentsPrecision(64);
    imported_->setSelectionBehavior(QAbstractItemView::SelectRows);
    imported_->setAlternatingRowColors(true);
    imported_->setSortingEnabled(true);
    imported_->sortByColumn(ImportedJobsModel::Job, Qt::AscendingOrder);
    importedLayout->addWidget(imported_, 2);
    vsplit->setStretchFactor(0, 3);
    vsplit->setStretchFactor(1, 2);

    connect(add, &QPushButton::clicked, this, [this] {
        auto* d = ws_->document();
        WorkloadTemplate w;
        w.name = "workload-" + std::to_string(d->project().workloads.size() + 1);
        const auto& queues = d->project().cluster.queues;
        for (const auto& q : queues) {
            bool isParent = false;
            for (const auto& c : queues) isParent = isParent || c.parent == q.name;
            if (!isParent) {
                w.queue = q.name;
                break;
            }
        }
        w.jobs = 10;
        w.replicas = 8;
        setGpuPerPod(w, primaryGpuResource(d->project().cluster), QStringLiteral("1"), nullptr);
        w.podRequests.set("cpu", 8000);
        w.podRequests.set("memory", int64_t(64) << 30);
        d->undoStack()->push(new AddWorkloadCommand(d, w));
        table_->selectRow(model_->rowCount() - 1);
    });
    connect(duplicate, &QPushButton::clicked, this, [this] {
        int row = currentRow();
        if (row < 0) return;
        auto* d = ws_->document();
        WorkloadTemplate w = d->project().workloads[size_t(row)];
        w.name += "-copy";
        d->undoStack()->push(new AddWorkloadCommand(d, w, row + 1));
        table_->selectRow(row + 1);
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        int row = currentRow();
        if (row < 0) return;
        ws_->document()->undoStack()->push(new RemoveWorkloadCommand(ws_->document(), row));
    });
    connect(model_, &WorkloadModel::refused, this, &WorkloadsTab::statusMessage);
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &WorkloadsTab::loadDetail);

    for (auto* box : {arrivalKind_, durationKind_, topologyMode_})
        connect(box, &QComboBox::activated, this, &WorkloadsTab::commitDetail);
    for (auto* spin : {arrivalStart_, arrivalInterval_, arrivalRate_, durationMean_, durationMin_,
                       durationMax_, durationSigma_, checkpoint_})
        connect(spin, &QDoubleSpinBox::editingFinished, this, &WorkloadsTab::commitDetail);
    for (auto* spin : {burstSize_, highestTier_})
        connect(spin, &QSpinBox::editingFinished, this, &WorkloadsTab::commitDetail);
    for (auto* edit : {gpuModels_, nodeSelector_, namespace_})
        connect(edit, &QLineEdit::editingFinished, this, &WorkloadsTab::commitDetail);
    connect(preemptable_, &QCheckBox::toggled, this, &WorkloadsTab::commitDetail);

    auto refresh = [this] {
        refreshSummary();
        loadDetail();
    };
    connect(doc, &ProjectDocument::workloadsReset, this, refresh);
    connect(doc, &ProjectDocument::workloadChanged, this, refresh);
    connect(doc, &ProjectDocument::jobsChanged, this, &WorkloadsTab::refreshImported);
    connect(doc, &ProjectDocument::projectReplaced, this, [this] {
        refreshImported();
        table_->resizeColumnsToContents();
        if (model_->rowCount() > 0) table_->selectRow(0);
    });
    refreshSummary();
    refreshImported();
    loadDetail();
}

int WorkloadsTab::currentRow() const {
    QModelIndex i = table_->currentIndex();
    return i.isValid() ? i.row() : -1;
}

void WorkloadsTab::loadDetail() {
    int row = currentRow();
    const auto& ws = ws_->document()->project().workloads;
    detail_->setEnabled(row >= 0 && size_t(row) < ws.size());
    if (!detail_->isEnabled()) return;
    const auto& w = ws[size_t(row)];
    loading_ = true;
    detail_->setTitle(tr("%1: arrival, duration and placement").arg(qs(w.name)));
    arrivalKind_->setCurrentIndex(arrivalKind_->findData(int(w.arrival.kind)));
    arrivalStart_->setValue(w.arrival.startSeconds);
    arrivalInterval_->setValue(w.arrival.intervalSeconds);
    arrivalRate_->setValue(w.arrival.ratePerHour);
    burstSize_->setValue(w.arrival.burstSize);
    durationKind_->setCurrentIndex(durationKind_->findData(int(w.duration.kind)));
    durationMean_->setValue(w.duration.meanSeconds);
    durationMin_->setValue(w.duration.minSeconds);
    durationMax_->setValue(w.duration.maxSeconds);
    durationSigma_->setValue(w.duration.sigma);
    checkpoint_->setValue(w.checkpointSeconds);
    preemptable_->setChecked(w.preemptable);
    topologyMode_->setCurrentIndex(topologyMode_->findData(int(w.networkTopology.mode)));
    highestTier_->setValue(w.networkTopology.highestTierAllowed.value_or(0));
    QStringList models;
    for (const auto& m : w.gpu.models) models << qs(m);
    gpuModels_->setText(models.join(QStringLiteral(", ")));
    QStringList selector;
    for (const auto& [k, v] : w.nodeSelector) selector << qs(k + "=" + v);
    nodeSelector_->setText(selector.join(QStringLiteral(", ")));
    namespace_->setText(qs(w.ns));
    // Long values read from their start (setText leaves the cursor, and the view, at the end).
    for (auto* edit : {gpuModels_, nodeSelector_, namespace_}) edit->setCursorPosition(0);
    // Only the fields that mean something for the chosen kinds are enabled.
    auto ak = ArrivalProcess::Kind(arrivalKind_->currentData().toInt());
    arrivalInterval_->setEnabled(ak != ArrivalProcess::Kind::Poisson);
    arrivalRate_->setEnabled(ak == ArrivalProcess::Kind::Poisson);
    burstSize_->setEnabled(ak == ArrivalProcess::Kind::Burst);
    auto dk = DurationDistribution::Kind(durationKind_->currentData().toInt());
    durationMean_->setEnabled(dk != DurationDistribution::Kind::Uniform);
    durationMin_->setEnabled(dk == DurationDistribution::Kind::Uniform);
    durationMax_->setEnabled(dk == DurationDistribution::Kind::Uniform);
    durationSigma_->setEnabled(dk == DurationDistribution::Kind::LogNormal);
    highestTier_->setEnabled(w.networkTopology.mode != NetworkTopologyConstraint::Mode::None);
    loading_ = false;
}

void WorkloadsTab::commitDetail() {
    int row = currentRow();
    auto* doc = ws_->document();
    if (loading_ || row < 0 || size_t(row) >= doc->project().workloads.size()) return;
    WorkloadTemplate w = doc->project().workloads[size_t(row)];
    w.arrival.kind = ArrivalProcess::Kind(arrivalKind_->currentData().toInt());
    w.arrival.startSeconds = arrivalStart_->value();
    w.arrival.intervalSeconds = arrivalInterval_->value();
    w.arrival.ratePerHour = arrivalRate_->value();
    w.arrival.burstSize = burstSize_->value();
    w.duration.kind = DurationDistribution::Kind(durationKind_->currentData().toInt());
    w.duration.meanSeconds = durationMean_->value();
    w.duration.minSeconds = durationMin_->value();
    w.duration.maxSeconds = durationMax_->value();
    w.duration.sigma = durationSigma_->value();
    w.checkpointSeconds = checkpoint_->value();
    w.preemptable = preemptable_->isChecked();
    w.networkTopology.mode = NetworkTopologyConstraint::Mode(topologyMode_->currentData().toInt());
    if (highestTier_->value() > 0 && w.networkTopology.mode != NetworkTopologyConstraint::Mode::None)
        w.networkTopology.highestTierAllowed = highestTier_->value();
    else
        w.networkTopology.highestTierAllowed.reset();
    w.gpu.models.clear();
    for (const auto& m : gpuModels_->text().split(',', Qt::SkipEmptyParts))
        if (!m.trimmed().isEmpty()) w.gpu.models.push_back(m.trimmed().toStdString());
    Labels selector;
    for (const auto& pair : nodeSelector_->text().split(',', Qt::SkipEmptyParts)) {
        int eq = pair.indexOf('=');
        if (eq <= 0) {
            emit statusMessage(
                tr("Node selector: write key=value pairs separated by commas ('%1' has no '=').")
                    .arg(pair.trimmed()));
            return;
        }
        selector[pair.left(eq).trimmed().toStdString()] = pair.mid(eq + 1).trimmed().toStdString();
    }
    w.nodeSelector = selector;
    if (!namespace_->text().trimmed().isEmpty()) w.ns = namespace_->text().trimmed().toStdString();
    if (w.duration.kind == DurationDistribution::Kind::Uniform &&
        w.duration.maxSeconds < w.duration.minSeconds) {
        emit statusMessage(tr("Duration: the maximum must not be below the minimum."));
        return;
    }
    if (w == doc->project().workloads[size_t(row)]) return;
    doc->undoStack()->push(new EditWorkloadCommand(doc, row, w, tr("Edit %1").arg(qs(w.name))));
}

void WorkloadsTab::refreshSummary() {
    const auto& ws = ws_->document()->project().workloads;
    int64_t jobs = 0, pods = 0, gpuMilli = 0;
    for (const auto& w : ws) {
        jobs += w.jobs;
        pods += int64_t(w.jobs) * w.replicas;
        gpuMilli += int64_t(w.jobs) * w.replicas * w.gpu.totalMilli();
    }
    summary_->setText(tr("%1 template(s) · %2 jobs · %3 pods · %4 GPUs requested in total")
                          .arg(ws.size())
                          .arg(formatCount(jobs), formatCount(pods), formatGpus(gpuMilli / 1000.0)));
}

void WorkloadsTab::refreshImported() {
    imported_->resizeColumnsToContents();
    const bool hadHistory = history_->jobs() > 0;
    history_->refresh(ws_->document()->project().cluster);
    // A history's jobs are the what-if: they get most of the height, the templates the rest.
    const bool history = history_->jobs() > 0;
    if (history != hadHistory) {
        vsplit_->setStretchFactor(0, history ? 1 : 3);
        vsplit_->setStretchFactor(1, history ? 4 : 2);
        const int height = std::max(vsplit_->height(), 500);
        vsplit_->setSizes(history ? QList<int>{height / 5, height * 4 / 5}
                                  : QList<int>{height * 3 / 5, height * 2 / 5});
    }
    int jobs = importedModel_->rowCount();
    imported_->setVisible(jobs > 0); // the note says there are none
    importedNote_->setText(
        jobs == 0
            ? tr("<b>Jobs from the snapshot</b> — none; the what-if runs the templates above. Import job "
                 "manifests or a trace to add theirs.")
            : tr("<b>Jobs from the snapshot and imports</b> — %1 job(s), %2 with pods waiting. They take "
                 "part in every what-if run as they are.")
                  .arg(formatCount(jobs), formatCount(importedModel_->jobsWaiting())));
}

QString WorkloadsTab::importJobs(const QStringList& paths, QString* error) {
    auto* doc = ws_->document();
    LoadedFile loaded;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    try {
        loaded = loadFiles(paths);
    } catch (const std::exception& e) {
        QApplication::restoreOverrideCursor();
        if (error) *error = QString::fromUtf8(e.what());
        return {};
    }
    QApplication::restoreOverrideCursor();
    JobImport jobs = jobsToImport(doc->project().cluster, loaded.project.cluster);
    const QString name = QFileInfo(paths.front()).fileName();
    if (jobs.groups.empty()) {
        if (error)
            *error =
                jobs.skipped.isEmpty()
                    ? tr("%1 holds no jobs (PodGroups, Volcano Jobs, batch Jobs, PyTorchJobs).").arg(name)
                    : tr("Every job of %1 is in the project already: %2.").arg(name, jobs.skipped.join(", "));
        return {};
    }
    QStringList notes;
    notes << tr("Imported %n job(s)", "", int(jobs.groups.size())) +
                 tr(" (%n pod(s)) from %1", "", int(jobs.pods.size())).arg(name);
    if (!jobs.skipped.isEmpty()) notes << tr("%n already in the project", "", int(jobs.skipped.size()));
    if (jobs.unbound > 0) notes << tr("%n pod(s) bound in the file arrive pending", "", jobs.unbound);
    if (!jobs.unknownQueues.isEmpty())
        notes << tr("no queue named %1 in the project: add it in Queues, or those jobs are not scheduled")
                     .arg(jobs.unknownQueues.join(", "));
    if (!loaded.warnings.empty()) notes << tr("%n warning(s) while reading", "", int(loaded.warnings.size()));
    doc->undoStack()->push(new ImportJobsCommand(doc, std::move(jobs), name));
    return notes.join(QStringLiteral("; ")) + QLatin1Char('.');
}

} // namespace gantry::studio
