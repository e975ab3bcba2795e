#include "live/api_transport.h"

#include "live/body_pipe.h"
#include "live/live_error.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <curl/curl.h>
#include <memory>
#include <mutex>
#include <thread>

namespace gantry::live {

namespace {

// OpenSSL's X509_V_ERR_* values, as libcurl reports them through CURLINFO_SSL_VERIFYRESULT.
enum VerifyResult : long {
    UnableToGetIssuerCert = 2,
    CertNotYetValid = 9,
    CertHasExpired = 10,
    DepthZeroSelfSigned = 18,
    SelfSignedInChain = 19,
    UnableToGetIssuerLocally = 20,
    UnableToVerifyLeaf = 21,
    HostnameMismatch = 62,
    IpAddressMismatch = 64,
};

// A 200 answer's body waits at most this long in memory between libcurl and a streaming reader.
constexpr size_t kPipeCapacity = size_t(4) << 20;

struct Transfer {
    HttpResponse* response;
    const std::atomic<bool>* cancel;
    CURL* curl = nullptr;
    const BodyReader* reader = nullptr;
    std::unique_ptr<BodyPipe> pipe; // set once a 200 answer's body starts and there is a reader
    std::thread readerThread;

    void startReader() {
        pipe = std::make_unique<BodyPipe>(kPipeCapacity);
        readerThread = std::thread([this] {
            std::istream in(pipe.get());
            try {
                (*reader)(in);
            } catch (...) {
                response->readError = std::current_exception();
            }
            pipe->readerDone();
        });
    }
    // Ends the reader (it sees the end of the body) and waits for it.
    void finishReader() {
        if (!pipe) return;
        pipe->close();
        readerThread.join();
    }
};

size_t onBody(char* data, size_t size, size_t count, void* user) {
    auto* t = static_cast<Transfer*>(user);
    size_t n = size * count;
    HttpResponse& r = *t->response;
    if (r.bodyBytes == 0 && t->reader && *t->reader) {
        long status = 0;
        curl_easy_getinfo(t->curl, CURLINFO_RESPONSE_CODE, &status);
        if (status == 200) t->startReader();
    }
    r.bodyBytes += n;
    if (!t->pipe) {
        r.body.append(data, n);
        return n;
    }
    if (r.body.size() < kStreamedHead) r.body.append(data, std::min(n, kStreamedHead - r.body.size()));
    t->pipe->write(data, n);
    return n;
}

std::string headerValue(const std::string& line, size_t colon) {
    size_t start = line.find_first_not_of(" \t", colon + 1);
    if (start == std::string::npos) return {};
    size_t end = line.find_last_not_of(" \t\r\n");
    return line.substr(start, end - start + 1);
}

size_t onHeader(char* data, size_t size, size_t count, void* user) {
    auto* t = static_cast<Transfer*>(user);
    std::string line(data, size * count);
    if (line.rfind("HTTP/", 0) == 0) { // a new response (after 100-continue or a proxy's CONNECT)
        t->response->contentType.clear();
        t->response->retryAfter.clear();
        return size * count;
    }
    size_t colon = line.find(':');
    if (colon == std::string::npos) return size * count;
    std::string name = line.substr(0, colon);
    for (char& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (name == "content-type") t->response->contentType = headerValue(line, colon);
    if (name == "retry-after") t->response->retryAfter = headerValue(line, colon);
    return size * count;
}

int onProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    auto* t = static_cast<Transfer*>(user);
    return t->cancel && t->cancel->load() ? 1 : 0;
}

void globalInit() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct ServerUrl {
    std::string scheme, host, port, prefix;
};

ServerUrl splitServer(const std::string& server) {
    ServerUrl u;
    size_t schemeEnd = server.find("://");
    u.scheme = server.substr(0, schemeEnd);
    std::string rest = server.substr(schemeEnd + 3);
    size_t slash = rest.find('/');
    std::string authority = rest.substr(0, slash);
    if (slash != std::string::npos) u.prefix = rest.substr(slash);
    if (!authority.empty() && authority[0] == '[') {
        size_t close = authority.find(']');
        u.host = authority.substr(0, close + 1);
        if (close + 1 < authority.size() && authority[close + 1] == ':') u.port = authority.substr(close + 2);
    } else {
        size_t colon = authority.rfind(':');
        u.host = authority.substr(0, colon);
        if (colon != std::string::npos) u.port = authority.substr(colon + 1);
    }
    if (u.port.empty()) u.port = u.scheme == "https" ? "443" : "80";
    return u;
}

std::string seconds(double s) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, s == int(s) ? "%.0f s" : "%.1f s", s);
    return buffer;
}

} // namespace

