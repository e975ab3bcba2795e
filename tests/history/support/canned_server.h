#pragma once
// A plain HTTP server on loopback that answers every request the same way, or never answers: what a
// wrong URL, a captive page or a hung server looks like to `gantry import --prometheus`.
#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace gantry::testing {

class CannedServer {
  public:
    struct Answer {
        int status = 200;
        std::string contentType = "application/json";
        std::string body;
        bool stall = false; // read the request, then say nothing until stopped
    };
    explicit CannedServer(Answer answer);
    ~CannedServer();
    CannedServer(const CannedServer&) = delete;
    CannedServer& operator=(const CannedServer&) = delete;

    std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
    std::vector<std::string> targets() const; // request targets, in order

  private:
    void serve(int fd);

    Answer answer_;
    int listenFd_ = -1;
    int port_ = 0;
    std::atomic<bool> stopping_{false};
    std::thread acceptThread_;
    mutable std::mutex mutex_;
    std::vector<std::thread> workers_;
    std::vector<std::string> targets_;
};

} // namespace gantry::testing
