#include "widgets/quota_bars.h"

#include "core/queue_commands.h"
#include "core/quota_terms.h"

#include <QPainter>

namespace gantry::studio {

QuotaBars::QuotaBars(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void QuotaBars::setQueue(const Project* project, const Queue* queue) {
    bars_.clear();
    empty_.clear();
    if (!project || !queue) {
        updateGeometry();
        update();
        return;
    }
    const auto target = project->target;
    const QuotaTerms terms = quotaTerms(target);
    const Queue* parent = nullptr;
    if (!queue->parent.empty() && queue->parent != "root") {
        int pi = queueIndex(*project, queue->parent);
        if (pi >= 0) parent = &project->cluster.queues[size_t(pi)];
    }
    for (const auto& r : quotaResources(*project)) {
        auto mine = entitlement(*queue, target, r);
        if (!mine) continue;
        Bar b;
        b.resource = QString::fromStdString(r);
        b.mine = double(*mine);
        b.hasParent = parent != nullptr;
        if (parent) {
            auto pv = entitlement(*parent, target, r);
            if (!pv) continue;
            b.whole = double(*pv);
        } else {
            b.whole = double(clusterTotal(project->cluster, r));
        }
        for (const auto& s : project->cluster.queues) {
            bool sibling = parent ? s.parent == parent->name : (s.parent.empty() || s.parent == "root");
            if (!sibling || s.name == queue->name) continue;
            b.siblings += double(entitlement(s, target, r).value_or(0));
        }
        if (b.whole <= 0 && b.mine <= 0) continue;
        QString amount = QString::fromStdString(formatAmount(r, *mine));
        QString whole = QString::fromStdString(formatAmount(r, int64_t(b.whole)));
        QString unit = isGpuResource(r) ? QStringLiteral(" GPU") : QString();
        b.caption =
            parent
                ? tr("%1 %2 of %3's %4%5")
                      .arg(terms.share.toLower(), amount, QString::fromStdString(parent->name), whole, unit)
                : tr("%1 %2 of the cluster's %3%4").arg(terms.share.toLower(), amount, whole, unit);
        bars_.push_back(b);
    }
    if (bars_.empty())
        empty_ = tr("No %1 set, so this queue has no share to compare.").arg(terms.share.toLower());
    updateGeometry();
    update();
}

QSize QuotaBars::sizeHint() const {
    int line = fontMetrics().height();
    int rows = std::max<int>(1, int(bars_.size()));
    return {320, rows * (line * 2 + 10) + 4};
}

void QuotaBars::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const int line = fontMetrics().height();
    if (bars_.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, empty_);
        return;
    }
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    QColor track = dark ? QColor(0x3a, 0x40, 0x46) : QColor(0xe4, 0xe8, 0xec);
    QColor sib = dark ? QColor(0x55, 0x6a, 0x80) : QColor(0xb9, 0xcf, 0xe6);
    QColor mine = dark ? QColor(0x6c, 0xb4, 0xff) : QColor(0x2f, 0x6f, 0xb3);
    QColor over(0xd3, 0x2f, 0x2f);
    int y = 2;
    const int labelW = std::min(140, width() / 4);
    for (const auto& b : bars_) {
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(0, y, labelW, line), Qt::AlignLeft | Qt::AlignVCenter, b.resource);
        double total = b.mine + b.siblings;
        double pct = b.whole > 0 ? 100.0 * b.mine / b.whole : 0;
        double totalPct = b.whole > 0 ? 100.0 * total / b.whole : 0;
        QString right = tr("%1 % · with siblings %2 %").arg(pct, 0, 'f', 0).arg(totalPct, 0, 'f', 0);
        p.setPen(totalPct > 100.0 + 1e-9 ? over : palette().color(QPalette::PlaceholderText));
        p.drawText(QRect(labelW, y, width() - labelW, line), Qt::AlignRight | Qt::AlignVCenter, right);
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(QRect(labelW, y, width() - labelW - p.fontMetrics().horizontalAdvance(right) - 8, line),
                   Qt::AlignLeft | Qt::AlignVCenter, b.caption);
        QRect bar(0, y + line + 3, width() - 1, line - 4);
        double scale = std::max({b.whole, total, 1.0});
        auto w = [&](double v) { return int(bar.width() * v / scale); };
        p.setPen(Qt::NoPen);
        p.setBrush(track);
        p.drawRoundedRect(QRect(bar.left(), bar.top(), w(b.whole), bar.height()), 3, 3);
        p.setBrush(mine);
        p.drawRoundedRect(QRect(bar.left(), bar.top(), w(b.mine), bar.height()), 3, 3);
        p.setBrush(sib);
        p.drawRect(QRect(bar.left() + w(b.mine), bar.top(), w(b.siblings), bar.height()));
        if (total > b.whole) {
            p.setBrush(over);
            p.drawRect(QRect(bar.left() + w(b.whole), bar.top(), w(total) - w(b.whole), bar.height()));
        }
        y += line * 2 + 10;
    }
}

} // namespace gantry::studio
