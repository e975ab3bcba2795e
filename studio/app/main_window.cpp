#include "main_window.h"

#include "atomic_file.h"
#include "core/autosave.h"
#include "core/file_loader.h"
#include "core/project_commands.h"
#include "core/project_files.h"
#include "core/qt_text.h"
#include "gpumap/gpu_map_widget.h"
#include "gpumap/gpu_occupancy.h"
#include "input_error.h"
#include "tabs/cluster_tab.h"
#include "tabs/export_tab.h"
#include "tabs/plan_tab.h"
#include "tabs/policy_tab.h"
#include "tabs/queues_tab.h"
#include "tabs/results_tab.h"
#include "tabs/topology_tab.h"
#include "tabs/workloads_tab.h"
#include "widgets/connect_dialog.h"
#include "widgets/history_dialog.h"
#include "widgets/stat_card.h"
#include "workspace.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>
#include <limits>

namespace gantry::studio {
namespace {
constexpr int MaxRecent = 10;
} // namespace

QStringList MainWindow::tabNames() {
    return {"cluster", "queues", "topology", "workloads", "policy", "results", "plan", "export"};
}

MainWindow::MainWindow(std::unique_ptr<WhatIfEngine> engine, const QString& autosaveDir, QWidget* parent)
    : QMainWindow(parent), ws_(new Workspace(std::move(engine), this)) {
    setAcceptDrops(true);
    setWindowIcon(QApplication::windowIcon());
    tabs_ = new QTabWidget(this);
    tabs_->setDocumentMode(true);
    cluster_ = new ClusterTab(ws_, tabs_);
    queues_ = new QueuesTab(ws_, tabs_);
    topology_ = new TopologyTab(ws_, tabs_);
    workloads_ = new WorkloadsTab(ws_, tabs_);
    policy_ = new PolicyTab(ws_, tabs_);
    results_ = new ResultsTab(ws_, tabs_);
    plan_ = new PlanTab(ws_, tabs_);
    export_ = new ExportTab(ws_, tabs_);
    tabs_->addTab(cluster_, tr("Cluster"));
    tabs_->addTab(queues_, tr("Queues"));
    tabs_->addTab(topology_, tr("Topology"));
    tabs_->addTab(workloads_, tr("Workloads"));
    tabs_->addTab(policy_, tr("Policy"));
    tabs_->addTab(results_, tr("Results"));
    tabs_->addTab(plan_, tr("Plan"));
    tabs_->addTab(export_, tr("Export"));
    setCentralWidget(tabs_);
    connect(tabs_, &QTabWidget::currentChanged, this, [this](int index) {
        if (tabs_->widget(index) == export_) export_->refresh();
    });

    summaryLabel_ = new QLabel(this);
    summaryLabel_->setForegroundRole(QPalette::PlaceholderText);
    runProgress_ = new QProgressBar(this);
    runProgress_->setRange(0, 1000);
    runProgress_->setMaximumWidth(160);
    runProgress_->setTextVisible(false);
    runProgress_->setVisible(false);
    openProgress_ = new QProgressBar(this);
    openProgress_->setRange(0, 0); // busy: the importers do not report progress
    openProgress_->setMaximumWidth(160);
    openProgress_->setVisible(false);
    warningsButton_ = new QToolButton(this);
    warningsButton_->setAutoRaise(true);
    warningsButton_->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
    warningsButton_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    warningsButton_->setToolTip(tr("What was skipped or assumed while reading the file"));
    warningsButton_->setVisible(false);
    statusBar()->addPermanentWidget(openProgress_);
    statusBar()->addPermanentWidget(runProgress_);
    statusBar()->addPermanentWidget(warningsButton_);
    statusBar()->addPermanentWidget(summaryLabel_);
    loader_ = new FileLoader(this);
    connect(loader_, &FileLoader::finished, this,
            [this](const std::shared_ptr<LoadOutcome>& outcome) { finishOpen(*outcome); });
    connect(warningsButton_, &QToolButton::clicked, this, &MainWindow::showWarnings);
    connect(ws_->document(), &ProjectDocument::projectReplaced, this, [this] {
        int warnings = int(ws_->document()->inputWarnings().size());
        warningsButton_->setText(tr("%n warning(s)", "", warnings));
        warningsButton_->setVisible(warnings > 0);
    });
    auto* abandon = new QAction(this);
    abandon->setShortcut(Qt::Key_Escape);
    connect(abandon, &QAction::triggered, this, [this] {
        if (!loader_->isLoading()) return;
        loader_->abandon();
        openProgress_->setVisible(false);
        centralWidget()->setEnabled(true);
        showStatus(tr("Stopped waiting for the file; the open project is unchanged."));
    });
    addAction(abandon);

    auto status = [this](const QString& t) { showStatus(t, 8000); };
    connect(queues_, &QueuesTab::statusMessage, this, status);
    connect(topology_, &TopologyTab::statusMessage, this, status);
    connect(workloads_, &WorkloadsTab::statusMessage, this, status);
    connect(results_, &ResultsTab::statusMessage, this,
            [this](const QString& t, int ms) { showStatus(t, ms); });
    connect(plan_, &PlanTab::statusMessage, this, [this](const QString& t, int ms) { showStatus(t, ms); });
    connect(export_, &ExportTab::statusMessage, this,
            [this](const QString& t, int ms) { showStatus(t, ms); });

    auto* doc = ws_->document();
    connect(doc, &ProjectDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(doc, &ProjectDocument::filePathChanged, this, &MainWindow::updateTitle);
    connect(doc, &ProjectDocument::projectReplaced, this, &MainWindow::updateTitle);
    auto* runner = ws_->runner();
    connect(runner, &WhatIfRunner::runningChanged, runProgress_, &QWidget::setVisible);
    connect(runner, &WhatIfRunner::progress, this, [this](double f, const QString& stage) {
        runProgress_->setRange(0, f < 0 ? 0 : 1000);
        if (f >= 0) runProgress_->setValue(int(f * 1000));
        statusBar()->showMessage(tr("What-if: %1").arg(stage));
    });
    connect(runner, &WhatIfRunner::finished, this, [this](const WhatIfRun& run) {
        showStatus(tr("What-if finished: %1 of %2 jobs started under %3")
                       .arg(run.primary()->jobsStarted)
                       .arg(run.primary()->jobsTotal)
                       .arg(qs(run.primary()->profile)),
                   8000);
    });
    connect(runner, &WhatIfRunner::cancelled, this, [this] { showStatus(tr("What-if cancelled.")); });

    buildActions();
    QString dir = autosaveDir.isEmpty()
                      ? QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation))
                            .filePath("autosave")
                      : autosaveDir;
    autosaver_ = new Autosaver(doc, dir, this);
    connect(autosaver_, &Autosaver::failed, this, [this](const QString& m) { showStatus(m, 10000); });

    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    restoreState(settings.value("window/state").toByteArray());
    cluster_->restoreState();
    if (!settings.contains("window/geometry")) resize(1600, 1000);
    updateTitle();
}

