#include "atomic_stream.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace gantry {

namespace {
constexpr size_t kFlushAt = 1 << 20;

// ".<name>.tmp-": what every temporary file of `target` starts with; "<pid>@<host>-XXXXXX" follows.
std::string tempStem(const std::filesystem::path& target) {
    std::string stem = ".";
    stem += target.filename().string(); // built stepwise: GCC 12 warns falsely on "." + string
    stem += ".tmp-";
    return stem;
}

// The writer's host goes into the name: on a folder shared between machines (NFS), a pid says
// nothing about another machine's processes.
const std::string& hostName() {
    static const std::string name = [] {
        char buf[256] = {};
        if (::gethostname(buf, sizeof buf - 1) != 0) return std::string("localhost");
        std::string n(buf);
        for (char& c : n)
            if (c == '/') c = '_';
        return n;
    }();
    return name;
}

// Linking an unnamed file into a folder goes through /proc/self/fd (AT_EMPTY_PATH needs a
// capability); without /proc (some chroots and containers) O_TMPFILE cannot be used.
bool canNameUnnamedFiles() {
    static const bool yes = ::access("/proc/self/fd", X_OK) == 0;
    return yes;
}

// Fills the trailing XXXXXX of a mkstemp template (for linkat, which has no such form).
void fillTemplate(std::string& name) {
    static std::atomic<unsigned> counter{0};
    auto v = uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()) * 2654435761u + counter++;
    constexpr char kDigits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    for (size_t i = name.size() - 6; i < name.size(); ++i, v /= 36) name[i] = kDigits[v % 36];
}

// Removes temporary files of `target` (of any file when it is empty) that a process killed mid-save
// left behind (its pid is gone).
void removeOrphans(const std::filesystem::path& dir, const std::filesystem::path& target) {
    namespace fs = std::filesystem;
    const std::string stem = target.empty() ? "." : tempStem(target);
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        std::string name = entry.path().filename().string();
        if (!name.starts_with(stem)) continue;
        size_t at = stem.size();
        if (target.empty()) { // ".<any name>.tmp-"
            const size_t tmp = name.find(".tmp-", 1);
            if (tmp == std::string::npos) continue;
            at = tmp + 5;
        }
        char* end = nullptr;
        long pid = std::strtol(name.c_str() + at, &end, 10);
        if (*end == '@') { // written on which host? (names without one come from this host)
            size_t from = size_t(end - name.c_str()) + 1, to = name.rfind('-');
            if (to == std::string::npos || to < from || name.compare(from, to - from, hostName()) != 0)
                continue;
        }
        if (pid > 0 && ::kill(pid_t(pid), 0) != 0 && errno == ESRCH) fs::remove(entry.path(), ec);
    }
}

} // namespace

void removeOrphanedTemporaryFiles(const std::string& dir) {
    removeOrphans(std::filesystem::path(dir), {});
}

AtomicFileStream::AtomicFileStream(const std::string& path) : path_(path) {
    namespace fs = std::filesystem;
    fs::path target(path);
    fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    removeOrphans(dir, target);
    dir_ = dir.string();
    // An unnamed file first: a process killed while writing leaves nothing behind. It gets a name
    // only at commit(). Filesystems without O_TMPFILE, or systems without /proc, get a named one at once.
    if (canNameUnnamedFiles()) fd_ = ::open(dir_.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    std::string name = tempStem(target);
    name += std::to_string(::getpid());
    name += '@';
    name += hostName();
    name += "-XXXXXX";
    temp_ = (dir / name).string();
    if (fd_ >= 0) return;
    fd_ = ::mkstemp(temp_.data());
    named_ = true;
    if (fd_ < 0)
        throw std::runtime_error("cannot create a temporary file next to " + path + ": " +
                                 std::strerror(errno));
}

AtomicFileStream::~AtomicFileStream() {
    if (fd_ >= 0) ::close(fd_);
    if (named_ && !committed_) ::unlink(temp_.c_str());
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

void AtomicFileStream::giveName() {
    // linkat cannot replace a file: link under a fresh temporary name, then rename that over the target.
    std::string self = "/proc/self/fd/" + std::to_string(fd_);
    for (int attempt = 0;; ++attempt) {
        std::string name = temp_;
        fillTemplate(name);
        if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0) {
            temp_ = name;
            named_ = true;
            return;
        }
        if (errno != EEXIST || attempt > 100) fail("cannot name the temporary file of", errno);
    }
}

void AtomicFileStream::commit() {
    flush();
    struct stat st {};
    mode_t mode = ::stat(path_.c_str(), &st) == 0 ? st.st_mode & 07777 : 0644;
    if (::fchmod(fd_, mode) != 0) fail("cannot set permissions of", errno);
    if (::fsync(fd_) != 0) fail("cannot flush", errno);
    if (!named_) giveName();
    int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail("cannot close", errno);
    if (::rename(temp_.c_str(), path_.c_str()) != 0) fail("cannot replace", errno);
    committed_ = true;
    // Make the rename itself durable.
    int dfd = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
}

} // namespace gantry
