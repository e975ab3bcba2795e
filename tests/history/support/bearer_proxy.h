#pragma once
// What usually stands in front of a cluster's Prometheus (kube-rbac-proxy, an OAuth proxy): HTTPS on
// loopback that asks for a bearer token, answers 401 without a known one and 403 to a token that may
// not query, and passes the other requests to Prometheus's plain HTTP port.
#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace gantry::testing {

class BearerProxy {
  public:
    // tokens: token -> true when it may query, false when it is known but forbidden.
    BearerProxy(int upstreamPort, const std::string& certPem, const std::string& keyPem,
                std::map<std::string, bool> tokens);
    ~BearerProxy();
    BearerProxy(const BearerProxy&) = delete;
    BearerProxy& operator=(const BearerProxy&) = delete;

    std::string url() const { return "https://127.0.0.1:" + std::to_string(port_); }
    int requests() const { return requests_.load(); }
    std::vector<std::string> authorizations() const; // the Authorization headers seen
    std::vector<std::string> targets() const;        // the request targets (path and query)

  private:
    void acceptLoop();
    void serve(int fd);

    int upstream_;
    std::map<std::string, bool> tokens_;
    void* ctx_ = nullptr; // SSL_CTX*
    int listenFd_ = -1;
    int port_ = 0;
    std::atomic<bool> stopping_{false};
    std::atomic<int> requests_{0};
    std::thread acceptThread_;
    mutable std::mutex mutex_;
    std::vector<std::thread> workers_;
    std::vector<std::string> authorizations_, targets_;
};

} // namespace gantry::testing
