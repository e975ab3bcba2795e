#pragma once
// What can go wrong talking to a live API server, as one exception with a kind the CLI and the
// studio can act on (exit code, dialog text). The message is one line a user can act on.
#include <stdexcept>
#include <string>

namespace gantry::live {

enum class FailureKind {
    Unauthorized, // 401: the server does not accept the credentials
    Forbidden,    // 403: authenticated, but not allowed to read something
    Unreachable,  // connection refused, no route, connect timeout
    Dns,          // host name does not resolve
    Tls,          // certificate or handshake problem
    Timeout,      // the server accepted the connection but stalled
    BadResponse,  // truncated, not JSON, not what the API promises
    ServerError,  // 5xx / 429 that did not clear up after the retries, or another unexpected status
    ExecPlugin,   // the credential plugin is missing, failed or printed nonsense
    Config,       // connection settings that cannot work (bad URL, unreadable file, ...)
    Cancelled,    // the caller asked to stop
};

const char* toString(FailureKind kind);

// The one line a user reads about a failed live import, the same in `gantry import` (after
// "gantry import: error: ") and in the studio's connect dialog.
std::string failureMessage(const std::exception& e);

class LiveError : public std::runtime_error {
  public:
    LiveError(FailureKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
    FailureKind kind() const { return kind_; }

  private:
    FailureKind kind_;
};

} // namespace gantry::live
