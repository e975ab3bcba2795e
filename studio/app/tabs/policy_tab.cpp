#include "tabs/policy_tab.h"

#include "core/policy_edit.h"
#include "core/project_commands.h"
#include "core/qt_text.h"
#include "core/quota_terms.h"
#include "policy/kueue_policy_editor.h"
#include "policy/yunikorn_policy_editor.h"
#include "profile/registry.h"
#include "workspace.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace gantry::studio {
namespace {
QString targetDescription(TargetScheduler t) {
    switch (t) {
    case TargetScheduler::Volcano:
        return QObject::tr(
            "Volcano: Queues with guarantee / deserved / capability, PodGroups for gangs, HyperNodes for "
            "network topology; its policy is volcano-scheduler.conf (the Volcano page below).");
    case TargetScheduler::YuniKorn:
        return QObject::tr(
            "Apache YuniKorn: a queues.yaml tree with guaranteed / max, gang task groups on the pods; its "
            "policy is the partition's placement rules, node sorting and preemption (the YuniKorn page).");
    case TargetScheduler::Kueue:
        return QObject::tr(
            "Kueue: ClusterQueues and Cohorts with nominal quota, borrowing and lending limits per "
            "ResourceFlavor; its policy is Kueue's Configuration and each ClusterQueue's preemption (the "
            "Kueue page).");
    }
    return {};
}
} // namespace

