#include "policy/kueue_policy_editor.h"

#include "core/export_bridge.h"
#include "core/project_commands.h"
#include "core/qt_text.h"
#include "core/queue_commands.h"
#include "export/kueue_configuration.h"
#include "input_error.h"
#include "kueue_config_reader.h"
#include "model/kueue_mapping.h"
#include "workspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace gantry::studio {
namespace {

// Kueue accepts these lists of fair-sharing preemption strategies (config validation,
// validateFairSharing); empty is Kueue's default: both, in this order.
const std::vector<std::vector<std::string>> kStrategies = {
    {},
    {"LessThanOrEqualToFinalShare"},
    {"LessThanInitialShare"},
    {"LessThanOrEqualToFinalShare", "LessThanInitialShare"},
};

QString strategiesText(const std::vector<std::string>& s) {
    if (s.empty()) return QObject::tr("Kueue's default (LessThanOrEqualToFinalShare, LessThanInitialShare)");
    QStringList l;
    for (const auto& x : s) l << qs(x);
    return l.join(QStringLiteral(", "));
}

// "name: amount, name: amount" <-> a JSON object (amounts as typed: Kueue's reader parses them).
QString pairsText(const Json& object) {
    QStringList l;
    if (object.is_object())
        for (const auto& [k, v] : object.items())
            l << qs(k) + QStringLiteral(": ") + (v.is_string() ? qs(v.get<std::string>()) : qs(v.dump()));
    return l.join(QStringLiteral(", "));
}

// Null with *error set when an entry is not "name: value".
Json pairsJson(const QString& text, bool numbers, QString* error) {
    Json out = Json::object();
    for (const QString& part : text.split(',', Qt::SkipEmptyParts)) {
        const QString entry = part.trimmed();
        if (entry.isEmpty()) continue;
        const int colon = entry.indexOf(':') >= 0 ? entry.indexOf(':') : entry.indexOf('=');
        const QString name = entry.left(colon).trimmed(), value = entry.mid(colon + 1).trimmed();
        if (colon <= 0 || name.isEmpty() || value.isEmpty()) {
            *error = QObject::tr("'%1' is not name: value").arg(entry);
            return nullptr;
        }
        if (numbers) {
            bool ok = false;
            const double v = value.toDouble(&ok);
            if (!ok) {
                *error = QObject::tr("'%1' is not a number").arg(value);
                return nullptr;
            }
            out[name.toStdString()] = v;
        } else {
            out[name.toStdString()] = value.toStdString();
        }
    }
    return out;
}

const QStringList kWithin = {"Never", "LowerPriority", "LowerOrNewerEqualPriority"};
const QStringList kReclaim = {"Never", "LowerPriority", "Any"};
const QStringList kBorrow = {"Never", "LowerPriority"};

// The project's queues that are ClusterQueues for Kueue: its own ClusterQueues, else the leaves
// the mapping makes ClusterQueues of (project queue name, ClusterQueue name).
std::vector<std::pair<std::string, std::string>> clusterQueues(const Cluster& cluster) {
    std::vector<std::pair<std::string, std::string>> out;
    if (kueue::hasKueueQueues(cluster)) {
        for (const auto& q : cluster.queues)
            if (q.kind == Queue::Kind::KueueClusterQueue) out.emplace_back(q.name, q.name);
        return out;
    }
    const auto mapped = kueue::mapToKueue(cluster, {}).objects.clusterQueueOf;
    for (const auto& q : cluster.queues)
        if (auto it = mapped.find(q.name); it != mapped.end()) out.emplace_back(q.name, it->second);
    return out;
}

} // namespace

