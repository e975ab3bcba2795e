#pragma once
// One run at a time on a worker thread, with a cancel flag the work checks: what the what-if runner
// and the planner share. A cancelled run is let go at once (its thread finishes the step under way
// in the background and what it delivers is dropped); the destructor waits for every thread, so the
// owner outlives every call the worker queues to it.
#include <QObject>
#include <QThread>
#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace gantry::studio {

class WorkerRun : public QObject {
    Q_OBJECT
  public:
    // The work, on the worker thread: returns what to do on the GUI thread when it ends (emit the
    // owner's result), unless the run was cancelled meanwhile.
    using Work = std::function<std::function<void()>(const std::atomic<bool>& cancel)>;

    explicit WorkerRun(QObject* parent = nullptr);
    ~WorkerRun() override;

    bool isRunning() const { return thread_ != nullptr; }
    // Starts the work at low priority (the GUI stays responsive); false when a run is going.
    bool start(Work work);
    // Sets the flag and lets the run go; false when none was going.
    bool cancel();
    // Block until the run ends, or until every thread (cancelled ones too) has, processing events.
    bool waitForFinished(int timeoutMs);
    bool waitForWorkers(int timeoutMs);

  signals:
    // Before the delivery of a run's end, or at a cancel.
    void runningChanged(bool running);

  private:
    QThread* thread_ = nullptr;
    std::vector<QThread*> abandoned_;
    std::shared_ptr<std::atomic<bool>> cancel_;
};

} // namespace gantry::studio