PolicyTab::PolicyTab(Workspace* workspace, QWidget* parent) : QWidget(parent), ws_(workspace) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(10, 10, 10, 6);

    // Target scheduler.
    auto* targetBox = new QGroupBox(tr("Target scheduler"), this);
    auto* targetLayout = new QVBoxLayout(targetBox);
    auto* targetRow = new QHBoxLayout;
    target_ = new QButtonGroup(this);
    int id = 0;
    for (auto [t, label] : {std::pair{TargetScheduler::Volcano, tr("Volcano")},
                            std::pair{TargetScheduler::YuniKorn, tr("Apache YuniKorn")},
                            std::pair{TargetScheduler::Kueue, tr("Kueue")}}) {
        auto* b = new QRadioButton(label, targetBox);
        target_->addButton(b, int(t));
        targetRow->addWidget(b);
        ++id;
    }
    targetRow->addStretch(1);
    targetLayout->addLayout(targetRow);
    targetNote_ = new QLabel(targetBox);
    targetNote_->setWordWrap(true);
    targetNote_->setForegroundRole(QPalette::PlaceholderText);
    targetLayout->addWidget(targetNote_);
    outer->addWidget(targetBox);

    auto* columns = new QHBoxLayout;
    columns->setSpacing(10);
    outer->addLayout(columns, 1);

    // Column 1: each scheduler's own policy, one page each; the target's is shown first.
    pages_ = new QTabWidget(this);
    auto* sessionBox = new QGroupBox(tr("Scheduling policy (volcano-scheduler.conf)"), pages_);
    auto* form = new QFormLayout(sessionBox);
    gang_ = new QCheckBox(tr("Gang scheduling: start a job only when minMember pods fit (gang)"), sessionBox);
    priority_ = new QCheckBox(tr("Job priority ordering (priority)"), sessionBox);
    drf_ = new QCheckBox(tr("Dominant resource fairness between jobs (drf)"), sessionBox);
    sharing_ = new QComboBox(sessionBox);
    sharing_->addItem(tr("Proportion: queues share by weight"), int(QueueSharing::Proportion));
    sharing_->addItem(tr("Capacity: queues get their deserved quota"), int(QueueSharing::Capacity));
    sharing_->addItem(tr("Capacity with hierarchical queues"), int(QueueSharing::CapacityHierarchy));
    sharing_->addItem(tr("None"), int(QueueSharing::None));
    placement_ = new QComboBox(sessionBox);
    placement_->addItem(tr("Binpack: fill nodes before opening new ones"), int(Placement::Binpack));
    placement_->addItem(tr("Spread: least-requested nodes first"), int(Placement::Spread));
    placement_->addItem(tr("FGD: least fragmentation growth"), int(Placement::Fgd));
    auto weightBox = [&](const QString& tip) {
        auto* s = new QSpinBox(sessionBox);
        s->setRange(0, 100);
        s->setToolTip(tip);
        return s;
    };
    binpackWeight_ =
        weightBox(tr("binpack.weight: the plugin's weight among node-order scores (0 disables)"));
    binpackGpu_ = weightBox(tr("binpack.resources.<gpu>: how much packing GPUs counts"));
    binpackCpu_ = weightBox(tr("binpack.cpu"));
    binpackMemory_ = weightBox(tr("binpack.memory"));
    auto* weights = new QHBoxLayout;
    for (auto [label, box] : {std::pair{tr("overall"), binpackWeight_}, std::pair{tr("GPU"), binpackGpu_},
                              std::pair{tr("CPU"), binpackCpu_}, std::pair{tr("memory"), binpackMemory_}}) {
        weights->addWidget(new QLabel(label, sessionBox));
        weights->addWidget(box);
    }
    weights->addStretch(1);
    enqueue_ = new QCheckBox(tr("enqueue: admit jobs whose minimum fits the queue"), sessionBox);
    preempt_ = new QCheckBox(tr("preempt: higher priority evicts lower within a queue"), sessionBox);
    reclaim_ = new QCheckBox(tr("reclaim: queues take back their share from borrowers"), sessionBox);
    backfill_ = new QCheckBox(tr("backfill: place best-effort pods in the gaps"), sessionBox);
    topologyAware_ = new QCheckBox(tr("Network-topology-aware placement (HyperNode tiers)"), sessionBox);
    actionsLine_ = new QLabel(sessionBox);
    actionsLine_->setForegroundRole(QPalette::PlaceholderText);
    form->addRow(tr("Gangs"), gang_);
    form->addRow(tr("Jobs"), priority_);
    form->addRow(QString(), drf_);
    form->addRow(tr("Queues"), sharing_);
    form->addRow(tr("Placement"), placement_);
    form->addRow(tr("Binpack weights"), weights);
    form->addRow(tr("Actions"), enqueue_);
    form->addRow(QString(), preempt_);
    form->addRow(QString(), reclaim_);
    form->addRow(QString(), backfill_);
    form->addRow(tr("Topology"), topologyAware_);
    form->addRow(actionsLine_);
    tiers_ = new QTreeWidget(sessionBox);
    tiers_->setHeaderLabels({tr("Tier / plugin"), tr("Switches and arguments")});
    tiers_->setRootIsDecorated(true);
    tiers_->header()->setStretchLastSection(true);
    tiers_->setMinimumHeight(150);
    form->addRow(tiers_);
    auto* resetConf = new QPushButton(tr("Reset to Volcano's default configuration"), sessionBox);
    form->addRow(resetConf);
    pages_->addTab(sessionBox, tr("Volcano"));
    pages_->addTab(new KueuePolicyEditor(ws_, pages_), tr("Kueue"));
    pages_->addTab(new YuniKornPolicyEditor(ws_, pages_), tr("YuniKorn"));
    columns->addWidget(pages_, 3);

    // Column 2: comparison profile and simulation settings.
    auto* right = new QVBoxLayout;
    // The what-if runs under every profile ticked here, side by side on the same workload.
    auto* compareBox = new QGroupBox(tr("Run the what-if under"), this);
    auto* compareLayout = new QVBoxLayout(compareBox);
    for (const auto& profile : engine::profiles()) {
        auto* box = new QCheckBox(QString::fromStdString(profile.title), compareBox);
        box->setToolTip(QString::fromStdString(profile.summary));
        compareLayout->addWidget(box);
        compare_.emplace_back(profile.name, box);
    }
    auto* compareNote = new QLabel(tr("Each runs with the policy the project would export for it; Results "
                                      "compares them measure by measure."),
                                   compareBox);
    compareNote->setWordWrap(true);
    compareNote->setForegroundRole(QPalette::PlaceholderText);
    compareLayout->addWidget(compareNote);
    right->addWidget(compareBox);

    contrastBox_ = new QGroupBox(tr("The default kube-scheduler's scoring"), this);
    auto* cform = new QFormLayout(contrastBox_);
    auto* cnote = new QLabel(
        tr("kube-scheduler places pod by pod with no gangs. Run it on the same workload to see "
           "distributed jobs half-started and GPUs fragmented across nodes, next to the policy on the left."
           " These settings are its policy when it runs."),
        contrastBox_);
    cnote->setWordWrap(true);
    cnote->setForegroundRole(QPalette::PlaceholderText);
    strategy_ = new QComboBox(contrastBox_);
    for (auto s :
         {KubeSchedulerProfile::Strategy::LeastAllocated, KubeSchedulerProfile::Strategy::MostAllocated,
          KubeSchedulerProfile::Strategy::RequestedToCapacityRatio})
        strategy_->addItem(toString(s), int(s));
    auto rw = [&] {
        auto* s = new QSpinBox(contrastBox_);
        s->setRange(0, 100);
        return s;
    };
    weightCpu_ = rw();
    weightMemory_ = rw();
    weightGpu_ = rw();
    cform->addRow(cnote);
    cform->addRow(tr("NodeResourcesFit scoring"), strategy_);
    cform->addRow(tr("Weight: cpu"), weightCpu_);
    cform->addRow(tr("Weight: memory"), weightMemory_);
    cform->addRow(tr("Weight: GPU"), weightGpu_);
    right->addWidget(contrastBox_);

    auto* simBox = new QGroupBox(tr("Simulation"), this);
    auto* sform = new QFormLayout(simBox);
    cycle_ = new QDoubleSpinBox(simBox);
    cycle_->setRange(0.1, 3600);
    cycle_->setSuffix(tr(" s"));
    cycle_->setToolTip(tr("Scheduling period; Volcano's default is 1 s"));
    horizon_ = new QDoubleSpinBox(simBox);
    horizon_->setRange(0, 1e9);
    horizon_->setDecimals(0);
    horizon_->setSuffix(tr(" s"));
    horizon_->setSpecialValueText(tr("until every job finished"));
    seed_ = new QSpinBox(simBox);
    seed_->setRange(0, 2147483647);
    sform->addRow(tr("Scheduling cycle"), cycle_);
    sform->addRow(tr("Horizon"), horizon_);
    sform->addRow(tr("Random seed"), seed_);
    right->addWidget(simBox);
    right->addStretch(1);
    columns->addLayout(right, 2);

    connect(target_, &QButtonGroup::idClicked, this, [this] { commit(tr("Change target scheduler")); });
    for (auto* c : {gang_, priority_, drf_, enqueue_, preempt_, reclaim_, backfill_, topologyAware_})
        connect(c, &QCheckBox::clicked, this,
                [this, c] { commit(tr("Policy: %1").arg(c->text().section(':', 0, 0))); });
    connect(sharing_, &QComboBox::activated, this, [this] { commit(tr("Policy: queue sharing")); });
    connect(placement_, &QComboBox::activated, this, [this] { commit(tr("Policy: placement")); });
    for (auto* s : {binpackWeight_, binpackGpu_, binpackCpu_, binpackMemory_})
        connect(s, &QSpinBox::editingFinished, this, [this] { commit(tr("Policy: binpack weights")); });
    for (const auto& [name, box] : compare_)
        connect(box, &QCheckBox::clicked, this, [this] {
            if (loading_) return;
            SimulationSettings s = ws_->document()->project().simulation;
            s.profiles.clear();
            for (const auto& [profile, b] : compare_)
                if (b->isChecked()) s.profiles.push_back(profile);
            if (s.profiles.empty()) { // at least one: the one just unticked stays
                load();
                return;
            }
            if (s != ws_->document()->project().simulation)
                ws_->document()->undoStack()->push(new SetSimulationSettingsCommand(ws_->document(), s));
        });
    connect(strategy_, &QComboBox::activated, this, [this] { commit(tr("Comparison profile")); });
    for (auto* s : {weightCpu_, weightMemory_, weightGpu_})
        connect(s, &QSpinBox::editingFinished, this, [this] { commit(tr("Comparison profile")); });
    connect(resetConf, &QPushButton::clicked, this, [this] {
        Policy p = policyOf(ws_->document()->project());
        p.volcano = defaultVolcanoConf();
        if (p != policyOf(ws_->document()->project()))
            ws_->document()->undoStack()->push(
                new SetPolicyCommand(ws_->document(), p, tr("Reset scheduler configuration")));
    });
    auto commitSim = [this] {
        if (loading_) return;
        SimulationSettings s = ws_->document()->project().simulation;
        s.cycleSeconds = cycle_->value();
        s.horizonSeconds = horizon_->value();
        s.seed = uint64_t(seed_->value());
        if (s != ws_->document()->project().simulation)
            ws_->document()->undoStack()->push(new SetSimulationSettingsCommand(ws_->document(), s));
    };
    connect(cycle_, &QDoubleSpinBox::editingFinished, this, commitSim);
    connect(horizon_, &QDoubleSpinBox::editingFinished, this, commitSim);
    connect(seed_, &QSpinBox::editingFinished, this, commitSim);

    auto* doc = ws_->document();
    connect(doc, &ProjectDocument::policyChanged, this, &PolicyTab::load);
    connect(doc, &ProjectDocument::settingsChanged, this, &PolicyTab::load);
    connect(doc, &ProjectDocument::projectReplaced, this, &PolicyTab::load);
    load();
}

