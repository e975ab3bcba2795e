// Every failure a user meets when importing from a live cluster: one clear line on stderr, a non-zero
// exit within the timeout, never a hang or a crash, and no snapshot file left behind.
#include "live_harness.h"
#include "test_registry.h"

#include <QtTest>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <nlohmann/json.hpp>
#include <sys/socket.h>
#include <unistd.h>

using namespace gantry::testing;

namespace {

// runGantry under gantry-peak-rss: the run and the import's own peak resident memory in KiB.
std::pair<CliRun, long> runGantryMeasured(const QStringList& args, const std::string& peakFile) {
    CliRun run = runGantry(args, {}, {}, {GANTRY_PEAK_RSS, QString::fromStdString(peakFile)});
    return {run, std::atol(readText(peakFile).c_str())};
}

} // namespace

class LiveFailureTest : public QObject {
    Q_OBJECT
    std::unique_ptr<LiveHarness> h_;

    // Runs an import that must fail: exit code, the one error line, the time bound, no file written.
    void expectFailure(const std::string& kubeconfig, const std::string& fragment, double maxSeconds = 15,
                       int exitCode = 3, QStringList extra = {}) {
        std::string out = h_->path("out/failed.yaml");
        CliRun run = runGantry(QStringList{"--kubeconfig", QString::fromStdString(kubeconfig), "--out",
                                           QString::fromStdString(out)} +
                               extra);
        QVERIFY2(run.exitCode == exitCode, ("exit " + std::to_string(run.exitCode) + "\n" + run.err).c_str());
        std::vector<std::string> errors;
        size_t pos = 0;
        while ((pos = run.err.find("gantry import: ", pos)) != std::string::npos) {
            size_t end = run.err.find('\n', pos);
            std::string line = run.err.substr(pos, end - pos);
            if (line.find("error") != std::string::npos) errors.push_back(line);
            pos = end;
        }
        QVERIFY2(errors.size() == 1, run.err.c_str());
        QVERIFY2(errors[0].find(fragment) != std::string::npos, errors[0].c_str());
        QVERIFY2(run.seconds < maxSeconds, ("took " + std::to_string(run.seconds) + " s").c_str());
        QVERIFY(!fileExists(out));
        QVERIFY(run.err.find("Segmentation") == std::string::npos);
    }

    static Fault fault(const std::string& path, Fault::Action action) {
        Fault f;
        f.path = path;
        f.action = action;
        return f;
    }

    std::string tokenConfig(const std::string& name, const std::string& serverUrl = "",
                            const std::string& extra = "") {
        return h_->kubeconfig(name, {std::string("token: ") + LiveHarness::kToken}, extra, serverUrl);
    }

  private slots:
    void initTestCase() { h_ = std::make_unique<LiveHarness>(); }

    void unauthorizedNamesContextAndUser() {
        expectFailure(h_->kubeconfig("bad-token", {"token: not-a-valid-token"}),
                      "error: the server " + h_->server->url() +
                          " rejected the credentials of user 'tester' of context 'test' (401 Unauthorized: "
                          "Unauthorized)");
    }

    void untrustedClientCertificateIsUnauthorized() {
        expectFailure(h_->kubeconfig("foreign-cert", h_->clientCertFiles("mallory", false)),
                      "(401 Unauthorized");
    }

    void forbiddenSaysWhatAndWho() {
        h_->server->addToken("restricted-token", "restricted");
        h_->server->forbid("restricted", "nodes");
        expectFailure(
            h_->kubeconfig("forbidden", {"token: restricted-token"}),
            "error: user 'tester' of context 'test' may not read nodes (403 Forbidden: nodes is forbidden: "
            "User \"restricted\" cannot list resource \"nodes\" in API group \"\" at the cluster scope)");
    }

