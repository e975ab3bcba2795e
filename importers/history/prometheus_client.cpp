#include "history/prometheus_client.h"

#include "live/api_client.h"
#include "live/live_error.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

namespace gantry::history {

using live::FailureKind;
using live::LiveError;

namespace {

std::string readWholeFile(const std::string& path, const char* option) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        int err = errno;
        throw LiveError(FailureKind::Config, std::string("cannot read ") + option + " " + path + ": " +
                                                 (err ? std::strerror(err) : "unreadable"));
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string trimmed(const std::string& s) {
    size_t a = s.find_first_not_of(" \t\r\n");
    if (a == std::string::npos) return {};
    size_t b = s.find_last_not_of(" \t\r\n");
    return s.substr(a, b - a + 1);
}

std::string statusText(long status) {
    std::string text = std::to_string(status);
    if (*live::httpReasonPhrase(status)) text += std::string(" ") + live::httpReasonPhrase(status);
    return text;
}

// Prometheus's error body ({"status":"error","errorType":...,"error":...}), else what a proxy said.
struct ServerError {
    std::string type, message;
};

ServerError serverError(const std::string& body) {
    auto doc = nlohmann::json::parse(body, nullptr, false);
    if (!doc.is_discarded() && doc.is_object() && doc.contains("error") && doc["error"].is_string()) {
        ServerError e{"", doc["error"].get<std::string>()};
        if (doc.contains("errorType") && doc["errorType"].is_string())
            e.type = doc["errorType"].get<std::string>();
        return e;
    }
    return ServerError{"", live::statusMessage(body)};
}

std::string seconds(double s) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3f", s);
    std::string text = buffer;
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
    return text;
}

// What the body of a query answer may hold besides the samples.
struct Answer {
    std::string status, resultType, errorType, error;
    std::vector<Sample> samples;
};

// Reads {"status":..., "data":{"resultType":..., "result":[{"metric":{...},"value":[t,"v"]}, ...]}}
// event by event.
class AnswerReader : public nlohmann::json_sax<nlohmann::json> {
  public:
    explicit AnswerReader(Answer& out) : out_(out) {}

    bool null() override { return scalar(""); }
    bool boolean(bool) override { return scalar(""); }
    bool number_integer(number_integer_t) override { return scalar(""); }
    bool number_unsigned(number_unsigned_t) override { return scalar(""); }
    bool number_float(number_float_t, const string_t&) override { return scalar(""); }
    bool binary(binary_t&) override { return scalar(""); }
    bool string(string_t& s) override { return scalar(s); }

    bool start_object(std::size_t) override {
        Where w = Where::Skip;
        if (stack_.empty())
            w = Where::Root;
        else if (top() == Where::Root && key_ == "data")
            w = Where::Data;
        else if (top() == Where::Result)
            w = Where::Series;
        else if (top() == Where::Series && key_ == "metric")
            w = Where::Metric;
        if (w == Where::Series) out_.samples.emplace_back();
        stack_.push_back(w);
        return true;
    }
    bool end_object() override {
        stack_.pop_back();
        return true;
    }
    bool start_array(std::size_t) override {
        Where w = Where::Skip;
        if (!stack_.empty() && top() == Where::Data && key_ == "result")
            w = Where::Result;
        else if (!stack_.empty() && top() == Where::Series && key_ == "value")
            w = Where::Value;
        stack_.push_back(w);
        index_ = 0;
        return true;
    }
    bool end_array() override {
        stack_.pop_back();
        return true;
    }
    bool key(string_t& k) override {
        key_ = k;
        return true;
    }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception&) override {
        errorAt = position;
        return false;
    }

    size_t errorAt = 0;

  private:
    enum class Where { Root, Data, Result, Series, Metric, Value, Skip };
    Where top() const { return stack_.back(); }

    bool scalar(const std::string& s) {
        if (stack_.empty()) return true;
        switch (top()) {
        case Where::Root:
            if (key_ == "status") out_.status = s;
            if (key_ == "errorType") out_.errorType = s;
            if (key_ == "error") out_.error = s;
            break;
        case Where::Data:
            if (key_ == "resultType") out_.resultType = s;
            break;
        case Where::Metric:
            out_.samples.back().labels.emplace_back(key_, s);
            break;
        case Where::Value:
            if (index_++ == 1) out_.samples.back().value = std::strtod(s.c_str(), nullptr);
            break;
        default:
            break;
        }
        return true;
    }

    Answer& out_;
    std::vector<Where> stack_;
    std::string key_;
    int index_ = 0;
};

} // namespace

const std::string* Sample::label(std::string_view name) const {
    for (const auto& [k, v] : labels)
        if (k == name) return &v;
    return nullptr;
}

