#pragma once
// Results: run the what-if on worker threads (progress, cancel), then the charts, the pending jobs
// with their reasons, idle GPUs by why, and, when several profiles ran, the profiles compared measure
// by measure with a verdict each.
#include <QWidget>

class QChartView;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;
class QTableWidget;
class QTabWidget;

namespace gantry::studio {

class Workspace;
class ComparisonModel;
class PendingJobsModel;
class ProfileObjectsModel;
class StatCard;

class ResultsTab : public QWidget {
    Q_OBJECT
  public:
    explicit ResultsTab(Workspace* workspace, QWidget* parent = nullptr);
    PendingJobsModel* pendingModel() const { return pending_; }
    ComparisonModel* comparison() const { return compare_; }
    ProfileObjectsModel* profileObjects() const { return objects_; }
    // The tables under the charts, by name (for --screenshot): pending, compare, reasons, idle, objects,
    // fairshare.
    static QStringList tableNames();
    bool showTable(const QString& name);

  signals:
    void statusMessage(const QString& text, int timeoutMs = 0);

  private:
    void refresh();
    void refreshBanner();
    void showProfile(int index); // the pending jobs, reasons and idle GPUs of one profile's run

    Workspace* ws_;
    QPushButton* run_;
    QPushButton* cancel_;
    QProgressBar* progress_;
    QLabel* stage_;
    QLabel* banner_;
    StatCard* allocCard_;
    StatCard* fragCard_;
    StatCard* startedCard_;
    StatCard* pendingCard_;
    StatCard* partialCard_;
    QChartView* allocChart_;
    QChartView* queueChart_;
    QChartView* waitChart_;
    QTabWidget* bottom_;
    QComboBox* profileOf_;
    PendingJobsModel* pending_;
    ProfileObjectsModel* objects_;
    QTableView* objectsTable_;
    QTableView* pendingTable_;
    ComparisonModel* compare_;
    QTableView* compareTable_;
    QTableWidget* reasons_;
    QChartView* idleChart_;
    QChartView* fairShareChart_;
};

} // namespace gantry::studio
