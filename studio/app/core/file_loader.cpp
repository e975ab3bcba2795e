#include "core/file_loader.h"

#include "input_error.h"

#include <QEventLoop>
#include <QTimer>

namespace gantry::studio {

LoadOutcome loadOutcome(const QStringList& paths) {
    LoadOutcome out;
    out.paths = paths;
    try {
        out.file = loadFiles(paths);
    } catch (const InputError& e) {
        QStringList lines;
        for (const auto& d : e.all()) lines << QString::fromStdString(d.str());
        out.error = lines.join('\n');
    } catch (const std::exception& e) {
        out.error = QString::fromUtf8(e.what());
    }
    return out;
}

FileLoader::FileLoader(QObject* parent) : QObject(parent) {}

FileLoader::~FileLoader() {
    for (QThread* t : abandoned_) t->wait();
    if (active_) active_->wait();
}

bool FileLoader::start(const QStringList& paths) {
    if (active_) return false;
    QThread* thread = QThread::create([this, paths] {
        auto outcome = std::make_shared<LoadOutcome>(loadOutcome(paths));
        QThread* self = QThread::currentThread();
        QMetaObject::invokeMethod(
            this,
            [this, self, outcome] {
                self->wait();
                self->deleteLater();
                auto it = std::find(abandoned_.begin(), abandoned_.end(), self);
                if (it != abandoned_.end()) {
                    abandoned_.erase(it);
                    return;
                }
                active_ = nullptr;
                emit finished(outcome);
            },
            Qt::QueuedConnection);
    });
    active_ = thread;
    thread->start();
    return true;
}

void FileLoader::abandon() {
    if (!active_) return;
    abandoned_.push_back(active_);
    active_ = nullptr;
}

bool FileLoader::waitForFinished(int timeoutMs) {
    if (!active_) return true;
    // An event loop that sleeps until the result arrives (a polling loop would take a core from
    // the worker).
    QEventLoop loop;
    connect(this, &FileLoader::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return active_ == nullptr;
}

} // namespace gantry::studio
