// File > Import History against the real Prometheus: the dialog reads the window with progress, can be
// cancelled while it waits, shows a failure as the CLI words it, and the Workloads tab shows the
// history's jobs (their arrivals, sizes and durations) as the what-if will replay them.
#include "canned_server.h"
#include "history/time_text.h"
#include "history_harness.h"
#include "models/imported_jobs_model.h"
#include "tabs/workloads_tab.h"
#include "test_registry.h"
#include "whatif/whatif_engine.h"
#include "widgets/history_charts.h"
#include "widgets/history_dialog.h"
#include "workspace.h"

#include <QLabel>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QtTest>
#include <filesystem>

using namespace gantry;
using namespace gantry::studio;
using namespace gantry::testing;

class HistoryStudioTest : public QObject {
    Q_OBJECT
    std::unique_ptr<HistoryHarness> h_;

    QDateTime utc(double t) const { return QDateTime::fromSecsSinceEpoch(qint64(t), Qt::UTC); }

    static QString labels(const QDialog& d) {
        QString all;
        for (auto* l : d.findChildren<QLabel*>()) all += l->text() + "\n";
        return all;
    }

  private slots:
    void initTestCase() {
        if (std::string why = prometheusMissing(); !why.empty()) QSKIP(why.c_str());
        h_ = std::make_unique<HistoryHarness>();
    }

    void theDialogImportsTheWindow() {
        HistoryDialog dialog;
        dialog.setUrl(QString::fromStdString(h_->prometheus->url()));
        dialog.setWindow(utc(h_->fixture.start), utc(h_->fixture.end));
        dialog.setStep("1m");
        int progressSeen = 0;
        auto* bar = dialog.findChild<QProgressBar*>();
        QVERIFY(bar);
        // GANTRY_TEST_SHOTS=DIR keeps pictures of the dialog filled in, while reading, and done, to check
        // by eye.
        const QString shots = qEnvironmentVariable("GANTRY_TEST_SHOTS");
        auto shoot = [&](const char* name) {
            if (!shots.isEmpty()) QVERIFY(dialog.grab().save(shots + "/" + name));
        };
        dialog.show();
        shoot("history-dialog.png");
        bool midway = false;
        connect(bar, &QProgressBar::valueChanged, this, [&](int v) {
            progressSeen = std::max(progressSeen, v);
            if (!midway && v > 0 && v < bar->maximum()) {
                midway = true;
                shoot("history-dialog-reading.png");
            }
        });
        dialog.startImport();
        QVERIFY(dialog.importing());
        QTRY_COMPARE_WITH_TIMEOUT(dialog.QDialog::result(), int(QDialog::Accepted), 120000);
        const Project& p = dialog.result().project;
        QCOMPARE(p.cluster.podGroups.size(), h_->fixture.truth.size());
        QCOMPARE(p.cluster.nodes.size(), h_->fixture.nodes.size());
        QVERIFY(dialog.snapshotText().contains("gantry.io/open-ended: \"true\""));
        QVERIFY2(dialog.summary().contains(QString("%1 jobs").arg(h_->fixture.truth.size())),
                 qPrintable(dialog.summary()));
        QVERIFY2(progressSeen >= 4, "the progress bar followed the chunks");
        shoot("history-dialog-done.png");
        // The priority classes kube-state-metrics cannot value are a warning of the project.
        bool warned = false;
        for (const auto& w : dialog.result().warnings)
            warned = warned || w.message.find("priority classes") != std::string::npos;
        QVERIFY(warned);
    }

