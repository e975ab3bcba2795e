#include "atomic_stream.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace gantry {

namespace {
constexpr size_t kFlushAt = 1 << 20;
}

AtomicFileStream::AtomicFileStream(const std::string& path) : path_(path) {
    namespace fs = std::filesystem;
    fs::path target(path);
    fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::string hidden = ".";
    hidden += target.filename().string(); // built stepwise: GCC 12 warns falsely on "." + string
    hidden += ".tmp-XXXXXX";
    temp_ = (dir / hidden).string();
    fd_ = ::mkstemp(temp_.data());
    if (fd_ < 0)
        throw std::runtime_error("cannot create a temporary file next to " + path + ": " +
                                 std::strerror(errno));
}

AtomicFileStream::~AtomicFileStream() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(temp_.c_str());
}

void AtomicFileStream::fail(const char* what, int err) {
    throw std::runtime_error(std::string(what) + " " + path_ + ": " + std::strerror(err));
}

void AtomicFileStream::flush() {
    const char* p = buffer_.data();
    size_t left = buffer_.size();
    while (left > 0) {
        ssize_t n = ::write(fd_, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            fail("cannot write", errno);
        }
        p += n;
        left -= size_t(n);
    }
    flushed_ += buffer_.size();
    buffer_.clear();
}

void AtomicFileStream::write(std::string_view text) {
    buffer_ += text;
    if (buffer_.size() >= kFlushAt) flush();
}

void AtomicFileStream::truncate(uint64_t size) {
    if (size >= flushed_) {
        if (size - flushed_ < buffer_.size()) buffer_.resize(size_t(size - flushed_));
        return;
    }
    buffer_.clear();
    if (::ftruncate(fd_, off_t(size)) != 0 || ::lseek(fd_, off_t(size), SEEK_SET) < 0)
        fail("cannot truncate", errno);
    flushed_ = size;
}

void AtomicFileStream::commit() {
    flush();
    struct stat st {};
    mode_t mode = ::stat(path_.c_str(), &st) == 0 ? st.st_mode & 07777 : 0644;
    if (::fchmod(fd_, mode) != 0) fail("cannot set permissions of", errno);
    if (::fsync(fd_) != 0) fail("cannot flush", errno);
    int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail("cannot close", errno);
    if (::rename(temp_.c_str(), path_.c_str()) != 0) fail("cannot replace", errno);
    committed_ = true;
    // Make the rename itself durable.
    std::filesystem::path target(path_);
    std::string dir = target.has_parent_path() ? target.parent_path().string() : std::string(".");
    int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
}

} // namespace gantry
