#pragma once
// An HTTP CONNECT proxy on loopback (what proxy-url usually points at): it tunnels each connection to
// the host and port asked for and counts the tunnels, so a test can tell the client really used it.
#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace gantry::testing {

class ConnectProxy {
  public:
    ConnectProxy();
    ~ConnectProxy();
    std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
    int tunnels() const { return tunnels_.load(); }
    std::vector<std::string> targets() const;

  private:
    void acceptLoop();
    void tunnel(int client);

    int listenFd_ = -1;
    int port_ = 0;
    std::atomic<bool> stopping_{false};
    std::atomic<int> tunnels_{0};
    std::thread acceptThread_;
    mutable std::mutex mutex_;
    std::vector<std::thread> workers_;
    std::vector<std::string> targets_;
};

} // namespace gantry::testing
