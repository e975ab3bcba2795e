#include "live_harness.h"

#include <QElapsedTimer>
#include <QProcessEnvironment>
#include <arpa/inet.h>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/socket.h>
#include <unistd.h>

namespace gantry::testing {

CliRun runGantry(const QStringList& args, const std::vector<std::pair<QString, QString>>& env,
                 const std::function<void(QProcess&)>& whileRunning, const QStringList& wrapper) {
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    for (const char* v : {"KUBECONFIG", "http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
                          "all_proxy", "KUBERNETES_SERVICE_HOST", "KUBERNETES_SERVICE_PORT"})
        e.remove(v);
    e.insert("HOME", QDir::tempPath() + "/gantry-live-test-home");
    for (const auto& [k, v] : env) e.insert(k, v);
    p.setProcessEnvironment(e);
    QElapsedTimer timer;
    timer.start();
    QStringList command = wrapper + QStringList{GANTRY_CLI, "import"} + args;
    p.start(command.takeFirst(), command);
    p.waitForStarted();
    if (whileRunning) whileRunning(p);
    p.waitForFinished(120000);
    CliRun run;
    run.seconds = double(timer.elapsed()) / 1000.0;
    run.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    run.out = p.readAllStandardOutput().toStdString();
    run.err = p.readAllStandardError().toStdString();
    return run;
}

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

bool fileExists(const std::string& path) {
    return std::filesystem::exists(path);
}

int closedPort() {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    ::close(fd);
    return ntohs(addr.sin_port);
}

LiveHarness::LiveHarness() {
    server = std::make_unique<LoopbackApiServer>(
        LoopbackApiServer::Tls{pki.server().cert, pki.server().key, pki.ca().cert});
    populateCluster(*server, kNodes, kPods, true);
    server->addToken(kToken, "token-user");
    server->addBasicUser("basic-user", kPassword);
    caFile = writeTextFile(path("pki/ca.crt"), pki.ca().cert);
    std::filesystem::create_directories(path("out"));
}

std::string LiveHarness::path(const std::string& name) const {
    return dir.path().toStdString() + "/" + name;
}

std::string LiveHarness::kubeconfig(const std::string& name, const std::vector<std::string>& userLines,
                                    const std::string& clusterExtra, const std::string& serverUrl,
                                    const std::string& ca) {
    std::string caPath = ca == "use-harness-ca" ? caFile : ca;
    return writeTextFile(path("kubeconfigs/" + name),
                         kubeconfigYaml(serverUrl.empty() ? server->url() : serverUrl, caPath, userLines,
                                        "test", clusterExtra));
}

std::vector<std::string> LiveHarness::clientCertFiles(const std::string& user, bool trusted) {
    Pem pem = pki.client(user, {"gpu-admins"}, trusted);
    std::string cert = writeTextFile(path("pki/" + user + ".crt"), pem.cert);
    std::string key = writeTextFile(path("pki/" + user + ".key"), pem.key);
    return {"client-certificate: " + cert, "client-key: " + key};
}

std::vector<std::string> LiveHarness::execPlugin(const std::string& name, const std::string& credDir,
                                                 int exitCode, const std::string& stderrText) {
    std::string script = "#!/bin/sh\n"
                         "n=$(cat \"$COUNTER\" 2>/dev/null || echo 0)\n"
                         "n=$((n+1))\n"
                         "echo $n > \"$COUNTER\"\n"
                         "case \"$KUBERNETES_EXEC_INFO\" in\n"
                         "  *'\"interactive\":false'*) ;;\n"
                         "  *) echo 'KUBERNETES_EXEC_INFO missing' >&2; exit 9 ;;\n"
                         "esac\n";
    if (exitCode != 0) script += "echo '" + stderrText + "' >&2\nexit " + std::to_string(exitCode) + "\n";
    script += "if [ -f \"$CRED_DIR/cred-$n.json\" ]; then cat \"$CRED_DIR/cred-$n.json\"; else cat "
              "\"$CRED_DIR/cred.json\"; fi\n";
    std::filesystem::create_directories(credDir);
    std::string file = writeTextFile(path("plugins/" + name), script);
    std::filesystem::permissions(file, std::filesystem::perms::owner_all);
    return {"exec:",
            "  apiVersion: client.authentication.k8s.io/v1",
            "  command: " + file,
            "  args: [get-token, --cluster, loopback]",
            "  interactiveMode: Never",
            "  provideClusterInfo: true",
            "  installHint: the test writes this plugin itself",
            "  env:",
            "  - {name: COUNTER, value: " + credDir + "/runs}",
            "  - {name: CRED_DIR, value: " + credDir + "}"};
}

std::string execCredentialJson(const std::string& token, const std::string& expiry, const Pem* cert) {
    nlohmann::json status = nlohmann::json::object();
    if (!token.empty()) status["token"] = token;
    if (cert) {
        status["clientCertificateData"] = cert->cert;
        status["clientKeyData"] = cert->key;
    }
    if (!expiry.empty()) status["expirationTimestamp"] = expiry;
    return nlohmann::json{
        {"apiVersion", "client.authentication.k8s.io/v1"}, {"kind", "ExecCredential"}, {"status", status}}
        .dump();
}

} // namespace gantry::testing
