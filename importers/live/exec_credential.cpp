#include "live/exec_credential.h"

#include "live/base64.h"
#include "live/live_error.h"

#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace gantry::live {

namespace {

[[noreturn]] void fail(const std::string& message) {
    throw LiveError(FailureKind::ExecPlugin, message);
}

std::string firstLine(const std::string& text) {
    size_t start = text.find_first_not_of(" \t\r\n");
    if (start == std::string::npos) return {};
    size_t end = text.find('\n', start);
    std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.size() > 300) line = line.substr(0, 300) + "...";
    return line;
}

// What to quote of a plugin's output that is not an ExecCredential: its first line when it reads
// as prose (a device-login prompt), never a single word, which may well be a bare token.
std::string shownOutput(const std::string& text) {
    std::string line = firstLine(text);
    if (line.empty()) return " (its output was empty)";
    if (line.find(' ') == std::string::npos)
        return " (" + std::to_string(text.size()) + " bytes, not shown: they may be a credential)";
    return ": " + line;
}

struct Pipe {
    int fd[2] = {-1, -1};
    Pipe() {
        if (::pipe2(fd, O_CLOEXEC) != 0) fail(std::string("cannot create a pipe: ") + std::strerror(errno));
    }
    ~Pipe() {
        for (int f : fd)
            if (f >= 0) ::close(f);
    }
    void closeEnd(int i) {
        if (fd[i] >= 0) ::close(fd[i]);
        fd[i] = -1;
    }
};

} // namespace

std::optional<std::chrono::system_clock::time_point> parseRfc3339(const std::string& text) {
    std::tm tm{};
    int consumed = 0;
    if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                    &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &consumed) != 6)
        return std::nullopt;
    // system_clock counts nanoseconds in 64 bits: years far from 1970 overflow it (found by fuzzing:
    // tests/fuzz/corpus/exec_credential/expiry-year-1015). No credential expires outside these.
    if (tm.tm_year < 1970 || tm.tm_year > 2200) return std::nullopt;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    size_t i = size_t(consumed);
    if (i < text.size() && text[i] == '.')
        for (++i; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
        }
    long offset = 0;
    if (i < text.size() && (text[i] == 'Z' || text[i] == 'z')) {
        ++i;
    } else if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
        int hh = 0, mm = 0;
        if (std::sscanf(text.c_str() + i + 1, "%2d:%2d", &hh, &mm) != 2) return std::nullopt;
        offset = (hh * 3600L + mm * 60L) * (text[i] == '+' ? 1 : -1);
        i += 6;
    } else {
        return std::nullopt;
    }
    if (i != text.size()) return std::nullopt;
    time_t t = ::timegm(&tm);
    if (t == time_t(-1)) return std::nullopt;
    return std::chrono::system_clock::from_time_t(t - offset);
}

ExecCredentialProvider::ExecCredentialProvider(const Connection& connection, double timeoutSeconds,
                                               const std::atomic<bool>* cancel)
    : config_(*connection.exec), who_(connection.describeUser()), timeoutSeconds_(timeoutSeconds),
      cancel_(cancel) {
    if (config_.provideClusterInfo) {
        nlohmann::json cluster = {{"server", connection.server}};
        if (!connection.caPem.empty()) cluster["certificate-authority-data"] = base64Encode(connection.caPem);
        if (connection.insecureSkipTlsVerify) cluster["insecure-skip-tls-verify"] = true;
        if (!connection.tlsServerName.empty()) cluster["tls-server-name"] = connection.tlsServerName;
        if (!connection.proxyUrl.empty()) cluster["proxy-url"] = connection.proxyUrl;
        if (connection.disableCompression) cluster["disable-compression"] = true;
        clusterInfo_ = cluster.dump();
    }
}

const ExecCredential& ExecCredentialProvider::get() {
    if (cached_ && cached_->expiry && std::chrono::system_clock::now() >= *cached_->expiry) cached_.reset();
    if (!cached_) cached_ = run();
    return *cached_;
}

