#include "whatif/whatif_runner.h"

#include "plan/parallel.h"
#include "profile/registry.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>

namespace gantry::studio {

WhatIfRunner::WhatIfRunner(std::unique_ptr<WhatIfEngine> engine, QObject* parent)
    : QObject(parent), engine_(std::move(engine)) {
    qRegisterMetaType<WhatIfRun>();
    connect(&worker_, &WorkerRun::runningChanged, this, &WhatIfRunner::runningChanged);
}

QString WhatIfRunner::unavailableReason() const {
    return QString::fromStdString(engine_->unavailableReason());
}

void WhatIfRunner::clear() {
    last_ = {};
}

bool WhatIfRunner::start(const Project& project, uint64_t revision) {
    if (worker_.isRunning()) {
        emit failed(tr("A what-if run is already in progress."));
        return false;
    }
    QString why = unavailableReason();
    if (!why.isEmpty()) {
        emit failed(why);
        return false;
    }
    auto engine = engine_;
    // The worker owns its copy of the project, so edits made meanwhile do not race with it.
    worker_.start([this, project, revision,
                   engine](const std::atomic<bool>& cancelFlag) -> std::function<void()> {
        const std::vector<std::string> profiles = engine::whatIfProfiles(project);
        const size_t n = profiles.size();
        // Each profile runs on its own thread, as many at once as there are cores; progress is the
        // share of profiles done, plus the fraction each reports.
        std::vector<double> fractions(n, 0.0);
        std::mutex progressMutex;
        auto reporter = [this, n, &fractions, &progressMutex, &profiles](size_t i) {
            return [this, i, n, &fractions, &progressMutex, &profiles](double fraction,
                                                                       const std::string& stage) {
                // Under the lock, so that the reports reach the GUI in the order of their totals.
                std::lock_guard lock(progressMutex);
                fractions[i] = fraction < 0 ? std::max(fractions[i], 0.05) : std::clamp(fraction, 0.0, 1.0);
                double total = 0;
                for (double f : fractions) total += f;
                const double f = total / double(n);
                QString text = QString::fromStdString(n > 1 ? profiles[i] + ": " + stage : stage);
                QMetaObject::invokeMethod(
                    this, [this, f, text] { emit progress(f, text); }, Qt::QueuedConnection);
            };
        };
        std::vector<std::shared_ptr<const WhatIfResult>> results(n);
        std::vector<std::string> errors(n);
        // Each profile's failure is its own, reported by name; the others still run.
        plan::runParallel(
            n, plan::threadCount(0),
            [&](size_t i) {
                try {
                    WhatIfControl control{reporter(i), &cancelFlag};
                    if (auto r = engine->run(project, profiles[i], control)) {
                        r->projectRevision = revision;
                        results[i] = std::move(r);
                    }
                } catch (const std::exception& e) {
                    errors[i] = e.what();
                }
            },
            &cancelFlag);

        WhatIfRun run;
        QString error;
        for (size_t i = 0; i < n && error.isEmpty(); ++i)
            if (!errors[i].empty())
                error = QString::fromStdString(n > 1 ? profiles[i] + ": " + errors[i] : errors[i]);
        if (std::all_of(results.begin(), results.end(), [](const auto& r) { return r != nullptr; })) {
            run.results = std::move(results);
            std::vector<sim::ProfileRun> compared;
            for (const auto& r : run.results) compared.push_back({r->profileName, r->sim.get()});
            if (compared.size() > 1 && std::all_of(compared.begin(), compared.end(),
                                                   [](const auto& c) { return c.result != nullptr; }))
                run.verdicts = sim::compareRuns(compared);
        }
        const bool wasCancelled = cancelFlag.load() || (run.results.empty() && error.isEmpty());
        return [this, run, error, wasCancelled] {
            if (!error.isEmpty())
                emit failed(error);
            else if (wasCancelled)
                emit cancelled();
            else {
                last_ = run;
                emit finished(run);
            }
        };
    });
    emit started();
    return true;
}

void WhatIfRunner::cancel() {
    if (worker_.cancel()) emit cancelled();
}

bool WhatIfRunner::waitForFinished(int timeoutMs) {
    return worker_.waitForFinished(timeoutMs);
}

} // namespace gantry::studio
