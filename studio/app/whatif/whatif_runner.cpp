#include "whatif/whatif_runner.h"

#include "profile/registry.h"

#include <QEventLoop>
#include <QTimer>
#include <algorithm>
#include <exception>

namespace gantry::studio {

WhatIfRunner::WhatIfRunner(std::unique_ptr<WhatIfEngine> engine, QObject* parent)
    : QObject(parent), engine_(std::move(engine)) {
    qRegisterMetaType<WhatIfRun>();
}

WhatIfRunner::~WhatIfRunner() {
    if (cancel_) cancel_->store(true);
    if (thread_) thread_->wait();
    for (QThread* t : abandoned_) t->wait();
}

QString WhatIfRunner::unavailableReason() const {
    return QString::fromStdString(engine_->unavailableReason());
}

void WhatIfRunner::clear() {
    last_ = {};
}

bool WhatIfRunner::start(const Project& project, uint64_t revision) {
    if (thread_) {
        emit failed(tr("A what-if run is already in progress."));
        return false;
    }
    QString why = unavailableReason();
    if (!why.isEmpty()) {
        emit failed(why);
        return false;
    }
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    auto cancelFlag = cancel_;
    auto engine = engine_;
    // The worker owns its copy of the project, so edits made meanwhile do not race with it. The
    // destructor waits for the thread, so `this` outlives every queued call made from it.
    thread_ = QThread::create([this, project, revision, cancelFlag, engine] {
        const std::vector<std::string> profiles = engine::whatIfProfiles(project);
        const bool twoRuns = profiles.size() > 1;
        auto reporter = [this](double base, double span) {
            return [this, base, span](double fraction, const std::string& stage) {
                double f = fraction < 0 ? -1.0 : base + span * std::clamp(fraction, 0.0, 1.0);
                QString text = QString::fromStdString(stage);
                QMetaObject::invokeMethod(
                    this, [this, f, text] { emit progress(f, text); }, Qt::QueuedConnection);
            };
        };
        WhatIfRun run;
        QString error;
        try {
            WhatIfControl control{reporter(0, twoRuns ? 0.5 : 1.0), cancelFlag.get()};
            if (auto r = engine->run(project, profiles[0], control)) {
                r->projectRevision = revision;
                run.primary = std::move(r);
            }
            if (run.primary && twoRuns && !cancelFlag->load()) {
                WhatIfControl second{reporter(0.5, 0.5), cancelFlag.get()};
                if (auto r = engine->run(project, profiles[1], second)) {
                    r->projectRevision = revision;
                    run.contrast = std::move(r);
                }
            }
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        const bool wasCancelled = cancelFlag->load() || (!run.primary && error.isEmpty());
        QThread* self = QThread::currentThread();
        QMetaObject::invokeMethod(
            this,
            [this, self, run, error, wasCancelled] {
                self->wait();
                self->deleteLater();
                auto it = std::find(abandoned_.begin(), abandoned_.end(), self);
                if (it != abandoned_.end()) { // cancelled earlier: already reported
                    abandoned_.erase(it);
                    return;
                }
                thread_ = nullptr;
                emit runningChanged(false);
                if (!error.isEmpty())
                    emit failed(error);
                else if (wasCancelled)
                    emit cancelled();
                else {
                    last_ = run;
                    emit finished(run);
                }
            },
            Qt::QueuedConnection);
    });
    thread_->start(QThread::LowPriority);
    emit started();
    emit runningChanged(true);
    return true;
}

void WhatIfRunner::cancel() {
    if (!thread_) return;
    cancel_->store(true);
    abandoned_.push_back(thread_);
    thread_ = nullptr;
    emit runningChanged(false);
    emit cancelled();
}

bool WhatIfRunner::waitForFinished(int timeoutMs) {
    if (!thread_) return true;
    QEventLoop loop; // sleeps until the run ends, leaving the cores to the worker
    connect(this, &WhatIfRunner::runningChanged, &loop, [&loop](bool running) {
        if (!running) loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return thread_ == nullptr;
}

} // namespace gantry::studio
