#include "studio_main.h"

#include "core/project_commands.h"
#include "gpumap/gpu_map_widget.h"
#include "main_window.h"
#include "profile/registry.h"
#include "studio_style.h"
#include "tabs/cluster_tab.h"
#include "tabs/plan_tab.h"
#include "tabs/results_tab.h"
#include "workspace.h"

#include <QComboBox>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QIcon>
#include <QImage>
#include <QPixmap>
#include <QStyleHints>
#include <QTemporaryDir>
#include <QTimer>
#include <cstdio>

namespace gantry::studio {

namespace {

// Renders the window at 1600x1000 (device-independent pixels) to a PNG.
bool renderScreenshot(MainWindow& window, const QString& path, QString* error) {
    window.resize(1600, 1000);
    window.show();
    for (int i = 0; i < 5; ++i) QApplication::processEvents();
    QPixmap pixmap = window.grab();
    if (pixmap.isNull() || !pixmap.save(path, "PNG")) {
        if (error) *error = QStringLiteral("cannot write %1").arg(path);
        return false;
    }
    return true;
}

// --plan's SPEC, "node-type=h100;slo=wait.p95<1h;profiles=volcano,kube-default;seeds=1;min=0;max=16",
// with an optional "vary=kueue.admissionFairSharing.usageHalfLifeTime=1h,6h,24h",
// over the form's own settings. False with *error for a key or a number it does not know.
bool readPlanSpec(const QString& spec, PlanSettings* settings, QString* error) {
    bool sloGiven = false;
    for (const QString& item : spec.split(';', Qt::SkipEmptyParts)) {
        const QString key = item.section('=', 0, 0).trimmed();
        const QString value = item.section('=', 1).trimmed();
        bool ok = true;
        if (key == "node-type") {
            settings->nodeType = value.toStdString();
        } else if (key == "slo") {
            if (!sloGiven) settings->slos.clear();
            sloGiven = true;
            settings->slos.push_back(value.toStdString());
        } else if (key == "profiles") {
            settings->profiles.clear();
            for (const QString& p : value.split(',', Qt::SkipEmptyParts))
                settings->profiles.push_back(p.toStdString());
        } else if (key == "vary") { // vary=FIELD=V1,V2,...
            settings->varyField = value.section('=', 0, 0).trimmed().toStdString();
            settings->varyValues.clear();
            for (const QString& v : value.section('=', 1).split(',', Qt::SkipEmptyParts))
                settings->varyValues.push_back(v.trimmed().toStdString());
        } else if (key == "seeds") {
            settings->seeds = value.toInt(&ok);
        } else if (key == "min") {
            settings->min = value.toLongLong(&ok);
        } else if (key == "max") {
            settings->max = value.toLongLong(&ok);
        } else {
            *error =
                QStringLiteral("--plan: unknown key '%1' (node-type, slo, profiles, vary, seeds, min, max)")
                    .arg(key);
            return false;
        }
        if (!ok) {
            *error = QStringLiteral("--plan: '%1' is not a whole number").arg(item);
            return false;
        }
    }
    return true;
}

} // namespace

int run(QApplication& app) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Gantry Studio: plan Kubernetes GPU clusters and their scheduler policy");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        "file", "Project, snapshot, inventory or trace to open (several snapshots may be given)",
        "[FILE...]");
    QCommandLineOption screenshot(
        "screenshot", "Load FILE, run its default what-if, save the window as PNG at 1600x1000 and exit.",
        "PNG");
    QCommandLineOption tab(
        "tab", "With --screenshot: the work area to show (" + MainWindow::tabNames().join(", ") + ").",
        "NAME");
    QCommandLineOption gpuColors(
        "gpu-colors",
        "With --screenshot: colour the GPU map by occupancy, queue, job, fragmentation or idle.", "MODE");
    QCommandLineOption mapProfile(
        "map-profile",
        "With --screenshot: the GPU map shows the what-if under this profile (one the project compares).",
        "NAME");
    QCommandLineOption planSpec(
        "plan",
        "With --screenshot: run a plan and show the Plan view. SPEC is KEY=VALUE pairs separated by ';': "
        "node-type, slo (repeatable), profiles (comma-separated), vary (FIELD=V1,V2,...), seeds, min, max.",
        "SPEC");
    QCommandLineOption profiles(
        "profiles",
        "With --screenshot: run the what-if under these profiles (comma-separated) instead of the project's.",
        "NAMES");
    QCommandLineOption resultsTable("results-table",
                                    "With --screenshot: the table under the results charts (" +
                                        ResultsTab::tableNames().join(", ") + ").",
                                    "NAME");
    QCommandLineOption mapZoom("map-zoom", "With --screenshot: zoom the GPU map by FACTOR after fitting it.",
                               "FACTOR");
    QCommandLineOption dark("dark", "Use a dark palette whatever the system's (to check the dark look).");
    parser.addOption(screenshot);
    parser.addOption(tab);
    parser.addOption(planSpec);
    parser.addOption(gpuColors);
    parser.addOption(mapProfile);
    parser.addOption(profiles);
    parser.addOption(resultsTable);
    parser.addOption(mapZoom);
    parser.addOption(dark);
    parser.process(app);
    applyStudioStyle(app, parser.isSet(dark));

    const QStringList files = parser.positionalArguments();
    const bool shot = parser.isSet(screenshot);
    if (parser.isSet(tab) && !MainWindow::tabNames().contains(parser.value(tab).toLower())) {
        std::fprintf(stderr, "gantry-studio: unknown tab '%s' (use one of: %s)\n",
                     qPrintable(parser.value(tab)), qPrintable(MainWindow::tabNames().join(", ")));
        return 1;
    }
    if (parser.isSet(resultsTable) &&
        !ResultsTab::tableNames().contains(parser.value(resultsTable).toLower())) {
        std::fprintf(stderr, "gantry-studio: unknown results table '%s' (use one of: %s)\n",
                     qPrintable(parser.value(resultsTable)), qPrintable(ResultsTab::tableNames().join(", ")));
        return 1;
    }
    const QStringList colorModes{"occupancy", "queue", "job", "fragmentation", "idle"}; // GpuColorMode order
    const int colorMode = colorModes.indexOf(parser.value(gpuColors).toLower());
    if (parser.isSet(gpuColors) && colorMode < 0) {
        std::fprintf(stderr, "gantry-studio: unknown GPU colouring '%s' (use one of: %s)\n",
                     qPrintable(parser.value(gpuColors)), qPrintable(colorModes.join(", ")));
        return 1;
    }

    // The screenshot mode must not touch the user's autosaves or recovery prompts.
    QTemporaryDir scratch;
    auto window = std::make_unique<MainWindow>(makeDefaultWhatIfEngine(), shot ? scratch.path() : QString());
    if (!files.isEmpty()) {
        QString error;
        if (!window->openFiles(files, !shot, &error) && shot) {
            std::fprintf(stderr, "gantry-studio: %s\n", qPrintable(error));
            return 2;
        }
    }
    if (shot) {
        auto* ws = window->workspace();
        if (parser.isSet(profiles)) {
            SimulationSettings settings = ws->document()->project().simulation;
            settings.profiles.clear();
            for (const QString& name : parser.value(profiles).split(',', Qt::SkipEmptyParts)) {
                if (!engine::findProfile(name.trimmed().toStdString())) {
                    std::fprintf(stderr, "gantry-studio: unknown profile '%s'\n", qPrintable(name));
                    return 1;
                }
                settings.profiles.push_back(name.trimmed().toStdString());
            }
            ws->document()->undoStack()->push(new SetSimulationSettingsCommand(ws->document(), settings));
        }
        if (!files.isEmpty() && ws->runner()->unavailableReason().isEmpty()) {
            ws->runWhatIf();
            if (!ws->runner()->waitForFinished(300000)) {
                std::fprintf(stderr, "gantry-studio: the what-if did not finish within 5 minutes\n");
                return 3;
            }
        }
        if (parser.isSet(planSpec)) {
            PlanTab* planTab = window->planTab();
            PlanSettings settings = planTab->settings();
            QString error;
            if (!readPlanSpec(parser.value(planSpec), &settings, &error)) {
                std::fprintf(stderr, "gantry-studio: %s\n", qPrintable(error));
                return 1;
            }
            planTab->setSettings(settings);
            QString why;
            QObject::connect(ws->planner(), &PlanRunner::failed, [&why](const QString& m) { why = m; });
            if (!planTab->startPlan() || !ws->planner()->waitForFinished(1800000) || !why.isEmpty()) {
                std::fprintf(stderr, "gantry-studio: the plan did not finish: %s\n",
                             qPrintable(why.isEmpty() ? planTab->sloError() : why));
                return 3;
            }
            window->setCurrentTab("plan");
        }
        // The map shows what the what-if did (the loaded cluster is often empty of GPU pods).
        if (auto* cluster = qobject_cast<ClusterTab*>(window->tab("cluster"))) {
            cluster->showWhatIfState();
            if (colorMode >= 0)
                cluster->colorModeBox()->setCurrentIndex(cluster->colorModeBox()->findData(colorMode));
            const auto& results = ws->results().results;
            for (size_t i = 0; i < results.size(); ++i)
                if (parser.isSet(mapProfile) && results[i]->profile == parser.value(mapProfile).toStdString())
                    cluster->showBox()->setCurrentIndex(cluster->showBox()->findData(int(i) + 1));
            if (parser.isSet(mapZoom)) {
                bool ok = false;
                const double factor = parser.value(mapZoom).toDouble(&ok);
                if (!ok || factor <= 0) {
                    std::fprintf(stderr, "gantry-studio: --map-zoom needs a positive number, got '%s'\n",
                                 qPrintable(parser.value(mapZoom)));
                    return 1;
                }
                cluster->gpuMap()->setZoom(cluster->gpuMap()->zoom() * factor, QPoint(0, 0));
            }
        }
        if (parser.isSet(tab)) window->setCurrentTab(parser.value(tab));
        if (parser.isSet(resultsTable) && !window->resultsTab()->showTable(parser.value(resultsTable))) {
            std::fprintf(stderr, "gantry-studio: the results table '%s' is empty for this what-if\n",
                         qPrintable(parser.value(resultsTable)));
            return 3;
        }
        QString error;
        if (!renderScreenshot(*window, parser.value(screenshot), &error)) {
            std::fprintf(stderr, "gantry-studio: %s\n", qPrintable(error));
            return 3;
        }
        return 0;
    }
    window->show();
    QTimer::singleShot(0, window.get(), [w = window.get()] { w->offerRecovery(); });
    return app.exec();
}

} // namespace gantry::studio
