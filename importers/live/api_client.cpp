#include "live/api_client.h"

#include "live/list_stream.h"
#include "live/live_error.h"

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <nlohmann/json.hpp>
#include <thread>

namespace gantry::live {

namespace {} // namespace

const char* httpReasonPhrase(long status) {
    switch (status) {
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 406:
        return "Not Acceptable";
    case 410:
        return "Gone";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    default:
        return "";
    }
}

namespace {

std::string statusText(long status) {
    std::string text = std::to_string(status);
    if (*httpReasonPhrase(status)) text += std::string(" ") + httpReasonPhrase(status);
    return text;
}

// Retry-After is either seconds or an HTTP date.
std::optional<double> retryAfterSeconds(const std::string& value) {
    if (value.empty()) return std::nullopt;
    char* end = nullptr;
    double s = std::strtod(value.c_str(), &end);
    if (end && *end == '\0' && s >= 0) return s;
    std::tm tm{};
    if (strptime(value.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm)) {
        double delta = std::difftime(timegm(&tm), std::time(nullptr));
        return delta > 0 ? delta : 0;
    }
    return std::nullopt;
}

std::string withQuery(const std::string& path, const std::string& query) {
    if (query.empty()) return path;
    return path + (path.find('?') == std::string::npos ? "?" : "&") + query;
}

// Query values: continue tokens are base64 and may hold '+', '/' and '='.
std::string escaped(const std::string& value) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : value) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
            out += char(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

} // namespace

std::string statusMessage(const std::string& body) {
    auto doc = nlohmann::json::parse(body, nullptr, false);
    if (!doc.is_discarded() && doc.is_object() && doc.contains("message") && doc["message"].is_string())
        return doc["message"].get<std::string>();
    size_t start = body.find_first_not_of(" \t\r\n");
    if (start == std::string::npos) return {};
    size_t end = body.find('\n', start);
    std::string line = body.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (line.size() > 200) line = line.substr(0, 200) + "...";
    return line;
}

ApiClient::ApiClient(const Connection& connection, const Timeouts& timeouts, const RetryPolicy& retry,
                     const std::atomic<bool>* cancel)
    : transport_(connection, timeouts, cancel), retry_(retry), cancel_(cancel) {}

void ApiClient::sleepFor(double seconds) {
    auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < until) {
        if (cancel_ && cancel_->load()) throw LiveError(FailureKind::Cancelled, "cancelled");
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

HttpResponse ApiClient::request(const std::string& path, const std::string& what, const BodyReader& reader) {
    bool renewed = false;
    double backoff = retry_.firstBackoff;
    for (int attempt = 1;; ++attempt) {
        HttpResponse response = transport_.get(path, reader);
        if (response.status == 401 && !renewed && transport_.renewCredentials()) {
            renewed = true; // the plugin's credential may have been revoked early: ask once more
            continue;
        }
        bool transient = response.status == 429 || (response.status >= 500 && response.status <= 599);
        if (!transient) return response;
        if (attempt >= retry_.maxAttempts) {
            std::string message = "server " + transport_.connection().server + " answered " +
                                  statusText(response.status) + " to GET " + path + " " +
                                  std::to_string(attempt) + " times; giving up on " + what;
            if (std::string m = statusMessage(response.body); !m.empty()) message += ": " + m;
            throw LiveError(FailureKind::ServerError, message);
        }
        double wait = backoff;
        if (auto after = retryAfterSeconds(response.retryAfter))
            wait = std::min(*after, retry_.maxRetryAfter);
        backoff = std::min(backoff * 2, retry_.maxBackoff);
        ++retries_;
        sleepFor(wait);
    }
}

void ApiClient::failStatus(const HttpResponse& response, const std::string& path, const std::string& what) {
    const Connection& c = transport_.connection();
    std::string said = statusMessage(response.body);
    std::string server =
        said.empty() ? statusText(response.status) : statusText(response.status) + ": " + said;
    switch (response.status) {
    case 401:
        throw LiveError(FailureKind::Unauthorized, "the server " + c.server +
                                                       " rejected the credentials of " + c.describeUser() +
                                                       " (" + server + ")");
    case 403:
        throw LiveError(FailureKind::Forbidden,
                        c.describeUser() + " may not read " + what + " (" + server + ")");
    default:
        throw LiveError(FailureKind::ServerError,
                        "GET " + path + " (" + what + ") on " + c.server + " failed: " + server);
    }
}

void ApiClient::requireJsonStart(const HttpResponse& response, const std::string& path,
                                 const std::string& what) {
    const std::string& body = response.body;
    size_t first = body.find_first_not_of(" \t\r\n");
    if (first == std::string::npos)
        throw LiveError(FailureKind::BadResponse, "the answer to GET " + path + " (" + what + ") is empty");
    if (body[first] != '{' && body[first] != '[') {
        std::string type =
            response.contentType.empty() ? std::string("no content type") : response.contentType;
        throw LiveError(FailureKind::BadResponse,
                        "the answer to GET " + path + " (" + what + ") is not JSON (" + type +
                            "): " + statusMessage(body) +
                            " -- is the server address that of a Kubernetes API server?");
    }
}

void ApiClient::failMalformed(const HttpResponse& response, const std::string& path, const std::string& what,
                              size_t byte) {
    bool truncated = byte >= response.bodyBytes;
    throw LiveError(
        FailureKind::BadResponse,
        "the answer to GET " + path + " (" + what + ") is " +
            (truncated ? "truncated JSON (it ends after " + std::to_string(response.bodyBytes) + " bytes)"
                       : "not valid JSON (at byte " + std::to_string(byte) + ")"));
}

nlohmann::json ApiClient::parse(const HttpResponse& response, const std::string& path,
                                const std::string& what) {
    requireJsonStart(response, path, what);
    try {
        return nlohmann::json::parse(response.body);
    } catch (const nlohmann::json::parse_error& e) {
        failMalformed(response, path, what, e.byte);
    }
}

nlohmann::json ApiClient::getJson(const std::string& path, const std::string& what) {
    HttpResponse response = request(path, what);
    if (response.status != 200) failStatus(response, path, what);
    return parse(response, path, what);
}

std::optional<nlohmann::json> ApiClient::getJsonIfServed(const std::string& path, const std::string& what) {
    HttpResponse response = request(path, what);
    if (response.status == 404) return std::nullopt;
    if (response.status != 200) failStatus(response, path, what);
    return parse(response, path, what);
}

ListOutcome ApiClient::list(const std::string& path, const std::string& query, const std::string& what,
                            int pageSize, const std::function<std::string(std::istream&)>& readPage,
                            const std::function<void()>& onRestart) {
    ListOutcome outcome;
    std::string continueToken;
    for (;;) {
        std::string q = "limit=" + std::to_string(pageSize);
        if (!continueToken.empty()) q += "&continue=" + escaped(continueToken);
        if (!query.empty()) q += "&" + query;
        std::string target = withQuery(path, q);
        // The page is parsed while it arrives: a huge page never sits in memory whole.
        std::string next;
        BodyReader reader = [&](std::istream& body) { next = readPage(body); };
        HttpResponse response = request(target, what, reader);
        if (response.status == 410 && !continueToken.empty()) {
            // The continue token expired (etcd compacted past it): list again from the start.
            if (++outcome.restarts > retry_.maxListRestarts)
                throw LiveError(FailureKind::ServerError,
                                "the list of " + what + " kept expiring (410 Gone " +
                                    std::to_string(outcome.restarts) +
                                    " times); the cluster changes faster than it can be read");
            onRestart();
            continueToken.clear();
            continue;
        }
        if (response.status != 200) failStatus(response, target, what);
        requireJsonStart(response, target, what);
        try {
            if (response.readError) std::rethrow_exception(response.readError);
        } catch (const MalformedJson& e) {
            failMalformed(response, target, what, e.byte);
        } catch (const NotAList& e) {
            throw LiveError(FailureKind::BadResponse, "the answer to GET " + target + " (" + what +
                                                          ") is not a Kubernetes list: " + e.what());
        }
        ++outcome.pages;
        if (next.empty()) return outcome;
        if (next == continueToken)
            throw LiveError(FailureKind::BadResponse,
                            "the server returned the same continue token twice for " + what);
        continueToken = next;
    }
}

} // namespace gantry::live