// The workspace is a child, so QWidget's destructor deletes it after this class is gone, and its undo
// stack still reports itself clean on the way out: nothing of the workspace may reach this window then
// (UBSan: a slot called on a MainWindow that is already a plain QWidget).
MainWindow::~MainWindow() {
    ws_->document()->disconnect(this);
    ws_->runner()->disconnect(this);
    ws_->disconnect(this);
}

void MainWindow::showStatus(const QString& text, int timeoutMs) {
    statusBar()->showMessage(text, timeoutMs);
}

void MainWindow::buildActions() {
    auto* doc = ws_->document();
    auto action = [this](const QString& text, const QKeySequence& key, auto slot,
                         QStyle::StandardPixmap icon = QStyle::SP_CustomBase) {
        auto* a = new QAction(text, this);
        if (!key.isEmpty()) a->setShortcut(key);
        if (icon != QStyle::SP_CustomBase) a->setIcon(style()->standardIcon(icon));
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    auto* newA = action(
        tr("&New"), QKeySequence::New, [this] { newProject(); }, QStyle::SP_FileIcon);
    auto* openA = action(
        tr("&Open…"), QKeySequence::Open,
        [this] {
            QSettings s;
            QStringList files =
                QFileDialog::getOpenFileNames(this, tr("Open project, snapshot, inventory or trace"),
                                              s.value("files/lastDir").toString(), openFilter());
            if (!files.isEmpty()) openFiles(files);
        },
        QStyle::SP_DialogOpenButton);
    auto* connectA = action(
        tr("&Connect to Cluster…"), QKeySequence(Qt::CTRL | Qt::Key_K), [this] { connectToCluster(); },
        QStyle::SP_DriveNetIcon);
    auto* historyA = action(
        tr("Import &History…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K), [this] { importHistory(); },
        QStyle::SP_FileDialogDetailedView);
    historyA->setToolTip(tr("Replay what the cluster ran: read a window of its past from Prometheus"));
    auto* saveA = action(
        tr("&Save"), QKeySequence::Save, [this] { save(); }, QStyle::SP_DialogSaveButton);
    auto* saveAsA = action(tr("Save &As…"), QKeySequence::SaveAs, [this] { saveAs(); });
    auto* exportA = action(tr("&Export Manifests…"), QKeySequence(Qt::CTRL | Qt::Key_E),
                           [this] { setCurrentTab("export"); });
    auto* quitA = action(tr("&Quit"), QKeySequence::Quit, [this] { close(); });
    QAction* undoA = doc->undoStack()->createUndoAction(this, tr("&Undo"));
    undoA->setShortcut(QKeySequence::Undo);
    undoA->setIcon(style()->standardIcon(QStyle::SP_ArrowBack));
    QAction* redoA = doc->undoStack()->createRedoAction(this, tr("&Redo"));
    redoA->setShortcuts({QKeySequence::Redo, QKeySequence(Qt::CTRL | Qt::Key_Y)});
    redoA->setIcon(style()->standardIcon(QStyle::SP_ArrowForward));
    auto* runA = action(
        tr("&Run What-If"), QKeySequence(Qt::Key_F5),
        [this] {
            setCurrentTab("results");
            ws_->runWhatIf();
        },
        QStyle::SP_MediaPlay);
    auto* cancelA = action(
        tr("&Cancel Run"), QKeySequence(Qt::SHIFT | Qt::Key_F5), [this] { ws_->runner()->cancel(); },
        QStyle::SP_MediaStop);
    cancelA->setEnabled(false);
    connect(ws_->runner(), &WhatIfRunner::runningChanged, cancelA, &QAction::setEnabled);
    const bool engineAvailable = ws_->runner()->unavailableReason().isEmpty();
    runA->setEnabled(engineAvailable);
    if (!engineAvailable) runA->setToolTip(ws_->runner()->unavailableReason());
    connect(ws_->runner(), &WhatIfRunner::runningChanged, runA,
            [runA, engineAvailable](bool running) { runA->setEnabled(engineAvailable && !running); });

    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(newA);
    file->addAction(openA);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    file->addAction(connectA);
    file->addAction(historyA);
    file->addSeparator();
    file->addAction(saveA);
    file->addAction(saveAsA);
    file->addAction(exportA);
    file->addSeparator();
    file->addAction(quitA);
    rebuildRecentMenu();

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(undoA);
    edit->addAction(redoA);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    const QStringList names = tabNames();
    for (int i = 0; i < names.size(); ++i) {
        QString title = tabs_->tabText(i);
        view->addAction(action(title, QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)),
                               [this, i] { tabs_->setCurrentIndex(i); }));
    }
    view->addSeparator();
    view->addAction(
        action(tr("Zoom GPU Map &In"), QKeySequence::ZoomIn, [this] { cluster_->gpuMap()->zoomIn(); }));
    view->addAction(
        action(tr("Zoom GPU Map &Out"), QKeySequence::ZoomOut, [this] { cluster_->gpuMap()->zoomOut(); }));

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(runA);
    run->addAction(cancelA);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(action(tr("&Keyboard Shortcuts"), QKeySequence::HelpContents, [this] {
        QMessageBox::information(
            this, tr("Keyboard shortcuts"),
            tr("<table>"
               "<tr><td><b>Ctrl+N / O / S</b></td><td>New, open, save</td></tr>"
               "<tr><td><b>Ctrl+Shift+S</b></td><td>Save as</td></tr>"
               "<tr><td><b>Ctrl+K</b></td><td>Connect to a cluster</td></tr>"
               "<tr><td><b>Ctrl+Shift+K</b></td><td>Import the cluster's history from Prometheus</td></tr>"
               "<tr><td><b>Ctrl+Z / Ctrl+Shift+Z</b></td><td>Undo, redo</td></tr>"
               "<tr><td><b>Ctrl+1 … Ctrl+7</b></td><td>Cluster, Queues, Topology, Workloads, Policy, "
               "Results, Export</td></tr>"
               "<tr><td><b>F5 / Shift+F5</b></td><td>Run the what-if, cancel it</td></tr>"
               "<tr><td><b>Ctrl+E</b></td><td>Export manifests</td></tr>"
               "<tr><td><b>+ / − / 0, Ctrl+wheel</b></td><td>Zoom the GPU map, fit it</td></tr>"
               "<tr><td><b>Del, F2</b></td><td>Remove or rename the selected queue</td></tr>"
               "</table>"));
    }));
    help->addAction(action(tr("&About Gantry Studio"), QKeySequence(), [this] {
        QMessageBox::about(
            this, tr("About Gantry Studio"),
            tr("<b>Gantry Studio %1</b><p>Plan Kubernetes GPU clusters and their batch-scheduler policy "
               "(Volcano, Apache YuniKorn, Kueue): import a cluster, design queues and topology, run "
               "what-if workloads, export validated manifests.</p>")
                .arg(QApplication::applicationVersion()));
    }));

    auto* bar = addToolBar(tr("Main"));
    bar->setObjectName("MainToolBar");
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(newA);
    bar->addAction(openA);
    bar->addAction(saveA);
    bar->addSeparator();
    bar->addAction(connectA);
    bar->addSeparator();
    bar->addAction(undoA);
    bar->addAction(redoA);
    bar->addSeparator();
    bar->addAction(runA);
    bar->addAction(cancelA);
}