    void forbiddenOptionalListIsNotedNotFatal() {
        // RBAC that lets a user read the cluster but not the Kueue and Volcano queues: the import goes
        // on, and both the summary and the snapshot say what is missing.
        h_->server->addToken("no-queues-token", "no-queues");
        h_->server->forbid("no-queues", "clusterqueues");
        h_->server->forbid("no-queues", "queues");
        std::string out = h_->path("out/no-queues.yaml");
        CliRun run = runGantry(
            {"--kubeconfig", QString::fromStdString(h_->kubeconfig("no-queues", {"token: no-queues-token"})),
             "--out", QString::fromStdString(out)});
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        const std::string refused =
            "user 'tester' of context 'test' may not read Kueue cluster queues (403 "
            "Forbidden: clusterqueues is forbidden: User \"no-queues\" cannot list resource";
        QVERIFY2(run.err.find("gantry import: warning: Kueue cluster queues not read: " + refused) !=
                     std::string::npos,
                 run.err.c_str());
        QVERIFY2(run.err.find("gantry import: warning: Volcano queues not read: ") != std::string::npos,
                 run.err.c_str());
        std::string text = readText(out);
        QVERIFY(text.find("# MISSING: Kueue cluster queues not read: " + refused) != std::string::npos);
        QVERIFY(text.find("# MISSING: Volcano queues not read: ") != std::string::npos);
        QVERIFY(text.find("kind: ClusterQueue") == std::string::npos);
        QVERIFY(text.find("kind: Node\n") != std::string::npos);
        QVERIFY(text.find("kind: Cohort") != std::string::npos); // allowed lists are all there
        // Local queues name cluster queues: without those they would not import, so they wait too.
        QVERIFY2(run.err.find("gantry import: warning: Kueue local queues not read: they name Kueue cluster "
                              "queues, which could not be read") != std::string::npos,
                 run.err.c_str());
        QVERIFY(text.find("kind: LocalQueue") == std::string::npos);
        // What is there still imports.
        QProcess inspect;
        inspect.start(GANTRY_CLI, {"inspect", QString::fromStdString(out)});
        QVERIFY(inspect.waitForFinished(60000));
        QVERIFY2(inspect.exitCode() == 0, inspect.readAllStandardError().constData());
    }

    void hugePageIsStreamed() {
        // A 100 MB page of pods, as managedFields and last-applied annotations make them on busy
        // clusters: read while it arrives, so the importer's memory stays far below the page's size.
        constexpr int kHugePods = 400;
        const std::string padding(120 * 1024, 'x');
        nlohmann::json items = nlohmann::json::array();
        for (int i = 0; i < kHugePods; ++i) {
            nlohmann::json pod = {
                {"metadata",
                 {{"name", "big-" + std::to_string(i)},
                  {"namespace", "team-a"},
                  {"annotations", {{"kubectl.kubernetes.io/last-applied-configuration", padding}}},
                  {"managedFields", {{{"manager", "kubectl"}, {"fieldsV1", {{"f:spec", padding}}}}}}}},
                {"spec",
                 {{"nodeName", "gpu-node-0"},
                  {"containers", {{{"name", "main"}, {"resources", {{"requests", {{"cpu", "1"}}}}}}}}}},
                {"status", {{"phase", "Running"}}}};
            items.push_back(std::move(pod));
        }
        Fault huge = fault("/api/v1/pods", Fault::Action::Body);
        huge.body =
            nlohmann::json{{"kind", "PodList"}, {"apiVersion", "v1"}, {"metadata", {}}, {"items", items}}
                .dump();
        QVERIFY(huge.body.size() > 95'000'000);
        h_->server->addFault(huge);
        std::string out = h_->path("out/huge.yaml");
        auto [run, peakKb] = runGantryMeasured({"--kubeconfig", QString::fromStdString(tokenConfig("huge")),
                                                "--out", QString::fromStdString(out)},
                                               h_->path("out/huge.peak"));
        h_->server->clearFaults();
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        std::string text = readText(out);
        QVERIFY(text.find("name: big-0\n") != std::string::npos);
        QVERIFY(text.find("name: big-" + std::to_string(kHugePods - 1) + "\n") != std::string::npos);
        QVERIFY(text.find("managedFields") == std::string::npos);
        QVERIFY(text.size() < 1'000'000);
        qInfo("a %zu MB page, read with a peak of %ld MB", huge.body.size() >> 20, peakKb >> 10);
#if !defined(__SANITIZE_ADDRESS__) // ASan's quarantine keeps freed memory resident
        QVERIFY2(peakKb < 80 * 1024,
                 ("the import's peak memory was " + std::to_string(peakKb / 1024) + " MB").c_str());
#endif
    }

