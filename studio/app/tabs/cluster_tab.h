#pragma once
// Cluster: the node table (filter, sort, group) next to the GPU map, with the headline figures on
// top. The map shows the cluster as loaded or as a what-if run left it.
#include <QWidget>

class QComboBox;
class QLineEdit;
class QTreeView;
class QLabel;

namespace gantry::studio {

class Workspace;
class NodeTableModel;
class NodeFilterProxy;
class GpuMapWidget;
class GpuMapLegend;
class StatCard;

class ClusterTab : public QWidget {
    Q_OBJECT
  public:
    explicit ClusterTab(Workspace* workspace, QWidget* parent = nullptr);

    GpuMapWidget* gpuMap() const { return map_; }
    NodeTableModel* nodeModel() const { return model_; }
    NodeFilterProxy* nodeProxy() const { return proxy_; }
    QComboBox* colorModeBox() const { return colorBox_; }
    QComboBox* showBox() const { return showBox_; } // 0 = the cluster as loaded, 1 / 2 = a what-if's state
    void saveState() const;
    // Shows the map as the last what-if left it (the primary profile's run), if there is one.
    bool showWhatIfState();
    void restoreState();

  private:
    void rebuildMap();
    void refreshOccupancy();
    void refreshSummary();
    void refreshIdle();
    void refreshGroupingChoices();
    void applyFilter();

    Workspace* ws_;
    NodeTableModel* model_;
    NodeFilterProxy* proxy_;
    QTreeView* table_;
    QLineEdit* filter_;
    QComboBox* groupBox_;
    QComboBox* colorBox_;
    QComboBox* showBox_;
    const void* lastRun_ = nullptr; // the what-if shown last, to notice a new one
    QLabel* mapNote_;
    GpuMapWidget* map_;
    GpuMapLegend* legend_;
    StatCard* nodesCard_;
    StatCard* gpusCard_;
    StatCard* allocCard_;
    StatCard* fragCard_;
    StatCard* idleCard_;
    StatCard* podsCard_;
    StatCard* queuesCard_;
};

} // namespace gantry::studio
