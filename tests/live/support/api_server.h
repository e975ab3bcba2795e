#pragma once
// A Kubernetes API server on loopback for tests and benchmarks: real TLS (OpenSSL), HTTP/1.1 with
// keep-alive, gzip above 128 KiB as kube-apiserver does, discovery (/version, /api, /api/v1, /apis,
// /apis/G, /apis/G/V), List kinds with metadata.resourceVersion, limit/continue paging with
// remainingItemCount, field selectors, Status bodies with codes and reasons, and authentication by
// client certificate (CN = user), bearer token or basic auth, with per-user forbidden resources.
// Faults can be scripted per path: statuses with Retry-After, stalls, truncated or non-JSON bodies,
// dropped connections and expired continue tokens. kubectl can talk to it.
#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace gantry::testing {

struct ServedResource {
    std::string group; // "" = core (/api/v1)
    std::string version;
    std::string resource; // plural: "nodes"
    std::string kind;     // "Node"
    bool namespaced = false;
};

struct Fault {
    enum class Action {
        Status,         // answer `status` (with Retry-After when set) and a Status body
        Stall,          // read the request, then answer nothing until the server stops
        StallMidBody,   // send the headers and half of the answer, then nothing
        Truncate,       // send the headers and half of the answer, then close
        NotJson,        // 200 with an HTML page, as a captive proxy would
        BrokenJson,     // 200 with JSON cut off mid-object (complete as HTTP)
        Close,          // close the connection without answering
        ExpireContinue, // 410 Gone for a request that carries a continue token
        Delay,          // answer normally after `delaySeconds`
        Body,           // 200 with `body` as the answer (a list of the wrong kind, a huge list, ...)
    };
    std::string path; // exact request path (no query)
    Action action = Action::Status;
    int status = 503;
    std::string retryAfter;
    int times = 1;           // how many requests it hits; -1 = all
    bool laterPages = false; // hits only requests that carry a continue token (page 2 and on)
    double delaySeconds = 0;
    std::string body;
    std::function<void()> onHit; // runs when the fault fires (e.g. to change the cluster)
};

struct RecordedRequest {
    std::string path, query, user;
    std::map<std::string, std::string> headers; // lower-case names
    int status = 0;
};

class LoopbackApiServer {
  public:
    struct Tls {
        std::string certPem, keyPem;
        std::string clientCaPem; // empty = no client certificates asked for
    };
    explicit LoopbackApiServer(const Tls& tls);
    ~LoopbackApiServer();
    LoopbackApiServer(const LoopbackApiServer&) = delete;
    LoopbackApiServer& operator=(const LoopbackApiServer&) = delete;

    int port() const { return port_; }
    std::string url() const { return "https://127.0.0.1:" + std::to_string(port_); }
    void stop();

    // Who may do what. Unauthenticated requests get 401 (except /version).
    void addToken(const std::string& token, const std::string& user);
    void addBasicUser(const std::string& user, const std::string& password);
    void forbid(const std::string& user, const std::string& resource); // resource "*" = all lists

    // What the cluster holds. Core kinds and the usual CRDs are served already; objects of a
    // resource are listed in the order added.
    void serve(const ServedResource& resource);
    void add(const std::string& resource, const nlohmann::json& object); // "nodes", "queues", ...
    void clear(const std::string& resource);
    void setGzip(bool on) { gzip_ = on; }

    void addFault(const Fault& fault);
    void clearFaults();
    std::vector<RecordedRequest> requests() const;
    size_t requestCount(const std::string& path) const;
    int connectionsAccepted() const { return connections_.load(); }

    struct Stored {
        std::string json; // without apiVersion/kind for core kinds, as the real server lists them
        std::string name, ns, phase;
    };
    struct Response {
        int status = 200;
        std::string contentType = "application/json";
        std::string body;
        std::string retryAfter;
    };

  private:
    struct Connection;
    void acceptLoop();
    void serveConnection(int fd);
    Response handle(const std::string& path, const std::string& query, const std::string& user,
                    bool authenticated);
    Response list(const ServedResource& r, const std::string& query);
    Response discovery(const std::string& path, bool* found);
    const ServedResource* findResource(const std::string& path, std::string* ns) const;

    void* ctx_ = nullptr; // SSL_CTX*
    int listenFd_ = -1;
    int port_ = 0;
    std::atomic<bool> stopping_{false};
    std::atomic<bool> gzip_{true};
    std::atomic<int> connections_{0};
    std::thread acceptThread_;

    mutable std::mutex mutex_;
    std::condition_variable stopped_;
    std::vector<std::thread> workers_;
    std::set<int> openFds_;
    std::map<std::string, std::string> tokens_;
    std::map<std::string, std::string> basic_;
    std::set<std::pair<std::string, std::string>> forbidden_;
    std::vector<ServedResource> resources_;
    std::map<std::string, std::vector<Stored>> objects_;
    std::vector<Fault> faults_;
    std::vector<RecordedRequest> log_;
    int64_t resourceVersion_ = 1000;
};

// A kubeconfig (YAML text) for one cluster, context and user; `user` holds the user's fields as YAML
// lines ("token: abc", "client-certificate: /x", ...), indented by the caller's choice of keys.
std::string kubeconfigYaml(const std::string& server, const std::string& caFile,
                           const std::vector<std::string>& userLines, const std::string& contextName = "test",
                           const std::string& clusterExtra = "");

} // namespace gantry::testing
