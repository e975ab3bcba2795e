#pragma once
// Workloads: the what-if job mix (templates with shape, gang, queue, priority, arrival pattern and
// duration), the jobs that came with the snapshot (a history's with charts of when they arrive, how
// large they are and how long they run), and jobs imported from manifests or traces.
#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QCheckBox;
class QTableView;
class QGroupBox;
class QSplitter;

namespace gantry::studio {

class Workspace;
class WorkloadModel;
class ImportedJobsModel;
class HistoryCharts;

class WorkloadsTab : public QWidget {
    Q_OBJECT
  public:
    explicit WorkloadsTab(Workspace* workspace, QWidget* parent = nullptr);
    WorkloadModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    ImportedJobsModel* importedJobs() const { return importedModel_; }
    HistoryCharts* historyCharts() const { return history_; }
    // Adds the jobs of a file of job manifests (or a trace's node and pod lists) to the project, as
    // one undoable edit. Returns a summary for the status bar; *error says why nothing was added.
    QString importJobs(const QStringList& paths, QString* error);

  signals:
    void statusMessage(const QString& text);

  private:
    int currentRow() const;
    void loadDetail();
    void commitDetail();
    void refreshSummary();
    void refreshImported();

    Workspace* ws_;
    WorkloadModel* model_;
    QTableView* table_;
    QLabel* summary_;
    QGroupBox* detail_;
    QComboBox* arrivalKind_;
    QDoubleSpinBox* arrivalStart_;
    QDoubleSpinBox* arrivalInterval_;
    QDoubleSpinBox* arrivalRate_;
    QSpinBox* burstSize_;
    QComboBox* durationKind_;
    QDoubleSpinBox* durationMean_;
    QDoubleSpinBox* durationMin_;
    QDoubleSpinBox* durationMax_;
    QDoubleSpinBox* durationSigma_;
    QDoubleSpinBox* checkpoint_;
    QCheckBox* preemptable_;
    QComboBox* topologyMode_;
    QSpinBox* highestTier_;
    QLineEdit* gpuModels_;
    QLineEdit* nodeSelector_;
    QLineEdit* namespace_;
    QTableView* imported_;
    ImportedJobsModel* importedModel_;
    QLabel* importedNote_;
    HistoryCharts* history_;
    QSplitter* vsplit_;
    bool loading_ = false;
};

} // namespace gantry::studio
