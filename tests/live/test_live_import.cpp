// gantry import against a real HTTPS API server on loopback: every way of authenticating, paging,
// a 410 restart, retries, discovery of the scheduler APIs, proxy and TLS settings, cancel, and that
// nothing secret reaches the snapshot. Also checks once that kubectl itself can list from the server.
#include "connect_proxy.h"
#include "live/base64.h"
#include "live/live_error.h"
#include "live/live_import.h"
#include "live_harness.h"
#include "snapshot/snapshot_importer.h"
#include "test_registry.h"

#include <QtTest>
#include <atomic>
#include <csignal>
#include <map>
#include <set>
#include <thread>
#include <yaml-cpp/yaml.h>

using namespace gantry;
using namespace gantry::live;
using namespace gantry::testing;

namespace {

struct Snapshot {
    std::map<std::string, std::vector<std::string>> byKind; // kind -> "ns/name"
    size_t documents = 0;
    size_t count(const std::string& kind) const {
        auto it = byKind.find(kind);
        return it == byKind.end() ? 0 : it->second.size();
    }
    bool has(const std::string& kind, const std::string& key) const {
        auto it = byKind.find(kind);
        return it != byKind.end() && std::find(it->second.begin(), it->second.end(), key) != it->second.end();
    }
};

Snapshot readSnapshot(const std::string& text) {
    Snapshot s;
    for (const auto& doc : YAML::LoadAll(text)) {
        if (!doc.IsMap()) continue;
        ++s.documents;
        std::string ns = doc["metadata"]["namespace"] ? doc["metadata"]["namespace"].as<std::string>() : "";
        std::string name = doc["metadata"]["name"].as<std::string>();
        s.byKind[doc["kind"].as<std::string>()].push_back(ns.empty() ? name : ns + "/" + name);
    }
    return s;
}

// Pods of the fixture that have not finished (populateCluster marks every 50th Succeeded, every 97th Failed).
size_t livePods(int pods) {
    size_t n = 0;
    for (int i = 0; i < pods; ++i) n += !(i % 50 == 49 || i % 97 == 96);
    return n;
}

std::set<std::string> usersOn(const LoopbackApiServer& server, const std::string& path) {
    std::set<std::string> users;
    for (const auto& r : server.requests())
        if (r.path == path) users.insert(r.user);
    return users;
}

} // namespace

class LiveImportTest : public QObject {
    Q_OBJECT
    std::unique_ptr<LiveHarness> h_;

  private slots:
    void initTestCase() { h_ = std::make_unique<LiveHarness>(); }

    void importsTheClusterWithClientCertificate() {
        std::string kc = h_->kubeconfig("cert-files", h_->clientCertFiles("alice"));
        std::string out = h_->path("out/cert.yaml");
        CliRun run =
            runGantry({"--kubeconfig", QString::fromStdString(kc), "--out", QString::fromStdString(out)});
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        QVERIFY(run.err.find("wrote " + out) != std::string::npos);
        std::string text = readText(out);
        QVERIFY(text.starts_with("# Gantry snapshot of a live cluster"));
        Snapshot s = readSnapshot(text);
        QCOMPARE(s.count("Node"), size_t(LiveHarness::kNodes));
        QCOMPARE(s.count("Pod"), livePods(LiveHarness::kPods));
        QCOMPARE(s.count("Namespace"), size_t(3));
        QCOMPARE(s.count("PriorityClass"), size_t(2));
        QCOMPARE(usersOn(*h_->server, "/api/v1/nodes"), std::set<std::string>{"alice"});
        // Built-in list items come without apiVersion/kind; the snapshot has them on every object.
        YAML::Node first = YAML::LoadAll(text).at(0);
        QCOMPARE(first["apiVersion"].as<std::string>(), std::string("v1"));
    }

