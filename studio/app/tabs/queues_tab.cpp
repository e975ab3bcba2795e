#include "tabs/queues_tab.h"

#include "core/queue_commands.h"
#include "models/queue_tree_model.h"
#include "widgets/queue_editor.h"
#include "widgets/share_bar_delegate.h"
#include "workspace.h"

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QScrollArea>
#include <QSplitter>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>
#include <set>

namespace gantry::studio {

QueuesTab::QueuesTab(Workspace* workspace, QWidget* parent) : QWidget(parent), ws_(workspace) {
    auto* doc = ws_->document();
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(10, 10, 10, 6);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setChildrenCollapsible(false);
    outer->addWidget(splitter);

    auto* left = new QWidget(splitter);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    auto button = [&](const QString& text, const QString& tip) {
        auto* b = new QToolButton(left);
        b->setText(text);
        b->setToolTip(tip);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        bar->addWidget(b);
        return b;
    };
    auto* add = button(tr("Add queue"), tr("Add a queue beside the selected one (Ctrl+Shift+N)"));
    auto* addChild = button(tr("Add child"), tr("Add a queue under the selected one"));
    auto* remove = button(tr("Remove"), tr("Remove the selected queue and the queues below it (Del)"));
    bar->addStretch(1);
    auto* hint = new QLabel(tr("Drag a queue onto another to move it; onto empty space for the top level. "
                               "Double-click a cell to edit."),
                            left);
    hint->setForegroundRole(QPalette::PlaceholderText);
    hint->setWordWrap(true);
    leftLayout->addLayout(bar);

    model_ = new QueueTreeModel(doc, this);
    tree_ = new QTreeView(left);
    tree_->setModel(model_);
    tree_->setItemDelegateForColumn(QueueTreeModel::Share, new ShareBarDelegate(tree_));
    tree_->setDragDropMode(QAbstractItemView::DragDrop);
    tree_->setDefaultDropAction(Qt::MoveAction);
    tree_->setDragEnabled(true);
    tree_->setAcceptDrops(true);
    tree_->setDropIndicatorShown(true);
    tree_->setSelectionMode(QAbstractItemView::SingleSelection);
    tree_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    tree_->setAlternatingRowColors(true);
    tree_->setUniformRowHeights(true);
    tree_->header()->setStretchLastSection(true);
    tree_->header()->setSectionResizeMode(QHeaderView::Interactive);
    leftLayout->addWidget(tree_, 1);
    leftLayout->addWidget(hint);

    auto* scroll = new QScrollArea(splitter);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    editor_ = new QueueEditor(doc, scroll);
    scroll->setWidget(editor_);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({900, 620});

    auto* removeAction = new QAction(tr("Remove queue"), this);
    removeAction->setShortcut(QKeySequence::Delete);
    removeAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    tree_->addAction(removeAction);
    auto* addQueueAction = new QAction(tr("Add queue"), this);
    addQueueAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
    addQueueAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(addQueueAction);

    connect(add, &QToolButton::clicked, this, [this] { addQueue(false); });
    connect(addQueueAction, &QAction::triggered, this, [this] { addQueue(false); });
    connect(addChild, &QToolButton::clicked, this, [this] { addQueue(true); });
    connect(remove, &QToolButton::clicked, this, &QueuesTab::removeSelected);
    connect(removeAction, &QAction::triggered, this, &QueuesTab::removeSelected);
    connect(model_, &QueueTreeModel::refused, this, &QueuesTab::statusMessage);
    connect(editor_, &QueueEditor::statusMessage, this, &QueuesTab::statusMessage);
    connect(tree_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { editor_->setQueue(model_->queueName(current)); });

    // Keep expansion and selection across the model resets that structural edits cause.
    auto expanded = std::make_shared<std::set<std::string>>();
    auto selected = std::make_shared<std::string>();
    connect(model_, &QAbstractItemModel::modelAboutToBeReset, this, [this, expanded, selected] {
        expanded->clear();
        std::function<void(const QModelIndex&)> walk = [&](const QModelIndex& parentIndex) {
            for (int r = 0; r < model_->rowCount(parentIndex); ++r) {
                QModelIndex i = model_->index(r, 0, parentIndex);
                if (tree_->isExpanded(i)) expanded->insert(model_->queueName(i));
                walk(i);
            }
        };
        walk({});
        *selected = editor_->queueName();
    });
    connect(model_, &QAbstractItemModel::modelReset, this, [this, expanded, selected] {
        if (expanded->empty())
            tree_->expandAll();
        else
            for (const auto& name : *expanded) tree_->setExpanded(model_->indexOfQueue(name), true);
        if (!selected->empty()) selectQueue(*selected);
    });
    connect(doc, &ProjectDocument::projectReplaced, this, [this] {
        tree_->expandAll();
        for (int c = 0; c < QueueTreeModel::Share; ++c) tree_->resizeColumnToContents(c);
        tree_->setColumnWidth(QueueTreeModel::Name,
                              std::max(tree_->columnWidth(QueueTreeModel::Name) + 24, 200));
        QModelIndex first = model_->index(0, 0);
        if (first.isValid()) tree_->setCurrentIndex(first);
    });
    tree_->expandAll();
}

std::string QueuesTab::selectedQueue() const {
    return model_->queueName(tree_->currentIndex());
}

void QueuesTab::selectQueue(const std::string& name) {
    QModelIndex i = model_->indexOfQueue(name);
    if (!i.isValid()) return;
    tree_->scrollTo(i);
    tree_->setCurrentIndex(i);
    editor_->setQueue(name);
}

void QueuesTab::addQueue(bool asChild) {
    auto* doc = ws_->document();
    std::string selected = selectedQueue();
    Queue q;
    q.name =
        uniqueQueueName(doc->project(), asChild && !selected.empty() ? selected + "-child" : "new-queue");
    if (asChild && !selected.empty()) {
        QString why;
        if (!canReparent(doc->project(), q.name, selected, &why) &&
            queueIndex(doc->project(), selected) >= 0) {
            const Queue& parentQueue =
                doc->project().cluster.queues[size_t(queueIndex(doc->project(), selected))];
            if (parentQueue.kind == Queue::Kind::KueueClusterQueue) {
                emit statusMessage(
                    tr("A Kueue ClusterQueue cannot have children; add the queue under a cohort."));
                return;
            }
        }
        q.parent = selected;
    } else if (!selected.empty()) {
        q.parent = doc->project().cluster.queues[size_t(queueIndex(doc->project(), selected))].parent;
    }
    if (doc->project().target == TargetScheduler::Kueue) q.kind = Queue::Kind::KueueClusterQueue;
    doc->undoStack()->push(new AddQueueCommand(doc, q));
    selectQueue(q.name);
    tree_->edit(model_->indexOfQueue(q.name));
}

void QueuesTab::removeSelected() {
    auto* doc = ws_->document();
    std::string name = selectedQueue();
    if (name.empty()) return;
    auto subtree = queueSubtree(doc->project(), name);
    if (subtree.size() > 1) {
        auto answer = QMessageBox::question(
            this, tr("Remove queue"),
            tr("Remove '%1' and the %n queue(s) below it? You can undo this with Ctrl+Z.", "",
               int(subtree.size() - 1))
                .arg(QString::fromStdString(name)));
        if (answer != QMessageBox::Yes) return;
    }
    doc->undoStack()->push(new RemoveQueueCommand(doc, name));
    emit statusMessage(tr("Removed %1 (Ctrl+Z to undo)").arg(QString::fromStdString(name)));
}

} // namespace gantry::studio
