#pragma once
// An atomic save written piece by piece, for outputs too large to hold in memory (a live cluster's
// snapshot): an unnamed temporary file (O_TMPFILE) in the target's folder takes the writes; commit()
// flushes it to disk, names it and renames it over the target. Destroyed without commit() (an error,
// a cancel), it leaves nothing and the target is untouched; a process killed mid-save leaves nothing
// either. Where the filesystem has no O_TMPFILE (or /proc is missing) the temporary file is named at
// once (.<name>.tmp-<pid>@<host>-XXXXXX), and the next save of the same target removes those left by
// dead processes of this host.
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
    void giveName(); // links the unnamed temporary file under a temporary name
    [[noreturn]] void fail(const char* what, int err);

    std::string path_, dir_, temp_;
    bool named_ = false; // temp_ exists in the folder
    int fd_ = -1;
    uint64_t flushed_ = 0;
    std::string buffer_;
    bool committed_ = false;
};

} // namespace gantry
