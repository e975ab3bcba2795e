#pragma once
// Policy: the target scheduler, the scheduling policy the what-if runs with (Volcano's actions and
// plugins: gang, fair sharing, placement, preemption, topology), a second profile to compare
// against, and the simulation settings.
#include <QWidget>
#include <string>
#include <utility>
#include <vector>

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;
class QTreeWidget;
class QGroupBox;

namespace gantry::studio {

class Workspace;
struct Policy;

class PolicyTab : public QWidget {
    Q_OBJECT
  public:
    explicit PolicyTab(Workspace* workspace, QWidget* parent = nullptr);

  private:
    void load();
    void commit(const QString& text);
    Policy fromForm() const;

    Workspace* ws_;
    bool loading_ = false;
    QButtonGroup* target_;
    QLabel* targetNote_;
    QCheckBox* gang_;
    QCheckBox* priority_;
    QCheckBox* drf_;
    QComboBox* sharing_;
    QComboBox* placement_;
    QSpinBox* binpackWeight_;
    QSpinBox* binpackGpu_;
    QSpinBox* binpackCpu_;
    QSpinBox* binpackMemory_;
    QCheckBox* preempt_;
    QCheckBox* reclaim_;
    QCheckBox* backfill_;
    QCheckBox* enqueue_;
    QCheckBox* topologyAware_;
    QTreeWidget* tiers_;
    QLabel* actionsLine_;
    QGroupBox* contrastBox_;
    QComboBox* strategy_;
    QSpinBox* weightCpu_;
    QSpinBox* weightMemory_;
    QSpinBox* weightGpu_;
    QDoubleSpinBox* cycle_;
    QDoubleSpinBox* horizon_;
    QSpinBox* seed_;
    std::vector<std::pair<std::string, QCheckBox*>> compare_; // a box per scheduler profile
};

} // namespace gantry::studio
