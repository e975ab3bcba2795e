#include "policy/yunikorn_policy_editor.h"

#include "core/export_bridge.h"
#include "core/project_commands.h"
#include "core/qt_text.h"
#include "model/yunikorn_mapping.h"
#include "workspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace gantry::studio {
namespace {

QString joined(const std::vector<std::string>& list) {
    QStringList l;
    for (const auto& s : list) l << qs(s);
    return l.join(QStringLiteral(", "));
}

std::vector<std::string> split(const QString& text) {
    std::vector<std::string> out;
    for (const QString& part : text.split(',', Qt::SkipEmptyParts))
        if (!part.trimmed().isEmpty()) out.push_back(part.trimmed().toStdString());
    return out;
}

QString describe(const PlacementRule& r) {
    QString s = qs(r.name);
    if (!r.value.empty()) s += QStringLiteral(" ") + qs(r.value);
    return s;
}

QString filterText(const PlacementRule& r) {
    if (r.filterType.empty() && r.filterUsers.empty() && r.filterGroups.empty()) return {};
    QStringList who;
    if (!r.filterUsers.empty()) who << QObject::tr("users %1").arg(joined(r.filterUsers));
    if (!r.filterGroups.empty()) who << QObject::tr("groups %1").arg(joined(r.filterGroups));
    return (r.filterType.empty() ? QStringLiteral("allow") : qs(r.filterType)) + QStringLiteral(" ") +
           who.join(QStringLiteral("; "));
}

// Optional flag <-> combo index: 0 YuniKorn's default, 1 on, 2 off.
int flagIndex(const std::optional<bool>& v) {
    return !v ? 0 : *v ? 1 : 2;
}
std::optional<bool> flagOf(int index) {
    if (index == 0) return std::nullopt;
    return index == 1;
}

} // namespace

