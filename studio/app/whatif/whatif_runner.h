#pragma once
// Runs what-ifs off the GUI thread: a copy of the project goes to a worker thread, progress comes
// back as signals, cancel() stops it, and the results arrive as immutable values. The last
// results stay available (with the project revision they were computed for) until the next run.
#include "sim/compare.h"
#include "whatif/whatif_engine.h"
#include "whatif/worker_run.h"

#include <QObject>
#include <atomic>
#include <memory>

namespace gantry::studio {

struct WhatIfRun {
    // One result per profile the project runs (engine::whatIfProfiles), in that order.
    std::vector<std::shared_ptr<const WhatIfResult>> results;
    // With two results or more: one verdict per measure (sim/compare.h).
    std::vector<sim::Verdict> verdicts;
    std::shared_ptr<const WhatIfResult> primary() const {
        return results.empty() ? nullptr : results.front();
    }
};

class WhatIfRunner : public QObject {
    Q_OBJECT
  public:
    explicit WhatIfRunner(std::unique_ptr<WhatIfEngine> engine, QObject* parent = nullptr);

    QString unavailableReason() const;
    bool isRunning() const { return worker_.isRunning(); }
    const WhatIfRun& last() const { return last_; }
    void clear();

    // Starts runs of every profile the project compares, in parallel on the cores.
    // Returns false (and emits failed) when a run is already going or the engine is unavailable.
    bool start(const Project& project, uint64_t revision);
    // Stops the run: the engine is asked to stop, and the runner lets go of it at once (an engine
    // that cannot stop mid-way finishes in the background and its result is dropped).
    void cancel();
    // Blocks until the current run ends, processing events (for the screenshot mode and tests).
    bool waitForFinished(int timeoutMs);

  signals:
    void started();
    void progress(double fraction, const QString& stage); // fraction < 0: busy, amount unknown
    void finished(const gantry::studio::WhatIfRun& run);
    void failed(const QString& message);
    void cancelled();
    void runningChanged(bool running);

  private:
    std::shared_ptr<WhatIfEngine> engine_;
    WhatIfRun last_;
    WorkerRun worker_; // declared last, so destroyed first: it waits for the threads using the rest
};

} // namespace gantry::studio

Q_DECLARE_METATYPE(gantry::studio::WhatIfRun)