ExecCredential ExecCredentialProvider::run() {
    ++runs_;
    const std::string& cmd = config_.command;
    std::string name = "exec plugin '" + cmd + "' (" + who_ + ")";
    // Gantry never hands the plugin a terminal, so a plugin that must prompt cannot work.
    if (config_.interactiveMode == "Always")
        fail(name +
             " needs an interactive terminal (interactiveMode: Always); run it once with kubectl, or use a "
             "non-interactive login");

    nlohmann::json info = {
        {"apiVersion", config_.apiVersion}, {"kind", "ExecCredential"}, {"spec", {{"interactive", false}}}};
    if (!clusterInfo_.empty()) info["spec"]["cluster"] = nlohmann::json::parse(clusterInfo_);

    std::vector<std::string> envStrings;
    for (char** e = environ; e && *e; ++e) {
        std::string entry = *e;
        std::string key = entry.substr(0, entry.find('='));
        bool overridden = key == "KUBERNETES_EXEC_INFO";
        for (const auto& [k, v] : config_.env) overridden = overridden || k == key;
        if (!overridden) envStrings.push_back(entry);
    }
    for (const auto& [k, v] : config_.env) envStrings.push_back(k + "=" + v);
    envStrings.push_back("KUBERNETES_EXEC_INFO=" + info.dump());
    std::vector<char*> envp;
    for (auto& s : envStrings) envp.push_back(s.data());
    envp.push_back(nullptr);
    std::vector<std::string> argStrings{cmd};
    argStrings.insert(argStrings.end(), config_.args.begin(), config_.args.end());
    std::vector<char*> argv;
    for (auto& s : argStrings) argv.push_back(s.data());
    argv.push_back(nullptr);

    Pipe out, err;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out.fd[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err.fd[1], 2);
    pid_t pid = -1;
    int rc = ::posix_spawnp(&pid, cmd.c_str(), &actions, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        std::string message = name;
        if (rc == ENOENT)
            message += cmd.find('/') == std::string::npos ? " was not found in PATH" : " does not exist";
        else if (rc == EACCES)
            message += " is not executable";
        else
            message += std::string(" could not be started: ") + std::strerror(rc);
        if (!config_.installHint.empty()) message += "; " + firstLine(config_.installHint);
        fail(message);
    }
    out.closeEnd(1);
    err.closeEnd(1);

    std::string stdoutText, stderrText;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeoutSeconds_);
    bool timedOut = false, cancelled = false;
    while (out.fd[0] >= 0 || err.fd[0] >= 0) {
        if (cancel_ && cancel_->load()) {
            cancelled = true;
            break;
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            timedOut = true;
            break;
        }
        pollfd fds[2] = {{out.fd[0], POLLIN, 0}, {err.fd[0], POLLIN, 0}};
        int n = ::poll(fds, 2, 100);
        if (n < 0 && errno != EINTR) break;
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            char buffer[8192];
            ssize_t got = ::read(fds[i].fd, buffer, sizeof buffer);
            if (got > 0) {
                (i == 0 ? stdoutText : stderrText).append(buffer, size_t(got));
                if (stdoutText.size() > (16u << 20)) fail(name + " printed more than 16 MiB");
            } else if (got == 0 || errno != EINTR) {
                (i == 0 ? out : err).closeEnd(0);
            }
        }
    }
    // A plugin may close its output and still not exit: wait for it within the same deadline.
    int status = 0;
    while (!timedOut && !cancelled) {
        pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid || (done < 0 && errno != EINTR)) break;
        if (cancel_ && cancel_->load())
            cancelled = true;
        else if (std::chrono::steady_clock::now() >= deadline)
            timedOut = true;
        else
            ::usleep(5000);
    }
    if (timedOut || cancelled) {
        ::kill(pid, SIGKILL);
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    if (cancelled) throw LiveError(FailureKind::Cancelled, "cancelled while waiting for " + name);
    if (timedOut) fail(name + " did not finish within " + std::to_string(int(timeoutSeconds_)) + " s");
    if (WIFSIGNALED(status)) fail(name + " was killed by signal " + std::to_string(WTERMSIG(status)));
    if (WEXITSTATUS(status) != 0) {
        std::string message = name + " failed with exit code " + std::to_string(WEXITSTATUS(status));
        if (std::string line = firstLine(stderrText); !line.empty()) message += ": " + line;
        fail(message);
    }

    return parseExecCredential(stdoutText, config_.apiVersion, name);
}

ExecCredential parseExecCredential(const std::string& stdoutText, const std::string& apiVersion,
                                   const std::string& name) {
    nlohmann::json doc = nlohmann::json::parse(stdoutText, nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        fail(name + " did not print an ExecCredential as JSON" + shownOutput(stdoutText));
    auto text = [](const nlohmann::json& o, const char* key) {
        auto it = o.find(key);
        return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    if (text(doc, "kind") != "ExecCredential")
        fail(name + " printed kind '" + text(doc, "kind") + "', expected ExecCredential");
    if (text(doc, "apiVersion") != apiVersion)
        fail(name + " answered with apiVersion '" + text(doc, "apiVersion") + "', the kubeconfig asked for " +
             apiVersion);
    const auto& st = doc["status"];
    if (!st.is_object()) fail(name + " printed an ExecCredential without status");
    ExecCredential cred;
    auto str = [&](const char* key) {
        return st.contains(key) && st[key].is_string() ? st[key].get<std::string>() : "";
    };
    cred.token = str("token");
    cred.clientCertPem = str("clientCertificateData");
    cred.clientKeyPem = str("clientKeyData");
    if (cred.clientCertPem.empty() != cred.clientKeyPem.empty())
        fail(name + " returned a client certificate without its key, or a key without its certificate");
    if (cred.token.empty() && cred.clientCertPem.empty())
        fail(name + " returned neither a token nor a client certificate");
    if (std::string exp = str("expirationTimestamp"); !exp.empty()) {
        cred.expiry = parseRfc3339(exp);
        if (!cred.expiry) fail(name + " returned an unreadable expirationTimestamp '" + exp + "'");
    }
    return cred;
}

} // namespace gantry::live
