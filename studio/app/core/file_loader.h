#pragma once
// Reads files off the GUI thread, so the window stays responsive while a large snapshot imports.
// The result (a project, or the located error) comes back on the GUI thread; a load the user
// abandons is left to finish in the background and its result dropped.
#include "core/project_files.h"

#include <QObject>
#include <QStringList>
#include <QThread>
#include <memory>

namespace gantry::studio {

struct LoadOutcome {
    QStringList paths;
    LoadedFile file;
    QString error; // empty on success; every located error, one per line
};

class FileLoader : public QObject {
    Q_OBJECT
  public:
    explicit FileLoader(QObject* parent = nullptr);
    ~FileLoader() override;
    bool isLoading() const { return active_ != nullptr; }
    // Starts reading; false when a load is already running.
    bool start(const QStringList& paths);
    void abandon(); // forget the running load
    // Blocks (processing events) until the current load ends; false on timeout.
    bool waitForFinished(int timeoutMs);

  signals:
    void finished(std::shared_ptr<gantry::studio::LoadOutcome> outcome);

  private:
    QThread* active_ = nullptr;
    std::vector<QThread*> abandoned_;
};

// Runs loadFiles and turns exceptions into the outcome's error text.
LoadOutcome loadOutcome(const QStringList& paths);

} // namespace gantry::studio
