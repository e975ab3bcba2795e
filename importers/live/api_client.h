#pragma once
// The Kubernetes API on top of the transport: retries with backoff on 429 and 5xx (Retry-After
// honoured), Status bodies turned into one-line errors that name the context and user, JSON checked,
// and lists paged with limit/continue the way kubectl pages them, restarting a list whose continue
// token expired (410 Gone).
#include "live/api_transport.h"

#include <atomic>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace gantry::live {

struct RetryPolicy {
    int maxAttempts = 5;       // first try included
    double firstBackoff = 0.5; // seconds, doubled each time
    double maxBackoff = 8;     // seconds
    double maxRetryAfter = 30; // seconds; a longer Retry-After is cut to this
    int maxListRestarts = 3;   // 410 Gone restarts of one list
};

struct ListPage {
    nlohmann::json items;             // array, each item with apiVersion and kind filled in
    std::optional<int64_t> remaining; // metadata.remainingItemCount
};

struct ListOutcome {
    int pages = 0;
    int restarts = 0;
};

class ApiClient {
  public:
    ApiClient(const Connection& connection, const Timeouts& timeouts, const RetryPolicy& retry,
              const std::atomic<bool>* cancel);

    // GET a JSON object; `what` names it in errors ("the server version", "nodes").
    nlohmann::json getJson(const std::string& path, const std::string& what);
    // As getJson, but a 404 is nullopt (an API that is not served).
    std::optional<nlohmann::json> getJsonIfServed(const std::string& path, const std::string& what);

    // Every page of a list: `query` without limit/continue ("fieldSelector=..."). readPage reads each
    // page's JSON while it arrives, on a thread of the transfer's (the caller waits meanwhile), and
    // returns its continue token (it may throw MalformedJson or NotAList, which become BadResponse
    // errors naming the request); onRestart is called before a list starts over
    // after 410 Gone, so the caller can drop what it kept of the abandoned pass.
    ListOutcome list(const std::string& path, const std::string& query, const std::string& what, int pageSize,
                     const std::function<std::string(std::istream& json)>& readPage,
                     const std::function<void()>& onRestart);

    const Connection& connection() const { return transport_.connection(); }
    int credentialPluginRuns() const { return transport_.credentialPluginRuns(); }
    int retriesDone() const { return retries_; }

  private:
    HttpResponse request(const std::string& path, const std::string& what, const BodyReader& reader = {});
    nlohmann::json parse(const HttpResponse& response, const std::string& path, const std::string& what);
    void requireJsonStart(const HttpResponse& response, const std::string& path, const std::string& what);
    [[noreturn]] void failMalformed(const HttpResponse& response, const std::string& path,
                                    const std::string& what, size_t byte);
    [[noreturn]] void failStatus(const HttpResponse& response, const std::string& path,
                                 const std::string& what);
    void sleepFor(double seconds);

    ApiTransport transport_;
    RetryPolicy retry_;
    const std::atomic<bool>* cancel_;
    int retries_ = 0;
};

// "Not Found" for 404 and the other statuses an API server answers with; "" for others.
const char* httpReasonPhrase(long status);
// "message" of a Kubernetes Status body, else the body's first line (shortened); empty if none.
std::string statusMessage(const std::string& body);

} // namespace gantry::live
