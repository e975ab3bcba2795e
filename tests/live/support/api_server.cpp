#include "api_server.h"

#include "live/api_client.h"
#include "live/base64.h"

#include <algorithm>
#include <arpa/inet.h>
#include <chrono>
#include <csignal>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <nlohmann/json.hpp>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <optional>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

namespace gantry::testing {

namespace {

using json = nlohmann::json;

const char* reason(int status) {
    const char* phrase = live::httpReasonPhrase(status);
    return *phrase ? phrase : status == 200 ? "OK" : "Status";
}

LoopbackApiServer::Response statusResponse(int code, const std::string& reasonName,
                                           const std::string& message, const json& details = nullptr) {
    json body = {{"kind", "Status"},    {"apiVersion", "v1"}, {"metadata", json::object()},
                 {"status", "Failure"}, {"message", message}, {"reason", reasonName},
                 {"code", code}};
    if (!details.is_null()) body["details"] = details;
    LoopbackApiServer::Response r;
    r.status = code;
    r.body = body.dump();
    return r;
}

std::string urlDecode(const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size()) {
            out += char(std::stoi(s.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else if (s[i] == '+') {
            out += ' ';
        } else {
            out += s[i];
        }
    }
    return out;
}

std::map<std::string, std::string> parseQuery(const std::string& query) {
    std::map<std::string, std::string> params;
    size_t pos = 0;
    while (pos <= query.size() && !query.empty()) {
        size_t amp = query.find('&', pos);
        std::string part = query.substr(pos, amp == std::string::npos ? std::string::npos : amp - pos);
        size_t eq = part.find('=');
        if (!part.empty())
            params[urlDecode(part.substr(0, eq))] =
                eq == std::string::npos ? "" : urlDecode(part.substr(eq + 1));
        if (amp == std::string::npos) break;
        pos = amp + 1;
    }
    return params;
}

std::string base64Url(const std::string& bytes) {
    std::string s = live::base64Encode(bytes);
    for (char& c : s) c = c == '+' ? '-' : c == '/' ? '_' : c;
    while (!s.empty() && s.back() == '=') s.pop_back();
    return s;
}

std::string gzipped(const std::string& body) {
    z_stream zs{};
    if (deflateInit2(&zs, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::runtime_error("deflateInit2");
    std::string out(deflateBound(&zs, uLong(body.size())), '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
    zs.avail_in = uInt(body.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = uInt(out.size());
    deflate(&zs, Z_FINISH);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return out;
}

int acceptAnyCertificate(int, X509_STORE_CTX*) {
    return 1;
} // decided after the handshake, like kube-apiserver

std::string nameEntry(X509_NAME* name, int nid) {
    int idx = X509_NAME_get_index_by_NID(name, nid, -1);
    if (idx < 0) return {};
    ASN1_STRING* data = X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, idx));
    return std::string(reinterpret_cast<const char*>(ASN1_STRING_get0_data(data)),
                       size_t(ASN1_STRING_length(data)));
}

bool sendAll(SSL* ssl, const char* data, size_t size) {
    while (size > 0) {
        int chunk = int(std::min<size_t>(size, 1 << 20));
        int n = SSL_write(ssl, data, chunk);
        if (n <= 0) return false;
        data += n;
        size -= size_t(n);
    }
    return true;
}

} // namespace

LoopbackApiServer::LoopbackApiServer(const Tls& tls) {
    // A client that drops the connection (say, after rejecting the certificate) must not kill the
    // process through SIGPIPE when OpenSSL writes to the closed socket.
    std::signal(SIGPIPE, SIG_IGN);
    SSL_CTX* ctx = SSL_CTX_new(TLS_server_method());
    ctx_ = ctx;
    BIO* certBio = BIO_new_mem_buf(tls.certPem.data(), int(tls.certPem.size()));
    X509* cert = PEM_read_bio_X509(certBio, nullptr, nullptr, nullptr);
    BIO_free(certBio);
    BIO* keyBio = BIO_new_mem_buf(tls.keyPem.data(), int(tls.keyPem.size()));
    EVP_PKEY* key = PEM_read_bio_PrivateKey(keyBio, nullptr, nullptr, nullptr);
    BIO_free(keyBio);
    if (!cert || !key || SSL_CTX_use_certificate(ctx, cert) != 1 || SSL_CTX_use_PrivateKey(ctx, key) != 1)
        throw std::runtime_error("loopback API server: bad certificate or key");
    X509_free(cert);
    EVP_PKEY_free(key);
    static const unsigned char sessionContext[] = "gantry-loopback-apiserver";
    SSL_CTX_set_session_id_context(ctx, sessionContext, sizeof sessionContext - 1);
    if (!tls.clientCaPem.empty()) {
        BIO* caBio = BIO_new_mem_buf(tls.clientCaPem.data(), int(tls.clientCaPem.size()));
        X509* ca = PEM_read_bio_X509(caBio, nullptr, nullptr, nullptr);
        BIO_free(caBio);
        if (!ca) throw std::runtime_error("loopback API server: bad client CA");
        X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx), ca);
        STACK_OF(X509_NAME)* names = sk_X509_NAME_new_null();
        sk_X509_NAME_push(names, X509_NAME_dup(X509_get_subject_name(ca)));
        SSL_CTX_set_client_CA_list(ctx, names);
        X509_free(ca);
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, acceptAnyCertificate);
    }

