#pragma once
// Kueue's own policy in Kueue's terms: the Configuration's fair sharing and its preemption
// strategies, admission fair sharing, waitForPodsReady and resource transformations, and each
// ClusterQueue's preemption. An edit is written into the Configuration document and read back by
// the reader `--scheduler-conf` and `gantry validate` use: a value Kueue would refuse is shown
// where it was typed and not applied.
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace gantry::studio {

class Workspace;

class KueuePolicyEditor : public QWidget {
    Q_OBJECT
  public:
    explicit KueuePolicyEditor(Workspace* workspace, QWidget* parent = nullptr);

  private:
    void load();
    void commitConfiguration(const QString& text);
    void commitPreemption(int row);

    Workspace* ws_;
    bool loading_ = false;
    QCheckBox* fairSharing_;
    QComboBox* strategies_;
    QCheckBox* afs_;
    QLineEdit* halfLife_;
    QLineEdit* sampling_;
    QLineEdit* afsWeights_;
    QCheckBox* podsReady_;
    QLineEdit* podsReadyTimeout_;
    QTableWidget* transformations_;
    QLabel* deviceMappings_;
    QTableWidget* preemption_;
    QLabel* error_;
};

} // namespace gantry::studio
