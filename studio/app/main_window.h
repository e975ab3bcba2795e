#pragma once
// The studio's main window. For now it opens a project, snapshot or inventory and shows what Gantry
// read (the same facts as `gantry inspect`) and every warning or error; the Studio issue builds on it.
#include "input_loader.h"

#include <QMainWindow>
#include <optional>

class QListWidget;
class QPlainTextEdit;

namespace gantry::studio {

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
    // Loads the files; on bad input shows the located errors and keeps what was open. Returns success.
    bool open(const QStringList& files);
    const std::optional<LoadedInput>& loaded() const { return loaded_; }
    QString summaryText() const;
    QStringList messages() const;

  private:
    void openDialog();
    void showLoaded();
    QPlainTextEdit* summary_ = nullptr;
    QListWidget* messages_ = nullptr;
    std::optional<LoadedInput> loaded_;
};

} // namespace gantry::studio