    void everyWayOfAuthenticating_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("expectedUser");
        QTest::newRow("client certificate data") << "cert-data"
                                                 << "carol";
        QTest::newRow("token") << "token"
                               << "token-user";
        QTest::newRow("token file") << "token-file"
                                    << "token-user";
        QTest::newRow("basic auth") << "basic"
                                    << "basic-user";
        QTest::newRow("exec plugin token") << "exec-token"
                                           << "exec-user";
        QTest::newRow("exec plugin certificate") << "exec-cert"
                                                 << "dave";
        QTest::newRow("oidc id-token") << "oidc"
                                       << "token-user";
    }

    void everyWayOfAuthenticating() {
        QFETCH(QString, name);
        QFETCH(QString, expectedUser);
        std::string n = name.toStdString();
        std::vector<std::string> user;
        if (n == "cert-data") {
            Pem pem = h_->pki.client("carol", {"ml"});
            user = {"client-certificate-data: " + live::base64Encode(pem.cert),
                    "client-key-data: " + live::base64Encode(pem.key)};
        } else if (n == "token") {
            user = {std::string("token: ") + LiveHarness::kToken};
        } else if (n == "token-file") {
            user = {"tokenFile: " +
                    writeTextFile(h_->path("tokens/t"), std::string(LiveHarness::kToken) + "\n")};
        } else if (n == "basic") {
            user = {"username: basic-user", std::string("password: ") + LiveHarness::kPassword};
        } else if (n == "exec-token") {
            h_->server->addToken("exec-token-77", "exec-user");
            writeTextFile(h_->path("cred-token/cred.json"),
                          execCredentialJson("exec-token-77", "2099-01-01T00:00:00Z"));
            user = h_->execPlugin("token-plugin", h_->path("cred-token"));
        } else if (n == "exec-cert") {
            Pem pem = h_->pki.client("dave", {"ml"});
            writeTextFile(h_->path("cred-cert/cred.json"), execCredentialJson("", "", &pem));
            user = h_->execPlugin("cert-plugin", h_->path("cred-cert"));
        } else if (n == "oidc") {
            user = {"auth-provider:", "  name: oidc",
                    "  config:", std::string("    id-token: ") + LiveHarness::kToken,
                    "    idp-issuer-url: https://issuer.example"};
        }
        std::string kc = h_->kubeconfig("auth-" + n, user);
        std::string out = h_->path("out/auth-" + n + ".yaml");
        size_t before = h_->server->requests().size();
        CliRun run = runGantry(
            {"--kubeconfig", QString::fromStdString(kc), "--out", QString::fromStdString(out), "--quiet"});
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        auto requests = h_->server->requests();
        std::set<std::string> users;
        for (size_t i = before; i < requests.size(); ++i)
            if (requests[i].path == "/api/v1/pods") users.insert(requests[i].user);
        QCOMPARE(users, std::set<std::string>{expectedUser.toStdString()});
        QCOMPARE(readSnapshot(readText(out)).count("Node"), size_t(LiveHarness::kNodes));
    }

    void inClusterServiceAccount() {
        h_->server->addToken("sa-token-in-pod", "system:serviceaccount:gantry:importer");
        writeTextFile(h_->path("sa/token"), "sa-token-in-pod");
        writeTextFile(h_->path("sa/ca.crt"), h_->pki.ca().cert);
        writeTextFile(h_->path("sa/namespace"), "gantry");
        Environment env;
        env.home = h_->path("no-home");
        env.serviceHost = "127.0.0.1";
        env.servicePort = std::to_string(h_->server->port());
        env.serviceAccountDir = h_->path("sa");
        Connection c = resolveConnection({}, env);
        StringOutput out;
        ImportSummary summary = importCluster(c, out, ImportOptions{});
        QCOMPARE(summary.user, std::string("system:serviceaccount:gantry"));
        QCOMPARE(readSnapshot(out.text()).count("Node"), size_t(LiveHarness::kNodes));
        QVERIFY(usersOn(*h_->server, "/api/v1/nodes").count("system:serviceaccount:gantry:importer"));
    }

    void pagesLikeKubectl() {
        LoopbackApiServer server({h_->pki.server().cert, h_->pki.server().key, ""});
        populateCluster(server, 3, 1234, false);
        server.addToken("t", "pager");
        std::string kc = h_->kubeconfig("paging", {"token: t"}, "", server.url());
        Connection c = resolveConnection({kc, ""}, Environment{});
        StringOutput out;
        std::vector<ImportProgress> progress;
        ImportOptions options;
        options.progress = [&](const ImportProgress& p) { progress.push_back(p); };
        ImportSummary summary = importCluster(c, out, options);
        std::vector<RecordedRequest> pods;
        for (const auto& r : server.requests())
            if (r.path == "/api/v1/pods") pods.push_back(r);
        size_t live = livePods(1234);
        QCOMPARE(pods.size(), (live + 499) / 500);
        for (size_t i = 0; i < pods.size(); ++i) {
            QVERIFY(pods[i].query.find("limit=500") != std::string::npos);
            QVERIFY(
                pods[i].query.find("fieldSelector=status.phase%21%3DSucceeded%2Cstatus.phase%21%3DFailed") !=
                std::string::npos);
            QCOMPARE(pods[i].query.find("continue=") != std::string::npos, i > 0);
        }
        Snapshot s = readSnapshot(out.text());
        QCOMPARE(s.count("Pod"), live);
        std::set<std::string> unique(s.byKind["Pod"].begin(), s.byKind["Pod"].end());
        QCOMPARE(unique.size(), live);
        // Progress after every page, with the server's remainingItemCount as the expected total.
        std::vector<ImportProgress> podPages;
        for (const auto& p : progress)
            if (p.list == "pods") podPages.push_back(p);
        QCOMPARE(podPages.size(), pods.size());
        QCOMPARE(*podPages.front().listExpected, live);
        QCOMPARE(podPages.back().listRead, live);
        QCOMPARE(summary.objects, progress.back().totalRead);
        // A cluster without the scheduler APIs: noted, not an error.
        auto noted = [&](const std::string& text) {
            return std::any_of(summary.notes.begin(), summary.notes.end(),
                               [&](const std::string& n) { return n.find(text) != std::string::npos; });
        };
        QVERIFY(noted("Volcano is not installed"));
        QVERIFY(noted("Kueue is not installed"));
        QVERIFY(
            noted("Dynamic Resource Allocation is not installed (API group resource.k8s.io is not served)"));
        QVERIFY(noted("no yunikorn-configs"));
        QCOMPARE(s.count("Queue"), size_t(0));
    }

    void restartsAListWhoseContinueTokenExpired() {
        LoopbackApiServer server({h_->pki.server().cert, h_->pki.server().key, ""});
        populateCluster(server, 2, 1100, false);
        server.addToken("t", "restarter");
        LoopbackApiServer* s = &server;
        Fault expire;
        expire.path = "/api/v1/pods";
        expire.action = Fault::Action::ExpireContinue;
        expire.onHit = [s] { s->add("pods", makePod("team-a", "late-arrival", "", "Pending", 8)); };
        server.addFault(expire);
        std::string kc = h_->kubeconfig("restart", {"token: t"}, "", server.url());
        StringOutput out;
        ImportSummary summary =
            importCluster(resolveConnection({kc, ""}, Environment{}), out, ImportOptions{});
        auto pods = std::find_if(summary.lists.begin(), summary.lists.end(),
                                 [](const ListSummary& l) { return l.list == "pods"; });
        QCOMPARE(pods->restarts, 1);
        Snapshot snap = readSnapshot(out.text());
        size_t live = livePods(1100) + 1;
        QCOMPARE(snap.count("Pod"), live);
        std::set<std::string> unique(snap.byKind["Pod"].begin(), snap.byKind["Pod"].end());
        QCOMPARE(unique.size(), live); // nothing of the abandoned pass is left twice
        QVERIFY(snap.has("Pod", "team-a/late-arrival"));
        // The server saw: first page, 410 on the second, then a fresh list from the start.
        std::vector<int> statuses;
        std::vector<bool> continued;
        for (const auto& r : server.requests())
            if (r.path == "/api/v1/pods") {
                statuses.push_back(r.status);
                continued.push_back(r.query.find("continue=") != std::string::npos);
            }
        QCOMPARE(statuses.at(1), 410);
        QCOMPARE(bool(continued.at(2)), false);
    }

    void retriesTooManyRequestsAndUnavailable() {
        LoopbackApiServer server({h_->pki.server().cert, h_->pki.server().key, ""});
        populateCluster(server, 2, 10, false);
        server.addToken("t", "patient");
        Fault busy;
        busy.path = "/api/v1/nodes";
        busy.status = 429;
        busy.retryAfter = "1";
        busy.times = 2;
        server.addFault(busy);
        Fault down;
        down.path = "/api/v1/pods";
        down.status = 503;
        server.addFault(down);
        std::string kc = h_->kubeconfig("retry", {"token: t"}, "", server.url());
        ImportOptions options;
        options.retry.firstBackoff = 0.2;
        StringOutput out;
        auto started = std::chrono::steady_clock::now();
        ImportSummary summary = importCluster(resolveConnection({kc, ""}, Environment{}), out, options);
        double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        QCOMPARE(summary.retries, 3);
        QVERIFY2(seconds >= 2.0, "Retry-After: 1 was not honoured"); // two waits of one second
        QCOMPARE(server.requestCount("/api/v1/nodes"), size_t(3));
        QCOMPARE(readSnapshot(out.text()).count("Node"), size_t(2));
    }

    void readsTheSchedulerApisWhenServed() {
        std::string kc = h_->kubeconfig("schedulers", {std::string("token: ") + LiveHarness::kToken});
        StringOutput out;
        ImportSummary summary =
            importCluster(resolveConnection({kc, ""}, Environment{}), out, ImportOptions{});
        Snapshot s = readSnapshot(out.text());
        QVERIFY(s.has("Queue", "research"));
        QVERIFY(s.has("PodGroup", "team-b/job-0"));
        QVERIFY(!s.has("PodGroup", "team-b/job-old")); // Completed: not part of a plan
        QVERIFY(s.has("HyperNode", "rack-0"));
        QVERIFY(s.has("ResourceFlavor", "h100"));
        QVERIFY(s.has("ClusterQueue", "team-a-cq"));
        QVERIFY(s.has("LocalQueue", "team-a/team-a"));
        QVERIFY(s.has("Cohort", "all")); // only v1alpha1 serves cohorts: found through discovery
        QVERIFY(s.has("WorkloadPriorityClass", "urgent"));
        QVERIFY(s.has("ConfigMap", "yunikorn/yunikorn-configs"));
        QVERIFY(s.has("ConfigMap", "volcano-system/volcano-scheduler-configmap"));
        QVERIFY(!s.has("ConfigMap", "default/unrelated"));
        // Dynamic Resource Allocation, without the drivers' opaque configuration.
        QVERIFY(s.has("DeviceClass", "gpu.nvidia.com"));
        QVERIFY(s.has("ResourceSlice", "gpu-node-0000-gpu.nvidia.com-x2k9"));
        QVERIFY(s.has("ResourceClaimTemplate", "team-a/single-gpu"));
        QVERIFY(out.text().find("opaque-5521") == std::string::npos);
        QVERIFY(out.text().find("extendedResourceName: nvidia.com/gpu") != std::string::npos);
        // The preferred version is read: ClusterQueues come as kueue.x-k8s.io/v1beta1.
        QVERIFY(out.text().find("apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue") !=
                std::string::npos);
        QVERIFY(out.text().find("apiVersion: kueue.x-k8s.io/v1alpha1\nkind: Cohort") != std::string::npos);
        QVERIFY(summary.notes.size() == 1 && summary.notes[0].find("skipped") != std::string::npos);
    }

    void noCredentialOrSecretReachesTheSnapshot() {
        Pem pem = h_->pki.client("erin", {"ml"});
        h_->server->addToken("exec-secret-token-5521", "exec-user-2");
        writeTextFile(h_->path("cred-secret/cred.json"), execCredentialJson("exec-secret-token-5521", ""));
        std::vector<std::pair<std::string, std::vector<std::string>>> users = {
            {"secret-token", {std::string("token: ") + LiveHarness::kToken}},
            {"secret-basic", {"username: basic-user", std::string("password: ") + LiveHarness::kPassword}},
            {"secret-cert",
             {"client-certificate-data: " + live::base64Encode(pem.cert),
              "client-key-data: " + live::base64Encode(pem.key)}},
            {"secret-exec", h_->execPlugin("secret-plugin", h_->path("cred-secret"))},
        };
        std::string keyBody = pem.key.substr(pem.key.find('\n') + 1, 40);
        for (const auto& [name, lines] : users) {
            std::string out = h_->path("out/" + name + ".yaml");
            CliRun run = runGantry({"--kubeconfig", QString::fromStdString(h_->kubeconfig(name, lines)),
                                    "--out", QString::fromStdString(out)});
            QVERIFY2(run.exitCode == 0, run.err.c_str());
            std::string text = readText(out);
            for (const std::string& secret :
                 {std::string(LiveHarness::kToken), std::string(LiveHarness::kPassword), keyBody,
                  live::base64Encode(pem.key).substr(0, 40), std::string("exec-secret-token-5521"),
                  std::string("PRIVATE KEY"), std::string(kPlantedEnvSecret),
                  std::string(kPlantedProbeHeader), std::string(kPlantedLastApplied),
                  std::string("managedFields"), std::string("kind: Secret"), std::string("s3-credentials")}) {
                QVERIFY2(text.find(secret) == std::string::npos, (name + " leaks " + secret).c_str());
                QVERIFY2(run.err.find(secret) == std::string::npos, (name + " prints " + secret).c_str());
            }
            // What scheduling needs is still there.
            QVERIFY(text.find("nvidia.com/gpu: \"1\"") != std::string::npos);
            QVERIFY(text.find("priorityClassName: training") != std::string::npos);
        }
    }

    void execCredentialIsReusedUntilItExpires() {
        h_->server->addToken("reused-token", "exec-user");
        std::string credDir = h_->path("cred-reuse");
        writeTextFile(credDir + "/cred.json", execCredentialJson("reused-token", "2099-01-01T00:00:00Z"));
        std::string kc = h_->kubeconfig("exec-reuse", h_->execPlugin("reuse-plugin", credDir));
        StringOutput out;
        ImportSummary summary =
            importCluster(resolveConnection({kc, ""}, Environment{}), out, ImportOptions{});
        QCOMPARE(summary.credentialPluginRuns, 1);
        QCOMPARE(readText(credDir + "/runs"), std::string("1\n"));

        // Already expired when issued: the plugin runs again for every request.
        std::string expiredDir = h_->path("cred-expired");
        writeTextFile(expiredDir + "/cred.json", execCredentialJson("reused-token", "2001-01-01T00:00:00Z"));
        kc = h_->kubeconfig("exec-expired", h_->execPlugin("expired-plugin", expiredDir));
        size_t before = h_->server->requests().size();
        StringOutput out2;
        summary = importCluster(resolveConnection({kc, ""}, Environment{}), out2, ImportOptions{});
        QCOMPARE(size_t(summary.credentialPluginRuns), h_->server->requests().size() - before);

        // Revoked early (401): a fresh credential once, then the import goes on.
        std::string revokedDir = h_->path("cred-revoked");
        writeTextFile(revokedDir + "/cred-1.json",
                      execCredentialJson("revoked-token", "2099-01-01T00:00:00Z"));
        writeTextFile(revokedDir + "/cred.json", execCredentialJson("reused-token", "2099-01-01T00:00:00Z"));
        kc = h_->kubeconfig("exec-revoked", h_->execPlugin("revoked-plugin", revokedDir));
        StringOutput out3;
        summary = importCluster(resolveConnection({kc, ""}, Environment{}), out3, ImportOptions{});
        QCOMPARE(summary.credentialPluginRuns, 2);
        QCOMPARE(readSnapshot(out3.text()).count("Node"), size_t(LiveHarness::kNodes));
    }

    void compressionAndProxy() {
        std::string token = std::string("token: ") + LiveHarness::kToken;
        size_t before = h_->server->requests().size();
        StringOutput out;
        importCluster(resolveConnection({h_->kubeconfig("gzip", {token}), ""}, Environment{}), out,
                      ImportOptions{});
        auto requests = h_->server->requests();
        bool gzipAsked = false;
        for (size_t i = before; i < requests.size(); ++i)
            if (requests[i].path == "/api/v1/pods")
                gzipAsked = requests[i].headers["accept-encoding"].find("gzip") != std::string::npos;
        QVERIFY(gzipAsked); // and the pages above 128 KiB came gzipped: the snapshot is whole
        QCOMPARE(readSnapshot(out.text()).count("Pod"), livePods(LiveHarness::kPods));

        before = h_->server->requests().size();
        StringOutput plain;
        importCluster(
            resolveConnection({h_->kubeconfig("no-gzip", {token}, "    disable-compression: true\n"), ""},
                              Environment{}),
            plain, ImportOptions{});
        requests = h_->server->requests();
        for (size_t i = before; i < requests.size(); ++i)
            QVERIFY(!requests[i].headers.count("accept-encoding"));

        ConnectProxy proxy;
        std::string kc = h_->kubeconfig("proxy", {token}, "    proxy-url: " + proxy.url() + "\n");
        StringOutput viaProxy;
        importCluster(resolveConnection({kc, ""}, Environment{}), viaProxy, ImportOptions{});
        QVERIFY(proxy.tunnels() >= 1);
        QCOMPARE(proxy.targets().at(0), "127.0.0.1:" + std::to_string(h_->server->port()));
        QCOMPARE(readSnapshot(viaProxy.text()).count("Node"), size_t(LiveHarness::kNodes));
    }

    void tlsServerNameAndInsecureSkip() {
        LoopbackApiServer other({h_->pki.wrongName().cert, h_->pki.wrongName().key, ""});
        populateCluster(other, 2, 4, false);
        other.addToken("t", "u");
        std::string kc = h_->kubeconfig("tls-server-name", {"token: t"},
                                        "    tls-server-name: api.other.example\n", other.url());
        StringOutput out;
        importCluster(resolveConnection({kc, ""}, Environment{}), out, ImportOptions{});
        QCOMPARE(readSnapshot(out.text()).count("Node"), size_t(2));

        std::string insecure =
            h_->kubeconfig("insecure", {"token: t"}, "    insecure-skip-tls-verify: true\n", other.url(), "");
        std::string path = h_->path("out/insecure.yaml");
        CliRun run = runGantry(
            {"--kubeconfig", QString::fromStdString(insecure), "--out", QString::fromStdString(path)});
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        QVERIFY(run.err.find("warning: TLS verification is off") != std::string::npos);
    }

    void cancelsFromAnotherThread() {
        LoopbackApiServer server({h_->pki.server().cert, h_->pki.server().key, ""});
        populateCluster(server, 2, 4, false);
        server.addToken("t", "u");
        Fault stall;
        stall.path = "/api/v1/nodes";
        stall.action = Fault::Action::Stall;
        server.addFault(stall);
        std::atomic<bool> cancel{false};
        ImportOptions options;
        options.cancel = &cancel;
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            cancel = true;
        });
        auto started = std::chrono::steady_clock::now();
        StringOutput out;
        try {
            importCluster(resolveConnection({h_->kubeconfig("cancel", {"token: t"}, "", server.url()), ""},
                                            Environment{}),
                          out, options);
            canceller.join();
            QFAIL("expected a cancel");
        } catch (const LiveError& e) {
            canceller.join();
            QCOMPARE(int(e.kind()), int(FailureKind::Cancelled));
        }
        double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        QVERIFY2(seconds < 2.0, "cancel must not wait for the 60 s request timeout");
        server.stop();
    }

    void interruptLeavesNoFile() {
        LoopbackApiServer server({h_->pki.server().cert, h_->pki.server().key, ""});
        populateCluster(server, 2, 4, false);
        server.addToken("t", "u");
        Fault stall;
        stall.path = "/api/v1/nodes";
        stall.action = Fault::Action::Stall;
        server.addFault(stall);
        std::string out = h_->path("out/interrupted.yaml");
        CliRun run = runGantry(
            {"--kubeconfig", QString::fromStdString(h_->kubeconfig("sigint", {"token: t"}, "", server.url())),
             "--out", QString::fromStdString(out)},
            {}, [&](QProcess& p) {
                for (int i = 0; i < 100 && server.requestCount("/api/v1/nodes") == 0; ++i) QTest::qWait(20);
                if (p.state() == QProcess::Running && p.processId() > 0) ::kill(pid_t(p.processId()), SIGINT);
            });
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.err.find("cancelled; " + out + " was not written") != std::string::npos,
                 run.err.c_str());
        QVERIFY(!fileExists(out));
        QVERIFY(run.seconds < 10);
        server.stop();
    }

    void kubectlListsFromTheTestServer() {
        if (QStandardPaths::findExecutable("kubectl").isEmpty())
            QSKIP("kubectl is not installed (Debian package kubernetes-client): the server's honesty is not "
                  "checked");
        std::string kc = h_->kubeconfig("kubectl", h_->clientCertFiles("kubectl-user"));
        QProcess p;
        p.start("kubectl", {"--kubeconfig", QString::fromStdString(kc), "--cache-dir",
                            QString::fromStdString(h_->path("kubectl-cache")), "--request-timeout=20s", "get",
                            "nodes", "-o", "name"});
        QVERIFY(p.waitForFinished(60000));
        QString out = p.readAllStandardOutput();
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QStringList lines = out.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), LiveHarness::kNodes);
        QCOMPARE(lines.first(), QString("node/gpu-node-0000"));
        // kubectl pages too: its own limit and continue tokens must work against the server.
        p.start("kubectl", {"--kubeconfig", QString::fromStdString(kc), "--cache-dir",
                            QString::fromStdString(h_->path("kubectl-cache")), "--request-timeout=20s", "get",
                            "pods", "-A", "--chunk-size=100", "-o", "name"});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QCOMPARE(QString(p.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts).size(),
                 LiveHarness::kPods);
        QVERIFY(usersOn(*h_->server, "/api/v1/nodes").count("kubectl-user"));
    }

    void snapshotFeedsImporterInspectAndCycle() {
        std::string kc = h_->kubeconfig("for-importer", {std::string("token: ") + LiveHarness::kToken});
        std::string out = h_->path("out/for-importer.yaml");
        CliRun run = runGantry(
            {"--kubeconfig", QString::fromStdString(kc), "--out", QString::fromStdString(out), "--quiet"});
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        Diagnostics warnings;
        Cluster cluster;
        try {
            cluster = readSnapshotFiles({out}, &warnings);
        } catch (const InputError& e) {
            QFAIL(e.what());
        }
        for (const auto& w : warnings) qWarning("snapshot warning: %s", w.str().c_str());
        QVERIFY(warnings.empty());
        QCOMPARE(cluster.nodes.size(), size_t(LiveHarness::kNodes));
        QCOMPARE(cluster.pods.size(), livePods(LiveHarness::kPods));
        // The server's three, and the built-in ones it does not list (a real server would).
        QCOMPARE(cluster.namespaces.size(), size_t(6));
        QCOMPARE(cluster.nodes[0].gpus.count, 8);
        QCOMPARE(cluster.nodes[0].gpus.model, std::string("NVIDIA-A100-SXM4-80GB"));
        QVERIFY(cluster.findQueue("research") != nullptr);
        QVERIFY(cluster.findQueue("team-a-cq") != nullptr);
        QVERIFY(cluster.findPodGroup("team-b", "job-0") != nullptr);
        QCOMPARE(cluster.hyperNodes.size(), size_t(1));
        QCOMPARE(cluster.localQueues.size(), size_t(1));
        QVERIFY(cluster.volcanoConf.has_value());
        QVERIFY(cluster.yunikorn.has_value());
        // Requests survive the trimming: 1.5 CPUs for the first pod, a running GPU worker.
        const Pod& pod = cluster.pods.front();
        QCOMPARE(pod.requests.get("cpu"), int64_t(1500));
        QCOMPARE(pod.gpu.count, 1);
        QVERIFY(!pod.source.file.empty() && pod.source.line > 0); // located in the snapshot file

        // And the CLI's own reader of snapshots takes it as it is.
        QProcess inspect;
        inspect.start(GANTRY_CLI, {"inspect", QString::fromStdString(out)});
        QVERIFY(inspect.waitForFinished(120000));
        QString text = inspect.readAllStandardOutput();
        QVERIFY2(inspect.exitCode() == 0, inspect.readAllStandardError().constData());
        QVERIFY2(text.contains(QString::number(LiveHarness::kNodes)), qPrintable(text));

        // The engine runs a scheduling cycle on it.
        std::string conf =
            writeTextFile(h_->path("volcano-scheduler.conf"),
                          "actions: \"enqueue, allocate, backfill\"\ntiers:\n- plugins:\n  - name: "
                          "priority\n  - name: gang\n- plugins:\n  - name: predicates\n  - name: "
                          "proportion\n  - name: binpack\n");
        QProcess cycle;
        cycle.start(GANTRY_CLI, {"cycle", "--snapshot", QString::fromStdString(out), "--scheduler-conf",
                                 QString::fromStdString(conf), "--json"});
        QVERIFY(cycle.waitForFinished(120000));
        QByteArray result = cycle.readAllStandardOutput();
        QVERIFY2(cycle.exitCode() == 0, cycle.readAllStandardError().constData());
        QVERIFY2(result.contains("\"bindings\""), result.left(400).constData());
    }

    void cleanupTestCase() { h_.reset(); }
};

GANTRY_TEST(LiveImportTest)
#include "test_live_import.moc"