    listenFd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    ::setsockopt(listenFd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(listenFd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(listenFd_, 128) != 0)
        throw std::runtime_error(std::string("loopback API server: cannot listen: ") + std::strerror(errno));
    socklen_t len = sizeof addr;
    ::getsockname(listenFd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);

    serve({"", "v1", "namespaces", "Namespace", false});
    serve({"", "v1", "nodes", "Node", false});
    serve({"", "v1", "pods", "Pod", true});
    serve({"", "v1", "configmaps", "ConfigMap", true});
    serve({"scheduling.k8s.io", "v1", "priorityclasses", "PriorityClass", false});
    acceptThread_ = std::thread([this] { acceptLoop(); });
}

LoopbackApiServer::~LoopbackApiServer() {
    stop();
    SSL_CTX_free(static_cast<SSL_CTX*>(ctx_));
}

void LoopbackApiServer::stop() {
    if (stopping_.exchange(true)) return;
    stopped_.notify_all();
    if (acceptThread_.joinable()) acceptThread_.join();
    ::close(listenFd_);
    std::vector<std::thread> workers;
    {
        std::lock_guard lock(mutex_);
        for (int fd : openFds_) ::shutdown(fd, SHUT_RDWR);
        workers.swap(workers_);
    }
    for (auto& t : workers) t.join();
}

void LoopbackApiServer::addToken(const std::string& token, const std::string& user) {
    std::lock_guard lock(mutex_);
    tokens_[token] = user;
}

void LoopbackApiServer::addBasicUser(const std::string& user, const std::string& password) {
    std::lock_guard lock(mutex_);
    basic_[user] = password;
}

void LoopbackApiServer::forbid(const std::string& user, const std::string& resource) {
    std::lock_guard lock(mutex_);
    forbidden_.insert({user, resource});
}

void LoopbackApiServer::serve(const ServedResource& resource) {
    std::lock_guard lock(mutex_);
    resources_.push_back(resource);
}

void LoopbackApiServer::add(const std::string& resource, const json& object) {
    std::lock_guard lock(mutex_);
    const ServedResource* served = nullptr;
    for (const auto& r : resources_)
        if (r.resource == resource && !served) served = &r; // stored in the first version served
    if (!served) throw std::runtime_error("loopback API server: resource " + resource + " is not served");
    json copy = object;
    copy["metadata"]["resourceVersion"] = std::to_string(++resourceVersion_);
    if (served->group.empty()) {
        copy.erase("apiVersion");
        copy.erase("kind");
    } else {
        copy["apiVersion"] = served->group + "/" + served->version;
        copy["kind"] = served->kind;
    }
    Stored s;
    s.json = copy.dump();
    s.name = copy["metadata"].value("name", "");
    s.ns = copy["metadata"].value("namespace", "");
    if (copy.contains("status") && copy["status"].is_object()) s.phase = copy["status"].value("phase", "");
    objects_[resource].push_back(std::move(s));
}

void LoopbackApiServer::clear(const std::string& resource) {
    std::lock_guard lock(mutex_);
    objects_.erase(resource);
}

void LoopbackApiServer::addFault(const Fault& fault) {
    std::lock_guard lock(mutex_);
    faults_.push_back(fault);
}

void LoopbackApiServer::clearFaults() {
    std::lock_guard lock(mutex_);
    faults_.clear();
}

std::vector<RecordedRequest> LoopbackApiServer::requests() const {
    std::lock_guard lock(mutex_);
    return log_;
}

size_t LoopbackApiServer::requestCount(const std::string& path) const {
    std::lock_guard lock(mutex_);
    size_t n = 0;
    for (const auto& r : log_) n += r.path == path;
    return n;
}

void LoopbackApiServer::acceptLoop() {
    while (!stopping_) {
        pollfd p{listenFd_, POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0) continue;
        int fd = ::accept4(listenFd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) continue;
        int one = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        ++connections_;
        std::lock_guard lock(mutex_);
        openFds_.insert(fd);
        workers_.emplace_back([this, fd] { serveConnection(fd); });
    }
}

void LoopbackApiServer::serveConnection(int fd) {
    SSL* ssl = SSL_new(static_cast<SSL_CTX*>(ctx_));
    SSL_set_fd(ssl, fd);
    auto finish = [&] {
        SSL_free(ssl);
        std::lock_guard lock(mutex_);
        openFds_.erase(fd);
        ::close(fd);
    };
    if (SSL_accept(ssl) != 1) {
        finish();
        return;
    }
    std::string certUser;
    if (X509* peer = SSL_get1_peer_certificate(ssl)) {
        if (SSL_get_verify_result(ssl) == X509_V_OK)
            certUser = nameEntry(X509_get_subject_name(peer), NID_commonName);
        X509_free(peer);
    }
    std::string buffer;
    char chunk[16384];
    while (!stopping_) {
        size_t end;
        while ((end = buffer.find("\r\n\r\n")) == std::string::npos) {
            int n = SSL_read(ssl, chunk, sizeof chunk);
            if (n <= 0) {
                finish();
                return;
            }
            buffer.append(chunk, size_t(n));
        }
        std::string head = buffer.substr(0, end);
        buffer.erase(0, end + 4);
        RecordedRequest rec;
        size_t lineEnd = head.find("\r\n");
        std::string requestLine = head.substr(0, lineEnd);
        size_t sp1 = requestLine.find(' '), sp2 = requestLine.rfind(' ');
        std::string target = requestLine.substr(sp1 + 1, sp2 - sp1 - 1);
        size_t qm = target.find('?');
        rec.path = target.substr(0, qm);
        rec.query = qm == std::string::npos ? "" : target.substr(qm + 1);
        size_t pos = lineEnd;
        while (pos != std::string::npos && pos < head.size()) {
            size_t next = head.find("\r\n", pos + 2);
            std::string line =
                head.substr(pos + 2, next == std::string::npos ? std::string::npos : next - pos - 2);
            size_t colon = line.find(':');
            if (colon != std::string::npos) {
                std::string name = line.substr(0, colon);
                for (char& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
                size_t v = line.find_first_not_of(' ', colon + 1);
                rec.headers[name] = v == std::string::npos ? "" : line.substr(v);
            }
            pos = next;
        }

        // Authentication as kube-apiserver orders it: client certificate, then bearer token, then basic.
        bool authenticated = false, rejected = false;
        std::string user;
        if (!certUser.empty()) {
            user = certUser;
            authenticated = true;
        } else if (auto it = rec.headers.find("authorization"); it != rec.headers.end()) {
            std::lock_guard lock(mutex_);
            const std::string& value = it->second;
            if (value.rfind("Bearer ", 0) == 0) {
                auto t = tokens_.find(value.substr(7));
                if (t != tokens_.end())
                    user = t->second, authenticated = true;
                else
                    rejected = true;
            } else if (value.rfind("Basic ", 0) == 0) {
                auto decoded = live::base64Decode(value.substr(6));
                size_t colon = decoded ? decoded->find(':') : std::string::npos;
                if (colon != std::string::npos) {
                    auto b = basic_.find(decoded->substr(0, colon));
                    if (b != basic_.end() && b->second == decoded->substr(colon + 1))
                        user = b->first, authenticated = true;
                }
                rejected = !authenticated;
            } else {
                rejected = true;
            }
        }
        rec.user = user;

        std::optional<Fault> fault;
        {
            std::lock_guard lock(mutex_);
            for (auto& f : faults_) {
                if (f.times == 0 || f.path != rec.path) continue;
                if ((f.action == Fault::Action::ExpireContinue || f.laterPages) &&
                    rec.query.find("continue=") == std::string::npos)
                    continue;
                if (f.times > 0) --f.times;
                fault = f;
                break;
            }
        }
        if (fault && fault->onHit) fault->onHit();

        Response response;
        bool answered = false;
        if (fault) {
            switch (fault->action) {
            case Fault::Action::Status:
                response = statusResponse(
                    fault->status, fault->status == 429 ? "TooManyRequests" : "ServiceUnavailable",
                    fault->status == 429 ? "Too many requests, please try again later."
                                         : "the server is currently unable to handle the request");
                response.retryAfter = fault->retryAfter;
                answered = true;
                break;
            case Fault::Action::ExpireContinue:
                response =
                    statusResponse(410, "Expired",
                                   "The provided continue parameter is too old to display a consistent list "
                                   "result. You can start a new list without the continue parameter.");
                answered = true;
                break;
            case Fault::Action::NotJson:
                response.contentType = "text/html";
                response.body = "<html><head><title>Sign in</title></head><body>Corporate proxy: please sign "
                                "in</body></html>\n";
                answered = true;
                break;
            case Fault::Action::BrokenJson:
                response.body = "{\"kind\":\"NodeList\",\"apiVersion\":\"v1\",\"metadata\":{},\"items\":[{"
                                "\"metadata\":{\"name\":";
                answered = true;
                break;
            case Fault::Action::Body:
                response.body = fault->body;
                answered = true;
                break;
            case Fault::Action::Stall: {
                std::unique_lock lock(mutex_);
                stopped_.wait_for(lock, std::chrono::seconds(120), [&] { return stopping_.load(); });
                rec.status = -1;
                log_.push_back(rec);
                lock.unlock();
                finish();
                return;
            }
            case Fault::Action::Close:
                rec.status = -1;
                {
                    std::lock_guard lock(mutex_);
                    log_.push_back(rec);
                }
                finish();
                return;
            case Fault::Action::Delay: {
                std::unique_lock lock(mutex_);
                stopped_.wait_for(lock, std::chrono::duration<double>(fault->delaySeconds),
                                  [&] { return stopping_.load(); });
                break;
            }
            default:
                break;
            }
        }
        if (!answered) {
            if (rejected || (!authenticated && rec.path != "/version"))
                response = statusResponse(401, "Unauthorized", "Unauthorized");
            else
                response = handle(rec.path, rec.query, user, authenticated);
        }
        rec.status = response.status;
        {
            std::lock_guard lock(mutex_);
            log_.push_back(rec);
        }

        std::string body = response.body;
        bool compress = gzip_ && body.size() > 128 * 1024 &&
                        rec.headers["accept-encoding"].find("gzip") != std::string::npos;
        if (compress) body = gzipped(body);
        std::string headers =
            "HTTP/1.1 " + std::to_string(response.status) + " " + reason(response.status) + "\r\n";
        headers += "Content-Type: " + response.contentType + "\r\n";
        headers += "Content-Length: " + std::to_string(body.size()) + "\r\n";
        headers += "Audit-Id: gantry-test\r\nCache-Control: no-cache, private\r\n";
        if (compress) headers += "Content-Encoding: gzip\r\n";
        if (!response.retryAfter.empty()) headers += "Retry-After: " + response.retryAfter + "\r\n";
        headers += "\r\n";
        bool cut = fault &&
                   (fault->action == Fault::Action::Truncate || fault->action == Fault::Action::StallMidBody);
        std::string wire = headers + (cut ? body.substr(0, body.size() / 2) : body);
        if (!sendAll(ssl, wire.data(), wire.size())) {
            finish();
            return;
        }
        if (cut) {
            if (fault->action == Fault::Action::StallMidBody) {
                std::unique_lock lock(mutex_);
                stopped_.wait_for(lock, std::chrono::seconds(120), [&] { return stopping_.load(); });
            }
            finish();
            return;
        }
        if (rec.headers["connection"] == "close") break;
    }
    finish();
}

const ServedResource* LoopbackApiServer::findResource(const std::string& path, std::string* ns) const {
    // /api/v1/[namespaces/NS/]R  or  /apis/G/V/[namespaces/NS/]R
    std::vector<std::string> parts;
    size_t pos = 1;
    while (pos <= path.size()) {
        size_t slash = path.find('/', pos);
        parts.push_back(path.substr(pos, slash == std::string::npos ? std::string::npos : slash - pos));
        if (slash == std::string::npos) break;
        pos = slash + 1;
    }
    std::string group, version;
    size_t i;
    if (parts.size() >= 3 && parts[0] == "api") {
        version = parts[1];
        i = 2;
    } else if (parts.size() >= 4 && parts[0] == "apis") {
        group = parts[1];
        version = parts[2];
        i = 3;
    } else {
        return nullptr;
    }
    if (parts.size() == i + 3 && parts[i] == "namespaces") {
        *ns = parts[i + 1];
        i += 2;
    }
    if (parts.size() != i + 1) return nullptr;
    for (const auto& r : resources_)
        if (r.group == group && r.version == version && r.resource == parts[i] &&
            (ns->empty() || r.namespaced))
            return &r;
    return nullptr;
}

LoopbackApiServer::Response LoopbackApiServer::discovery(const std::string& path, bool* found) {
    *found = true;
    Response r;
    if (path == "/version") {
        r.body = json{{"major", "1"},
                      {"minor", "31"},
                      {"gitVersion", "v1.31.2"},
                      {"gitTreeState", "clean"},
                      {"goVersion", "go1.22.8"},
                      {"compiler", "gc"},
                      {"platform", "linux/amd64"}}
                     .dump();
        return r;
    }
    if (path == "/api") {
        r.body =
            json{{"kind", "APIVersions"},
                 {"versions", {"v1"}},
                 {"serverAddressByClientCIDRs",
                  {{{"clientCIDR", "0.0.0.0/0"}, {"serverAddress", "127.0.0.1:" + std::to_string(port_)}}}}}
                .dump();
        return r;
    }
    auto resourceList = [&](const std::string& group, const std::string& version) {
        json list = json::array();
        for (const auto& res : resources_) {
            if (res.group != group || res.version != version) continue;
            std::string singular = res.kind;
            for (char& c : singular) c = char(std::tolower(static_cast<unsigned char>(c)));
            list.push_back({{"name", res.resource},
                            {"singularName", singular},
                            {"namespaced", res.namespaced},
                            {"kind", res.kind},
                            {"verbs", {"get", "list", "watch"}}});
        }
        std::string gv = group.empty() ? version : group + "/" + version;
        return json{
            {"kind", "APIResourceList"}, {"apiVersion", "v1"}, {"groupVersion", gv}, {"resources", list}};
    };
    // Groups in the order first served; the first version served of a group is its preferred one.
    std::vector<std::pair<std::string, std::vector<std::string>>> groups;
    for (const auto& res : resources_) {
        if (res.group.empty()) continue;
        auto g =
            std::find_if(groups.begin(), groups.end(), [&](const auto& e) { return e.first == res.group; });
        if (g == groups.end())
            groups.push_back({res.group, {res.version}});
        else if (std::find(g->second.begin(), g->second.end(), res.version) == g->second.end())
            g->second.push_back(res.version);
    }
    auto groupJson = [](const std::string& name, const std::vector<std::string>& versions) {
        json vs = json::array();
        for (const auto& v : versions) vs.push_back({{"groupVersion", name + "/" + v}, {"version", v}});
        return json{{"name", name}, {"versions", vs}, {"preferredVersion", vs[0]}};
    };
    if (path == "/api/v1") {
        r.body = resourceList("", "v1").dump();
        return r;
    }
    if (path == "/apis") {
        json list = json::array();
        for (const auto& [name, versions] : groups) list.push_back(groupJson(name, versions));
        r.body = json{{"kind", "APIGroupList"}, {"apiVersion", "v1"}, {"groups", list}}.dump();
        return r;
    }
    for (const auto& [name, versions] : groups) {
        if (path == "/apis/" + name) {
            json g = groupJson(name, versions);
            g["kind"] = "APIGroup";
            g["apiVersion"] = "v1";
            r.body = g.dump();
            return r;
        }
        for (const auto& v : versions)
            if (path == "/apis/" + name + "/" + v) {
                r.body = resourceList(name, v).dump();
                return r;
            }
    }
    *found = false;
    return r;
}

LoopbackApiServer::Response LoopbackApiServer::handle(const std::string& path, const std::string& query,
                                                      const std::string& user, bool) {
    std::lock_guard lock(mutex_);
    bool found = false;
    Response r = discovery(path, &found);
    if (found) return r;
    std::string ns;
    const ServedResource* res = findResource(path, &ns);
    if (!res) return statusResponse(404, "NotFound", "the server could not find the requested resource");
    if (forbidden_.count({user, res->resource}) || forbidden_.count({user, "*"})) {
        std::string scope = ns.empty() ? "at the cluster scope" : "in the namespace \"" + ns + "\"";
        return statusResponse(403, "Forbidden",
                              res->resource + " is forbidden: User \"" + user + "\" cannot list resource \"" +
                                  res->resource + "\" in API group \"" + res->group + "\" " + scope,
                              json{{"kind", res->resource}});
    }
    std::string q = query;
    if (!ns.empty()) q += std::string(q.empty() ? "" : "&") + "fieldSelector-namespace=" + ns;
    return list(*res, q);
}

LoopbackApiServer::Response LoopbackApiServer::list(const ServedResource& r, const std::string& query) {
    auto params = parseQuery(query);
    // Field selectors: metadata.name, metadata.namespace, and status.phase for pods; = == and !=.
    struct Term {
        std::string field, value;
        bool negated;
    };
    std::vector<Term> terms;
    if (auto it = params.find("fieldSelector"); it != params.end() && !it->second.empty()) {
        std::string sel = it->second;
        size_t pos = 0;
        while (pos <= sel.size()) {
            size_t comma = sel.find(',', pos);
            std::string term = sel.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
            size_t ne = term.find("!="), eq = term.find('=');
            Term t;
            if (ne != std::string::npos)
                t = {term.substr(0, ne), term.substr(ne + 2), true};
            else if (eq != std::string::npos)
                t = {term.substr(0, eq), term.substr(term[eq + 1] == '=' ? eq + 2 : eq + 1), false};
            else
                return statusResponse(400, "BadRequest", "invalid field selector: " + term);
            if (t.field != "metadata.name" && t.field != "metadata.namespace" &&
                !(t.field == "status.phase" && r.kind == "Pod"))
                return statusResponse(
                    400, "BadRequest",
                    "\"" + t.field +
                        "\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\"");
            terms.push_back(t);
            if (comma == std::string::npos) break;
            pos = comma + 1;
        }
    }
    if (auto it = params.find("fieldSelector-namespace"); it != params.end())
        terms.push_back({"metadata.namespace", it->second, false});

    size_t limit = 0, start = 0;
    if (auto it = params.find("limit"); it != params.end()) limit = size_t(std::stoul(it->second));
    int64_t listRv = resourceVersion_;
    if (auto it = params.find("continue"); it != params.end() && !it->second.empty()) {
        auto decoded = live::base64Decode(it->second);
        json token = decoded ? json::parse(*decoded, nullptr, false) : json();
        if (!token.is_object() || !token.contains("start") || !token.contains("rv"))
            return statusResponse(400, "BadRequest", "continue key is not valid");
        start = token["start"].get<size_t>();
        listRv = token["rv"].get<int64_t>();
    }
    const auto& all = objects_[r.resource];
    std::string items;
    size_t index = start, taken = 0;
    for (; index < all.size(); ++index) {
        const Stored& s = all[index];
        bool match = true;
        for (const auto& t : terms) {
            const std::string& v = t.field == "metadata.name"        ? s.name
                                   : t.field == "metadata.namespace" ? s.ns
                                                                     : s.phase;
            if ((v == t.value) == t.negated) match = false;
        }
        if (!match) continue;
        if (limit && taken == limit) break;
        if (taken++) items += ',';
        items += s.json;
    }
    size_t remaining = 0;
    for (size_t j = index; j < all.size(); ++j) {
        bool match = true;
        for (const auto& t : terms) {
            const std::string& v = t.field == "metadata.name"        ? all[j].name
                                   : t.field == "metadata.namespace" ? all[j].ns
                                                                     : all[j].phase;
            if ((v == t.value) == t.negated) match = false;
        }
        remaining += match;
    }
    json meta = {{"resourceVersion", std::to_string(listRv)}};
    if (remaining > 0) {
        meta["continue"] = base64Url(json{{"rv", listRv}, {"start", index}}.dump());
        meta["remainingItemCount"] = remaining;
    }
    std::string apiVersion = r.group.empty() ? r.version : r.group + "/" + r.version;
    Response resp;
    resp.body = "{\"kind\":\"" + r.kind + "List\",\"apiVersion\":\"" + apiVersion +
                "\",\"metadata\":" + meta.dump() + ",\"items\":[" + items + "]}";
    return resp;
}

std::string kubeconfigYaml(const std::string& server, const std::string& caFile,
                           const std::vector<std::string>& userLines, const std::string& contextName,
                           const std::string& clusterExtra) {
    std::string y =
        "apiVersion: v1\nkind: Config\nclusters:\n- name: loopback\n  cluster:\n    server: " + server + "\n";
    if (!caFile.empty()) y += "    certificate-authority: " + caFile + "\n";
    if (!clusterExtra.empty()) y += clusterExtra;
    y += "users:\n- name: tester\n  user:\n";
    if (userLines.empty()) y += "    {}\n";
    for (const auto& l : userLines) y += "    " + l + "\n";
    y += "contexts:\n- name: " + contextName + "\n  context:\n    cluster: loopback\n    user: tester\n";
    y += "current-context: " + contextName + "\n";
    return y;
}

} // namespace gantry::testing
