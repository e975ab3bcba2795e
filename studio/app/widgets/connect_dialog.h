#pragma once
// "Connect to cluster": pick a kubeconfig and a context, then read the cluster through the API
// server on a worker thread with progress and cancel. The result is a project around the imported
// cluster, plus the snapshot text so it can be kept as a file.
#include "core/project_files.h"

#include <QDialog>
#include <QThread>
#include <atomic>
#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QDialogButtonBox;

namespace gantry::studio {

class ConnectDialog : public QDialog {
    Q_OBJECT
  public:
    explicit ConnectDialog(QWidget* parent = nullptr);
    ~ConnectDialog() override;

    const LoadedFile& result() const { return result_; }
    const QString& snapshotText() const { return snapshot_; }
    QString contextName() const;
    QString summary() const { return summary_; }

    void setKubeconfig(const QString& path); // also reloads the contexts
    void startImport();                      // as the Import button does

  protected:
    void reject() override;

  private:
    void loadContexts();
    void showContext();
    void finished(bool ok, const QString& message);

    QLineEdit* kubeconfig_;
    QComboBox* context_;
    QLabel* details_;
    QProgressBar* progress_;
    QLabel* status_;
    QPushButton* import_;
    QDialogButtonBox* buttons_;
    QThread* worker_ = nullptr;
    std::shared_ptr<std::atomic<bool>> cancel_;
    LoadedFile result_;
    QString snapshot_;
    QString summary_;
};

} // namespace gantry::studio
