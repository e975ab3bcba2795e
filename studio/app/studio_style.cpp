#include "studio_style.h"

#include <QStyleFactory>

namespace gantry::studio {

void applyStudioStyle(QApplication& app) {
    if (QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion"))) app.setStyle(fusion);
    app.setStyleSheet(QStringLiteral("QTreeView::item, QTableView::item, QListView::item { padding: 2px 4px; }"
                                     "QGroupBox { font-weight: 600; }"
                                     "QGroupBox > * { font-weight: normal; }"
                                     "QTabBar::tab { padding: 6px 14px; }"
                                     "#StatCard { border: 1px solid palette(midlight); border-radius: 5px; background: palette(base); }"));
}

} // namespace gantry::studio
