#pragma once
// Queues: the queue tree (add, remove, rename in place, re-parent by drag and drop) beside the
// quota editor of the selected queue.
#include <QWidget>

class QTreeView;

namespace gantry::studio {

class Workspace;
class QueueTreeModel;
class QueueEditor;

class QueuesTab : public QWidget {
    Q_OBJECT
  public:
    explicit QueuesTab(Workspace* workspace, QWidget* parent = nullptr);
    QueueTreeModel* model() const { return model_; }
    QueueEditor* editor() const { return editor_; }
    QTreeView* tree() const { return tree_; }
    void selectQueue(const std::string& name);

  signals:
    void statusMessage(const QString& text);

  private:
    void addQueue(bool asChild);
    void removeSelected();
    std::string selectedQueue() const;

    Workspace* ws_;
    QueueTreeModel* model_;
    QTreeView* tree_;
    QueueEditor* editor_;
};

} // namespace gantry::studio
