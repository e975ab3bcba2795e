#include "tabs/topology_tab.h"

#include "core/cluster_commands.h"
#include "core/label_plan.h"
#include "core/qt_text.h"
#include "core/topology_paths.h"
#include "models/node_table_model.h"
#include "widgets/stat_card.h"
#include "workspace.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QTreeView>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <map>

namespace gantry::studio {
namespace {} // namespace

TopologyTab::TopologyTab(Workspace* workspace, QWidget* parent) : QWidget(parent), ws_(workspace) {
    auto* doc = ws_->document();
    auto* outer = new QHBoxLayout(this);
    outer->setContentsMargins(10, 10, 10, 6);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setChildrenCollapsible(false);
    outer->addWidget(splitter);

    // Column 1: levels and the assignment form.
    auto* left = new QWidget(splitter);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    auto* levelsBox = new QGroupBox(tr("Topology levels (top first)"), left);
    auto* levelsLayout = new QVBoxLayout(levelsBox);
    levels_ = new QTableWidget(0, 2, levelsBox);
    levels_->setHorizontalHeaderLabels({tr("Level"), tr("Node label")});
    levels_->horizontalHeader()->setStretchLastSection(true);
    levels_->verticalHeader()->setVisible(false);
    levels_->setSelectionBehavior(QAbstractItemView::SelectRows);
    levels_->setMaximumHeight(170);
    levels_->verticalHeader()->setDefaultSectionSize(levels_->fontMetrics().height() + 8);
    levels_->setAlternatingRowColors(true);
    levelsLayout->addWidget(levels_);
    auto* levelButtons = new QHBoxLayout;
    auto* addLevel = new QPushButton(tr("Add"), levelsBox);
    auto* removeLevel = new QPushButton(tr("Remove"), levelsBox);
    auto* upLevel = new QPushButton(tr("Up"), levelsBox);
    auto* downLevel = new QPushButton(tr("Down"), levelsBox);
    auto* resetLevels = new QPushButton(tr("Defaults"), levelsBox);
    for (auto* b : {addLevel, removeLevel, upLevel, downLevel, resetLevels}) levelButtons->addWidget(b);
    levelsLayout->addLayout(levelButtons);
    leftLayout->addWidget(levelsBox);

    auto* assignBox = new QGroupBox(tr("Assign labels"), left);
    auto* form = new QFormLayout(assignBox);
    bySelection_ = new QRadioButton(tr("Nodes selected in the list"), assignBox);
    byPattern_ = new QRadioButton(tr("Nodes whose name matches"), assignBox);
    byPattern_->setChecked(true);
    pattern_ = new QLineEdit(assignBox);
    pattern_->setPlaceholderText(tr("glob such as gpu-h100-* or /regex/"));
    pattern_->setClearButtonEnabled(true);
    keyBox_ = new QComboBox(assignBox);
    keyBox_->setEditable(true);
    keyBox_->setToolTip(tr("A topology level, or any label key"));
    value_ = new QLineEdit(assignBox);
    value_->setPlaceholderText(tr("e.g. rack-{n:02}  ({n} = group number, {i} = position)"));
    perValue_ = new QSpinBox(assignBox);
    perValue_->setRange(0, 100000);
    perValue_->setSpecialValueText(tr("all the same"));
    perValue_->setValue(8);
    perValue_->setSuffix(tr(" nodes per value"));
    firstNumber_ = new QSpinBox(assignBox);
    firstNumber_->setRange(0, 1000000);
    planNote_ = new QLabel(assignBox);
    planNote_->setWordWrap(true);
    planNote_->setForegroundRole(QPalette::PlaceholderText);
    auto* apply = new QPushButton(tr("Apply label"), assignBox);
    apply->setDefault(true);
    auto* removeLabel = new QPushButton(tr("Remove label"), assignBox);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(apply);
    buttons->addWidget(removeLabel);
    buttons->addStretch(1);
    form->addRow(bySelection_);
    form->addRow(byPattern_);
    form->addRow(tr("Pattern"), pattern_);
    form->addRow(tr("Label"), keyBox_);
    form->addRow(tr("Value"), value_);
    form->addRow(tr("Numbering"), perValue_);
    form->addRow(tr("First number"), firstNumber_);
    form->addRow(planNote_);
    form->addRow(buttons);
    leftLayout->addWidget(assignBox);
    leftLayout->addStretch(1);

    // Column 2: the nodes.
    auto* middle = new QWidget(splitter);
    auto* middleLayout = new QVBoxLayout(middle);
    middleLayout->setContentsMargins(0, 0, 0, 0);
    auto* nodesTitle = new QLabel(
        tr("<b>Nodes</b> — the list follows the pattern; select rows to label just those"), middle);
    middleLayout->addWidget(nodesTitle);
    nodes_ = new NodeTableModel(doc, this);
    proxy_ = new NodeFilterProxy(this);
    proxy_->setSourceModel(nodes_);
    nodeList_ = new QTreeView(middle);
    nodeList_->setModel(proxy_);
    nodeList_->setRootIsDecorated(false);
    nodeList_->setUniformRowHeights(true);
    nodeList_->setAlternatingRowColors(true);
    nodeList_->setSortingEnabled(true);
    nodeList_->header()->setResizeContentsPrecision(64); // size columns from a sample of rows, not all 10,000
    nodeList_->sortByColumn(0, Qt::AscendingOrder);
    nodeList_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    middleLayout->addWidget(nodeList_, 1);

    // Column 3: the preview.
    auto* right = new QWidget(splitter);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(new QLabel(tr("<b>Preview</b> — the tree these labels make"), right));
    preview_ = new QTreeWidget(right);
    preview_->setColumnCount(5);
    preview_->setHeaderLabels(
        {tr("Domain"), tr("Nodes"), tr("GPUs"), tr("HyperNode tier"), tr("Kueue level")});
    preview_->setUniformRowHeights(true);
    preview_->header()->setResizeContentsPrecision(64);
    preview_->setAlternatingRowColors(true);
    rightLayout->addWidget(preview_, 1);
    previewNote_ = new QLabel(right);
    previewNote_->setWordWrap(true);
    previewNote_->setTextFormat(Qt::RichText);
    rightLayout->addWidget(previewNote_);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 4);
    splitter->setStretchFactor(2, 4);
    splitter->setSizes({440, 560, 560});