ApiTransport::ApiTransport(const Connection& connection, const Timeouts& timeouts,
                           const std::atomic<bool>* cancel)
    : connection_(connection), timeouts_(timeouts), cancel_(cancel), errorBuffer_(CURL_ERROR_SIZE + 1, '\0') {
    globalInit();
    CURL* curl = curl_easy_init();
    if (!curl) throw LiveError(FailureKind::Config, "libcurl could not be initialised");
    curl_ = curl;
    if (connection_.exec)
        exec_ = std::make_unique<ExecCredentialProvider>(connection_, timeouts_.execSeconds, cancel_);

    ServerUrl u = splitServer(connection_.server);
    host_ = u.host;
    std::string urlHost = u.host;
    if (!connection_.tlsServerName.empty()) {
        // Verify (and send as SNI) the tls-server-name while connecting to the configured host.
        urlHost = connection_.tlsServerName;
        connectTo_ = urlHost + ":" + u.port + ":" + u.host + ":" + u.port;
    }
    baseUrl_ = u.scheme + "://" + urlHost + ":" + u.port + u.prefix;

    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errorBuffer_.data());
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_HTTP_VERSION, long(CURL_HTTP_VERSION_2TLS));
    if (!connection_.disableCompression) curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, long(timeouts_.connectSeconds * 1000));
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, long(timeouts_.requestSeconds * 1000));
    curl_easy_setopt(curl, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "gantry (linux) live-import");
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, onBody);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, onHeader);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, onProgress);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    if (!connectTo_.empty()) {
        curl_slist* connectTo = curl_slist_append(nullptr, connectTo_.c_str());
        curl_easy_setopt(curl, CURLOPT_CONNECT_TO, connectTo); // kept alive with the handle, freed below
        headers_ = connectTo;
    }

    if (connection_.insecureSkipTlsVerify) {
        curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);
        curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 0L);
    } else if (!connection_.caPem.empty()) {
        // Only the cluster's CA is trusted, as kubectl does when a CA is configured.
        curl_blob blob{connection_.caPem.data(), connection_.caPem.size(), CURL_BLOB_COPY};
        curl_easy_setopt(curl, CURLOPT_CAINFO, nullptr);
        curl_easy_setopt(curl, CURLOPT_CAPATH, nullptr);
        curl_easy_setopt(curl, CURLOPT_CAINFO_BLOB, &blob);
    }

    if (!connection_.proxyUrl.empty()) {
        curl_easy_setopt(curl, CURLOPT_PROXY, connection_.proxyUrl.c_str());
        curl_easy_setopt(curl, CURLOPT_NOPROXY, "");
    } else {
        // Like Go's ProxyFromEnvironment: environment proxies, but never for loopback.
        std::string noProxy = "localhost,127.0.0.1,::1";
        if (const char* v = std::getenv("NO_PROXY")) noProxy += std::string(",") + v;
        if (const char* v = std::getenv("no_proxy")) noProxy += std::string(",") + v;
        curl_easy_setopt(curl, CURLOPT_NOPROXY, noProxy.c_str());
    }

    if (!connection_.username.empty() || !connection_.password.empty()) {
        curl_easy_setopt(curl, CURLOPT_HTTPAUTH, long(CURLAUTH_BASIC));
        curl_easy_setopt(curl, CURLOPT_USERNAME, connection_.username.c_str());
        curl_easy_setopt(curl, CURLOPT_PASSWORD, connection_.password.c_str());
    }
}

ApiTransport::~ApiTransport() {
    if (curl_) curl_easy_cleanup(static_cast<CURL*>(curl_));
    if (headers_) curl_slist_free_all(static_cast<curl_slist*>(headers_));
}

bool ApiTransport::renewCredentials() {
    if (!exec_) return false;
    exec_->invalidate();
    return true;
}

