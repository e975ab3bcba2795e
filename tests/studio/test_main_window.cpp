// The studio's window opens what `gantry inspect` reads and shows the same facts; bad input shows the
// located errors and keeps the project that was open.
#include "main_window.h"
#include "report/cluster_summary.h"
#include "test_registry.h"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

using namespace gantry;

class MainWindowTest : public QObject {
    Q_OBJECT
  private slots:
    void opensTheSampleAndShowsTheSummary() {
        studio::MainWindow w;
        std::string sample = std::string(GANTRY_SOURCE_DIR) + "/resources/samples/gpu-cloud-east.yaml";
        QVERIFY(w.open({QString::fromStdString(sample)}));
        QVERIFY(w.loaded());
        const auto& in = *w.loaded();
        // Exactly the text `gantry inspect` prints above its warnings.
        QString expected =
            QString::fromStdString(formatSummary(in.project, summarize(in.project), "inventory: " + sample));
        QCOMPARE(w.summaryText(), expected);
        QVERIFY(w.summaryText().contains("GPUs: 656"));
        QCOMPARE(w.windowTitle(), QString("gpu-cloud-east - Gantry Studio"));
        QVERIFY(w.messages().isEmpty());
    }
    void badInputKeepsWhatWasOpen() {
        studio::MainWindow w;
        std::string snapshot = std::string(GANTRY_TEST_DATA) + "/importers/kubectl-list.json";
        QVERIFY(w.open({QString::fromStdString(snapshot)}));
        QCOMPARE(w.messages().size(), 2); // the two dangling PodGroup warnings
        QString before = w.summaryText();
        QTemporaryDir dir;
        QString bad = dir.filePath("bad.yaml");
        std::ofstream(bad.toStdString())
            << "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, resources: "
               "{requests: {memory: 1XB}}}]}\n";
        QVERIFY(!w.open({bad}));
        QCOMPARE(w.summaryText(), before);
        QCOMPARE(w.loaded()->files.front(), snapshot);
        QCOMPARE(w.messages().size(), 1);
        QVERIFY2(w.messages()[0].startsWith(bad + ":4:"), qPrintable(w.messages()[0]));
        QVERIFY(w.messages()[0].contains("'1XB' is not a valid quantity"));
    }
};

GANTRY_TEST(MainWindowTest)
#include "test_main_window.moc"
