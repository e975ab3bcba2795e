// The whole window: open the lab cluster, every tab renders with content, the screenshot command
// line works, a failed open keeps the project, undo reaches across tabs.
#include "core/project_files.h"
#include "core/queue_commands.h"
#include "gpumap/gpu_map_widget.h"
#include "main_window.h"
#include "models/comparison_model.h"
#include "models/queue_tree_model.h"
#include "studio_test_support.h"
#include "tabs/cluster_tab.h"
#include "tabs/export_tab.h"
#include "tabs/queues_tab.h"
#include "tabs/results_tab.h"
#include "tabs/topology_tab.h"
#include "test_registry.h"
#include "workspace.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QProcess>
#include <QSet>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace gantry;
using namespace gantry::studio;

namespace {

// A screenshot has content when it is not one flat colour: many distinct colours, and a good part
// of it differs from the most common (background) colour.
void checkNotBlank(const QImage& image, const QString& what) {
    QVERIFY2(!image.isNull(), qPrintable(what));
    QHash<QRgb, int> counts;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2) counts[image.pixel(x, y)]++;
    int total = 0, top = 0;
    for (int c : counts) {
        total += c;
        top = std::max(top, c);
    }
    QVERIFY2(counts.size() > 40,
             qPrintable(QStringLiteral("%1: only %2 colours").arg(what).arg(counts.size())));
    QVERIFY2(double(total - top) / total > 0.04,
             qPrintable(QStringLiteral("%1: almost all background").arg(what)));
}

} // namespace

