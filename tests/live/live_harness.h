#pragma once
// What the live-import tests share: certificates, a loopback API server holding a small GPU cluster,
// kubeconfig files for each way of authenticating, an exec credential plugin, and running the CLI.
#include "api_server.h"
#include "cluster_fixture.h"
#include "test_pki.h"

#include <QProcess>
#include <QTemporaryDir>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gantry::testing {

struct CliRun {
    int exitCode = -1;
    std::string out, err;
    double seconds = 0;
};

// Runs `gantry import ARGS` with HOME in a scratch folder and no KUBECONFIG or proxy variables of the
// caller. `whileRunning` gets the process once it has started; `wrapper` runs it under another program.
CliRun runGantry(const QStringList& args, const std::vector<std::pair<QString, QString>>& env = {},
                 const std::function<void(QProcess&)>& whileRunning = {}, const QStringList& wrapper = {});

std::string readText(const std::string& path);
bool fileExists(const std::string& path);
// A loopback port nobody listens on.
int closedPort();

class LiveHarness {
  public:
    static constexpr int kNodes = 24;
    static constexpr int kPods = 1234;

    LiveHarness();
    TestPki pki;
    QTemporaryDir dir;
    std::unique_ptr<LoopbackApiServer> server; // server certificate, client CA, the small cluster
    std::string caFile;

    std::string path(const std::string& name) const;
    // Writes a kubeconfig for `server` (default: the harness server) and returns its path.
    std::string kubeconfig(const std::string& name, const std::vector<std::string>& userLines,
                           const std::string& clusterExtra = "", const std::string& serverUrl = "",
                           const std::string& ca = "use-harness-ca");
    // Client certificate and key files for `user`; returns the kubeconfig user lines.
    std::vector<std::string> clientCertFiles(const std::string& user, bool trusted = true);
    // An exec plugin: a shell script that counts its runs in COUNTER and prints CRED_DIR/cred-N.json
    // (or CRED_DIR/cred.json), refusing to run without KUBERNETES_EXEC_INFO. Returns user lines.
    std::vector<std::string> execPlugin(const std::string& name, const std::string& credDir, int exitCode = 0,
                                        const std::string& stderrText = "");
    // Tokens and users the harness server knows.
    static constexpr const char* kToken = "harness-token-6f1c";
    static constexpr const char* kPassword = "harness-password-93b2";
};

// ExecCredential JSON for a token or a client certificate.
std::string execCredentialJson(const std::string& token, const std::string& expiry,
                               const Pem* cert = nullptr);

} // namespace gantry::testing
