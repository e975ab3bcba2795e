#include "tabs/cluster_tab.h"

#include "core/topology_paths.h"
#include "gpumap/gpu_map_legend.h"
#include "gpumap/gpu_map_widget.h"
#include "models/node_table_model.h"
#include "models/workload_model.h"
#include "widgets/stat_card.h"
#include "workspace.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSplitter>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

namespace gantry::studio {

ClusterTab::ClusterTab(Workspace* workspace, QWidget* parent) : QWidget(parent), ws_(workspace) {
    auto* doc = ws_->document();
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(10, 10, 10, 6);
    outer->setSpacing(8);

    // Headline figures.
    auto* cards = new QHBoxLayout;
    cards->setSpacing(8);
    nodesCard_ = new StatCard(tr("Nodes"), this);
    gpusCard_ = new StatCard(tr("GPUs"), this);
    allocCard_ = new StatCard(tr("GPU allocation"), this);
    fragCard_ = new StatCard(tr("GPU fragmentation"), this);
    idleCard_ = new StatCard(tr("Idle GPUs, by why"), this);
    podsCard_ = new StatCard(tr("Pods"), this);
    queuesCard_ = new StatCard(tr("Queues"), this);
    for (auto* c : {nodesCard_, gpusCard_, allocCard_, fragCard_, idleCard_, podsCard_, queuesCard_})
        cards->addWidget(c);
    outer->addLayout(cards);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setChildrenCollapsible(false);
    outer->addWidget(splitter, 1);

    // Left: the node table.
    auto* left = new QWidget(splitter);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    auto* tableBar = new QHBoxLayout;
    filter_ = new QLineEdit(left);
    filter_->setPlaceholderText(tr("Filter nodes: name, rack, model, key=value, !term"));
    filter_->setClearButtonEnabled(true);
    groupBox_ = new QComboBox(left);
    groupBox_->setToolTip(tr("Group the table"));
    tableBar->addWidget(filter_, 1);
    tableBar->addWidget(new QLabel(tr("Group by"), left));
    tableBar->addWidget(groupBox_);
    leftLayout->addLayout(tableBar);

    model_ = new NodeTableModel(doc, this);
    proxy_ = new NodeFilterProxy(this);
    proxy_->setSourceModel(model_);
    table_ = new QTreeView(left);
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->header()->setResizeContentsPrecision(64); // size columns from a sample of rows, not all 10,000
    table_->sortByColumn(0, Qt::AscendingOrder);
    table_->setUniformRowHeights(true);
    table_->setAlternatingRowColors(true);
    table_->setRootIsDecorated(false);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->header()->setStretchLastSection(false);
    table_->header()->setSectionResizeMode(QHeaderView::Interactive);
    leftLayout->addWidget(table_, 1);

    // Right: the GPU map.
    auto* right = new QWidget(splitter);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    auto* mapBar = new QHBoxLayout;
    colorBox_ = new QComboBox(right);
    for (auto mode : {GpuColorMode::Occupancy, GpuColorMode::Queue, GpuColorMode::Job,
                      GpuColorMode::Fragmentation, GpuColorMode::IdleWhy})
        colorBox_->addItem(toDisplayString(mode), int(mode));
    showBox_ = new QComboBox(right);
    showBox_->addItem(tr("Cluster as loaded"), 0);
    auto* zoomOut = new QToolButton(right);
    zoomOut->setText(QStringLiteral("−"));
    zoomOut->setToolTip(tr("Zoom out (−, or Ctrl+wheel)"));
    auto* zoomIn = new QToolButton(right);
    zoomIn->setText(QStringLiteral("+"));
    zoomIn->setToolTip(tr("Zoom in (+, or Ctrl+wheel)"));
    auto* zoomFit = new QToolButton(right);
    zoomFit->setText(tr("Fit"));
    zoomFit->setToolTip(tr("Zoom to show every GPU (0)"));
    mapBar->addWidget(new QLabel(tr("Colour by"), right));
    mapBar->addWidget(colorBox_);
    mapBar->addSpacing(12);
    mapBar->addWidget(new QLabel(tr("Show"), right));
    mapBar->addWidget(showBox_);
    mapBar->addStretch(1);
    mapBar->addWidget(zoomOut);
    mapBar->addWidget(zoomIn);
    mapBar->addWidget(zoomFit);
    rightLayout->addLayout(mapBar);
    legend_ = new GpuMapLegend(right);
    rightLayout->addWidget(legend_);
    map_ = new GpuMapWidget(right);
    rightLayout->addWidget(map_, 1);
    mapNote_ = new QLabel(right);
    mapNote_->setForegroundRole(QPalette::PlaceholderText);
    mapNote_->setWordWrap(true);
    rightLayout->addWidget(mapNote_);
    splitter->setStretchFactor(0, 5);
    splitter->setStretchFactor(1, 6);
    splitter->setSizes({700, 840});

    connect(filter_, &QLineEdit::textChanged, this, &ClusterTab::applyFilter);
    connect(groupBox_, &QComboBox::activated, this, [this] {
        auto choice = groupBox_->currentData().toList();
        NodeGrouping g{NodeGrouping::Kind(choice.value(0).toInt()), choice.value(1).toInt()};
        model_->setGrouping(g);
        table_->setRootIsDecorated(g.kind != NodeGrouping::Kind::None);
        if (g.kind != NodeGrouping::Kind::None && model_->groupCount() <= 12) table_->expandAll();
    });
    connect(colorBox_, &QComboBox::currentIndexChanged, this, [this] {
        auto mode = GpuColorMode(colorBox_->currentData().toInt());
        map_->setColorMode(mode);
        const GpuOccupancy* occ = map_->occupancy();
        legend_->setMode(mode, occ ? occ->queues : std::vector<std::string>{}, occ && !occ->migSlots.empty());
        refreshSummary();
    });
    connect(showBox_, &QComboBox::currentIndexChanged, this, &ClusterTab::refreshOccupancy);
    connect(zoomIn, &QToolButton::clicked, map_, &GpuMapWidget::zoomIn);
    connect(zoomOut, &QToolButton::clicked, map_, &GpuMapWidget::zoomOut);
    connect(zoomFit, &QToolButton::clicked, map_, &GpuMapWidget::zoomToFit);
    connect(map_, &GpuMapWidget::nodeActivated, this, [this](int node) {
        QModelIndex i = proxy_->mapFromSource(model_->indexOfNode(node));
        if (!i.isValid()) return;
        table_->scrollTo(i);
        table_->selectionModel()->setCurrentIndex(i, QItemSelectionModel::ClearAndSelect |
                                                         QItemSelectionModel::Rows);
    });
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                int node = model_->nodeAt(proxy_->mapToSource(current));
                if (node >= 0 && node != map_->currentNode()) map_->setCurrentNode(node);
            });

    connect(doc, &ProjectDocument::projectReplaced, this, [this] {
        refreshGroupingChoices();
        rebuildMap();
        for (int c = 0; c < model_->columnCount(); ++c) table_->resizeColumnToContents(c);
    });
    for (auto signal : {&ProjectDocument::topologyChanged, &ProjectDocument::nodesReset})
        connect(doc, signal, this, [this] {
            refreshGroupingChoices();
            rebuildMap();
        });
    connect(doc, &ProjectDocument::nodesChanged, this, [this] {
        proxy_->refilter();
        rebuildMap();
    });
    connect(doc, &ProjectDocument::queuesReset, this, &ClusterTab::refreshSummary);
    connect(ws_, &Workspace::clusterOccupancyChanged, this, &ClusterTab::refreshOccupancy);
    connect(ws_, &Workspace::resultsChanged, this, [this] {
        const auto& run = ws_->results();
        int current = showBox_->currentData().toInt();
        showBox_->blockSignals(true);
        showBox_->clear();
        showBox_->addItem(tr("Cluster as loaded"), 0);
        auto label = [](const WhatIfResult& r) {
            const QString profile = QString::fromStdString(r.profile);
            return r.placementsAtPeak
                       ? tr("What-if %1 at peak (%2)").arg(profile, formatSeconds(r.placementsSeconds))
                       : tr("After what-if: %1").arg(profile);
        };
        for (size_t i = 0; i < run.results.size(); ++i) showBox_->addItem(label(*run.results[i]), int(i) + 1);
        // A new run on a cluster that holds no GPUs shows what the run did rather than an empty map.
        const bool newRun = run.primary() && run.primary().get() != lastRun_;
        lastRun_ = run.primary().get();
        auto loaded = ws_->clusterOccupancy();
        if (newRun && current == 0 && (!loaded || loaded->allocatedMilli == 0)) current = 1;
        int index = showBox_->findData(current);
        showBox_->setCurrentIndex(index < 0 ? 0 : index);
        showBox_->blockSignals(false);
        refreshOccupancy();
    });

    refreshGroupingChoices();
    rebuildMap();
}