std::string ApiTransport::applyCredentials() {
    CURL* curl = static_cast<CURL*>(curl_);
    std::string token = connection_.token;
    std::string certPem = connection_.clientCertPem, keyPem = connection_.clientKeyPem;
    if (exec_) {
        const ExecCredential& cred = exec_->get(); // once per request: the plugin runs only when expired
        if (!cred.token.empty()) token = cred.token;
        if (!cred.clientCertPem.empty()) {
            certPem = cred.clientCertPem;
            keyPem = cred.clientKeyPem;
        }
    }
    if (certPem != appliedCertPem_) {
        curl_blob cert{certPem.data(), certPem.size(), CURL_BLOB_COPY};
        curl_blob key{keyPem.data(), keyPem.size(), CURL_BLOB_COPY};
        curl_easy_setopt(curl, CURLOPT_SSLCERTTYPE, "PEM");
        curl_easy_setopt(curl, CURLOPT_SSLKEYTYPE, "PEM");
        curl_easy_setopt(curl, CURLOPT_SSLCERT_BLOB, certPem.empty() ? nullptr : &cert);
        curl_easy_setopt(curl, CURLOPT_SSLKEY_BLOB, keyPem.empty() ? nullptr : &key);
        appliedCertPem_ = certPem;
    }
    return token;
}

HttpResponse ApiTransport::get(const std::string& path, const BodyReader& reader) {
    if (cancel_ && cancel_->load()) throw LiveError(FailureKind::Cancelled, "cancelled");
    CURL* curl = static_cast<CURL*>(curl_);
    std::string token = applyCredentials();

    curl_slist* headers = curl_slist_append(nullptr, "Accept: application/json");
    std::string auth;
    if (!token.empty()) {
        auth = "Authorization: Bearer " + token;
        headers = curl_slist_append(headers, auth.c_str());
    }
    std::string target = baseUrl_ + path;
    HttpResponse response;
    Transfer transfer{&response, cancel_, curl, &reader, nullptr, {}};
    curl_easy_setopt(curl, CURLOPT_URL, target.c_str());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &transfer);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &transfer);
    errorBuffer_[0] = '\0';
    CURLcode code = curl_easy_perform(curl);
    transfer.finishReader();
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, nullptr);
    curl_slist_free_all(headers);
    if (code != CURLE_OK) failTransport(code, path, response.bodyBytes);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
    return response;
}