    // Pattern filters the list (as a name filter) and defines the nodes to label.
    connect(pattern_, &QLineEdit::textChanged, this, [this] {
        byPattern_->setChecked(true);
        refreshPlanNote();
    });
    for (QObject* o : std::initializer_list<QObject*>{value_, keyBox_->lineEdit()})
        connect(qobject_cast<QLineEdit*>(o), &QLineEdit::textChanged, this, &TopologyTab::refreshPlanNote);
    connect(perValue_, &QSpinBox::valueChanged, this, &TopologyTab::refreshPlanNote);
    connect(firstNumber_, &QSpinBox::valueChanged, this, &TopologyTab::refreshPlanNote);
    connect(bySelection_, &QRadioButton::toggled, this, &TopologyTab::refreshPlanNote);
    connect(nodeList_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        if (!nodeList_->selectionModel()->selectedRows().isEmpty() && !byPattern_->hasFocus())
            bySelection_->setChecked(true);
        refreshPlanNote();
    });
    connect(keyBox_, &QComboBox::currentIndexChanged, this, [this] {
        QString key = keyBox_->currentData().toString();
        if (!key.isEmpty()) keyBox_->setEditText(key);
        QString level = keyBox_->currentText();
        for (const auto& l : effectiveLevels(ws_->document()->project().cluster))
            if (qs(l.nodeLabel) == key && value_->text().isEmpty())
                value_->setText(qs(l.name) + QStringLiteral("-{n:02}"));
        refreshPlanNote();
    });
    connect(apply, &QPushButton::clicked, this, [this] { applyLabels(false); });
    connect(removeLabel, &QPushButton::clicked, this, [this] { applyLabels(true); });

    connect(levels_, &QTableWidget::cellChanged, this, [this] {
        if (!loadingLevels_) commitLevels();
    });
    connect(addLevel, &QPushButton::clicked, this, [this] {
        auto levels = effectiveLevels(ws_->document()->project().cluster);
        levels.push_back({"level", "topology.gantry.io/level"});
        ws_->document()->undoStack()->push(new SetTopologyLevelsCommand(ws_->document(), levels));
    });
    connect(removeLevel, &QPushButton::clicked, this, [this] {
        int row = levels_->currentRow();
        auto levels = effectiveLevels(ws_->document()->project().cluster);
        if (row < 0 || size_t(row) >= levels.size()) return;
        levels.erase(levels.begin() + row);
        ws_->document()->undoStack()->push(new SetTopologyLevelsCommand(ws_->document(), levels));
    });
    auto move = [this](int delta) {
        int row = levels_->currentRow();
        auto levels = effectiveLevels(ws_->document()->project().cluster);
        int to = row + delta;
        if (row < 0 || to < 0 || size_t(to) >= levels.size()) return;
        std::swap(levels[size_t(row)], levels[size_t(to)]);
        ws_->document()->undoStack()->push(new SetTopologyLevelsCommand(ws_->document(), levels));
        levels_->selectRow(to);
    };
    connect(upLevel, &QPushButton::clicked, this, [move] { move(-1); });
    connect(downLevel, &QPushButton::clicked, this, [move] { move(+1); });
    connect(resetLevels, &QPushButton::clicked, this, [this] {
        ws_->document()->undoStack()->push(
            new SetTopologyLevelsCommand(ws_->document(), defaultTopologyLevels()));
    });

    connect(doc, &ProjectDocument::projectReplaced, this, [this] {
        refreshLevels();
        refreshPreview();
        for (int c = 0; c < nodes_->columnCount(); ++c) nodeList_->resizeColumnToContents(c);
    });
    for (auto signal : {&ProjectDocument::topologyChanged, &ProjectDocument::nodesReset})
        connect(doc, signal, this, [this] {
            refreshLevels();
            refreshPreview();
        });
    connect(doc, &ProjectDocument::nodesChanged, this, &TopologyTab::refreshPreview);
    refreshLevels();
    refreshPreview();
}