YuniKornPolicyEditor::YuniKornPolicyEditor(Workspace* workspace, QWidget* parent)
    : QWidget(parent), ws_(workspace) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    auto* partition = new QGroupBox(tr("Partition (yunikorn-configs, queues.yaml)"), this);
    auto* pform = new QFormLayout(partition);
    name_ = new QLineEdit(partition);
    name_->setToolTip(tr("YuniKorn's Kubernetes shim schedules only in the partition 'default'"));
    nodeSort_ = new QComboBox(partition);
    nodeSort_->addItem(tr("YuniKorn's default (fair)"), QString());
    nodeSort_->addItem(tr("fair: most available resources first (spread)"), QStringLiteral("fair"));
    nodeSort_->addItem(tr("binpacking: least available resources first"), QStringLiteral("binpacking"));
    weights_ = new QLineEdit(partition);
    weights_->setPlaceholderText(tr("resourceweights, e.g. vcore: 1, memory: 1, nvidia.com/gpu: 4"));
    preemption_ = new QComboBox(partition);
    preemption_->addItems({tr("YuniKorn's default (on)"), tr("on"), tr("off")});
    quotaPreemption_ = new QComboBox(partition);
    quotaPreemption_->addItems({tr("YuniKorn's default (off)"), tr("on"), tr("off")});
    pform->addRow(tr("Name"), name_);
    pform->addRow(tr("Node sort policy"), nodeSort_);
    pform->addRow(tr("Resource weights"), weights_);
    pform->addRow(tr("Preemption (enabled)"), preemption_);
    pform->addRow(tr("Quota preemption"), quotaPreemption_);
    layout->addWidget(partition);

    auto* placement = new QGroupBox(tr("Placement rules (tried in order; the first that places wins)"), this);
    auto* pl = new QVBoxLayout(placement);
    rules_ = new QTreeWidget(placement);
    rules_->setHeaderLabels({tr("Rule"), tr("create"), tr("filter"), tr("parent")});
    rules_->setRootIsDecorated(false);
    rules_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    rules_->setMinimumHeight(110);
    pl->addWidget(rules_);
    auto* buttons = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add rule"), placement);
    auto* remove = new QPushButton(tr("Remove"), placement);
    auto* up = new QPushButton(tr("Up"), placement);
    auto* down = new QPushButton(tr("Down"), placement);
    for (auto* b : {add, remove, up, down}) buttons->addWidget(b);
    buttons->addStretch(1);
    pl->addLayout(buttons);
    auto* rform = new QFormLayout;
    ruleName_ = new QComboBox(placement);
    ruleName_->addItems({"provided", "user", "tag", "fixed"});
    ruleValue_ = new QLineEdit(placement);
    ruleValue_->setPlaceholderText(tr("tag: the pod label or namespace; fixed: the queue path"));
    ruleCreate_ = new QCheckBox(tr("create the queue when it does not exist"), placement);
    filterType_ = new QComboBox(placement);
    filterType_->addItem(tr("no filter"), QString());
    filterType_->addItem(QStringLiteral("allow"), QStringLiteral("allow"));
    filterType_->addItem(QStringLiteral("deny"), QStringLiteral("deny"));
    filterUsers_ = new QLineEdit(placement);
    filterUsers_->setPlaceholderText(tr("users, comma separated (regular expressions allowed)"));
    filterGroups_ = new QLineEdit(placement);
    filterGroups_->setPlaceholderText(tr("groups, comma separated"));
    parentName_ = new QComboBox(placement);
    parentName_->addItem(tr("none (under root)"), QString());
    for (const char* n : {"fixed", "tag", "user", "provided"}) parentName_->addItem(n, QString(n));
    parentValue_ = new QLineEdit(placement);
    parentValue_->setPlaceholderText(tr("fixed: a parent queue path, e.g. root.teams"));
    auto* filterRow = new QHBoxLayout;
    filterRow->addWidget(filterType_);
    filterRow->addWidget(filterUsers_, 1);
    filterRow->addWidget(filterGroups_, 1);
    auto* parentRow = new QHBoxLayout;
    parentRow->addWidget(parentName_);
    parentRow->addWidget(parentValue_, 1);
    rform->addRow(tr("Rule"), ruleName_);
    rform->addRow(tr("Value"), ruleValue_);
    rform->addRow(QString(), ruleCreate_);
    rform->addRow(tr("Filter"), filterRow);
    rform->addRow(tr("Parent"), parentRow);
    pl->addLayout(rform);
    layout->addWidget(placement, 1);

    error_ = new QLabel(this);
    // Named for tests and accessibility tools.
    preemption_->setObjectName("yunikornPreemption");
    nodeSort_->setObjectName("yunikornNodeSort");
    rules_->setObjectName("yunikornRules");
    add->setObjectName("yunikornAddRule");
    ruleName_->setObjectName("yunikornRuleName");
    ruleValue_->setObjectName("yunikornRuleValue");
    error_->setObjectName("yunikornError");
    error_->setWordWrap(true);
    error_->setStyleSheet(QStringLiteral("color: #c0392b;"));
    error_->hide();
    layout->addWidget(error_);

    auto commitPartition = [this](const QString& text) {
        if (loading_) return;
        YuniKornPartition p = current();
        p.name = name_->text().trimmed().isEmpty() ? "default" : name_->text().trimmed().toStdString();
        p.nodeSortPolicy = nodeSort_->currentData().toString().toStdString();
        p.nodeSortWeights.clear();
        for (const QString& part : weights_->text().split(',', Qt::SkipEmptyParts)) {
            const QString entry = part.trimmed();
            const int colon = entry.indexOf(':') >= 0 ? entry.indexOf(':') : entry.indexOf('=');
            bool ok = colon > 0;
            const double w = ok ? entry.mid(colon + 1).trimmed().toDouble(&ok) : 0;
            if (!ok || w < 0) {
                error_->setText(
                    tr("Not applied: resourceweights: '%1' is not resource: weight (0 or more)").arg(entry));
                error_->show();
                return;
            }
            p.nodeSortWeights[entry.left(colon).trimmed().toStdString()] = w;
        }
        p.preemptionEnabled = flagOf(preemption_->currentIndex());
        p.quotaPreemptionEnabled = flagOf(quotaPreemption_->currentIndex());
        commit(std::move(p), text);
    };
    connect(name_, &QLineEdit::editingFinished, this, [=, this] {
        if (name_->isModified()) commitPartition(tr("YuniKorn: partition name"));
        name_->setModified(false);
    });
    connect(weights_, &QLineEdit::editingFinished, this, [=, this] {
        if (weights_->isModified()) commitPartition(tr("YuniKorn: node sort weights"));
        weights_->setModified(false);
    });
    connect(nodeSort_, &QComboBox::activated, this,
            [=, this] { commitPartition(tr("YuniKorn: node sort policy")); });
    connect(preemption_, &QComboBox::activated, this,
            [=, this] { commitPartition(tr("YuniKorn: preemption")); });
    connect(quotaPreemption_, &QComboBox::activated, this,
            [=, this] { commitPartition(tr("YuniKorn: quota preemption")); });

    connect(rules_, &QTreeWidget::currentItemChanged, this, [this] { showRule(); });
    auto commitRule = [this] {
        const int row = rules_->indexOfTopLevelItem(rules_->currentItem());
        if (loading_ || row < 0) return;
        YuniKornPartition p = current();
        if (size_t(row) >= p.placementRules.size()) return;
        p.placementRules[size_t(row)] = ruleFromForm();
        commit(std::move(p), tr("YuniKorn: placement rule %1").arg(row + 1));
    };
    for (auto* c : {ruleName_, filterType_, parentName_}) connect(c, &QComboBox::activated, this, commitRule);
    connect(ruleCreate_, &QCheckBox::clicked, this, commitRule);
    for (auto* e : {ruleValue_, filterUsers_, filterGroups_, parentValue_})
        connect(e, &QLineEdit::editingFinished, this, [e, commitRule] {
            if (e->isModified()) commitRule();
            e->setModified(false);
        });
    connect(add, &QPushButton::clicked, this, [this] {
        YuniKornPartition p = current();
        PlacementRule r;
        r.name = "provided";
        p.placementRules.push_back(r);
        commit(std::move(p), tr("YuniKorn: add a placement rule"));
        if (rules_->topLevelItemCount())
            rules_->setCurrentItem(rules_->topLevelItem(rules_->topLevelItemCount() - 1));
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        const int row = rules_->indexOfTopLevelItem(rules_->currentItem());
        YuniKornPartition p = current();
        if (row < 0 || size_t(row) >= p.placementRules.size()) return;
        p.placementRules.erase(p.placementRules.begin() + row);
        commit(std::move(p), tr("YuniKorn: remove placement rule %1").arg(row + 1));
    });
    auto move = [this](int by) {
        const int row = rules_->indexOfTopLevelItem(rules_->currentItem());
        YuniKornPartition p = current();
        const int to = row + by;
        if (row < 0 || to < 0 || size_t(to) >= p.placementRules.size()) return;
        std::swap(p.placementRules[size_t(row)], p.placementRules[size_t(to)]);
        commit(std::move(p), tr("YuniKorn: move placement rule %1").arg(row + 1));
        rules_->setCurrentItem(rules_->topLevelItem(to));
    };
    connect(up, &QPushButton::clicked, this, [move] { move(-1); });
    connect(down, &QPushButton::clicked, this, [move] { move(1); });

    auto* doc = ws_->document();
    connect(doc, &ProjectDocument::policyChanged, this, &YuniKornPolicyEditor::load);
    connect(doc, &ProjectDocument::projectReplaced, this, &YuniKornPolicyEditor::load);
    load();
}

