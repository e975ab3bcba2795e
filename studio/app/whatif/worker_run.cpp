#include "whatif/worker_run.h"

#include <QEventLoop>
#include <QTimer>
#include <algorithm>

namespace gantry::studio {

WorkerRun::WorkerRun(QObject* parent) : QObject(parent) {}

WorkerRun::~WorkerRun() {
    if (cancel_) cancel_->store(true);
    if (thread_) thread_->wait();
    for (QThread* t : abandoned_) t->wait();
}

bool WorkerRun::start(Work work) {
    if (thread_) return false;
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    thread_ = QThread::create([this, work = std::move(work), flag = cancel_] {
        std::function<void()> deliver = work(*flag);
        QThread* self = QThread::currentThread();
        QMetaObject::invokeMethod(
            this,
            [this, self, deliver = std::move(deliver)] {
                self->wait();
                self->deleteLater();
                auto it = std::find(abandoned_.begin(), abandoned_.end(), self);
                if (it != abandoned_.end()) { // cancelled earlier: already reported
                    abandoned_.erase(it);
                    return;
                }
                thread_ = nullptr;
                emit runningChanged(false);
                if (deliver) deliver();
            },
            Qt::QueuedConnection);
    });
    thread_->start(QThread::LowPriority);
    emit runningChanged(true);
    return true;
}

bool WorkerRun::cancel() {
    if (!thread_) return false;
    cancel_->store(true);
    abandoned_.push_back(thread_);
    thread_ = nullptr;
    emit runningChanged(false);
    return true;
}

bool WorkerRun::waitForFinished(int timeoutMs) {
    if (!thread_) return true;
    QEventLoop loop; // sleeps until the run ends, leaving the cores to the worker
    connect(this, &WorkerRun::runningChanged, &loop, [&loop](bool running) {
        if (!running) loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return thread_ == nullptr;
}

bool WorkerRun::waitForWorkers(int timeoutMs) {
    auto idle = [this] { return !thread_ && abandoned_.empty(); };
    if (idle()) return true;
    QEventLoop loop;
    QTimer poll;
    connect(&poll, &QTimer::timeout, &loop, [&] {
        if (idle()) loop.quit();
    });
    poll.start(20);
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return idle();
}

} // namespace gantry::studio