bool MainWindow::setCurrentTab(const QString& name) {
    int i = tabNames().indexOf(name.toLower());
    if (i < 0) return false;
    tabs_->setCurrentIndex(i);
    return true;
}

QWidget* MainWindow::tab(const QString& name) const {
    int i = tabNames().indexOf(name.toLower());
    return i < 0 ? nullptr : tabs_->widget(i);
}

void MainWindow::updateTitle() {
    auto* doc = ws_->document();
    setWindowTitle(QStringLiteral("%1[*] — Gantry Studio").arg(doc->displayName()));
    setWindowModified(doc->isModified());
    const auto& c = doc->project().cluster;
    int64_t gpus = 0;
    for (const auto& n : c.nodes) gpus += gpuDeviceCount(n);
    summaryLabel_->setText(tr("%1 nodes · %2 GPUs · %3 queues · %4 workloads")
                               .arg(formatCount(qint64(c.nodes.size())), formatCount(gpus),
                                    formatCount(qint64(c.queues.size())),
                                    formatCount(qint64(doc->project().workloads.size()))));
}

void MainWindow::adopt(LoadedFile&& loaded, const QString& source, bool modified) {
    QString savePath = loaded.kind == FileKind::Project ? source : QString();
    size_t warnings = loaded.warnings.size();
    ws_->document()->replace(std::move(loaded.project), savePath, source, modified,
                             std::move(loaded.warnings));
    if (warnings > 0)
        showStatus(
            tr("Opened %1 with %n warning(s); click the warnings button to read them.", "", int(warnings))
                .arg(QFileInfo(source).fileName()),
            10000);
    else
        showStatus(tr("Opened %1").arg(QFileInfo(source).fileName()));
}