KueuePolicyEditor::KueuePolicyEditor(Workspace* workspace, QWidget* parent)
    : QWidget(parent), ws_(workspace) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* config = new QGroupBox(tr("Kueue Configuration (kueue-manager-config)"), this);
    auto* form = new QFormLayout(config);
    fairSharing_ = new QCheckBox(tr("Fair sharing between ClusterQueues and Cohorts (fairSharing)"), config);
    strategies_ = new QComboBox(config);
    for (size_t i = 0; i < kStrategies.size(); ++i)
        strategies_->addItem(strategiesText(kStrategies[i]), int(i));
    afs_ = new QCheckBox(tr("Admission fair sharing: order LocalQueues by decayed usage"), config);
    halfLife_ = new QLineEdit(config);
    halfLife_->setPlaceholderText(tr("e.g. 6h, 30m (0: no memory)"));
    sampling_ = new QLineEdit(config);
    sampling_->setPlaceholderText(tr("Kueue's default: 5m"));
    afsWeights_ = new QLineEdit(config);
    afsWeights_->setPlaceholderText(tr("e.g. nvidia.com/gpu: 100, cpu: 1 (absent: 1)"));
    podsReady_ = new QCheckBox(tr("waitForPodsReady: requeue workloads whose pods do not start"), config);
    podsReadyTimeout_ = new QLineEdit(config);
    podsReadyTimeout_->setPlaceholderText(tr("Kueue's default: 5m"));
    transformations_ = new QTableWidget(0, 4, config);
    transformations_->setHorizontalHeaderLabels(
        {tr("input"), tr("strategy"), tr("multiplyBy"), tr("outputs")});
    transformations_->horizontalHeader()->setStretchLastSection(true);
    transformations_->verticalHeader()->hide();
    transformations_->setMaximumHeight(110);
    auto* addTransformation = new QPushButton(tr("Add"), config);
    auto* removeTransformation = new QPushButton(tr("Remove"), config);
    auto* transformationButtons = new QHBoxLayout;
    transformationButtons->addWidget(addTransformation);
    transformationButtons->addWidget(removeTransformation);
    transformationButtons->addStretch(1);
    deviceMappings_ = new QLabel(config);
    deviceMappings_->setWordWrap(true);
    deviceMappings_->setForegroundRole(QPalette::PlaceholderText);
    form->addRow(tr("Fair sharing"), fairSharing_);
    form->addRow(tr("Preemption strategies"), strategies_);
    form->addRow(tr("Admission"), afs_);
    form->addRow(tr("usageHalfLifeTime"), halfLife_);
    form->addRow(tr("usageSamplingInterval"), sampling_);
    form->addRow(tr("resourceWeights"), afsWeights_);
    form->addRow(tr("Pods ready"), podsReady_);
    form->addRow(tr("timeout"), podsReadyTimeout_);
    form->addRow(tr("Transformations"), transformations_);
    form->addRow(QString(), transformationButtons);
    form->addRow(tr("Device mappings"), deviceMappings_);
    layout->addWidget(config);

    auto* queues = new QGroupBox(tr("ClusterQueue preemption (spec.preemption)"), this);
    auto* qlayout = new QVBoxLayout(queues);
    preemption_ = new QTableWidget(0, 4, queues);
    preemption_->setHorizontalHeaderLabels(
        {tr("ClusterQueue"), tr("withinClusterQueue"), tr("reclaimWithinCohort"), tr("borrowWithinCohort")});
    preemption_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    preemption_->horizontalHeader()->setStretchLastSection(true);
    preemption_->verticalHeader()->hide();
    qlayout->addWidget(preemption_);
    layout->addWidget(queues, 1);

    error_ = new QLabel(this);
    // Named for tests and accessibility tools.
    fairSharing_->setObjectName("kueueFairSharing");
    afs_->setObjectName("kueueAdmissionFairSharing");
    halfLife_->setObjectName("kueueUsageHalfLifeTime");
    preemption_->setObjectName("kueuePreemption");
    error_->setObjectName("kueueError");
    error_->setWordWrap(true);
    error_->setStyleSheet(QStringLiteral("color: #c0392b;"));
    error_->hide();
    layout->addWidget(error_);

    for (auto* c : {fairSharing_, afs_, podsReady_})
        connect(c, &QCheckBox::clicked, this,
                [this, c] { commitConfiguration(tr("Kueue: %1").arg(c->text())); });
    connect(strategies_, &QComboBox::activated, this,
            [this] { commitConfiguration(tr("Kueue: preemption strategies")); });
    for (auto* e : {halfLife_, sampling_, afsWeights_, podsReadyTimeout_})
        connect(e, &QLineEdit::editingFinished, this, [this, e] {
            if (e->isModified()) commitConfiguration(tr("Kueue: %1").arg(e->placeholderText()));
            e->setModified(false);
        });
    connect(transformations_, &QTableWidget::cellChanged, this, [this] {
        if (!loading_) commitConfiguration(tr("Kueue: transformations"));
    });
    connect(addTransformation, &QPushButton::clicked, this, [this] {
        loading_ = true;
        const int row = transformations_->rowCount();
        transformations_->insertRow(row);
        for (int c = 0; c < 4; ++c)
            transformations_->setItem(row, c, new QTableWidgetItem(c == 1 ? "Retain" : ""));
        loading_ = false;
        transformations_->editItem(transformations_->item(row, 0));
    });
    connect(removeTransformation, &QPushButton::clicked, this, [this] {
        if (transformations_->currentRow() < 0) return;
        transformations_->removeRow(transformations_->currentRow());
        commitConfiguration(tr("Kueue: remove a transformation"));
    });

    auto* doc = ws_->document();
    connect(doc, &ProjectDocument::policyChanged, this, &KueuePolicyEditor::load);
    connect(doc, &ProjectDocument::projectReplaced, this, &KueuePolicyEditor::load);
    connect(doc, &ProjectDocument::queuesReset, this, &KueuePolicyEditor::load);
    connect(doc, &ProjectDocument::queueChanged, this, &KueuePolicyEditor::load);
    load();
}

