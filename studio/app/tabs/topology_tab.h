#pragma once
// Topology: the levels (zone, block, rack, NVLink domain) and their node labels, bulk assignment of
// those labels to nodes picked by selection or name pattern, and a preview of the tree they make
// as Volcano HyperNodes and a Kueue Topology.
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableWidget;
class QTreeView;
class QTreeWidget;
class QRadioButton;

namespace gantry::studio {

class Workspace;
class NodeTableModel;
class NodeFilterProxy;

class TopologyTab : public QWidget {
    Q_OBJECT
  public:
    explicit TopologyTab(Workspace* workspace, QWidget* parent = nullptr);

    // Bulk assignment, as the Apply button does it. Returns how many nodes were labelled.
    int applyLabels(bool remove = false);
    QLineEdit* patternEdit() const { return pattern_; }
    QComboBox* keyBox() const { return keyBox_; }
    QLineEdit* valueEdit() const { return value_; }
    QSpinBox* perValueSpin() const { return perValue_; }
    QTreeWidget* preview() const { return preview_; }

  signals:
    void statusMessage(const QString& text);

  private:
    std::vector<int> targetNodes(QString* error) const;
    void refreshLevels();
    void refreshPreview();
    void refreshPlanNote();
    void commitLevels();

    Workspace* ws_;
    QTableWidget* levels_;
    QRadioButton* bySelection_;
    QRadioButton* byPattern_;
    QLineEdit* pattern_;
    QComboBox* keyBox_;
    QLineEdit* value_;
    QSpinBox* perValue_;
    QSpinBox* firstNumber_;
    QLabel* planNote_;
    NodeTableModel* nodes_;
    NodeFilterProxy* proxy_;
    QTreeView* nodeList_;
    QTreeWidget* preview_;
    QLabel* previewNote_;
    bool loadingLevels_ = false;
};

} // namespace gantry::studio
