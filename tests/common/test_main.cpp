// Runs every registered test class. Usage: test_x [ClassName] [QTest options...]
#include <QtTest>
#include <cstring>
#include <memory>

#ifdef GANTRY_TEST_GUI
#include <QApplication>
using App = QApplication;
#else
#include <QCoreApplication>
using App = QCoreApplication;
#endif

#include "test_registry.h"

int main(int argc, char** argv) {
    App app(argc, argv);
    const char* only = nullptr;
    std::vector<char*> args{argv[0]};
    for (int i = 1; i < argc; ++i) {
        if (!only && argv[i][0] != '-' && std::strchr(argv[i], '(') == nullptr) {
            bool isClass = false;
            for (const auto& [name, factory] : gantry::test::registry())
                if (std::strcmp(name, argv[i]) == 0) isClass = true;
            if (isClass) {
                only = argv[i];
                continue;
            }
        }
        args.push_back(argv[i]);
    }
    int failures = 0;
    for (const auto& [name, factory] : gantry::test::registry()) {
        if (only && std::strcmp(only, name) != 0) continue;
        std::unique_ptr<QObject> test(factory());
        failures += QTest::qExec(test.get(), int(args.size()), args.data());
    }
    return failures == 0 ? 0 : 1;
}
