#pragma once
// client-go credential plugins (the `exec` of a kubeconfig user), the way EKS (aws eks get-token),
// GKE (gke-gcloud-auth-plugin) and AKS (kubelogin) authenticate: run the command with its args and
// env plus KUBERNETES_EXEC_INFO, read an ExecCredential from its stdout, and reuse the token or
// client certificate until its expirationTimestamp.
#include "live/kubeconfig.h"

#include <atomic>
#include <chrono>
#include <optional>
#include <string>

namespace gantry::live {

struct ExecCredential {
    std::string token;
    std::string clientCertPem, clientKeyPem;
    std::optional<std::chrono::system_clock::time_point> expiry; // absent = valid for this process
};

// Parses an RFC 3339 time ("2024-05-01T10:00:00Z", fractions and offsets allowed).
std::optional<std::chrono::system_clock::time_point> parseRfc3339(const std::string& text);

// A plugin's standard output read as an ExecCredential of `apiVersion`; `name` names the plugin in
// errors. Throws LiveError(ExecPlugin) when it is not one, without quoting anything that may be secret.
ExecCredential parseExecCredential(const std::string& stdoutText, const std::string& apiVersion,
                                   const std::string& name);

class ExecCredentialProvider {
  public:
    // `connection` gives the plugin its cluster (provideClusterInfo) and names the user in errors.
    ExecCredentialProvider(const Connection& connection, double timeoutSeconds,
                           const std::atomic<bool>* cancel);

    // The cached credential while it has not expired, else a fresh one from the plugin.
    // Throws LiveError(ExecPlugin) when the plugin is missing, fails, or prints no usable credential.
    const ExecCredential& get();
    // Forget the cached credential (the server answered 401): the next get() runs the plugin.
    void invalidate() { cached_.reset(); }
    int runs() const { return runs_; }

  private:
    ExecCredential run();

    ExecConfig config_;
    std::string clusterInfo_; // JSON of spec.cluster, when provideClusterInfo
    std::string who_;
    double timeoutSeconds_;
    const std::atomic<bool>* cancel_;
    std::optional<ExecCredential> cached_;
    int runs_ = 0;
};

} // namespace gantry::live
