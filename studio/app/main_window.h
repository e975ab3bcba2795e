#pragma once
// The studio's one window: eight work areas as tabs, the File / Edit / View / Run / Help menus, drag
// and drop open, recent files, autosave and recovery, and the status bar.
#include "model/diagnostic.h"
#include "whatif/whatif_engine.h"

#include <QMainWindow>
#include <memory>

class QLabel;
class QMenu;
class QTabWidget;
class QProgressBar;
class QToolButton;

namespace gantry::studio {

class Workspace;
class Autosaver;
class ClusterTab;
class QueuesTab;
class TopologyTab;
class WorkloadsTab;
class PolicyTab;
class ResultsTab;
class PlanTab;
class ExportTab;
struct LoadedFile;
struct LoadOutcome;
class FileLoader;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    // autosaveDir empty = QStandardPaths' app data folder; tests pass their own.
    explicit MainWindow(std::unique_ptr<WhatIfEngine> engine = makeDefaultWhatIfEngine(),
                        const QString& autosaveDir = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    Workspace* workspace() const { return ws_; }
    static QStringList tabNames(); // cluster, queues, topology, workloads, policy, results, plan, export
    bool setCurrentTab(const QString& name);
    QWidget* tab(const QString& name) const;
    ClusterTab* clusterTab() const { return cluster_; }
    QueuesTab* queuesTab() const { return queues_; }
    TopologyTab* topologyTab() const { return topology_; }
    WorkloadsTab* workloadsTab() const { return workloads_; }
    ResultsTab* resultsTab() const { return results_; }
    PlanTab* planTab() const { return plan_; }
    ExportTab* exportTab() const { return export_; }

    // Opens files (one project, inventory or trace; or several snapshots) on a worker thread.
    // Interactive: returns at once (true when started); errors come as a dialog. Not interactive:
    // waits, and errors go to *error. The open project stays when a file cannot be read.
    bool openFiles(const QStringList& paths, bool interactive = true, QString* error = nullptr);
    bool save();
    bool saveAs();
    void newProject();
    // Offers recovery of autosaved sessions left by a crash.
    void offerRecovery();

  protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

  private:
    void buildActions();
    void updateTitle();
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    bool maybeSave();
    bool saveTo(const QString& path);
    void adopt(LoadedFile&& loaded, const QString& source, bool modified);
    void showStatus(const QString& text, int timeoutMs = 5000);
    void connectToCluster();
    void importHistory();
    void finishOpen(const LoadOutcome& outcome);
    void showWarnings();

    Workspace* ws_;
    Autosaver* autosaver_ = nullptr;
    QTabWidget* tabs_;
    ClusterTab* cluster_;
    QueuesTab* queues_;
    TopologyTab* topology_;
    WorkloadsTab* workloads_;
    PolicyTab* policy_;
    ResultsTab* results_;
    PlanTab* plan_;
    ExportTab* export_;
    QMenu* recentMenu_ = nullptr;
    QLabel* summaryLabel_;
    QProgressBar* runProgress_;
    QProgressBar* openProgress_;
    QToolButton* warningsButton_;
    FileLoader* loader_;
    bool openingInteractive_ = true;
    QString lastOpenError_;
};

} // namespace gantry::studio