    void unreachableServer() {
        expectFailure(tokenConfig("refused", "https://127.0.0.1:" + std::to_string(closedPort())),
                      "connection refused");
    }

    void dnsFailure() {
        expectFailure(tokenConfig("dns", "https://gantry-no-such-cluster.invalid:6443"),
                      "cannot resolve host 'gantry-no-such-cluster.invalid'", 30);
    }

    void tlsUnknownAuthority() {
        std::string ca = writeTextFile(h_->path("pki/other-ca.crt"), h_->pki.otherCa().cert);
        expectFailure(h_->kubeconfig("unknown-ca", {"token: x"}, "", "", ca),
                      "is signed by an unknown authority (not trusted by certificate-authority " + ca + ")");
    }

    void tlsNameMismatch() {
        LoopbackApiServer wrong({h_->pki.wrongName().cert, h_->pki.wrongName().key, ""});
        expectFailure(tokenConfig("wrong-name", wrong.url()),
                      "is not valid for the name '127.0.0.1' (name mismatch");
    }

    void tlsExpiredCertificate() {
        LoopbackApiServer expired({h_->pki.expired().cert, h_->pki.expired().key, ""});
        expectFailure(tokenConfig("expired", expired.url()), "has expired (certificate expired)");
    }

    void stalledServer() {
        h_->server->addFault(fault("/apis", Fault::Action::Stall));
        expectFailure(tokenConfig("stall"), "sent no answer to GET /apis within 2 s (stalled)", 8, 3,
                      {"--request-timeout", "2"});
    }

    void tlsHandshakeStalls() {
        // A port that accepts connections (the kernel completes TCP) but never speaks TLS.
        int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QCOMPARE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
        QCOMPARE(::listen(fd, 8), 0);
        socklen_t len = sizeof addr;
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
        expectFailure(tokenConfig("silent", "https://127.0.0.1:" + std::to_string(ntohs(addr.sin_port))),
                      "accepted the connection but the TLS handshake did not complete within 1 s (stalled)",
                      8, 3, {"--connect-timeout", "1"});
        ::close(fd);
    }

    void serverStallsMidAnswer() {
        h_->server->addFault(fault("/api/v1/nodes", Fault::Action::StallMidBody));
        expectFailure(tokenConfig("stall-body"),
                      "stopped sending the answer to GET /api/v1/nodes?limit=500 after", 8, 3,
                      {"--request-timeout", "2"});
    }

    void truncatedAnswer() {
        h_->server->addFault(fault("/api/v1/nodes", Fault::Action::Truncate));
        expectFailure(tokenConfig("truncated"), "(truncated response)");
    }

    void brokenJson() {
        h_->server->addFault(fault("/api/v1/namespaces", Fault::Action::BrokenJson));
        expectFailure(tokenConfig("broken-json"), "is truncated JSON");
    }

    void notJson() {
        h_->server->addFault(fault("/version", Fault::Action::NotJson));
        expectFailure(tokenConfig("not-json"),
                      "the answer to GET /version (the server version) is not JSON (text/html)");
    }

    void serverKeepsFailing() {
        Fault f;
        f.path = "/api/v1/nodes";
        f.status = 503;
        f.retryAfter = "0";
        f.times = 5;
        h_->server->addFault(f);
        expectFailure(tokenConfig("unavailable"),
                      "answered 503 Service Unavailable to GET /api/v1/nodes?limit=500 5 times");
    }

