#pragma once
// Export: choose the target, see every validation error, warning and lossy-mapping note, read the
// manifests, and write them (only when there are no errors).
#include "core/export_bridge.h"

#include <QWidget>

class QButtonGroup;
class QCheckBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

namespace gantry::studio {

class Workspace;

class ExportTab : public QWidget {
    Q_OBJECT
  public:
    explicit ExportTab(Workspace* workspace, QWidget* parent = nullptr);
    void setTarget(TargetScheduler target);
    const ExportPlan& plan() const { return plan_; }
    void setOutputFolder(const QString& dir);
    // Validates and, when clean, writes; returns false (with the reason in a message) otherwise.
    bool writeFiles(QString* message = nullptr);
    void refresh(); // rebuilds and revalidates the plan

  signals:
    void statusMessage(const QString& text, int timeoutMs = 0);

  private:
    void showFile(int row);

    Workspace* ws_;
    ExportPlan plan_;
    bool dirty_ = true;
    QButtonGroup* target_;
    QCheckBox* singleFile_;
    QLabel* verdict_;
    QTableWidget* issues_;
    QListWidget* files_;
    QPlainTextEdit* preview_;
    QLineEdit* folder_;
    QPushButton* write_;
};

} // namespace gantry::studio