void KueuePolicyEditor::load() {
    loading_ = true;
    const Project& project = ws_->document()->project();
    const KueueConfig cfg = project.kueue.value_or(KueueConfig{});
    const Json doc = exporting::kueueConfigurationJson(cfg);
    fairSharing_->setChecked(cfg.fairSharing);
    int strategy = 0;
    for (size_t i = 0; i < kStrategies.size(); ++i)
        if (kStrategies[i] == cfg.preemptionStrategies) strategy = int(i);
    strategies_->setCurrentIndex(strategy);
    strategies_->setEnabled(cfg.fairSharing);
    afs_->setChecked(cfg.admissionFairSharing.has_value());
    const Json afs = doc.contains("admissionFairSharing") ? doc["admissionFairSharing"] : Json::object();
    halfLife_->setText(qs(afs.value("usageHalfLifeTime", "")));
    sampling_->setText(qs(afs.value("usageSamplingInterval", "")));
    afsWeights_->setText(pairsText(afs.value("resourceWeights", Json::object())));
    for (auto* e : {halfLife_, sampling_, afsWeights_}) e->setEnabled(afs_->isChecked());
    podsReady_->setChecked(cfg.waitForPodsReady);
    podsReadyTimeout_->setText(cfg.waitForPodsReady ? qs(doc["waitForPodsReady"].value("timeout", ""))
                                                    : QString());
    podsReadyTimeout_->setEnabled(cfg.waitForPodsReady);

    const Json resources = doc.contains("resources") ? doc["resources"] : Json::object();
    const Json list = resources.value("transformations", Json::array());
    transformations_->setRowCount(int(list.size()));
    for (size_t i = 0; i < list.size(); ++i) {
        const Json& t = list[i];
        const QStringList cells = {qs(t.value("input", "")), qs(t.value("strategy", "Retain")),
                                   qs(t.value("multiplyBy", "")),
                                   pairsText(t.value("outputs", Json::object()))};
        for (int c = 0; c < 4; ++c) transformations_->setItem(int(i), c, new QTableWidgetItem(cells[c]));
    }
    // Kueue's deviceClassMappings (DRA): the Workloads' claim templates are charged through them;
    // shown, and kept as read.
    QStringList mapped;
    for (const auto& m : cfg.deviceClassMappings) {
        QStringList classes;
        for (const auto& c : m.deviceClassNames) classes << qs(c);
        QStringList sources;
        for (const auto& src : m.sources)
            sources << (src.counter ? tr("counter %1") : tr("capacity %1")).arg(qs(src.name)) + " @ " +
                           qs(src.driver);
        mapped << qs(m.name) + " ← " + classes.join(", ") +
                      (sources.isEmpty() ? QString() : " (" + sources.join(", ") + ")");
    }
    deviceMappings_->setText(mapped.empty() ? tr("none (resources.deviceClassMappings): a claim makes a "
                                                 "workload inadmissible")
                                            : mapped.join("; "));

    const auto cqs = clusterQueues(project.cluster);
    preemption_->setRowCount(int(cqs.size()));
    for (size_t i = 0; i < cqs.size(); ++i) {
        const Queue* q = project.cluster.findQueue(cqs[i].first);
        if (!q) continue;
        auto* name = new QTableWidgetItem(qs(cqs[i].second));
        name->setData(Qt::UserRole, qs(cqs[i].first));
        name->setFlags(name->flags() & ~Qt::ItemIsEditable);
        preemption_->setItem(int(i), 0, name);
        const std::string values[] = {q->preemption.withinClusterQueue, q->preemption.reclaimWithinCohort,
                                      q->preemption.borrowWithinCohort};
        const QStringList* choices[] = {&kWithin, &kReclaim, &kBorrow};
        for (int c = 0; c < 3; ++c) {
            auto* box = new QComboBox(preemption_);
            box->addItems(*choices[c]);
            box->setCurrentText(qs(values[c]));
            preemption_->setCellWidget(int(i), c + 1, box);
            connect(box, &QComboBox::activated, this, [this, i] { commitPreemption(int(i)); });
        }
    }
    loading_ = false;
}