void ClusterTab::refreshGroupingChoices() {
    auto current = groupBox_->currentData();
    groupBox_->clear();
    groupBox_->addItem(tr("Nothing"), QVariantList{int(NodeGrouping::Kind::None), -1});
    groupBox_->addItem(tr("Pool"), QVariantList{int(NodeGrouping::Kind::Pool), -1});
    groupBox_->addItem(tr("GPU model"), QVariantList{int(NodeGrouping::Kind::GpuModel), -1});
    const auto& levels = model_->levels();
    for (size_t l = 0; l < levels.size(); ++l) {
        QString name = QString::fromStdString(levels[l].name);
        groupBox_->addItem(name.isEmpty() ? name : name.front().toUpper() + name.mid(1),
                           QVariantList{int(NodeGrouping::Kind::Level), int(l)});
    }
    int i = groupBox_->findData(current);
    groupBox_->setCurrentIndex(i < 0 ? 0 : i);
}

void ClusterTab::rebuildMap() {
    const auto& cluster = ws_->document()->project().cluster;
    int current = map_->currentNode();
    map_->setData(&cluster, buildGpuMapLayout(cluster), nullptr);
    refreshOccupancy();
    applyFilter();
    if (current >= 0 && size_t(current) < cluster.nodes.size()) map_->setCurrentNode(current);
}