void ApiTransport::failTransport(int codeValue, const std::string& path, size_t received) {
    CURL* curl = static_cast<CURL*>(curl_);
    auto code = CURLcode(codeValue);
    std::string detail = errorBuffer_.c_str();
    if (detail.empty()) detail = curl_easy_strerror(code);
    const std::string& server = connection_.server;
    std::string request = "GET " + path;
    switch (code) {
    case CURLE_ABORTED_BY_CALLBACK:
        throw LiveError(FailureKind::Cancelled, "cancelled");
    case CURLE_COULDNT_RESOLVE_HOST:
        throw LiveError(FailureKind::Dns,
                        "cannot resolve host '" + host_ + "' of server " + server +
                            " (DNS lookup failed; check the server address and your network)");
    case CURLE_COULDNT_RESOLVE_PROXY:
        throw LiveError(FailureKind::Dns,
                        "cannot resolve the proxy of " + connection_.proxyUrl + " (DNS lookup failed)");
    case CURLE_COULDNT_CONNECT: {
        long err = 0;
        curl_easy_getinfo(curl, CURLINFO_OS_ERRNO, &err);
        std::string why = err ? std::strerror(int(err)) : detail;
        for (char& c : why) c = char(std::tolower(static_cast<unsigned char>(c)));
        bool viaProxy = !connection_.proxyUrl.empty() && detail.find("proxy") != std::string::npos;
        throw LiveError(FailureKind::Unreachable, std::string("cannot connect to ") +
                                                      (viaProxy ? "proxy " + connection_.proxyUrl : server) +
                                                      ": " + why);
    }
    case CURLE_OPERATION_TIMEDOUT: {
        // Which phase timed out: nothing sent yet means the TCP connect or the TLS handshake (libcurl
        // says "SSL connection timeout" for the latter); otherwise the server stalled on the request.
        long requestSize = 0;
        curl_easy_getinfo(curl, CURLINFO_REQUEST_SIZE, &requestSize);
        if (requestSize == 0 && detail.find("SSL") != std::string::npos)
            throw LiveError(FailureKind::Timeout,
                            "server " + server +
                                " accepted the connection but the TLS handshake did not "
                                "complete within " +
                                seconds(timeouts_.connectSeconds) + " (stalled)");
        if (requestSize == 0)
            throw LiveError(FailureKind::Unreachable, "cannot connect to " + server + ": no answer within " +
                                                          seconds(timeouts_.connectSeconds) +
                                                          " (connect timeout)");
        if (received == 0)
            throw LiveError(FailureKind::Timeout, "server " + server + " sent no answer to " + request +
                                                      " within " + seconds(timeouts_.requestSeconds) +
                                                      " (stalled)");
        throw LiveError(FailureKind::Timeout, "server " + server + " stopped sending the answer to " +
                                                  request + " after " + std::to_string(received) +
                                                  " bytes (stalled for " + seconds(timeouts_.requestSeconds) +
                                                  ")");
    }
    case CURLE_PEER_FAILED_VERIFICATION: {
        long verify = 0;
        curl_easy_getinfo(curl, CURLINFO_SSL_VERIFYRESULT, &verify);
        std::string trust = connection_.caOrigin.empty() ? std::string("the system's trusted authorities")
                                                         : connection_.caOrigin;
        std::string prefix = "TLS: the certificate of " + server;
        switch (verify) {
        case CertHasExpired:
            throw LiveError(FailureKind::Tls, prefix + " has expired (certificate expired)");
        case CertNotYetValid:
            throw LiveError(FailureKind::Tls, prefix + " is not valid yet (check the clock)");
        case UnableToGetIssuerCert:
        case DepthZeroSelfSigned:
        case SelfSignedInChain:
        case UnableToGetIssuerLocally:
        case UnableToVerifyLeaf:
            throw LiveError(FailureKind::Tls,
                            prefix + " is signed by an unknown authority (not trusted by " + trust + ")");
        default:
            break;
        }
        std::string name = connection_.tlsServerName.empty() ? host_ : connection_.tlsServerName;
        if (verify == HostnameMismatch || verify == IpAddressMismatch ||
            detail.find("subject name") != std::string::npos ||
            detail.find("does not match") != std::string::npos)
            throw LiveError(FailureKind::Tls,
                            prefix + " is not valid for the name '" + name +
                                "' (name mismatch; tls-server-name sets the name to check)");
        throw LiveError(FailureKind::Tls, prefix + " could not be verified: " + detail);
    }
    case CURLE_SSL_CERTPROBLEM:
        throw LiveError(FailureKind::Tls, "TLS: the client certificate or key of " +
                                              connection_.describeUser() + " cannot be used: " + detail);
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_CRL_BADFILE:
        throw LiveError(FailureKind::Tls, "TLS handshake with " + server + " failed: " + detail);
    case CURLE_PARTIAL_FILE:
        throw LiveError(FailureKind::BadResponse, "the answer to " + request + " from " + server +
                                                      " was cut short after " + std::to_string(received) +
                                                      " bytes (truncated response)");
    case CURLE_GOT_NOTHING:
        throw LiveError(FailureKind::BadResponse,
                        "server " + server + " closed the connection without answering " + request);
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
        if (received > 0)
            throw LiveError(FailureKind::BadResponse,
                            "the connection to " + server + " broke after " + std::to_string(received) +
                                " bytes of the answer to " + request + " (truncated response): " + detail);
        throw LiveError(FailureKind::Unreachable, "the connection to " + server + " failed: " + detail);
    case CURLE_BAD_CONTENT_ENCODING:
        throw LiveError(FailureKind::BadResponse,
                        "the answer to " + request + " is not validly compressed: " + detail);
    case CURLE_WEIRD_SERVER_REPLY:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
        throw LiveError(FailureKind::BadResponse,
                        "server " + server + " did not answer " + request + " in valid HTTP: " + detail);
    case CURLE_URL_MALFORMAT:
    case CURLE_UNSUPPORTED_PROTOCOL:
        throw LiveError(FailureKind::Config, "server address " + server + " cannot be used: " + detail);
    default:
        throw LiveError(FailureKind::Unreachable, request + " to " + server + " failed: " + detail);
    }
}

} // namespace gantry::live
