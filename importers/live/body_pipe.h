#pragma once
// A bounded byte pipe from libcurl's write callback to a reader on another thread that sees the body as
// a std::istream. A list page is parsed while it arrives, so a 100 MB answer never sits in memory
// whole: at most `capacity` bytes wait between the two sides.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <streambuf>
#include <string>

namespace gantry::live {

class BodyPipe : public std::streambuf {
  public:
    explicit BodyPipe(size_t capacity) : capacity_(capacity) {}

    // Writer side. write() blocks while the pipe is full; once the reader has stopped, data is dropped
    // (the transfer runs to its end and its outcome decides what is reported).
    void write(const char* data, size_t size);
    void close(); // the body has ended (or the transfer failed): the reader sees end of file

    // Reader side: called when the reader returns or throws, so a blocked writer goes on.
    void readerDone();

    size_t highWater() const { return highWater_; } // the most bytes ever waiting in the pipe

  protected:
    int_type underflow() override;

  private:
    const size_t capacity_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::string> chunks_;
    size_t buffered_ = 0;
    size_t highWater_ = 0;
    bool closed_ = false, readerDone_ = false;
    std::string current_; // the chunk the reader is in
};

} // namespace gantry::live