void ClusterTab::refreshOccupancy() {
    const int show = showBox_->currentData().toInt();
    std::shared_ptr<const GpuOccupancy> occ = ws_->clusterOccupancy();
    if (show > 0 && ws_->resultOccupancy(size_t(show - 1))) occ = ws_->resultOccupancy(size_t(show - 1));
    map_->setOccupancy(occ);
    model_->setOccupancy(occ);
    legend_->setMode(GpuColorMode(colorBox_->currentData().toInt()),
                     occ ? occ->queues : std::vector<std::string>{}, occ && !occ->migSlots.empty());
    refreshSummary();
}

// Idle GPUs of the shown what-if state by why they are idle, and the room for large jobs in one
// topology domain (known at the end of the run).
void ClusterTab::refreshIdle() {
    const int shown = showBox_->currentData().toInt();
    const auto& run = ws_->results();
    const WhatIfResult* result =
        shown > 0 && size_t(shown) <= run.results.size() ? run.results[size_t(shown - 1)].get() : nullptr;
    const sim::SimResult* r = result ? result->sim.get() : nullptr;
    if (!r || r->idle.usable.empty() || r->time.empty()) {
        idleCard_->setValue(tr("–"), result ? tr("fragmentation was not measured in this run")
                                            : tr("run the what-if to see why GPUs sit idle"));
        idleCard_->setToolTip(QString());
        return;
    }
    // The sample at the moment the map shows.
    size_t at = size_t(std::lower_bound(r->time.begin(), r->time.end(), result->placementsSeconds - 1e-6) -
                       r->time.begin());
    at = std::min(at, r->time.size() - 1);
    const double stranded = r->idle.stranded[at], fractional = r->idle.fractional[at],
                 scattered = r->idle.scattered[at], usable = r->idle.usable[at],
                 mig = at < r->idle.migLayout.size() ? r->idle.migLayout[at] : 0.0;
    QString parts =
        tr("%1 stranded · %2 fractional · %3 scattered · %4 usable")
            .arg(formatGpus(stranded), formatGpus(fractional), formatGpus(scattered), formatGpus(usable));
    if (!r->idle.migLayout.empty()) parts += tr(" · %1 MIG layout").arg(formatGpus(mig));
    idleCard_->setValue(formatGpus(stranded + fractional + scattered + usable + mig), parts);
    QStringList tip{tr("Stranded: whole GPUs on nodes whose CPU or memory is used up."),
                    tr("Fractional: what is left on partly shared GPUs."),
                    tr("Scattered: free, yet no node has enough for the common job shapes."),
                    tr("Usable: free where the common job shapes fit (MIG instances a pod's profile fits, "
                       "counted by their compute slices out of seven).")};
    if (!r->idle.migLayout.empty())
        tip << tr("MIG layout: free MIG slices of profiles no pod of the workload asks for (or that do not "
                  "fit the node's CPU and memory left): repartitioning the GPU would free them.");
    if (!result->placementsAtPeak && !r->topologySlots.empty()) {
        tip << QString() << tr("Jobs that fit inside one domain right now (8 / 16 / 32 / 64 GPUs):");
        for (const auto& level : r->topologySlots)
            tip << tr("  %1 (%2 domains): %3 / %4 / %5 / %6")
                       .arg(QString::fromStdString(level.level))
                       .arg(level.domains)
                       .arg(level.jobs[0])
                       .arg(level.jobs[1])
                       .arg(level.jobs[2])
                       .arg(level.jobs[3]);
    }
    idleCard_->setToolTip(tip.join('\n'));
}