class MainWindowTest : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("GantryTests");
        QCoreApplication::setApplicationName("test_studio");
    }

    void everyTabRendersTheLabCluster() {
        QTemporaryDir autosave;
        MainWindow window(makeDefaultWhatIfEngine(), autosave.path());
        QString error;
        QVERIFY2(window.openFiles({fixtures::labClusterPath()}, false, &error), qPrintable(error));
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        for (const QString& name : MainWindow::tabNames()) {
            QVERIFY(window.setCurrentTab(name));
            QApplication::processEvents();
            QImage shot = window.grab().toImage();
            QCOMPARE(shot.size(), QSize(1600, 1000));
            checkNotBlank(shot, name);
            // The tab itself has content too, not just the window chrome.
            checkNotBlank(window.tab(name)->grab().toImage(), name + " (tab only)");
        }
        QVERIFY(!window.setCurrentTab("nonsense"));
    }

    void failedOpenKeepsTheProject() {
        QTemporaryDir dir;
        MainWindow window(makeDefaultWhatIfEngine(), dir.path());
        QVERIFY(window.openFiles({fixtures::labClusterPath()}, false));
        QString bad = dir.filePath("bad.yaml");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("apiVersion: v1\nkind: Node\nmetadata: [\n");
        f.close();
        QString error;
        QVERIFY(!window.openFiles({bad}, false, &error));
        QVERIFY2(error.startsWith(bad + ":"), qPrintable(error));
        QCOMPARE(window.workspace()->document()->project().cluster.nodes.size(), size_t(100));
    }

    void openingDoesNotBlockTheWindow() {
        QTemporaryDir dir;
        MainWindow window(makeDefaultWhatIfEngine(), dir.path());
        QVERIFY(window.openFiles({fixtures::labClusterPath()}, true)); // returns at once
        QVERIFY(!window.centralWidget()->isEnabled());                 // busy while the worker reads
        QCOMPARE(window.workspace()->document()->project().cluster.nodes.size(), size_t(0));
        QTRY_COMPARE_WITH_TIMEOUT(window.workspace()->document()->project().cluster.nodes.size(), size_t(100),
                                  30000);
        QVERIFY(window.centralWidget()->isEnabled());
    }

    void exportToEachTarget() {
        QTemporaryDir dir;
        MainWindow window(makeDefaultWhatIfEngine(), dir.path());
        QVERIFY(window.openFiles({QStringLiteral(GANTRY_SOURCE_DIR "/resources/samples/gpu-cloud-east.yaml")},
                                 false));
        auto* tab = window.exportTab();
        for (auto target : {TargetScheduler::Volcano, TargetScheduler::YuniKorn, TargetScheduler::Kueue}) {
            tab->setTarget(target);
            const ExportPlan& plan = tab->plan();
            QVERIFY2(!plan.hasErrors(),
                     qPrintable(plan.issues.empty() ? plan.unavailable : plan.issues.front().message));
            QVERIFY(!plan.files.empty());
            QString out = dir.filePath(QString::fromStdString(toString(target)));
            tab->setOutputFolder(out);
            QString message;
            QVERIFY2(tab->writeFiles(&message), qPrintable(message));
            QVERIFY(QFile::exists(out + "/export-report.txt"));
            for (const auto& f : plan.files) QVERIFY2(QFile::exists(out + "/" + f.name), qPrintable(f.name));
        }
        // The Kueue export of the sample says what does not carry over.
        tab->setTarget(TargetScheduler::Kueue);
        bool lossy = false;
        for (const auto& i : tab->plan().issues) lossy = lossy || i.kind == ExportIssue::Kind::Lossy;
        QVERIFY(lossy);
        // An invalid queue blocks the export and nothing is written.
        auto* doc = window.workspace()->document();
        Queue bad = doc->project().cluster.queues.front();
        bad.guarantee.set("nvidia.com/gpu", 1000000000); // above its deserved and its capability
        bad.deserved.set("nvidia.com/gpu", 1000);
        doc->undoStack()->push(new EditQueueCommand(doc, bad, "break"));
        tab->setTarget(TargetScheduler::Volcano);
        QVERIFY(tab->plan().hasErrors());
        QString blocked = dir.filePath("blocked");
        tab->setOutputFolder(blocked);
        QString message;
        QVERIFY(!tab->writeFiles(&message));
        QVERIFY(!QDir(blocked).exists() || QDir(blocked).isEmpty());
    }

    // Issue 7's "done when", in one window: open the sample, edit a quota and the topology, run the
    // what-if against the default kube-scheduler, export validated manifests.
    void fromTheSampleToValidatedManifests() {
        QTemporaryDir dir;
        MainWindow window(makeDefaultWhatIfEngine(), dir.filePath("autosave"));
        QString error;
        QVERIFY2(
            window.openFiles({QStringLiteral(GANTRY_SOURCE_DIR "/resources/samples/gpu-cloud-east.yaml")},
                             false, &error),
            qPrintable(error));
        auto* doc = window.workspace()->document();
        // Queues: detection's deserved GPUs down from 64 to 48, through the tree's model.
        QueueTreeModel* queues = window.queuesTab()->model();
        QVERIFY(queues->setData(queues->indexOfQueue("detection", QueueTreeModel::QuotaB), "48"));
        auto detection =
            std::find_if(doc->project().cluster.queues.begin(), doc->project().cluster.queues.end(),
                         [](const Queue& q) { return q.name == "detection"; });
        QCOMPARE(detection->deserved.get("nvidia.com/gpu"), int64_t(48000));
        // Topology: the L40S nodes get blocks of eight.
        TopologyTab* topology = window.topologyTab();
        topology->patternEdit()->setText("l40s-*");
        topology->keyBox()->setEditText("topology.gantry.io/block");
        topology->valueEdit()->setText("l40s-block-{n}");
        topology->perValueSpin()->setValue(8);
        QCOMPARE(topology->applyLabels(), 16);
        QCOMPARE(doc->undoStack()->count(), 2);
        // What-if: the policy and the default kube-scheduler on the same jobs, side by side.
        QVERIFY(doc->project().contrast.has_value());
        QVERIFY(window.workspace()->runWhatIf());
        QVERIFY(window.workspace()->runner()->waitForFinished(300000));
        const auto& run = window.workspace()->results();
        QCOMPARE(run.results.size(), size_t(2));
        QCOMPARE(run.primary()->projectRevision, doc->revision());
        // The sample's cluster holds no GPU pods: the map turns to the run's state by itself.
        QCOMPARE(window.clusterTab()->showBox()->currentData().toInt(), 1);
        QVERIFY(window.clusterTab()->gpuMap()->occupancy()->allocatedMilli > 0);
        ComparisonModel* compare = window.resultsTab()->comparison();
        QAbstractItemModelTester tester(compare, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(compare->rowCount() > 5);
        QCOMPARE(compare->columnCount(), 4);
        QCOMPARE(compare->headerData(1, Qt::Horizontal).toString(), QStringLiteral("volcano"));
        QCOMPARE(compare->headerData(2, Qt::Horizontal).toString(), QStringLiteral("kube-default"));
        for (int row = 0; row < compare->rowCount(); ++row)
            if (compare->data(compare->index(row, 0)).toString() == "Jobs completed")
                QCOMPARE(compare->data(compare->index(row, 1)).toString(),
                         QString::number(run.primary()->jobsCompleted));
        QVERIFY(!compare->data(compare->index(0, 3)).toString().isEmpty()); // a verdict in words
        // Export: validated Volcano manifests; the new blocks are in the node labels (the sample's own
        // HyperNode objects are exported as they are).
        ExportTab* exporter = window.exportTab();
        exporter->setTarget(TargetScheduler::Volcano);
        QVERIFY(!exporter->plan().hasErrors());
        const QString out = dir.filePath("volcano");
        exporter->setOutputFolder(out);
        QString message;
        QVERIFY2(exporter->writeFiles(&message), qPrintable(message));
        QFile nodeLabels(out + "/node-labels.yaml");
        QVERIFY(nodeLabels.open(QIODevice::ReadOnly));
        const QByteArray text = nodeLabels.readAll();
        QVERIFY(text.contains("l40s-block-0") && text.contains("l40s-block-1"));
        QVERIFY(QFile::exists(out + "/hypernodes.yaml"));
        QFile queuesFile(out + "/queues.yaml");
        QVERIFY(queuesFile.open(QIODevice::ReadOnly));
        QVERIFY(queuesFile.readAll().contains("name: detection"));
    }

    void exportReportNamesWhatTheImportLeftOut() {
        // A second YuniKorn partition is left out when the file is read; the Export tab lists it as a
        // loss and export-report.txt says so, as `gantry export --from` does.
        QTemporaryDir dir;
        MainWindow window(makeDefaultWhatIfEngine(), dir.path());
        QVERIFY(window.openFiles(
            {QString(GANTRY_TEST_DATA) + "/export/conversions/yunikorn-two-partitions.yaml"}, false));
        ExportTab* exporter = window.exportTab();
        exporter->setTarget(TargetScheduler::YuniKorn);
        auto leftOut = [&] {
            for (const auto& i : exporter->plan().issues)
                if (i.kind == ExportIssue::Kind::Lossy &&
                    i.message.startsWith("Left out when reading the input: ") &&
                    i.message.contains("partition 'batch' ignored"))
                    return true;
            return false;
        };
        QVERIFY(leftOut());
        QVERIFY(!exporter->plan().hasErrors());
        exporter->setOutputFolder(dir.filePath("yunikorn"));
        QString message;
        QVERIFY2(exporter->writeFiles(&message), qPrintable(message));
        QFile report(dir.filePath("yunikorn/export-report.txt"));
        QVERIFY(report.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(report.readAll());
        QVERIFY2(text.contains(
                     "Left out when reading the input (1):\n  - partitions[1]: partition 'batch' ignored"),
                 qPrintable(text));
        QVERIFY(!text.contains("none: every queue and quota carried over"));
        // A new project starts with nothing left out.
        window.newProject();
        exporter->refresh();
        QVERIFY(!leftOut());
    }

    void saveAndReopen() {
        QTemporaryDir dir;
        MainWindow window(makeDefaultWhatIfEngine(), dir.path());
        QVERIFY(window.openFiles({fixtures::labClusterPath()}, false));
        auto* doc = window.workspace()->document();
        doc->undoStack()->push(new ReparentQueueCommand(doc, "sandbox", "research"));
        QVERIFY(window.isWindowModified());
        QString path = dir.filePath("lab.gantry");
        saveProject(doc->project(), path);
        doc->markSaved(path);
        QVERIFY(!doc->isModified());
        QVERIFY(!window.isWindowModified());
        QCOMPARE(doc->filePath(), path);
        MainWindow other(makeDefaultWhatIfEngine(), dir.filePath("other"));
        QVERIFY(other.openFiles({path}, false));
        QVERIFY(other.workspace()->document()->project() == doc->project());
        QCOMPARE(other.workspace()->document()->filePath(), path); // a project saves back to itself
    }

    void editsAcrossTabsShareOneUndoStack() {
        QTemporaryDir dir;
        MainWindow window(makeDefaultWhatIfEngine(), dir.path());
        QVERIFY(window.openFiles({fixtures::labClusterPath()}, false));
        auto* doc = window.workspace()->document();
        QVERIFY(!window.isWindowModified());
        doc->undoStack()->push(new ReparentQueueCommand(doc, "sandbox", "research"));
        QVERIFY(doc->isModified());
        QVERIFY(window.windowTitle().contains("lab-cluster.yaml"));
        doc->undoStack()->undo();
        QVERIFY(!doc->isModified());
    }

    void gpuMapShowsTheOccupancy() {
        QTemporaryDir dir;
        MainWindow window(makeDefaultWhatIfEngine(), dir.path());
        QVERIFY(window.openFiles({fixtures::labClusterPath()}, false));
        auto* map = window.clusterTab()->gpuMap();
        QVERIFY(map->occupancy());
        QCOMPARE(map->occupancy()->totalGpus, int64_t(704));
        // A tooltip names the node and the job holding the GPU.
        const auto& nodes = window.workspace()->document()->project().cluster.nodes;
        int node = -1;
        for (size_t i = 0; i < nodes.size(); ++i)
            if (nodes[i].name == "h100-a0-r01-01") node = int(i);
        QString tip = map->toolTipFor({node, 0});
        QVERIFY2(tip.contains("h100-a0-r01-01") && tip.contains("Job: nlp/llm-pretrain-70b") &&
                     tip.contains("Queue: nlp"),
                 qPrintable(tip));
    }

    void screenshotCommandLine() {
        QTemporaryDir dir;
        for (const QString& tab : {QStringLiteral("cluster"), QStringLiteral("queues")}) {
            QString png = dir.filePath(tab + ".png");
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert("QT_QPA_PLATFORM", "offscreen");
            p.setProcessEnvironment(env);
            p.start(GANTRY_STUDIO, {fixtures::labClusterPath(), "--screenshot", png, "--tab", tab});
            QVERIFY(p.waitForFinished(120000));
            QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
            QImage image(png);
            QCOMPARE(image.size(), QSize(1600, 1000));
            checkNotBlank(image, tab);
        }
        // --dark: the same window in a dark palette (mostly dark pixels, still not blank).
        {
            QString png = dir.filePath("results-dark.png");
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert("QT_QPA_PLATFORM", "offscreen");
            p.setProcessEnvironment(env);
            p.start(GANTRY_STUDIO,
                    {fixtures::labClusterPath(), "--dark", "--screenshot", png, "--tab", "results"});
            QVERIFY(p.waitForFinished(120000));
            QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
            QImage image(png);
            checkNotBlank(image, "results (dark)");
            double lightness = 0;
            int n = 0;
            for (int y = 0; y < image.height(); y += 4)
                for (int x = 0; x < image.width(); x += 4, ++n)
                    lightness += QColor(image.pixel(x, y)).lightness();
            QVERIFY2(lightness / n < 100, qPrintable(QString::number(lightness / n)));
        }
        QProcess bad;
        bad.start(GANTRY_STUDIO,
                  {fixtures::labClusterPath(), "--screenshot", dir.filePath("x.png"), "--tab", "gpus"});
        QVERIFY(bad.waitForFinished(60000));
        QCOMPARE(bad.exitCode(), 1);
        QProcess missing;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        missing.setProcessEnvironment(env);
        missing.start(GANTRY_STUDIO, {dir.filePath("nope.yaml"), "--screenshot", dir.filePath("y.png")});
        QVERIFY(missing.waitForFinished(60000));
        QCOMPARE(missing.exitCode(), 2);
        QVERIFY(QString::fromUtf8(missing.readAllStandardError()).contains("nope.yaml"));
    }
};

GANTRY_TEST(MainWindowTest)
#include "test_main_window.moc"
