#pragma once
// One HTTPS connection to an API server through libcurl: TLS verified against the cluster's CA (or the
// system's), the user's credentials on every request, connect and request timeouts, gzip and HTTP/2
// when the server offers them, keep-alive across requests, and a cancel flag checked while waiting.
// Transport failures become one LiveError each, saying which failure it is.
#include "live/exec_credential.h"
#include "live/kubeconfig.h"

#include <atomic>
#include <exception>
#include <functional>
#include <istream>
#include <memory>
#include <optional>
#include <string>

namespace gantry::live {

struct Timeouts {
    double connectSeconds = 10; // TCP + TLS handshake
    double requestSeconds = 60; // one whole request, answer included
    double execSeconds = 60;    // a credential plugin run
};

struct HttpResponse {
    long status = 0;
    std::string body; // the whole answer; only its first kStreamedHead bytes when streamed to a reader
    size_t bodyBytes = 0;
    std::exception_ptr readError; // what a streaming reader threw (the transfer itself succeeded)
    std::string contentType;
    std::string retryAfter; // Retry-After header, verbatim
};

// Reads a 200 answer's body while it arrives, on a thread of its own (see BodyPipe).
using BodyReader = std::function<void(std::istream&)>;
constexpr size_t kStreamedHead = 4096; // kept of a streamed body, for messages about what it is

class ApiTransport {
  public:
    ApiTransport(const Connection& connection, const Timeouts& timeouts, const std::atomic<bool>* cancel);
    ~ApiTransport();
    ApiTransport(const ApiTransport&) = delete;
    ApiTransport& operator=(const ApiTransport&) = delete;

    // GET server+path ("/api/v1/nodes?limit=500"). Any HTTP status is returned; transport failures
    // (DNS, connect, TLS, stall, truncation, cancel) throw LiveError. With a reader, a 200 answer's
    // body goes to the reader as it arrives instead of into memory; other answers are kept whole.
    HttpResponse get(const std::string& path, const BodyReader& reader = {});

    // After a 401: asks the exec plugin for a new credential. False when there is nothing to renew.
    bool renewCredentials();
    int credentialPluginRuns() const { return exec_ ? exec_->runs() : 0; }
    const Connection& connection() const { return connection_; }
    std::string url(const std::string& path) const { return baseUrl_ + path; }

  private:
    std::string applyCredentials(); // sets the client certificate; returns the bearer token

    [[noreturn]] void failTransport(int code, const std::string& path, size_t received);

    Connection connection_;
    Timeouts timeouts_;
    const std::atomic<bool>* cancel_;
    std::unique_ptr<ExecCredentialProvider> exec_;
    void* curl_ = nullptr;    // CURL*
    void* headers_ = nullptr; // curl_slist* of fixed headers
    std::string baseUrl_;     // scheme://host:port[/prefix], host replaced by tls-server-name if set
    std::string host_;        // host the user configured, for messages
    std::string connectTo_;   // CURLOPT_CONNECT_TO entry for tls-server-name
    std::string errorBuffer_;
    std::string appliedCertPem_; // client certificate currently set on the handle
};

} // namespace gantry::live
