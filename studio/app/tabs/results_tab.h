#pragma once
// Results: run the what-if on a worker (progress, cancel), then the charts, the pending jobs with
// their reasons and, when a comparison profile ran too, the two runs side by side.
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
class PendingJobsModel;
class StatCard;

class ResultsTab : public QWidget {
    Q_OBJECT
  public:
    explicit ResultsTab(Workspace* workspace, QWidget* parent = nullptr);
    PendingJobsModel* pendingModel() const { return pending_; }
    QTableWidget* comparison() const { return compare_; }

  signals:
    void statusMessage(const QString& text, int timeoutMs = 0);

  private:
    void refresh();
    void refreshBanner();

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
    QComboBox* pendingOf_;
    PendingJobsModel* pending_;
    QTableView* pendingTable_;
    QTableWidget* compare_;
    QTableWidget* reasons_;
};

} // namespace gantry::studio
