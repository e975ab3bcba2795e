#include "prometheus_server.h"

#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <sstream>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace gantry::testing {

namespace {

// Runs a program with its output to `logFile`; returns its pid.
pid_t spawn(const std::vector<std::string>& argv, const std::string& logFile) {
    pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) {
        int fd = ::open(logFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            ::dup2(fd, 1);
            ::dup2(fd, 2);
            ::close(fd);
        }
        int null = ::open("/dev/null", O_RDONLY);
        if (null >= 0) ::dup2(null, 0);
        std::vector<char*> args;
        for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        ::execv(args[0], args.data());
        ::_exit(127);
    }
    return pid;
}

std::string tail(const std::string& text, size_t lines) {
    size_t pos = text.size();
    for (size_t n = 0; n <= lines && pos != std::string::npos && pos > 0; ++n)
        pos = text.rfind('\n', pos - 1);
    return pos == std::string::npos ? text : text.substr(pos + 1);
}

} // namespace

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string findProgram(const std::string& name) {
    std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
    path += ":/usr/bin:/usr/local/bin";
    std::stringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        if (dir.empty()) continue;
        std::string candidate = dir + "/" + name;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return {};
}

int freePort() {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    ::close(fd);
    return ntohs(addr.sin_port);
}

void createBlocks(const std::string& promtool, const std::string& openMetricsFile, const std::string& dataDir,
                  const std::string& maxBlockDuration) {
    std::filesystem::create_directories(dataDir);
    std::vector<std::string> argv = {promtool, "tsdb", "create-blocks-from", "openmetrics"};
    if (!maxBlockDuration.empty()) argv.push_back("--max-block-duration=" + maxBlockDuration);
    argv.push_back(openMetricsFile);
    argv.push_back(dataDir);
    const std::string log = openMetricsFile + ".promtool.log"; // one per text: loads may run side by side
    pid_t pid = spawn(argv, log);
    int status = 0;
    // Never a hang: a slice of the benchmark's month takes minutes, the tests' history a second.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(30);
    while (::waitpid(pid, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            throw std::runtime_error("promtool tsdb create-blocks-from openmetrics ran over 30 minutes");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::runtime_error("promtool tsdb create-blocks-from openmetrics failed: " +
                                 tail(readFile(log), 20));
}

PrometheusServer::PrometheusServer(const std::string& prometheus, const std::string& dataDir,
                                   const std::string& workDir, const Options& options)
    : workDir_(workDir), logFile_(workDir + "/prometheus.log"), https_(!options.certFile.empty()) {
    std::filesystem::create_directories(workDir);
    // No scrape targets: the history is all it serves.
    std::ofstream(workDir + "/prometheus.yml")
        << "global:\n  scrape_interval: 1h\n  evaluation_interval: 1h\n";
    if (https_)
        std::ofstream(workDir + "/web.yml") << "tls_server_config:\n  cert_file: " << options.certFile
                                            << "\n  key_file: " << options.keyFile << "\n";
    // A port taken between freePort() and Prometheus' bind makes it exit: try another.
    for (int attempt = 0; attempt < 5; ++attempt)
        if (start(prometheus, dataDir, options)) return;
    throw std::runtime_error("Prometheus did not start: " + tail(log(), 20));
}

bool PrometheusServer::start(const std::string& prometheus, const std::string& dataDir,
                             const Options& options) {
    port_ = freePort();
    std::vector<std::string> argv = {prometheus,
                                     "--config.file=" + workDir_ + "/prometheus.yml",
                                     "--storage.tsdb.path=" + dataDir,
                                     "--storage.tsdb.retention.time=100y",
                                     "--web.listen-address=127.0.0.1:" + std::to_string(port_),
                                     "--log.level=info"};
    if (https_) argv.push_back("--web.config.file=" + workDir_ + "/web.yml");
    for (const auto& a : options.extraArgs) argv.push_back(a);
    pid_ = spawn(argv, logFile_);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            if (log().find("address already in use") != std::string::npos) return false;
            throw std::runtime_error("Prometheus exited at start: " + tail(log(), 20));
        }
        if (log().find("Server is ready to receive web requests") != std::string::npos) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    stop();
    throw std::runtime_error("Prometheus was not ready within 60 s: " + tail(log(), 20));
}

PrometheusServer::~PrometheusServer() {
    stop();
}

std::string PrometheusServer::url() const {
    return std::string(https_ ? "https" : "http") + "://127.0.0.1:" + std::to_string(port_);
}

std::string PrometheusServer::log() const {
    return readFile(logFile_);
}

long PrometheusServer::peakRssKiB() const {
    if (pid_ <= 0) return 0;
    std::string status = readFile("/proc/" + std::to_string(pid_) + "/status");
    size_t at = status.find("VmHWM:");
    return at == std::string::npos ? 0 : std::atol(status.c_str() + at + 6);
}

void PrometheusServer::stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    int status = 0;
    while (::waitpid(pid_, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, &status, 0);
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    pid_ = -1;
}

} // namespace gantry::testing
