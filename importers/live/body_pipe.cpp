#include "live/body_pipe.h"

namespace gantry::live {

void BodyPipe::write(const char* data, size_t size) {
    std::unique_lock lock(mutex_);
    // A chunk larger than the whole capacity still goes through once the pipe is empty.
    changed_.wait(lock, [&] { return readerDone_ || buffered_ == 0 || buffered_ + size <= capacity_; });
    if (readerDone_) return;
    chunks_.emplace_back(data, size);
    buffered_ += size;
    if (buffered_ > highWater_) highWater_ = buffered_;
    changed_.notify_all();
}

void BodyPipe::close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    changed_.notify_all();
}

void BodyPipe::readerDone() {
    std::lock_guard lock(mutex_);
    readerDone_ = true;
    chunks_.clear();
    buffered_ = 0;
    changed_.notify_all();
}

BodyPipe::int_type BodyPipe::underflow() {
    std::unique_lock lock(mutex_);
    buffered_ -= current_.size(); // the chunk just read leaves the pipe
    current_.clear();
    changed_.notify_all();
    changed_.wait(lock, [&] { return closed_ || !chunks_.empty(); });
    if (chunks_.empty()) {
        setg(nullptr, nullptr, nullptr);
        return traits_type::eof();
    }
    current_ = std::move(chunks_.front());
    chunks_.pop_front();
    setg(current_.data(), current_.data(), current_.data() + current_.size());
    return traits_type::to_int_type(current_[0]);
}

} // namespace gantry::live
