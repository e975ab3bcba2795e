#pragma once
// The studio's look: Qt's Fusion style (the same on every platform, and it follows the system's
// light or dark palette), item views with a little breathing room, high-DPI pixmaps.
#include <QApplication>

namespace gantry::studio {
void applyStudioStyle(QApplication& app);
} // namespace gantry::studio
