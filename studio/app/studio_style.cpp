#include "studio_style.h"

#include <QPalette>
#include <QStyleFactory>

namespace gantry::studio {

namespace {

QPalette darkPalette() {
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x30), base(0x1e, 0x1f, 0x22), text(0xe6, 0xe6, 0xe6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x27, 0x2a));
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9c, 0xa0));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x35, 0x37, 0x3b));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Light, QColor(0x4a, 0x4c, 0x50));
    p.setColor(QPalette::Midlight, QColor(0x40, 0x42, 0x46));
    p.setColor(QPalette::Mid, QColor(0x30, 0x32, 0x35));
    p.setColor(QPalette::Dark, QColor(0x1a, 0x1b, 0x1d));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x6f, 0xba));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6c, 0xa8, 0xf0));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(0x7a, 0x7c, 0x80));
    return p;
}

} // namespace

void applyStudioStyle(QApplication& app, bool dark) {
    if (QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion"))) app.setStyle(fusion);
    if (dark) app.setPalette(darkPalette());
    app.setStyleSheet(QStringLiteral(
        "QTreeView::item, QTableView::item, QListView::item { padding: 2px 4px; }"
        "QGroupBox { font-weight: 600; }"
        "QGroupBox > * { font-weight: normal; }"
        "QTabBar::tab { padding: 6px 14px; }"
        "#StatCard { border: 1px solid palette(midlight); border-radius: 5px; background: palette(base); }"));
}

} // namespace gantry::studio
