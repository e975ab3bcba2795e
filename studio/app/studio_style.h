#pragma once
// The studio's look: Qt's Fusion style (the same on every platform, and it follows the system's
// light or dark palette), item views with a little breathing room, high-DPI pixmaps.
#include <QApplication>

namespace gantry::studio {
// dark: use a dark palette whatever the system's (to check the dark look, e.g. in screenshots).
void applyStudioStyle(QApplication& app, bool dark = false);
} // namespace gantry::studio
