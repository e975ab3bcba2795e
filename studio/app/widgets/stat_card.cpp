#include "widgets/stat_card.h"

#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace gantry::studio {

QString formatCount(qint64 n) {
    return QLocale().toString(n);
}

QString formatGpus(double gpus) {
    if (std::abs(gpus - std::round(gpus)) < 1e-9) return formatCount(qint64(std::llround(gpus)));
    return QLocale().toString(gpus, 'f', 1);
}

StatCard::StatCard(const QString& caption, QWidget* parent) : QFrame(parent) {
    setObjectName("StatCard");
    setFrameShape(QFrame::StyledPanel);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(14, 8, 14, 8);
    layout->setSpacing(0);
    caption_ = new QLabel(caption, this);
    value_ = new QLabel(QStringLiteral("–"), this);
    detail_ = new QLabel(this);
    QFont big = value_->font();
    big.setPointSizeF(big.pointSizeF() * 1.7);
    big.setWeight(QFont::DemiBold);
    value_->setFont(big);
    QFont small = caption_->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    caption_->setFont(small);
    detail_->setFont(small);
    caption_->setForegroundRole(QPalette::PlaceholderText);
    detail_->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(caption_);
    layout->addWidget(value_);
    layout->addWidget(detail_);
    // Long details must not widen the window: they are cut, and shown whole in the tooltip.
    for (QLabel* l : {caption_, value_, detail_}) {
        l->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        l->setMinimumWidth(0);
    }
    setMinimumWidth(120);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void StatCard::setValue(const QString& value, const QString& detail) {
    value_->setText(value);
    detailText_ = detail;
    elideDetail();
    detail_->setVisible(!detail.isEmpty());
    setToolTip(detail.isEmpty() ? QString() : caption_->text() + ": " + value + "\n" + detail);
}

QString StatCard::value() const {
    return value_->text();
}

void StatCard::elideDetail() {
    detail_->setText(
        detail_->fontMetrics().elidedText(detailText_, Qt::ElideRight, std::max(0, detail_->width())));
}

void StatCard::resizeEvent(QResizeEvent* event) {
    QFrame::resizeEvent(event);
    elideDetail();
}

void StatCard::setAccent(const QColor& color) {
    accent_ = color;
    update();
}

void StatCard::paintEvent(QPaintEvent* event) {
    QFrame::paintEvent(event);
    if (!accent_.isValid()) return;
    QPainter p(this);
    p.fillRect(QRect(1, 1, 4, height() - 2), accent_);
}

} // namespace gantry::studio
