// gantry-studio: the desktop studio.
#include "studio_main.h"

#include <QApplication>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName("Gantry Studio");
    QApplication::setOrganizationName("Gantry");
    QApplication::setApplicationVersion(GANTRY_VERSION);
    return gantry::studio::run(app);
}
