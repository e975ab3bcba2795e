#pragma once
#include <QApplication>

namespace gantry::studio {
// Parses the studio's command line, opens the main window (or renders a screenshot) and runs.
int run(QApplication& app);
} // namespace gantry::studio