void PolicyTab::load() {
    loading_ = true;
    const auto& project = ws_->document()->project();
    const auto& conf = project.volcano;
    const std::string gpu = primaryGpuResource(project.cluster);
    target_->button(int(project.target))->setChecked(true);
    targetNote_->setText(targetDescription(project.target));
    if (project.target != shownTarget_) { // follow the target, not every policy edit
        shownTarget_ = project.target;
        pages_->setCurrentIndex(project.target == TargetScheduler::Volcano ? 0
                                : project.target == TargetScheduler::Kueue ? 1
                                                                           : 2);
    }
    gang_->setChecked(hasPlugin(conf, "gang"));
    priority_->setChecked(hasPlugin(conf, "priority"));
    drf_->setChecked(hasPlugin(conf, "drf"));
    sharing_->setCurrentIndex(sharing_->findData(int(queueSharing(conf))));
    placement_->setCurrentIndex(placement_->findData(int(placement(conf))));
    BinpackWeights w = binpackWeights(conf, gpu);
    binpackWeight_->setValue(w.overall);
    binpackGpu_->setValue(w.gpu);
    binpackCpu_->setValue(w.cpu);
    binpackMemory_->setValue(w.memory);
    bool binpack = placement(conf) == Placement::Binpack;
    for (auto* s : {binpackWeight_, binpackGpu_, binpackCpu_, binpackMemory_}) s->setEnabled(binpack);
    enqueue_->setChecked(hasAction(conf, "enqueue"));
    preempt_->setChecked(hasAction(conf, "preempt"));
    reclaim_->setChecked(hasAction(conf, "reclaim"));
    backfill_->setChecked(hasAction(conf, "backfill"));
    topologyAware_->setChecked(hasPlugin(conf, "network-topology-aware"));
    QStringList actions;
    for (const auto& a : conf.actions) actions << qs(a);
    actionsLine_->setText(tr("actions: \"%1\"").arg(actions.join(QStringLiteral(", "))));

    tiers_->clear();
    for (size_t t = 0; t < conf.tiers.size(); ++t) {
        auto* tier = new QTreeWidgetItem(tiers_, {tr("Tier %1").arg(t + 1)});
        for (const auto& p : conf.tiers[t].plugins) {
            QStringList details;
            for (const auto& [k, v] : p.switches)
                details << QStringLiteral("%1: %2").arg(qs(k), v ? "true" : "false");
            for (const auto& [k, v] : p.arguments) details << QStringLiteral("%1=%2").arg(qs(k), qs(v));
            new QTreeWidgetItem(tier, {qs(p.name), details.join(QStringLiteral(", "))});
        }
    }
    tiers_->expandAll();
    tiers_->resizeColumnToContents(0);

    const auto running = engine::whatIfProfiles(project);
    for (const auto& [name, box] : compare_)
        box->setChecked(std::find(running.begin(), running.end(), name) != running.end());
    KubeSchedulerProfile profile = project.contrast.value_or(KubeSchedulerProfile{});
    strategy_->setCurrentIndex(strategy_->findData(int(profile.strategy)));
    auto weightOf = [&](const std::string& r, int fallback) {
        for (const auto& [name, weight] : profile.resourceWeights)
            if (name == r) return int(weight);
        return fallback;
    };
    weightCpu_->setValue(weightOf("cpu", 1));
    weightMemory_->setValue(weightOf("memory", 1));
    weightGpu_->setValue(weightOf(gpu, 0));
    cycle_->setValue(project.simulation.cycleSeconds);
    horizon_->setValue(project.simulation.horizonSeconds);
    seed_->setValue(int(std::min<uint64_t>(project.simulation.seed, 2147483647)));
    loading_ = false;
}