// A project without YuniKorn settings starts from the placement rules its export would write, so
// the first edit keeps them.
YuniKornPartition YuniKornPolicyEditor::current() const {
    const Project& project = ws_->document()->project();
    if (project.cluster.yunikorn) return *project.cluster.yunikorn;
    YuniKornPartition p;
    p.placementRules = yunikorn::mapToYuniKorn(project.cluster,
                                               yunikorn::namespaceQueues(project.cluster, project.workloads))
                           .config.placementRules;
    return p;
}

void YuniKornPolicyEditor::load() {
    loading_ = true;
    const YuniKornPartition p = current();
    name_->setText(qs(p.name));
    nodeSort_->setCurrentIndex(std::max(0, nodeSort_->findData(qs(p.nodeSortPolicy))));
    QStringList weights;
    for (const auto& [r, w] : p.nodeSortWeights) weights << qs(r) + QStringLiteral(": ") + QString::number(w);
    weights_->setText(weights.join(QStringLiteral(", ")));
    preemption_->setCurrentIndex(flagIndex(p.preemptionEnabled));
    quotaPreemption_->setCurrentIndex(flagIndex(p.quotaPreemptionEnabled));
    const int selected = std::max(0, rules_->indexOfTopLevelItem(rules_->currentItem()));
    rules_->clear();
    for (size_t i = 0; i < p.placementRules.size(); ++i) {
        const PlacementRule& r = p.placementRules[i];
        new QTreeWidgetItem(rules_,
                            {QStringLiteral("%1. ").arg(i + 1) + describe(r), r.create ? tr("yes") : tr("no"),
                             filterText(r), r.parent.empty() ? QString() : describe(r.parent.front())});
    }
    if (rules_->topLevelItemCount())
        rules_->setCurrentItem(rules_->topLevelItem(std::min(selected, rules_->topLevelItemCount() - 1)));
    loading_ = false;
    showRule();
}

