#pragma once
// An atomic save written piece by piece, for outputs too large to hold in memory (a live cluster's
// snapshot): a temporary file beside the target takes the writes; commit() flushes it to disk and
// renames it over the target. Destroyed without commit() (an error, a cancel), it removes the
// temporary file and the target is untouched.
#include <cstdint>
#include <string>
#include <string_view>

namespace gantry {

class AtomicFileStream {
  public:
    // Throws std::runtime_error naming the path and the OS reason when the temporary file cannot be made.
    explicit AtomicFileStream(const std::string& path);
    ~AtomicFileStream();
    AtomicFileStream(const AtomicFileStream&) = delete;
    AtomicFileStream& operator=(const AtomicFileStream&) = delete;

    void write(std::string_view text);
    uint64_t size() const { return flushed_ + buffer_.size(); }
    // Drops everything after the first `size` bytes written so far.
    void truncate(uint64_t size);
    // Makes the file the target, keeping the replaced file's permissions (0644 for a new one).
    void commit();

  private:
    void flush();
    [[noreturn]] void fail(const char* what, int err);

    std::string path_, temp_;
    int fd_ = -1;
    uint64_t flushed_ = 0;
    std::string buffer_;
    bool committed_ = false;
};

} // namespace gantry