void ClusterTab::refreshSummary() {
    const auto& project = ws_->document()->project();
    const auto& cluster = project.cluster;
    const GpuOccupancy* occ = map_->occupancy();
    int ready = 0, gpuNodes = 0;
    std::map<std::string, int> models;
    for (const auto& n : cluster.nodes) {
        ready += n.ready && !n.unschedulable;
        if (n.gpus.count > 0 || gpuDeviceCount(n) > 0) {
            ++gpuNodes;
            models[n.gpus.model.empty() ? "GPU" : n.gpus.model] += gpuDeviceCount(n);
        }
    }
    nodesCard_->setValue(formatCount(qint64(cluster.nodes.size())),
                         tr("%1 with GPUs · %2 schedulable").arg(formatCount(gpuNodes), formatCount(ready)));
    QStringList modelText;
    for (const auto& [m, n] : models)
        modelText << QStringLiteral("%1 × %2").arg(formatCount(n), QString::fromStdString(m));
    if (modelText.size() > 3) modelText = modelText.mid(0, 3) << QStringLiteral("…");
    gpusCard_->setValue(formatCount(occ ? occ->totalGpus : 0), modelText.join(QStringLiteral(" · ")));
    double allocated = occ ? double(occ->allocatedMilli) / 1000.0 : 0;
    double pct = occ && occ->totalGpus ? 100.0 * allocated / double(occ->totalGpus) : 0;
    allocCard_->setValue(
        QStringLiteral("%1 %").arg(pct, 0, 'f', 1),
        tr("%1 of %2 GPUs in use").arg(formatGpus(allocated), formatCount(occ ? occ->totalGpus : 0)));
    allocCard_->setAccent(QColor(0x1f, 0x5f, 0xa8));

    bool showingResult = showBox_->currentData().toInt() != 0;
    const auto& frag = ws_->clusterFragmentation();
    if (!occ || occ->totalGpus == 0)
        fragCard_->setValue(tr("n/a"), tr("no GPUs in the cluster"));
    else if (!showingResult && frag.measured)
        fragCard_->setValue(QStringLiteral("%1 %").arg(frag.overIdlePct, 0, 'f', 1),
                            tr("of idle GPU capacity unusable by %1").arg(frag.basis));
    else if (showingResult && occ && occ->hasFragmentation()) {
        double fragMilli = 0, idle = 0;
        for (size_t g = 0; g < occ->usedMilli.size(); ++g) {
            double left = 1000.0 - occ->usedMilli[g];
            idle += left;
            fragMilli += double(occ->fragmentation[g]) * left;
        }
        fragCard_->setValue(QStringLiteral("%1 %").arg(idle > 0 ? 100 * fragMilli / idle : 0.0, 0, 'f', 1),
                            tr("of idle GPU capacity unusable by the job mix"));
    } else
        fragCard_->setValue(tr("n/a"), tr("no GPU job mix to measure against"));
    fragCard_->setAccent(QColor(0xd3, 0x2f, 0x2f));
    refreshIdle();

    int bound = 0, pending = 0;
    for (const auto& p : cluster.pods) {
        if (p.phase == PodPhase::Succeeded || p.phase == PodPhase::Failed) continue;
        (p.nodeName.empty() ? pending : bound) += 1;
    }
    const int shown = showBox_->currentData().toInt();
    const auto& run = ws_->results();
    const WhatIfResult* result =
        shown > 0 && size_t(shown) <= run.results.size() ? run.results[size_t(shown - 1)].get() : nullptr;
    if (result)
        podsCard_->setValue(formatCount(qint64(result->placements.size())),
                            tr("GPU pods placed in this what-if state"));
    else
        podsCard_->setValue(formatCount(bound + pending),
                            tr("%1 bound · %2 pending").arg(formatCount(bound), formatCount(pending)));
    int leaves = 0;
    for (const auto& q : cluster.queues) {
        bool parent = false;
        for (const auto& c : cluster.queues) parent = parent || c.parent == q.name;
        leaves += !parent;
    }
    queuesCard_->setValue(formatCount(qint64(cluster.queues.size())),
                          tr("%1 leaf queues · target %2").arg(leaves).arg(toString(project.target)));

    QString note;
    if (showingResult && ws_->resultsStale())
        note = tr("The project changed since this what-if ran; run it again to refresh.");
    if (occ && occ->unplacedMilli > 0)
        note += (note.isEmpty() ? QString() : QStringLiteral(" ")) +
                tr("%1 GPUs requested by bound pods do not fit their nodes' devices.")
                    .arg(formatGpus(occ->unplacedMilli / 1000.0));
    int cpuOnly = 0;
    for (const auto& n : cluster.nodes) cpuOnly += gpuDeviceCount(n) == 0;
    if (cpuOnly > 0)
        note += (note.isEmpty() ? QString() : QStringLiteral(" ")) +
                tr("%n CPU-only node(s) are listed in the table but not drawn.", "", cpuOnly);
    mapNote_->setText(note);
    mapNote_->setVisible(!note.isEmpty());
}

void ClusterTab::applyFilter() {
    proxy_->setFilterQuery(filter_->text());
    const auto& cluster = ws_->document()->project().cluster;
    map_->setMatches(filter_->text().trimmed().isEmpty() ? std::vector<uint8_t>{}
                                                         : proxy_->matchVector(cluster, model_->levels()));
    if (model_->grouping().kind != NodeGrouping::Kind::None && !filter_->text().isEmpty())
        table_->expandAll();
}

void ClusterTab::saveState() const {
    QSettings s;
    s.setValue("cluster/colorMode", colorBox_->currentData());
    s.setValue("cluster/zoom", map_->zoom());
    s.setValue("cluster/header", table_->header()->saveState());
}

void ClusterTab::restoreState() {
    QSettings s;
    int i = colorBox_->findData(s.value("cluster/colorMode", 0));
    if (i >= 0) colorBox_->setCurrentIndex(i);
    if (s.contains("cluster/zoom")) map_->setZoom(s.value("cluster/zoom").toDouble());
}

bool ClusterTab::showWhatIfState() {
    const int i = showBox_->findData(1);
    if (i < 0) return false;
    showBox_->setCurrentIndex(i);
    return true;
}

} // namespace gantry::studio