void YuniKornPolicyEditor::showRule() {
    const int row = rules_->indexOfTopLevelItem(rules_->currentItem());
    const YuniKornPartition p = current();
    const bool have = row >= 0 && size_t(row) < p.placementRules.size();
    for (QWidget* w : std::initializer_list<QWidget*>{ruleName_, ruleValue_, ruleCreate_, filterType_,
                                                      filterUsers_, filterGroups_, parentName_, parentValue_})
        w->setEnabled(have);
    if (!have) return;
    const bool wasLoading = loading_;
    loading_ = true;
    const PlacementRule& r = p.placementRules[size_t(row)];
    ruleName_->setCurrentText(qs(r.name));
    ruleValue_->setText(qs(r.value));
    ruleCreate_->setChecked(r.create);
    filterType_->setCurrentIndex(std::max(0, filterType_->findData(qs(r.filterType))));
    filterUsers_->setText(joined(r.filterUsers));
    filterGroups_->setText(joined(r.filterGroups));
    parentName_->setCurrentIndex(
        r.parent.empty() ? 0 : std::max(0, parentName_->findData(qs(r.parent.front().name))));
    parentValue_->setText(r.parent.empty() ? QString() : qs(r.parent.front().value));
    loading_ = wasLoading;
}

PlacementRule YuniKornPolicyEditor::ruleFromForm() const {
    const int row = rules_->indexOfTopLevelItem(rules_->currentItem());
    PlacementRule r = current().placementRules.at(size_t(row));
    r.name = ruleName_->currentText().toStdString();
    r.value = ruleValue_->text().trimmed().toStdString();
    r.create = ruleCreate_->isChecked();
    r.filterType = filterType_->currentData().toString().toStdString();
    r.filterUsers = split(filterUsers_->text());
    r.filterGroups = split(filterGroups_->text());
    const std::string parent = parentName_->currentData().toString().toStdString();
    if (parent.empty()) {
        r.parent.clear();
    } else {
        PlacementRule pr = r.parent.empty() ? PlacementRule{} : r.parent.front();
        pr.name = parent;
        pr.value = parentValue_->text().trimmed().toStdString();
        r.parent = {pr};
    }
    return r;
}

void YuniKornPolicyEditor::commit(YuniKornPartition after, const QString& text) {
    const Project& project = ws_->document()->project();
    if (project.cluster.yunikorn && after == *project.cluster.yunikorn) return;
    // Only errors this edit brings count: the rest of the project's export is not this form's.
    Project candidate = project;
    candidate.cluster.yunikorn = after;
    const QStringList fresh = exportErrorsAdded(project, candidate, TargetScheduler::YuniKorn);
    if (!fresh.isEmpty()) {
        error_->setText(
            tr("Not applied (gantry validate would refuse the export):\n%1").arg(fresh.join('\n')));
        error_->show(); // the form keeps what was typed, to be corrected
        return;
    }
    error_->hide();
    Policy p = policyOf(project);
    p.yunikorn = std::move(after);
    ws_->document()->undoStack()->push(new SetPolicyCommand(ws_->document(), p, text));
}

} // namespace gantry::studio
