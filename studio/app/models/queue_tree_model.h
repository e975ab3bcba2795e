#pragma once
// The queue tree as a Qt item model: one row per queue under its parent, quota columns in the target
// scheduler's terms (GPU amounts; the editor shows every resource), a share-of-parent column the
// view draws as a bar. Edits and drag-and-drop re-parenting go through undo commands.
#include "core/project_document.h"
#include "core/quota_terms.h"

#include <QAbstractItemModel>
#include <vector>

namespace gantry::studio {

class QueueTreeModel : public QAbstractItemModel {
    Q_OBJECT
  public:
    enum Column { Name, Kind, Weight, QuotaA, QuotaB, QuotaC, Share, ColumnCount };
    enum Role {
        QueueNameRole = Qt::UserRole + 1, // std::string as QString
        SortRole,                         // numbers for sorting
        ShareRole,                        // double 0..: this queue's entitlement / parent's
        SiblingShareRole,                 // double: all siblings' entitlements / parent's
        ProblemRole,                      // QString: first validation error of the queue, if any
    };
    static constexpr const char* MimeType = "application/x-gantry-queue-names";

    explicit QueueTreeModel(ProjectDocument* doc, QObject* parent = nullptr);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    Qt::DropActions supportedDropActions() const override { return Qt::MoveAction; }
    Qt::DropActions supportedDragActions() const override { return Qt::MoveAction; }
    QStringList mimeTypes() const override;
    QMimeData* mimeData(const QModelIndexList& indexes) const override;
    bool canDropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                         const QModelIndex& parent) const override;
    bool dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                      const QModelIndex& parent) override;

    QModelIndex indexOfQueue(const std::string& name, int column = 0) const;
    std::string queueName(const QModelIndex& index) const;
    const Queue* queue(const QModelIndex& index) const;
    QuotaField quotaField(int column) const; // for QuotaA..QuotaC in the target's order
    const std::string& resource() const { return resource_; }

  signals:
    // Set when a drop or an edit was refused; the window shows it in the status bar.
    void refused(const QString& why);

  private:
    struct Item {
        int queue = -1; // index into cluster.queues; -1 = the invisible root
        int parent = -1;
        int row = 0;
        std::vector<int> children;
        bool orphan = false; // parent missing or part of a cycle: shown at the top level
    };
    void rebuild();
    int itemOf(const QModelIndex& index) const;
    double shareOf(int item, bool siblings) const;

    ProjectDocument* doc_;
    std::vector<Item> items_;
    std::vector<int> itemOfQueue_; // queue index -> item
    std::string resource_;         // the resource shown in the quota columns
};

} // namespace gantry::studio
