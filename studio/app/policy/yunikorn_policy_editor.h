#pragma once
// YuniKorn's own partition policy in YuniKorn's terms: the placement rules as an ordered list (each
// with its parent rule and user/group filter), node sorting and its resource weights, preemption.
// An edit is checked with the rules `gantry validate` applies to the exported yunikorn-configs; one
// that brings a new error is shown where it was made and not applied.
#include "model/cluster.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTreeWidget;

namespace gantry::studio {

class Workspace;

class YuniKornPolicyEditor : public QWidget {
    Q_OBJECT
  public:
    explicit YuniKornPolicyEditor(Workspace* workspace, QWidget* parent = nullptr);

  private:
    void load();
    void showRule();
    PlacementRule ruleFromForm() const;
    void commit(YuniKornPartition after, const QString& text);
    YuniKornPartition current() const;

    Workspace* ws_;
    bool loading_ = false;
    QLineEdit* name_;
    QTreeWidget* rules_;
    QComboBox* ruleName_;
    QLineEdit* ruleValue_;
    QCheckBox* ruleCreate_;
    QComboBox* filterType_;
    QLineEdit* filterUsers_;
    QLineEdit* filterGroups_;
    QComboBox* parentName_;
    QLineEdit* parentValue_;
    QComboBox* nodeSort_;
    QLineEdit* weights_;
    QComboBox* preemption_;
    QComboBox* quotaPreemption_;
    QLabel* error_;
};

} // namespace gantry::studio
