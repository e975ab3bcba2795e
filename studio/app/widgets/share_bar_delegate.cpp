#include "widgets/share_bar_delegate.h"

#include "models/queue_tree_model.h"

#include <QApplication>
#include <QPainter>

namespace gantry::studio {

void ShareBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                             const QModelIndex& index) const {
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    double share = index.data(QueueTreeModel::ShareRole).toDouble();
    double siblings = index.data(QueueTreeModel::SiblingShareRole).toDouble();
    if (share < 0) return;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const QRect r = option.rect.adjusted(6, 5, -48, -5);
    const bool dark = option.palette.color(QPalette::Base).lightness() < 128;
    QColor track = dark ? QColor(0x3a, 0x40, 0x46) : QColor(0xe4, 0xe8, 0xec);
    QColor sib = dark ? QColor(0x55, 0x6a, 0x80) : QColor(0xb9, 0xcf, 0xe6);
    QColor mine = dark ? QColor(0x6c, 0xb4, 0xff) : QColor(0x2f, 0x6f, 0xb3);
    QColor over(0xd3, 0x2f, 0x2f);
    painter->setPen(Qt::NoPen);
    painter->setBrush(track);
    painter->drawRoundedRect(r, 3, 3);
    double scale = std::max(1.0, siblings);
    auto width = [&](double v) { return int(r.width() * std::min(v, scale) / scale); };
    painter->setBrush(siblings > 1.0 + 1e-9 ? over.lighter(150) : sib);
    painter->drawRoundedRect(QRect(r.left(), r.top(), width(siblings), r.height()), 3, 3);
    painter->setBrush(siblings > 1.0 + 1e-9 ? over : mine);
    painter->drawRoundedRect(QRect(r.left(), r.top(), width(share), r.height()), 3, 3);
    if (siblings > 1.0 + 1e-9) { // mark where the parent's 100 % is
        painter->setPen(QPen(option.palette.color(QPalette::Text), 1));
        int x = r.left() + width(1.0);
        painter->drawLine(x, r.top() - 2, x, r.bottom() + 2);
    }
    painter->setPen(option.state & QStyle::State_Selected ? option.palette.color(QPalette::HighlightedText)
                                                          : option.palette.color(QPalette::Text));
    painter->drawText(QRect(r.right() + 4, option.rect.top(), 44, option.rect.height()),
                      Qt::AlignVCenter | Qt::AlignRight, QStringLiteral("%1 %").arg(share * 100, 0, 'f', 0));
    painter->restore();
}

QSize ShareBarDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const {
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    return {std::max(s.width(), 160), s.height()};
}

} // namespace gantry::studio