bool MainWindow::openFiles(const QStringList& paths, bool interactive, QString* error) {
    if (paths.isEmpty()) return false;
    if (loader_->isLoading()) {
        if (error) *error = tr("Another file is still being opened.");
        if (interactive)
            showStatus(tr("Another file is still being opened; wait for it or press Esc to abandon it."));
        return false;
    }
    // A scheduler configuration becomes the open project's policy; anything else replaces the project.
    const bool policyOnly = paths.size() == 1 && detectFileKind(paths.front()) == FileKind::SchedulerConf;
    if (interactive && !policyOnly && !maybeSave()) return false;
    // The import runs on a worker; the window stays responsive and shows that it is busy.
    openingInteractive_ = interactive;
    showStatus(tr("Opening %1…").arg(QFileInfo(paths.front()).fileName()), 0);
    openProgress_->setVisible(true);
    centralWidget()->setEnabled(false);
    loader_->start(paths);
    if (interactive) return true;
    loader_->waitForFinished(std::numeric_limits<int>::max());
    if (error) *error = lastOpenError_;
    return lastOpenError_.isEmpty();
}

void MainWindow::finishOpen(const LoadOutcome& outcome) {
    openProgress_->setVisible(false);
    centralWidget()->setEnabled(true);
    lastOpenError_ = outcome.error;
    const QStringList& paths = outcome.paths;
    if (!outcome.error.isEmpty()) {
        statusBar()->clearMessage();
        if (openingInteractive_) {
            QMessageBox box(QMessageBox::Critical,
                            tr("Could not open %1").arg(QFileInfo(paths.front()).fileName()),
                            tr("Gantry could not read this file, so the open project is unchanged."),
                            QMessageBox::Ok, this);
            box.setInformativeText(
                outcome.error.section('\n', 0, 4) +
                tr("\n\nFix the file at the place shown (file:line:column) and open it again."));
            box.setDetailedText(outcome.error);
            box.exec();
        }
        return;
    }
    LoadedFile loaded = outcome.file;
    if (loaded.schedulerConf) {
        Policy p = policyOf(ws_->document()->project());
        p.volcano = *loaded.schedulerConf;
        p.target = TargetScheduler::Volcano;
        ws_->document()->undoStack()->push(new SetPolicyCommand(
            ws_->document(), p,
            tr("Use scheduler configuration %1").arg(QFileInfo(paths.front()).fileName())));
        showStatus(tr("The policy now follows %1 (Ctrl+Z to undo).").arg(QFileInfo(paths.front()).fileName()),
                   8000);
        setCurrentTab("policy");
        return;
    }
    adopt(std::move(loaded), paths.front(), false);
    for (const auto& p : paths) addRecent(p);
    QSettings().setValue("files/lastDir", QFileInfo(paths.front()).absolutePath());
}

