#pragma once
// Draws a queue's share of its parent as a bar in the tree: the queue's part solid, its siblings'
// total as a faint track, red past 100 % (the parent is over-committed).
#include <QStyledItemDelegate>

namespace gantry::studio {

class ShareBarDelegate : public QStyledItemDelegate {
    Q_OBJECT
  public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace gantry::studio