Policy PolicyTab::fromForm() const {
    const auto& project = ws_->document()->project();
    const std::string gpu = primaryGpuResource(project.cluster);
    Policy p = policyOf(project);
    p.target = TargetScheduler(target_->checkedId());
    SchedulerConf& c = p.volcano;
    setPlugin(c, "gang", gang_->isChecked());
    setPlugin(c, "priority", priority_->isChecked());
    setPlugin(c, "drf", drf_->isChecked());
    setQueueSharing(c, QueueSharing(sharing_->currentData().toInt()));
    setPlacement(c, Placement(placement_->currentData().toInt()));
    if (placement(c) == Placement::Binpack) {
        BinpackWeights w{binpackWeight_->value(), binpackCpu_->value(), binpackMemory_->value(),
                         binpackGpu_->value()};
        if (w != binpackWeights(c, gpu)) setBinpackWeights(c, gpu, w);
    }
    setAction(c, "enqueue", enqueue_->isChecked());
    setAction(c, "preempt", preempt_->isChecked());
    setAction(c, "reclaim", reclaim_->isChecked());
    setAction(c, "backfill", backfill_->isChecked());
    setAction(c, "allocate", true);
    setPlugin(c, "network-topology-aware", topologyAware_->isChecked());
    // A project without its own kube-scheduler profile keeps none until its scoring is changed.
    KubeSchedulerProfile profile = project.contrast.value_or(KubeSchedulerProfile{});
    profile.strategy = KubeSchedulerProfile::Strategy(strategy_->currentData().toInt());
    profile.resourceWeights = {{"cpu", weightCpu_->value()}, {"memory", weightMemory_->value()}};
    if (weightGpu_->value() > 0) profile.resourceWeights.emplace_back(gpu, weightGpu_->value());
    KubeSchedulerProfile stock;
    stock.resourceWeights = {{"cpu", 1}, {"memory", 1}};
    if (project.contrast || profile != stock) p.contrast = profile;
    return p;
}

void PolicyTab::commit(const QString& text) {
    if (loading_) return;
    Policy p = fromForm();
    if (p == policyOf(ws_->document()->project())) return;
    ws_->document()->undoStack()->push(new SetPolicyCommand(ws_->document(), p, text));
}

} // namespace gantry::studio