void MainWindow::showWarnings() {
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Warnings from %1").arg(ws_->document()->displayName()));
    dialog.resize(900, 500);
    auto* layout = new QVBoxLayout(&dialog);
    auto* intro = new QLabel(tr("The file was read, but these objects were skipped or read with assumptions. "
                                "Each line says where (file:line:column) and what."),
                             &dialog);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto* text = new QPlainTextEdit(&dialog);
    text->setReadOnly(true);
    text->setLineWrapMode(QPlainTextEdit::NoWrap);
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    QStringList lines;
    for (const auto& w : ws_->document()->inputWarnings()) lines << qs(w.str());
    text->setPlainText(lines.join('\n'));
    layout->addWidget(text, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(buttons);
    dialog.exec();
}

void MainWindow::newProject() {
    if (!maybeSave()) return;
    Project p;
    p.name = "untitled";
    ws_->document()->replace(std::move(p), QString(), QString());
    showStatus(tr("New project. Open a snapshot or inventory, or connect to a cluster, to bring in nodes."));
}

bool MainWindow::saveTo(const QString& path) {
    try {
        saveProject(ws_->document()->project(), path);
    } catch (const std::exception& e) {
        QMessageBox::critical(
            this, tr("Could not save"),
            tr("%1\n\nThe project is still open and unchanged. Choose another folder with Save As, "
               "or free space and try again.")
                .arg(QString::fromUtf8(e.what())));
        return false;
    }
    ws_->document()->markSaved(path);
    autosaver_->discard();
    addRecent(path);
    showStatus(tr("Saved %1").arg(QFileInfo(path).fileName()));
    return true;
}

bool MainWindow::save() {
    QString path = ws_->document()->filePath();
    if (path.isEmpty()) return saveAs();
    return saveTo(path);
}

bool MainWindow::saveAs() {
    QSettings s;
    QString suggested = ws_->document()->filePath();
    if (suggested.isEmpty())
        suggested = QDir(s.value("files/lastDir").toString())
                        .filePath(ws_->document()->displayName().section('.', 0, 0) + ".gantry");
    QString path = QFileDialog::getSaveFileName(this, tr("Save project"), suggested, projectFilter());
    if (path.isEmpty()) return false;
    if (!path.endsWith(".gantry")) path += ".gantry";
    return saveTo(path);
}

bool MainWindow::maybeSave() {
    if (!ws_->document()->isModified()) return true;
    auto answer = QMessageBox::warning(
        this, tr("Unsaved changes"),
        tr("%1 has changes that are not saved. Save them first?").arg(ws_->document()->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save) return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    ws_->runner()->cancel();
    QSettings s;
    s.setValue("window/geometry", saveGeometry());
    s.setValue("window/state", saveState());
    cluster_->saveState();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls())
        for (const auto& url : event->mimeData()->urls())
            if (url.isLocalFile()) {
                event->acceptProposedAction();
                return;
            }
}

void MainWindow::dropEvent(QDropEvent* event) {
    QStringList paths;
    for (const auto& url : event->mimeData()->urls())
        if (url.isLocalFile()) paths << url.toLocalFile();
    if (paths.isEmpty()) return;
    event->acceptProposedAction();
    openFiles(paths);
}

void MainWindow::addRecent(const QString& path) {
    QSettings s;
    QStringList recent = s.value("files/recent").toStringList();
    QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > MaxRecent) recent.removeLast();
    s.setValue("files/recent", recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    if (!recentMenu_) return;
    recentMenu_->clear();
    QStringList recent = QSettings().value("files/recent").toStringList();
    for (int i = 0; i < recent.size(); ++i) {
        QString path = recent[i];
        auto* a =
            recentMenu_->addAction(QStringLiteral("&%1  %2").arg(i + 1).arg(QFileInfo(path).fileName()));
        a->setToolTip(path);
        a->setStatusTip(path);
        connect(a, &QAction::triggered, this, [this, path] {
            if (!QFileInfo::exists(path)) {
                QMessageBox::warning(
                    this, tr("File not found"),
                    tr("%1 no longer exists; it is removed from the recent files.").arg(path));
                QSettings s;
                QStringList r = s.value("files/recent").toStringList();
                r.removeAll(path);
                s.setValue("files/recent", r);
                rebuildRecentMenu();
                return;
            }
            openFiles({path});
        });
    }
    if (recent.isEmpty())
        recentMenu_->addAction(tr("(none)"))->setEnabled(false);
    else {
        recentMenu_->addSeparator();
        recentMenu_->addAction(tr("Clear List"), this, [this] {
            QSettings().remove("files/recent");
            rebuildRecentMenu();
        });
    }
}

void MainWindow::offerRecovery() {
    QString dir = QFileInfo(autosaver_->copyPath()).absolutePath();
    for (const auto& session : Autosaver::findRecoverable(dir)) {
        QMessageBox box(QMessageBox::Question, tr("Recover unsaved work?"),
                        tr("Gantry Studio closed unexpectedly while %1 had unsaved changes (autosaved %2).")
                            .arg(session.name, QLocale().toString(session.savedAt, QLocale::ShortFormat)),
                        QMessageBox::NoButton, this);
        box.setInformativeText(
            tr("Recover opens the autosaved copy; save it to keep it. Discard deletes the copy."));
        auto* recover = box.addButton(tr("Recover"), QMessageBox::AcceptRole);
        box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
        box.exec();
        if (box.clickedButton() == recover) {
            QString error;
            try {
                LoadedFile loaded = loadFile(session.autosavePath);
                ws_->document()->replace(std::move(loaded.project), session.originalPath,
                                         session.originalPath, true);
                showStatus(tr("Recovered %1. Save it to keep the changes.").arg(session.name), 10000);
            } catch (const std::exception& e) {
                QMessageBox::warning(this, tr("Recovery failed"),
                                     tr("The autosaved copy could not be read: %1\nIt is kept at %2.")
                                         .arg(QString::fromUtf8(e.what()), session.autosavePath));
                continue;
            }
        }
        Autosaver::remove(session);
        break;
    }
}

void MainWindow::connectToCluster() {
    if (!maybeSave()) return;
    ConnectDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted) return;
    LoadedFile loaded = dialog.result();
    QString source = tr("cluster %1").arg(dialog.contextName());
    size_t objects = loaded.project.cluster.nodes.size();
    ws_->document()->replace(std::move(loaded.project), QString(), source, true, std::move(loaded.warnings));
    showStatus(tr("Imported %1 (%2 nodes). Save the project to keep it.")
                   .arg(dialog.summary().section('\n', 0, 0))
                   .arg(objects),
               10000);
    auto keep = QMessageBox::question(
        this, tr("Keep the snapshot?"),
        tr("Save the objects read from the cluster as a snapshot file, so you can reopen "
           "or share them without connecting again?"));
    if (keep == QMessageBox::Yes) {
        QString path = QFileDialog::getSaveFileName(
            this, tr("Save snapshot"), dialog.contextName() + "-snapshot.yaml", tr("YAML (*.yaml)"));
        if (!path.isEmpty()) {
            try {
                writeFileAtomically(path.toStdString(), dialog.snapshotText().toStdString());
                showStatus(tr("Saved the snapshot to %1").arg(path));
            } catch (const std::exception& e) {
                QMessageBox::critical(this, tr("Could not save the snapshot"), QString::fromUtf8(e.what()));
            }
        }
    }
}

