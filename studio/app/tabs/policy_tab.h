#pragma once
// Policy: the target scheduler, each scheduler's own policy on a page of its own (Volcano's actions
// and plugins; Kueue's Configuration and ClusterQueue preemption; YuniKorn's partition), the
// profiles the what-if runs under, kube-scheduler's scoring, and the simulation settings.
#include "model/project.h"

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
class QTabWidget;

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
    QTabWidget* pages_;
    std::optional<TargetScheduler> shownTarget_;
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