void KueuePolicyEditor::commitConfiguration(const QString& text) {
    if (loading_) return;
    const Project& project = ws_->document()->project();
    KueueConfig cfg = project.kueue.value_or(KueueConfig{});
    cfg.fairSharing = fairSharing_->isChecked();
    cfg.preemptionStrategies = kStrategies[size_t(strategies_->currentData().toInt())];
    if (afs_->isChecked() && !cfg.admissionFairSharing) cfg.admissionFairSharing.emplace();
    if (!afs_->isChecked()) cfg.admissionFairSharing.reset();
    cfg.waitForPodsReady = podsReady_->isChecked();
    // The typed texts go into the document as Kueue's keys; Kueue's reader decides what they mean.
    Json doc = exporting::kueueConfigurationJson(cfg);
    QString error;
    if (cfg.admissionFairSharing) {
        Json& a = doc["admissionFairSharing"];
        if (!halfLife_->text().trimmed().isEmpty())
            a["usageHalfLifeTime"] = halfLife_->text().trimmed().toStdString();
        if (!sampling_->text().trimmed().isEmpty())
            a["usageSamplingInterval"] = sampling_->text().trimmed().toStdString();
        Json weights = pairsJson(afsWeights_->text(), true, &error);
        if (!error.isEmpty()) error = tr("admissionFairSharing.resourceWeights: %1").arg(error);
        if (weights.is_object() && !weights.empty())
            a["resourceWeights"] = weights;
        else
            a.erase("resourceWeights");
    }
    if (cfg.waitForPodsReady && !podsReadyTimeout_->text().trimmed().isEmpty())
        doc["waitForPodsReady"]["timeout"] = podsReadyTimeout_->text().trimmed().toStdString();
    Json list = Json::array();
    for (int r = 0; r < transformations_->rowCount() && error.isEmpty(); ++r) {
        auto cell = [&](int c) {
            auto* item = transformations_->item(r, c);
            return item ? item->text().trimmed() : QString();
        };
        if (cell(0).isEmpty() && cell(3).isEmpty()) continue; // a row just added, not filled yet
        Json t{{"input", cell(0).toStdString()},
               {"strategy", cell(1).isEmpty() ? "Retain" : cell(1).toStdString()}};
        if (!cell(2).isEmpty()) t["multiplyBy"] = cell(2).toStdString();
        t["outputs"] = pairsJson(cell(3), false, &error);
        if (!error.isEmpty()) error = tr("resources.transformations[%1].outputs: %2").arg(r).arg(error);
        list.push_back(t);
    }
    if (!doc.contains("resources") || !doc["resources"].is_object()) doc["resources"] = Json::object();
    if (list.empty())
        doc["resources"].erase("transformations");
    else
        doc["resources"]["transformations"] = list;
    if (doc["resources"].empty()) doc.erase("resources");

    std::optional<KueueConfig> read;
    if (error.isEmpty()) {
        try {
            read = parseKueueConfig(doc.dump(2), "Kueue policy");
        } catch (const InputError& e) {
            // The location is in the studio's scratch text; the field path and reason are the user's.
            error = qs(e.diagnostic().message);
        }
    }
    if (!read) {
        error_->setText(tr("Not applied: %1").arg(error));
        error_->show();
        return;
    }
    error_->hide();
    read->source = cfg.source;
    if (project.kueue && *read == *project.kueue && read->document == project.kueue->document) return;
    Policy p = policyOf(project);
    p.kueue = std::move(read);
    ws_->document()->undoStack()->push(new SetPolicyCommand(ws_->document(), p, text));
}

void KueuePolicyEditor::commitPreemption(int row) {
    if (loading_) return;
    const Project& project = ws_->document()->project();
    const Queue* q =
        project.cluster.findQueue(preemption_->item(row, 0)->data(Qt::UserRole).toString().toStdString());
    if (!q) return;
    Queue after = *q;
    auto text = [&](int c) {
        return static_cast<QComboBox*>(preemption_->cellWidget(row, c))->currentText().toStdString();
    };
    after.preemption.withinClusterQueue = text(1);
    after.preemption.reclaimWithinCohort = text(2);
    after.preemption.borrowWithinCohort = text(3);
    if (after == *q) return;
    // Kueue's own rules on the ClusterQueue (its CRD's validations, as `gantry validate` checks them):
    // e.g. borrowWithinCohort needs reclaimWithinCohort.
    Project candidate = project;
    for (auto& c : candidate.cluster.queues)
        if (c.name == after.name) c = after;
    const QStringList fresh = exportErrorsAdded(project, candidate, TargetScheduler::Kueue);
    if (!fresh.isEmpty()) {
        error_->setText(
            tr("Not applied (gantry validate would refuse the export):\n%1").arg(fresh.join('\n')));
        error_->show(); // the table keeps the choice, to be corrected
        return;
    }
    error_->hide();
    ws_->document()->undoStack()->push(
        new EditQueueCommand(ws_->document(), after, tr("Kueue preemption of %1").arg(qs(q->name))));
}

} // namespace gantry::studio
