#pragma once
// File > Import History: a window of the cluster's past read from Prometheus (kube-state-metrics) on a
// worker thread, with progress and cancel, as `gantry import --prometheus` reads it. The result is a
// project whose what-if jobs replay what the cluster ran, plus the snapshot text to keep as a file.
#include "core/project_files.h"

#include <QDialog>
#include <QThread>
#include <atomic>
#include <memory>

class QDateTimeEdit;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;

namespace gantry::studio {

class HistoryDialog : public QDialog {
    Q_OBJECT
  public:
    explicit HistoryDialog(QWidget* parent = nullptr);
    ~HistoryDialog() override;

    const LoadedFile& result() const { return result_; }
    const QString& snapshotText() const { return snapshot_; }
    QString summary() const { return summary_; }
    QString serverName() const; // the URL's host, for titles

    // What the fields hold, for tests and for a caller that knows them.
    void setUrl(const QString& url);
    void setSince(const QString& span);                           // "30d", "6h"
    void setWindow(const QDateTime& start, const QDateTime& end); // UTC
    void setStep(const QString& span);
    void setTokenFile(const QString& path);
    void setCaFile(const QString& path);
    void startImport(); // as the Import button does
    bool importing() const { return worker_ != nullptr; }
    void reject() override; // Cancel: stops a running import first

  private:
    void updateWindowFields();
    void finished(bool ok, const QString& message);

    QLineEdit* url_;
    QRadioButton* lastRadio_;
    QRadioButton* rangeRadio_;
    QLineEdit* since_;
    QDateTimeEdit* start_;
    QDateTimeEdit* end_;
    QLineEdit* step_;
    QLineEdit* token_;
    QLineEdit* ca_;
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
