#pragma once
// Plan: the fewest nodes of a pool for which the service levels hold, under each scheduler profile
// compared (engine/plan, the search `gantry plan` runs). The user picks the pool, the SLOs, the
// profiles, the seeds and the range; the search runs on worker threads with progress and cancel;
// the points tried fill a table and a chart of one SLO's metric against the node count; Apply adds
// (or removes) a profile's answer to the project as one undoable edit.
#include "whatif/plan_runner.h"

#include <QWidget>

class QChartView;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;

namespace gantry::studio {

class Workspace;
class PlanPointsModel;

// One profile's answer in a line: "Volcano: +3 h100 nodes (51 in the pool) · wait.p95 12m to spare".
QString planAnswerText(const PlanRun& run, size_t profile);

class PlanTab : public QWidget {
    Q_OBJECT
  public:
    explicit PlanTab(Workspace* workspace, QWidget* parent = nullptr);

    // What the form holds, and filling it (the screenshot mode and tests drive the view this way).
    PlanSettings settings() const;
    void setSettings(const PlanSettings& settings);
    // Starts the plan the form describes; false when an SLO is malformed (shown under the list) or
    // the planner refuses the settings.
    bool startPlan();
    // Adds the answer of the last plan's profile `index` to the project, as one undo step; false
    // when that profile has no answer or the project's nodes are not those the plan counted from.
    bool applyAnswer(size_t index);

    PlanPointsModel* pointsModel() const { return points_; }
    QString sloError() const;   // the inline error under the SLO list; empty when all parse
    QString answerText() const; // the answer lines shown

  signals:
    void statusMessage(const QString& text, int timeoutMs = 0);

  private:
    void refreshPools();
    void refreshProfiles();
    bool checkSlos();
    // `answered`: the run is a finished plan, whose answers the banner states.
    void showRun(const PlanRun& run, bool answered);
    void refreshChart();
    void refreshApply();

    Workspace* ws_;
    QComboBox* pool_;
    QListWidget* slos_;
    QLabel* sloError_;
    QListWidget* profiles_;
    QLineEdit* varyField_;
    QLineEdit* varyValues_;
    QSpinBox* seeds_;
    QSpinBox* min_;
    QSpinBox* max_;
    QPushButton* plan_;
    QPushButton* cancel_;
    QProgressBar* progress_;
    QLabel* stage_;
    QLabel* answer_;
    QComboBox* metric_;
    QChartView* chart_;
    PlanPointsModel* points_;
    QTableView* table_;
    QComboBox* applyOf_;
    QPushButton* apply_;
    PlanRun shown_; // the finished plan, or the one going with its points so far
};

} // namespace gantry::studio