    void cancelStopsAWaitingImport() {
        CannedServer stalled({200, "application/json", "", true});
        HistoryDialog dialog;
        dialog.setUrl(QString::fromStdString(stalled.url()));
        dialog.setSince("1h");
        dialog.startImport();
        QTRY_VERIFY_WITH_TIMEOUT(!stalled.targets().empty(), 10000);
        QElapsedTimer timer;
        timer.start();
        dialog.reject(); // the Cancel button
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.importing(), 5000);
        QVERIFY(timer.elapsed() < 3000);
        QVERIFY(dialog.QDialog::result() != QDialog::Accepted);
        QVERIFY2(labels(dialog).contains("Import cancelled; nothing was changed."),
                 qPrintable(labels(dialog)));
    }

    void aFailureSaysWhatTheCliSays() {
        const int closed = freePort();
        const QString url = QString("http://127.0.0.1:%1").arg(closed);
        Run cli = runCli(QStringList{"import", "--prometheus", url, "--since", "1h", "--out",
                                     QString::fromStdString(h_->path("out/none.yaml"))});
        QCOMPARE(cli.exitCode, 3);
        const std::string marker = "gantry import: error: ";
        const size_t at = cli.err.find(marker);
        QVERIFY2(at != std::string::npos, cli.err.c_str());
        const QString line = QString::fromStdString(
            cli.err.substr(at + marker.size(), cli.err.find('\n', at) - at - marker.size()));
        HistoryDialog dialog;
        dialog.setUrl(url);
        dialog.setSince("1h");
        dialog.startImport();
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.importing(), 30000);
        QVERIFY2(labels(dialog).contains(line.toHtmlEscaped()), qPrintable(labels(dialog) + "\n" + line));
    }

    void theWorkloadsTabShowsTheHistory() {
        HistoryDialog dialog;
        dialog.setUrl(QString::fromStdString(h_->prometheus->url()));
        dialog.setWindow(utc(h_->fixture.start), utc(h_->fixture.end));
        dialog.startImport();
        QTRY_COMPARE_WITH_TIMEOUT(dialog.QDialog::result(), int(QDialog::Accepted), 120000);
        Workspace ws(makeDefaultWhatIfEngine());
        WorkloadsTab tab(&ws);
        LoadedFile loaded = dialog.result();
        ws.document()->replace(std::move(loaded.project), QString(), "history", true,
                               std::move(loaded.warnings));
        const int jobs = int(h_->fixture.truth.size());
        QCOMPARE(tab.historyCharts()->jobs(), jobs);
        QVERIFY(!tab.historyCharts()->isHidden());
        ImportedJobsModel* model = tab.importedJobs();
        QCOMPARE(model->rowCount(), jobs);
        // llama-ft arrived 1 h after the window's start, ran an hour, as a PyTorchJob.
        bool found = false;
        for (int r = 0; r < model->rowCount(); ++r) {
            if (model->index(r, ImportedJobsModel::Job).data().toString() != "ml/llama-ft") continue;
            found = true;
            QCOMPARE(model->index(r, ImportedJobsModel::Origin).data().toString(), QString("PyTorchJob"));
            QCOMPARE(model->index(r, ImportedJobsModel::Arrival).data().toString(), QString("+1h"));
            QCOMPARE(model->index(r, ImportedJobsModel::Duration).data().toString(), QString("1h"));
            QCOMPARE(model->index(r, ImportedJobsModel::Gpus).data().toString(), QString("8"));
        }
        QVERIFY(found);
        for (int r = 0; r < model->rowCount(); ++r)
            if (model->index(r, ImportedJobsModel::Job).data().toString() == "ml/huge-sweep")
                QCOMPARE(model->index(r, ImportedJobsModel::Duration).data().toString(),
                         QString("never ran; until the end"));
    }

    // gantry-studio FILE --screenshot PNG --tab workloads renders the history's jobs.
    void screenshotOfTheWorkloadsTab() {
        const std::string file = h_->path("out/studio-history.yaml");
        Run run =
            runCli(QStringList{"import", "--prometheus", QString::fromStdString(h_->prometheus->url())} +
                   h_->window() + QStringList{"--out", QString::fromStdString(file)});
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        const QString png = QString::fromStdString(h_->path("out/workloads.png"));
        QProcess studio;
        studio.start(GANTRY_STUDIO,
                     {QString::fromStdString(file), "--screenshot", png, "--tab", "workloads"});
        QVERIFY(studio.waitForFinished(180000));
        QVERIFY2(studio.exitCode() == 0, studio.readAllStandardError().constData());
        QImage image(png);
        QCOMPARE(image.size(), QSize(1600, 1000));
        if (const QString shots = qEnvironmentVariable("GANTRY_TEST_SHOTS"); !shots.isEmpty())
            QVERIFY(image.save(shots + "/history-workloads.png"));
    }
};

GANTRY_TEST(HistoryStudioTest)
#include "test_history_studio.moc"
