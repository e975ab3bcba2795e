#include "atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace gantry {

namespace {
[[noreturn]] void fail(const std::string& what, const std::string& path, int err) {
    throw std::runtime_error(what + " " + path + ": " + std::strerror(err));
}
} // namespace

void writeFileAtomically(const std::string& path, std::string_view contents) {
    namespace fs = std::filesystem;
    fs::path target(path);
    fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::string hidden = ".";
    hidden += target.filename().string(); // built stepwise: GCC 12 warns falsely on "." + string
    hidden += ".tmp-XXXXXX";
    std::string tmpl = (dir / hidden).string();
    int fd = ::mkstemp(tmpl.data());
    if (fd < 0) fail("cannot create a temporary file next to", path, errno);
    auto cleanup = [&](int err, const char* what) {
        ::close(fd);
        ::unlink(tmpl.c_str());
        fail(what, path, err);
    };
    const char* p = contents.data();
    size_t left = contents.size();
    while (left > 0) {
        ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            cleanup(errno, "cannot write");
        }
        p += n;
        left -= size_t(n);
    }
    // Keep the permissions of the file being replaced; new files get 0644.
    struct stat st {};
    mode_t mode = ::stat(path.c_str(), &st) == 0 ? st.st_mode & 07777 : 0644;
    if (::fchmod(fd, mode) != 0) cleanup(errno, "cannot set permissions of");
    if (::fsync(fd) != 0) cleanup(errno, "cannot flush");
    if (::close(fd) != 0) {
        int err = errno;
        ::unlink(tmpl.c_str());
        fail("cannot close", path, err);
    }
    if (::rename(tmpl.c_str(), path.c_str()) != 0) {
        int err = errno;
        ::unlink(tmpl.c_str());
        fail("cannot replace", path, err);
    }
    // Make the rename itself durable.
    int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
}

} // namespace gantry
