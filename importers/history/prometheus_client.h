#pragma once
// Prometheus's HTTP query API (GET /api/v1/query) over the live importer's libcurl transport: TLS
// verified against --ca-file (else the system's authorities), a bearer token read from a file as
// kubectl reads tokenFile, connect and request timeouts, a cancel flag, and the answer parsed while
// it arrives (SAX), so a large instant vector never sits in memory as a JSON tree. Failures are
// live::LiveError with a one-line message naming the cause.
#include "live/api_transport.h"

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gantry::history {

// Where Prometheus is and how to reach it, as the command line gives it.
struct Endpoint {
    std::string url;             // http(s)://host[:port][/prefix]
    std::string bearerTokenFile; // empty = no token
    std::string caFile;          // empty = the system's trusted authorities
};

// Checks the URL and reads the token and CA files. LiveError(Config) for anything wrong with them.
live::Connection connectionFor(const Endpoint& endpoint);

// One series of an instant vector: its labels (sorted by name, as Prometheus sends them) and value.
struct Sample {
    std::vector<std::pair<std::string, std::string>> labels;
    double value = 0;
    const std::string* label(std::string_view name) const;
};

// Why a query failed where a smaller window may succeed: the server's query timeout, or more
// samples than its --query.max-samples.
class QueryTooLarge : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

class PrometheusClient {
  public:
    // Throws LiveError(Config) when the endpoint cannot be used (connectionFor).
    PrometheusClient(const Endpoint& endpoint, const live::Timeouts& timeouts,
                     const std::atomic<bool>* cancel);

    // Evaluates `expr` at Unix time `time`. Throws LiveError (unreachable, TLS, 401/403, not
    // Prometheus, query rejected, ...), or QueryTooLarge. 429 and 5xx other than a query timeout
    // are retried up to 5 tries in all with a doubling backoff.
    std::vector<Sample> query(const std::string& expr, double time);

    // GET /api/v1/status/buildinfo: the server's version ("2.42.0"), and proof it is Prometheus.
    std::string version();

    int queries() const { return queries_; }
    int retries() const { return retries_; }
    const std::string& server() const { return transport_.connection().server; }

  private:
    live::HttpResponse get(const std::string& path, const std::string& what, const live::BodyReader& reader);
    [[noreturn]] void fail(const live::HttpResponse& response, const std::string& path,
                           const std::string& what);
    void sleepFor(double seconds);

    Endpoint endpoint_;
    live::ApiTransport transport_;
    const std::atomic<bool>* cancel_;
    double requestSeconds_ = 60;
    int queries_ = 0;
    int retries_ = 0;
};

// Query strings: RFC 3986 unreserved characters stay, everything else is %XX.
std::string urlEncode(std::string_view value);

} // namespace gantry::history