std::string urlEncode(std::string_view value) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    out.reserve(value.size() * 3 / 2);
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

live::Connection connectionFor(const Endpoint& endpoint) {
    live::Connection c;
    std::string url = trimmed(endpoint.url);
    const bool https = url.rfind("https://", 0) == 0;
    if (!https && url.rfind("http://", 0) != 0)
        throw LiveError(FailureKind::Config, "--prometheus " + endpoint.url +
                                                 ": give the server's URL, http:// or https:// (e.g. "
                                                 "https://prometheus.example:9090)");
    const size_t hostStart = url.find("://") + 3;
    const size_t hostEnd = url.find_first_of("/?#", hostStart);
    if (hostEnd == hostStart || hostStart >= url.size())
        throw LiveError(FailureKind::Config, "--prometheus " + endpoint.url + ": the URL names no host");
    if (url.find_first_of("?#", hostStart) != std::string::npos)
        throw LiveError(FailureKind::Config,
                        "--prometheus " + endpoint.url + ": the URL must not hold a query or a fragment");
    while (url.size() > hostStart && url.back() == '/') url.pop_back();
    c.server = url;
    c.origin = "Prometheus";
    if (!endpoint.bearerTokenFile.empty()) {
        if (!https)
            throw LiveError(FailureKind::Config,
                            "--bearer-token-file: a token is only sent over https, and " + url + " is http");
        c.token = trimmed(readWholeFile(endpoint.bearerTokenFile, "--bearer-token-file"));
        if (c.token.empty())
            throw LiveError(FailureKind::Config,
                            "--bearer-token-file " + endpoint.bearerTokenFile + " is empty");
        if (c.token.find_first_of("\r\n") != std::string::npos)
            throw LiveError(FailureKind::Config,
                            "--bearer-token-file " + endpoint.bearerTokenFile + " holds more than one line");
    }
    if (!endpoint.caFile.empty()) {
        if (!https)
            throw LiveError(FailureKind::Config,
                            "--ca-file: a CA is only used over https, and " + url + " is http");
        c.caPem = readWholeFile(endpoint.caFile, "--ca-file");
        if (c.caPem.find("-----BEGIN CERTIFICATE-----") == std::string::npos)
            throw LiveError(FailureKind::Config,
                            "--ca-file " + endpoint.caFile +
                                " holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
        c.caOrigin = "--ca-file " + endpoint.caFile;
    }
    return c;
}

PrometheusClient::PrometheusClient(const Endpoint& endpoint, const live::Timeouts& timeouts,
                                   const std::atomic<bool>* cancel)
    : endpoint_(endpoint), transport_(connectionFor(endpoint), timeouts, cancel), cancel_(cancel),
      requestSeconds_(timeouts.requestSeconds) {}

void PrometheusClient::sleepFor(double s) {
    auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(s);
    while (std::chrono::steady_clock::now() < until) {
        if (cancel_ && cancel_->load()) throw LiveError(FailureKind::Cancelled, "cancelled");
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

live::HttpResponse PrometheusClient::get(const std::string& path, const std::string& what,
                                         const live::BodyReader& reader) {
    double backoff = 0.5;
    constexpr int kAttempts = 5;
    for (int attempt = 1;; ++attempt) {
        live::HttpResponse response = transport_.get(path, reader);
        bool transient = response.status == 429 || (response.status >= 500 && response.status <= 599);
        // A query that ran out of time fails the same way again: the caller narrows the window.
        if (response.status == 503 && serverError(response.body).type == "timeout") transient = false;
        if (!transient) return response;
        if (attempt >= kAttempts) {
            std::string message = "Prometheus at " + server() + " answered " + statusText(response.status) +
                                  " to " + what + " " + std::to_string(attempt) + " times; giving up";
            if (auto e = serverError(response.body); !e.message.empty()) message += ": " + e.message;
            throw LiveError(FailureKind::ServerError, message);
        }
        ++retries_;
        sleepFor(backoff);
        backoff = std::min(backoff * 2, 8.0);
    }
}

void PrometheusClient::fail(const live::HttpResponse& response, const std::string& path,
                            const std::string& what) {
    ServerError e = serverError(response.body);
    std::string said =
        e.message.empty() ? statusText(response.status) : statusText(response.status) + ": " + e.message;
    const std::string& url = server();
    switch (response.status) {
    case 401:
        if (endpoint_.bearerTokenFile.empty())
            throw LiveError(FailureKind::Unauthorized, "Prometheus at " + url + " asks for credentials (" +
                                                           said +
                                                           "); give a bearer token with --bearer-token-file");
        throw LiveError(FailureKind::Unauthorized, "Prometheus at " + url + " rejected the bearer token of " +
                                                       endpoint_.bearerTokenFile + " (" + said + ")");
    case 403:
        throw LiveError(FailureKind::Forbidden,
                        "Prometheus at " + url + " does not let " +
                            (endpoint_.bearerTokenFile.empty()
                                 ? std::string("anonymous users")
                                 : "the bearer token of " + endpoint_.bearerTokenFile) +
                            " run queries (" + said + ")");
    case 404:
        throw LiveError(FailureKind::BadResponse,
                        url + " answered 404 Not Found to GET " + path.substr(0, path.find('?')) +
                            ": is it the address of Prometheus (with its path prefix, if it has one)?");
    case 400:
    case 422:
        if (e.message.find("too many samples") != std::string::npos) throw QueryTooLarge(e.message);
        throw LiveError(FailureKind::ServerError,
                        "Prometheus at " + url + " could not run " + what + " (" + said + ")");
    case 503:
        if (e.type == "timeout") throw QueryTooLarge(e.message);
        [[fallthrough]];
    default:
        throw LiveError(FailureKind::ServerError, what + " on Prometheus at " + url + " failed: " + said);
    }
}

std::vector<Sample> PrometheusClient::query(const std::string& expr, double time) {
    // Prometheus stops a query itself a little before the request timeout, and says so: the
    // caller can then ask for a smaller window instead of waiting for the transfer to time out.
    const double evalTimeout = std::max(1.0, requestSeconds_ * 0.9);
    const std::string path = "/api/v1/query?query=" + urlEncode(expr) + "&time=" + seconds(time) +
                             "&timeout=" + seconds(evalTimeout) + "s";
    const std::string what = "the query " + expr;
    Answer answer;
    size_t errorAt = 0;
    bool parsed = false;
    live::BodyReader reader = [&](std::istream& body) {
        AnswerReader sax(answer);
        parsed = nlohmann::json::sax_parse(body, &sax, nlohmann::json::input_format_t::json, false);
        errorAt = sax.errorAt;
    };
    ++queries_;
    live::HttpResponse response = get(path, what, reader);
    if (response.status != 200) fail(response, path, what);
    if (response.readError) std::rethrow_exception(response.readError);
    const std::string& head = response.body;
    const size_t first = head.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || head[first] != '{') {
        std::string type =
            response.contentType.empty() ? std::string("no content type") : response.contentType;
        throw LiveError(FailureKind::BadResponse,
                        "the answer of " + server() + " to GET /api/v1/query is not JSON (" + type + "): " +
                            live::statusMessage(head) + " -- is the URL the address of a Prometheus server?");
    }
    if (!parsed) {
        bool truncated = errorAt >= response.bodyBytes;
        throw LiveError(
            FailureKind::BadResponse,
            "the answer of " + server() + " to " + what + " is " +
                (truncated ? "truncated JSON (it ends after " + std::to_string(response.bodyBytes) + " bytes)"
                           : "not valid JSON (at byte " + std::to_string(errorAt) + ")"));
    }
    if (answer.status != "success")
        throw LiveError(FailureKind::BadResponse,
                        "the answer of " + server() + " to GET /api/v1/query is not Prometheus's (status '" +
                            answer.status + "') -- is the URL the address of a Prometheus server?");
    if (answer.resultType != "vector")
        throw LiveError(FailureKind::BadResponse, "Prometheus at " + server() + " answered " + what +
                                                      " with a " + answer.resultType +
                                                      ", not an instant vector");
    for (auto& s : answer.samples) std::sort(s.labels.begin(), s.labels.end());
    return std::move(answer.samples);
}

std::string PrometheusClient::version() {
    const std::string path = "/api/v1/status/buildinfo";
    live::HttpResponse response = get(path, "GET " + path, {});
    if (response.status == 404) return {}; // older Prometheus, or a compatible server without it
    if (response.status != 200) fail(response, path, "GET " + path);
    auto doc = nlohmann::json::parse(response.body, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || doc.value("status", "") != "success" ||
        !doc.contains("data") || !doc["data"].is_object()) {
        std::string type =
            response.contentType.empty() ? std::string("no content type") : response.contentType;
        throw LiveError(FailureKind::BadResponse, "the answer of " + server() + " to GET " + path +
                                                      " is not Prometheus's (" + type +
                                                      "): " + live::statusMessage(response.body) +
                                                      " -- is the URL the address of a Prometheus server?");
    }
    const auto& data = doc["data"];
    return data.contains("version") && data["version"].is_string() ? data["version"].get<std::string>() : "";
}

} // namespace gantry::history