void TopologyTab::refreshLevels() {
    loadingLevels_ = true;
    auto levels = effectiveLevels(ws_->document()->project().cluster);
    levels_->setRowCount(int(levels.size()));
    for (size_t i = 0; i < levels.size(); ++i) {
        levels_->setItem(int(i), 0, new QTableWidgetItem(qs(levels[i].name)));
        levels_->setItem(int(i), 1, new QTableWidgetItem(qs(levels[i].nodeLabel)));
    }
    levels_->resizeColumnToContents(0);
    QString current = keyBox_->currentText();
    keyBox_->blockSignals(true);
    keyBox_->clear();
    for (const auto& l : levels)
        keyBox_->addItem(tr("%1 (%2)").arg(qs(l.name), qs(l.nodeLabel)), qs(l.nodeLabel));
    keyBox_->setEditText(current.isEmpty() && !levels.empty() ? qs(levels.back().nodeLabel) : current);
    keyBox_->blockSignals(false);
    loadingLevels_ = false;
    refreshPlanNote();
}

void TopologyTab::commitLevels() {
    std::vector<TopologyLevel> levels;
    for (int r = 0; r < levels_->rowCount(); ++r) {
        auto text = [&](int c) {
            return levels_->item(r, c) ? levels_->item(r, c)->text().trimmed().toStdString() : std::string();
        };
        if (!isValidLabelKey(text(1))) {
            emit statusMessage(tr("'%1' is not a valid label key.").arg(qs(text(1))));
            refreshLevels();
            return;
        }
        levels.push_back({text(0), text(1)});
    }
    if (levels == effectiveLevels(ws_->document()->project().cluster)) return;
    ws_->document()->undoStack()->push(new SetTopologyLevelsCommand(ws_->document(), levels));
}

std::vector<int> TopologyTab::targetNodes(QString* error) const {
    const auto& cluster = ws_->document()->project().cluster;
    if (bySelection_->isChecked()) {
        std::vector<std::pair<int, int>> rows; // (view row, node) to keep the list's order
        for (const auto& i : nodeList_->selectionModel()->selectedRows()) {
            int node = nodes_->nodeAt(proxy_->mapToSource(i));
            if (node >= 0) rows.emplace_back(i.row(), node);
        }
        std::sort(rows.begin(), rows.end());
        std::vector<int> out;
        for (auto& r : rows) out.push_back(r.second);
        return out;
    }
    auto matched = nodesMatching(cluster, pattern_->text(), error);
    if (!matched) return {};
    // Number in natural name order so "rack-{n}" follows node-1, node-2, ..., node-10.
    std::sort(matched->begin(), matched->end(), [&](int a, int b) {
        return naturalLess(cluster.nodes[size_t(a)].name, cluster.nodes[size_t(b)].name);
    });
    return *matched;
}

