#include "bearer_proxy.h"

#include <arpa/inet.h>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <unistd.h>

namespace gantry::testing {

namespace {

bool writeAll(SSL* ssl, const std::string& data) {
    size_t done = 0;
    while (done < data.size()) {
        int n = SSL_write(ssl, data.data() + done, int(data.size() - done));
        if (n <= 0) return false;
        done += size_t(n);
    }
    return true;
}

std::string answer(int status, const char* reason, const std::string& body) {
    return "HTTP/1.1 " + std::to_string(status) + " " + reason +
           "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: " + std::to_string(body.size()) +
           "\r\nConnection: close\r\n\r\n" + body;
}

} // namespace

BearerProxy::BearerProxy(int upstreamPort, const std::string& certPem, const std::string& keyPem,
                         std::map<std::string, bool> tokens)
    : upstream_(upstreamPort), tokens_(std::move(tokens)) {
    std::signal(SIGPIPE, SIG_IGN);
    SSL_CTX* ctx = SSL_CTX_new(TLS_server_method());
    ctx_ = ctx;
    BIO* certBio = BIO_new_mem_buf(certPem.data(), int(certPem.size()));
    X509* cert = PEM_read_bio_X509(certBio, nullptr, nullptr, nullptr);
    BIO_free(certBio);
    BIO* keyBio = BIO_new_mem_buf(keyPem.data(), int(keyPem.size()));
    EVP_PKEY* key = PEM_read_bio_PrivateKey(keyBio, nullptr, nullptr, nullptr);
    BIO_free(keyBio);
    if (!cert || !key || SSL_CTX_use_certificate(ctx, cert) != 1 || SSL_CTX_use_PrivateKey(ctx, key) != 1)
        throw std::runtime_error("bearer proxy: bad certificate or key");
    X509_free(cert);
    EVP_PKEY_free(key);
    listenFd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    ::setsockopt(listenFd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(listenFd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(listenFd_, 64) != 0)
        throw std::runtime_error(std::string("bearer proxy: cannot listen: ") + std::strerror(errno));
    socklen_t len = sizeof addr;
    ::getsockname(listenFd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    acceptThread_ = std::thread([this] { acceptLoop(); });
}

BearerProxy::~BearerProxy() {
    stopping_ = true;
    if (acceptThread_.joinable()) acceptThread_.join();
    ::close(listenFd_);
    std::vector<std::thread> workers;
    {
        std::lock_guard lock(mutex_);
        workers.swap(workers_);
    }
    for (auto& t : workers) t.join();
    SSL_CTX_free(static_cast<SSL_CTX*>(ctx_));
}

std::vector<std::string> BearerProxy::authorizations() const {
    std::lock_guard lock(mutex_);
    return authorizations_;
}

std::vector<std::string> BearerProxy::targets() const {
    std::lock_guard lock(mutex_);
    return targets_;
}

void BearerProxy::acceptLoop() {
    while (!stopping_) {
        pollfd p{listenFd_, POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0) continue;
        int fd = ::accept4(listenFd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) continue;
        std::lock_guard lock(mutex_);
        workers_.emplace_back([this, fd] { serve(fd); });
    }
}

void BearerProxy::serve(int fd) {
    SSL* ssl = SSL_new(static_cast<SSL_CTX*>(ctx_));
    SSL_set_fd(ssl, fd);
    timeval timeout{10, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    auto finish = [&] {
        SSL_shutdown(ssl);
        SSL_free(ssl);
        ::close(fd);
    };
    if (SSL_accept(ssl) != 1) {
        finish();
        return;
    }
    std::string head;
    char chunk[16384];
    while (head.find("\r\n\r\n") == std::string::npos) {
        int n = SSL_read(ssl, chunk, sizeof chunk);
        if (n <= 0) {
            finish();
            return;
        }
        head.append(chunk, size_t(n));
    }
    head.resize(head.find("\r\n\r\n"));
    ++requests_;
    // The request line and headers, without those about the connection (this proxy closes it).
    std::string forwarded, authorization;
    size_t pos = 0;
    bool first = true;
    while (pos <= head.size()) {
        size_t next = head.find("\r\n", pos);
        std::string line = head.substr(pos, next == std::string::npos ? std::string::npos : next - pos);
        pos = next == std::string::npos ? head.size() + 1 : next + 2;
        std::string name = line.substr(0, line.find(':'));
        for (auto& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
        if (!first && (name == "connection" || name == "keep-alive")) continue;
        if (!first && name == "authorization") {
            authorization = line.substr(line.find(':') + 1);
            authorization.erase(0, authorization.find_first_not_of(' '));
            continue; // Prometheus does not need it
        }
        forwarded += line + "\r\n";
        first = false;
    }
    {
        std::lock_guard lock(mutex_);
        authorizations_.push_back(authorization);
        const size_t sp1 = head.find(' '), sp2 = head.find(' ', sp1 + 1);
        targets_.push_back(head.substr(sp1 + 1, sp2 - sp1 - 1));
    }
    std::string token = authorization.rfind("Bearer ", 0) == 0 ? authorization.substr(7) : "";
    auto known = tokens_.find(token);
    if (token.empty() || known == tokens_.end()) {
        writeAll(ssl, answer(401, "Unauthorized", "Unauthorized\n"));
        finish();
        return;
    }
    if (!known->second) {
        writeAll(ssl, answer(403, "Forbidden",
                             "Forbidden (user=system:serviceaccount:gantry:reader, verb=get, "
                             "resource=, subresource=)\n"));
        finish();
        return;
    }
    int up = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(uint16_t(upstream_));
    if (::connect(up, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(up);
        writeAll(ssl, answer(502, "Bad Gateway", "upstream unreachable\n"));
        finish();
        return;
    }
    forwarded += "Connection: close\r\n\r\n";
    ::send(up, forwarded.data(), forwarded.size(), MSG_NOSIGNAL);
    for (;;) {
        ssize_t n = ::recv(up, chunk, sizeof chunk, 0);
        if (n <= 0) break;
        if (!writeAll(ssl, std::string(chunk, size_t(n)))) break;
    }
    ::close(up);
    finish();
}

} // namespace gantry::testing