void MainWindow::importHistory() {
    if (!maybeSave()) return;
    HistoryDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted) return;
    LoadedFile loaded = dialog.result();
    QString source = tr("history of %1").arg(dialog.serverName());
    ws_->document()->replace(std::move(loaded.project), QString(), source, true, std::move(loaded.warnings));
    setCurrentTab("workloads");
    showStatus(tr("Imported %1. Run the what-if (F5) to replay it; save the project to keep it.")
                   .arg(dialog.summary().section('\n', 0, 0)),
               10000);
    auto keep =
        QMessageBox::question(this, tr("Keep the history?"),
                              tr("Save the history read from Prometheus as a snapshot file, so you can "
                                 "replay it again or share it without reading Prometheus again?"));
    if (keep == QMessageBox::Yes) {
        QString path = QFileDialog::getSaveFileName(
            this, tr("Save history"), dialog.serverName() + "-history.yaml", tr("YAML (*.yaml)"));
        if (!path.isEmpty()) {
            try {
                writeFileAtomically(path.toStdString(), dialog.snapshotText().toStdString());
                showStatus(tr("Saved the history to %1").arg(path));
            } catch (const std::exception& e) {
                QMessageBox::critical(this, tr("Could not save the history"), QString::fromUtf8(e.what()));
            }
        }
    }
}

} // namespace gantry::studio