void TopologyTab::refreshPlanNote() {
    if (byPattern_->isChecked() && pattern_->text().trimmed().isEmpty()) {
        proxy_->setFilterQuery(QString());
        planNote_->setText(tr("Type a node-name pattern, or select nodes in the list."));
        return;
    }
    QString error;
    auto nodes = targetNodes(&error);
    // The list shows what a pattern picks.
    if (byPattern_->isChecked()) {
        QString p = pattern_->text().trimmed();
        if (p.isEmpty() || (p.startsWith('/') && p.endsWith('/'))) {
            proxy_->setFilterQuery(QString());
        } else {
            // A glob's fixed prefix narrows the list; the exact match is what gets labelled.
            QString fixed = p.left(p.indexOf(QRegularExpression(QStringLiteral("[*?\\[]"))));
            proxy_->setFilterQuery(
                fixed.isEmpty() && !p.contains(QRegularExpression(QStringLiteral("[*?\\[]"))) ? p : fixed);
        }
    }
    std::string key = keyBox_->currentText().trimmed().toStdString();
    if (key.find(" (") != std::string::npos && keyBox_->currentData().isValid())
        key = keyBox_->currentData().toString().toStdString();
    QString note;
    if (!error.isEmpty())
        note = QStringLiteral("<span style='color:#d32f2f'>%1</span>").arg(error.toHtmlEscaped());
    else if (nodes.empty())
        note =
            bySelection_->isChecked() ? tr("Select nodes in the list.") : tr("No node matches the pattern.");
    else if (value_->text().trimmed().isEmpty())
        note = tr("%n node(s) picked. Type the value to set; {n} numbers groups of nodes (rack-{n:02} → "
                  "rack-00, rack-01 …).",
                  "", int(nodes.size()));
    else if (!isValidLabelKey(key))
        note = QStringLiteral("<span style='color:#d32f2f'>%1</span>")
                   .arg(tr("'%1' is not a valid label key.").arg(qs(key)).toHtmlEscaped());
    else {
        // Values differ only in their numbers, so the first and the last show every problem.
        LabelPlan plan{key, value_->text().trimmed(), perValue_->value(), firstNumber_->value()};
        std::vector<std::string> values = {planValue(plan, 0)};
        if (nodes.size() > 1) values.push_back(planValue(plan, nodes.size() - 1));
        std::string bad;
        for (const auto& v : values)
            if (!isValidLabelValue(v)) bad = v;
        size_t distinct = plan.valueTemplate.contains(QStringLiteral("{i")) ? nodes.size()
                          : plan.nodesPerValue > 0 && plan.valueTemplate.contains(QStringLiteral("{n"))
                              ? (nodes.size() + size_t(plan.nodesPerValue) - 1) / size_t(plan.nodesPerValue)
                              : 1;
        if (!bad.empty())
            note = QStringLiteral("<span style='color:#d32f2f'>%1</span>")
                       .arg(tr("'%1' is not a valid label value (up to 63 letters, digits, '-', '_', '.').")
                                .arg(qs(bad))
                                .toHtmlEscaped());
        else
            note = tr("Will set <b>%1</b> on %2 node(s): %3%4 (%5 distinct value(s)).")
                       .arg(qs(key).toHtmlEscaped())
                       .arg(nodes.size())
                       .arg(qs(values.front()).toHtmlEscaped(),
                            values.size() > 1 ? QStringLiteral(" … ") + qs(values.back()).toHtmlEscaped()
                                              : QString())
                       .arg(distinct);
    }
    planNote_->setText(note);
}

