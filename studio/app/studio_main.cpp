#include "studio_main.h"

#include "main_window.h"

#include <QCommandLineParser>
#include <QTimer>

namespace gantry::studio {

int run(QApplication& app) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Gantry Studio: plan Kubernetes GPU clusters and their scheduler policy");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("file", "Project, inventory or Kubernetes snapshot files to open",
                                 "[file...]");
    QCommandLineOption screenshot("screenshot", "Render the window to a PNG file and exit.", "png");
    parser.addOption(screenshot);
    parser.process(app);

    MainWindow window;
    window.resize(1600, 1000);
    bool ok = true;
    if (!parser.positionalArguments().isEmpty()) ok = window.open(parser.positionalArguments());
    window.show();
    if (parser.isSet(screenshot)) {
        QString path = parser.value(screenshot);
        QTimer::singleShot(0, &window, [&window, path, ok] {
            bool saved = window.grab().save(path);
            QApplication::exit(saved ? (ok ? 0 : 2) : 3);
        });
    }
    return app.exec();
}

} // namespace gantry::studio
