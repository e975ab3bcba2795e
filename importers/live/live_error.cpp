#include "live/live_error.h"

namespace gantry::live {

const char* toString(FailureKind kind) {
    switch (kind) {
    case FailureKind::Unauthorized:
        return "unauthorized";
    case FailureKind::Forbidden:
        return "forbidden";
    case FailureKind::Unreachable:
        return "unreachable";
    case FailureKind::Dns:
        return "dns";
    case FailureKind::Tls:
        return "tls";
    case FailureKind::Timeout:
        return "timeout";
    case FailureKind::BadResponse:
        return "bad-response";
    case FailureKind::ServerError:
        return "server-error";
    case FailureKind::ExecPlugin:
        return "exec-plugin";
    case FailureKind::Config:
        return "config";
    case FailureKind::Cancelled:
        return "cancelled";
    }
    return "unknown";
}

std::string failureMessage(const std::exception& e) {
    std::string line = e.what();
    for (auto& c : line)
        if (c == '\n' || c == '\r') c = ' ';
    return line;
}

} // namespace gantry::live
