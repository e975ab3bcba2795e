#pragma once
// A real Prometheus on loopback for tests and benchmarks: Debian's `prometheus` and `promtool`
// (package prometheus). The history is loaded with `promtool tsdb create-blocks-from openmetrics`,
// then Prometheus serves it on a free port (plain HTTP, or HTTPS through its --web.config.file).
#include <string>
#include <sys/types.h>
#include <vector>

namespace gantry::testing {

// The program's path when it is installed (PATH, then /usr/bin), else "".
std::string findProgram(const std::string& name);

// Runs `promtool tsdb create-blocks-from openmetrics FILE DATA_DIR` (with --max-block-duration when
// given); throws std::runtime_error with promtool's output when it fails.
void createBlocks(const std::string& promtool, const std::string& openMetricsFile, const std::string& dataDir,
                  const std::string& maxBlockDuration = "");

class PrometheusServer {
  public:
    struct Options {
        std::string certFile, keyFile; // both set: HTTPS (web.config.file tls_server_config)
        std::vector<std::string> extraArgs;
    };
    // Starts Prometheus on the TSDB in `dataDir`, writing its config and log under `workDir`, and
    // waits until it is ready (at most 60 s). Throws std::runtime_error with the log's tail.
    PrometheusServer(const std::string& prometheus, const std::string& dataDir, const std::string& workDir,
                     const Options& options);
    ~PrometheusServer();
    PrometheusServer(const PrometheusServer&) = delete;
    PrometheusServer& operator=(const PrometheusServer&) = delete;

    int port() const { return port_; }
    std::string url() const;
    std::string log() const;
    long peakRssKiB() const; // VmHWM of the server process, while it runs
    void stop();

  private:
    bool start(const std::string& prometheus, const std::string& dataDir, const Options& options);

    std::string workDir_, logFile_;
    bool https_ = false;
    int port_ = 0;
    pid_t pid_ = -1;
};

// A loopback TCP port nobody listens on (bound and released).
int freePort();
std::string readFile(const std::string& path);

} // namespace gantry::testing
