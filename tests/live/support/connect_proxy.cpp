#include "connect_proxy.h"

#include <arpa/inet.h>
#include <cstring>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <unistd.h>

namespace gantry::testing {

ConnectProxy::ConnectProxy() {
    listenFd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(listenFd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(listenFd_, 16) != 0)
        throw std::runtime_error("connect proxy: cannot listen");
    socklen_t len = sizeof addr;
    ::getsockname(listenFd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    acceptThread_ = std::thread([this] { acceptLoop(); });
}

ConnectProxy::~ConnectProxy() {
    stopping_ = true;
    acceptThread_.join();
    ::close(listenFd_);
    for (auto& t : workers_) t.join();
}

std::vector<std::string> ConnectProxy::targets() const {
    std::lock_guard lock(mutex_);
    return targets_;
}

void ConnectProxy::acceptLoop() {
    while (!stopping_) {
        pollfd p{listenFd_, POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0) continue;
        int fd = ::accept4(listenFd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) continue;
        std::lock_guard lock(mutex_);
        workers_.emplace_back([this, fd] { tunnel(fd); });
    }
}

void ConnectProxy::tunnel(int client) {
    std::string head;
    char buffer[16384];
    while (head.find("\r\n\r\n") == std::string::npos) {
        ssize_t n = ::recv(client, buffer, sizeof buffer, 0);
        if (n <= 0) {
            ::close(client);
            return;
        }
        head.append(buffer, size_t(n));
    }
    // "CONNECT host:port HTTP/1.1"
    size_t sp1 = head.find(' '), sp2 = head.find(' ', sp1 + 1);
    std::string method = head.substr(0, sp1), target = head.substr(sp1 + 1, sp2 - sp1 - 1);
    size_t colon = target.rfind(':');
    int upstream = -1;
    if (method == "CONNECT" && colon != std::string::npos) {
        addrinfo hints{}, *res = nullptr;
        hints.ai_socktype = SOCK_STREAM;
        if (::getaddrinfo(target.substr(0, colon).c_str(), target.substr(colon + 1).c_str(), &hints, &res) ==
            0) {
            upstream = ::socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
            if (::connect(upstream, res->ai_addr, res->ai_addrlen) != 0) {
                ::close(upstream);
                upstream = -1;
            }
            ::freeaddrinfo(res);
        }
    }
    if (upstream < 0) {
        const char* bad = "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n";
        ::send(client, bad, std::strlen(bad), MSG_NOSIGNAL);
        ::close(client);
        return;
    }
    {
        std::lock_guard lock(mutex_);
        targets_.push_back(target);
    }
    ++tunnels_;
    const char* ok = "HTTP/1.1 200 Connection established\r\n\r\n";
    ::send(client, ok, std::strlen(ok), MSG_NOSIGNAL);
    pollfd fds[2] = {{client, POLLIN, 0}, {upstream, POLLIN, 0}};
    while (!stopping_) {
        if (::poll(fds, 2, 50) <= 0) continue;
        bool closed = false;
        for (int i = 0; i < 2; ++i) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            ssize_t n = ::recv(fds[i].fd, buffer, sizeof buffer, 0);
            if (n <= 0 || ::send(fds[1 - i].fd, buffer, size_t(n), MSG_NOSIGNAL) != n) closed = true;
        }
        if (closed) break;
    }
    ::close(client);
    ::close(upstream);
}

} // namespace gantry::testing
