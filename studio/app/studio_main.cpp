#include "studio_main.h"

#include <QCommandLineParser>
#include <QLabel>
#include <QMainWindow>

namespace gantry::studio {

int run(QApplication& app) {
    QCommandLineParser parser;
    parser.setApplicationDescription("Gantry Studio: plan Kubernetes GPU clusters and their scheduler policy");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("file", "Project, snapshot or inventory to open");
    parser.process(app);

    QMainWindow window;
    window.setWindowTitle("Gantry Studio");
    auto* label = new QLabel(parser.positionalArguments().value(0, "No project open"), &window);
    window.setCentralWidget(label);
    window.resize(1600, 1000);
    window.show();
    return app.exec();
}

} // namespace gantry::studio