int TopologyTab::applyLabels(bool remove) {
    auto* doc = ws_->document();
    QString error;
    auto nodes = targetNodes(&error);
    std::string key = keyBox_->currentText().trimmed().toStdString();
    if (keyBox_->currentData().isValid() && key.find(" (") != std::string::npos)
        key = keyBox_->currentData().toString().toStdString();
    if (!error.isEmpty() || nodes.empty() || !isValidLabelKey(key)) {
        emit statusMessage(error.isEmpty() ? tr("Nothing to label: pick nodes and a valid label key.")
                                           : error);
        return 0;
    }
    if (remove) {
        doc->undoStack()->push(new SetNodeLabelCommand(doc, nodes, key, std::nullopt));
        emit statusMessage(tr("Removed %1 from %2 node(s)").arg(qs(key)).arg(nodes.size()));
        return int(nodes.size());
    }
    LabelPlan plan{key, value_->text().trimmed(), perValue_->value(), firstNumber_->value()};
    auto values = planValues(plan, nodes.size());
    for (const auto& v : values)
        if (!isValidLabelValue(v) || v.empty()) {
            emit statusMessage(tr("'%1' is not a valid label value.").arg(qs(v)));
            return 0;
        }
    std::vector<SetNodeLabelsCommand::Change> changes;
    for (size_t i = 0; i < nodes.size(); ++i) changes.push_back({nodes[i], key, values[i]});
    doc->undoStack()->push(new SetNodeLabelsCommand(
        doc, std::move(changes), tr("Label %1 node(s) with %2").arg(nodes.size()).arg(qs(key))));
    emit statusMessage(tr("Labelled %1 node(s) with %2").arg(nodes.size()).arg(qs(key)));
    return int(nodes.size());
}

void TopologyTab::refreshPreview() {
    const auto& cluster = ws_->document()->project().cluster;
    TopologyTree tree = buildTopologyTree(cluster);
    preview_->clear();
    const int levels = int(tree.levels.size());
    std::function<void(QTreeWidgetItem*, int)> add = [&](QTreeWidgetItem* parentItem, int entry) {
        const auto& e = tree.entries[size_t(entry)];
        auto* item = new QTreeWidgetItem(parentItem);
        item->setText(
            0, e.level < 0 ? tr("cluster")
                           : QStringLiteral("%1 %2").arg(qs(tree.levels[size_t(e.level)].name), qs(e.name)));
        item->setText(1, formatCount(e.nodes));
        item->setText(2, formatCount(e.gpus));
        item->setText(3, e.level < 0 ? QString() : QString::number(levels - e.level));
        item->setText(4, e.level < 0 ? QString() : qs(tree.levels[size_t(e.level)].nodeLabel));
        for (int c = 1; c <= 3; ++c) item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        for (int child : e.children) add(item, child);
    };
    add(preview_->invisibleRootItem(), 0);
    preview_->expandToDepth(tree.levels.size() > 2 ? 1 : 2);
    for (int c = 0; c < 5; ++c) preview_->resizeColumnToContents(c);

    QStringList lines;
    if (levels == 0) {
        lines << tr("No node carries a topology label yet. Assign zone, block, rack or NVLink-domain labels "
                    "on the left.");
    } else {
        std::map<int, int> perLevel;
        for (const auto& e : tree.entries)
            if (e.level >= 0) perLevel[e.level] += 1;
        QStringList tiers;
        for (int l = levels - 1; l >= 0; --l)
            tiers << tr("tier %1: %2 × %3")
                         .arg(levels - l)
                         .arg(perLevel[l])
                         .arg(qs(tree.levels[size_t(l)].name));
        lines << tr("<b>Volcano HyperNodes</b>: %1.").arg(tiers.join(QStringLiteral(", ")));
        QStringList kueue;
        for (const auto& l : tree.levels) kueue << qs(l.nodeLabel);
        kueue << QStringLiteral("kubernetes.io/hostname");
        lines << tr("<b>Kueue Topology</b> levels: %1.").arg(kueue.join(QStringLiteral(" › ")));
        for (const auto& level : tree.levels) {
            int missing = 0;
            for (const auto& n : cluster.nodes) missing += n.labels.count(level.nodeLabel) == 0;
            if (missing > 0)
                lines << QStringLiteral("<span style='color:#b26a00'>%1</span>")
                             .arg(tr("%n node(s) have no %1 label; they hang one level higher.", "", missing)
                                      .arg(qs(level.name))
                                      .toHtmlEscaped());
        }
    }
    if (!cluster.hyperNodes.empty())
        lines << tr(
            "The project also holds %n HyperNode object(s) from its source: the what-if and the Volcano "
            "export use those; label edits here reach the exported node labels and Kueue's Topology.",
            "", int(cluster.hyperNodes.size()));
    previewNote_->setText(lines.join(QStringLiteral("<br>")));
}

} // namespace gantry::studio