    void connectionResetMidPaging() {
        // Pods come in pages of 500; the connection drops on every later page, as a load balancer that
        // resets would. A clear error, not a partial snapshot.
        Fault reset = fault("/api/v1/pods", Fault::Action::Close);
        reset.laterPages = true;
        reset.times = -1;
        h_->server->addFault(reset);
        expectFailure(tokenConfig("reset"),
                      "closed the connection without answering GET /api/v1/pods?limit=500&continue=");
        h_->server->clearFaults();
    }

    void tooManyRequestsUntilGivingUp() {
        Fault busy;
        busy.path = "/api/v1/namespaces";
        busy.status = 429;
        busy.retryAfter = "0";
        busy.times = 5;
        h_->server->addFault(busy);
        expectFailure(
            tokenConfig("busy"),
            "answered 429 Too Many Requests to GET /api/v1/namespaces?limit=500 5 times; giving up on "
            "namespaces: Too many requests, please try again later.");
    }

    void listOfTheWrongKind() {
        Fault wrong = fault("/api/v1/nodes", Fault::Action::Body);
        wrong.body =
            R"({"kind":"PodList","apiVersion":"v1","metadata":{},"items":[{"metadata":{"name":"p"}}]})";
        h_->server->addFault(wrong);
        expectFailure(tokenConfig("wrong-kind"),
                      "the answer to GET /api/v1/nodes?limit=500 (nodes) is not a Kubernetes list: it is a "
                      "PodList, not a NodeList");
    }

    void execPluginMissing() {
        expectFailure(
            h_->kubeconfig("exec-missing",
                           {"exec:", "  apiVersion: client.authentication.k8s.io/v1",
                            "  command: gantry-no-such-credential-plugin", "  interactiveMode: Never",
                            "  installHint: 'Install it with: apt install gantry-auth'"}),
            "exec plugin 'gantry-no-such-credential-plugin' (user 'tester' of context 'test') was not found "
            "in "
            "PATH; Install it with: apt install gantry-auth");
    }

    void execPluginFails() {
        std::string dir = h_->path("cred-failing");
        expectFailure(
            h_->kubeconfig("exec-fails", h_->execPlugin("failing-plugin", dir, 4,
                                                        "error: SSO session expired; run aws sso login")),
            "failed with exit code 4: error: SSO session expired; run aws sso login");
    }

    void execPluginPrintsGarbage() {
        std::string dir = h_->path("cred-garbage");
        writeTextFile(dir + "/cred.json", "Please open https://login.example/device in a browser");
        expectFailure(h_->kubeconfig("exec-garbage", h_->execPlugin("garbage-plugin", dir)),
                      "did not print an ExecCredential as JSON: Please open");
    }

    void kubeconfigMistakeIsBadInput() {
        std::string kc =
            writeTextFile(h_->path("kubeconfigs/broken"), "apiVersion: v1\nkind: Config\nclusters: 7\n");
        expectFailure(kc, kc + ":3:11: error: clusters: expected a list, got '7'", 5, 2);
    }

    void failedImportKeepsTheOldSnapshot() {
        std::string out = h_->path("out/keep.yaml");
        writeTextFile(out, "old snapshot\n");
        CliRun run = runGantry(
            {"--kubeconfig",
             QString::fromStdString(tokenConfig("keep", "https://127.0.0.1:" + std::to_string(closedPort()))),
             "--out", QString::fromStdString(out)});
        QCOMPARE(run.exitCode, 3);
        QCOMPARE(readText(out), std::string("old snapshot\n"));
        QDir folder(QString::fromStdString(h_->path("out")));
        QCOMPARE(folder.entryList({".keep.yaml.tmp-*"}, QDir::Hidden | QDir::Files).size(), 0);
    }

    void usageErrors() {
        CliRun run = runGantry({"--kubeconfig", "x"});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.find("--out FILE is required") != std::string::npos);
        run = runGantry({"--out", "x", "--request-timeout", "soon"});
        QCOMPARE(run.exitCode, 1);
    }

    void cleanupTestCase() {
        h_.reset();
    }
};

GANTRY_TEST(LiveFailureTest)
#include "test_live_failures.moc"
