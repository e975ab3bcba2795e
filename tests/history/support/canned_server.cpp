#include "canned_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <unistd.h>

namespace gantry::testing {

CannedServer::CannedServer(Answer answer) : answer_(std::move(answer)) {
    listenFd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    ::setsockopt(listenFd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(listenFd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(listenFd_, 16) != 0)
        throw std::runtime_error("canned server: cannot listen");
    socklen_t len = sizeof addr;
    ::getsockname(listenFd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    acceptThread_ = std::thread([this] {
        while (!stopping_) {
            pollfd p{listenFd_, POLLIN, 0};
            if (::poll(&p, 1, 50) <= 0) continue;
            int fd = ::accept4(listenFd_, nullptr, nullptr, SOCK_CLOEXEC);
            if (fd < 0) continue;
            std::lock_guard lock(mutex_);
            workers_.emplace_back([this, fd] { serve(fd); });
        }
    });
}

CannedServer::~CannedServer() {
    stopping_ = true;
    if (acceptThread_.joinable()) acceptThread_.join();
    ::close(listenFd_);
    std::vector<std::thread> workers;
    {
        std::lock_guard lock(mutex_);
        workers.swap(workers_);
    }
    for (auto& t : workers) t.join();
}

std::vector<std::string> CannedServer::targets() const {
    std::lock_guard lock(mutex_);
    return targets_;
}

void CannedServer::serve(int fd) {
    std::string head;
    char chunk[8192];
    while (head.find("\r\n\r\n") == std::string::npos && !stopping_) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0) continue;
        ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
        if (n <= 0) break;
        head.append(chunk, size_t(n));
    }
    if (head.find("\r\n\r\n") != std::string::npos) {
        const size_t sp1 = head.find(' '), sp2 = head.find(' ', sp1 + 1);
        {
            std::lock_guard lock(mutex_);
            targets_.push_back(head.substr(sp1 + 1, sp2 - sp1 - 1));
        }
        if (answer_.stall) {
            while (!stopping_) ::usleep(20000);
        } else {
            std::string out = "HTTP/1.1 " + std::to_string(answer_.status) +
                              " Canned\r\nContent-Type: " + answer_.contentType +
                              "\r\nContent-Length: " + std::to_string(answer_.body.size()) +
                              "\r\nConnection: close\r\n\r\n" + answer_.body;
            ::send(fd, out.data(), out.size(), MSG_NOSIGNAL);
        }
    }
    ::close(fd);
}

} // namespace gantry::testing
