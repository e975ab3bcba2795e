// What a user meets when the history cannot be read: one clear line on stderr, exit 2 for what they
// typed wrong and 3 for what the server did, within the timeouts, and never a file at --out. And the
// ways in that work: HTTPS verified against --ca-file, a bearer token through a proxy that checks it,
// queries in bounded windows, chunks split when Prometheus finds them too large.
#include "bearer_proxy.h"
#include "canned_server.h"
#include "history/time_text.h"
#include "history_harness.h"
#include "test_registry.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QtTest>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <regex>

using namespace gantry::testing;

class PrometheusFailureTest : public QObject {
    Q_OBJECT
    std::unique_ptr<HistoryHarness> h_;
    std::unique_ptr<PrometheusServer> https_;
    std::string tokenFile_, wrongTokenFile_, forbiddenTokenFile_;
    static constexpr const char* kToken = "reader-token-9c2e";

    QStringList importArgs(const std::string& url, const std::string& out) const {
        return QStringList{"import", "--prometheus", QString::fromStdString(url)} + h_->window() +
               QStringList{"--out", QString::fromStdString(out)};
    }

    // An import that must fail: its exit code, one error line holding `fragment`, in time, no file.
    void expectFailure(const QStringList& args, const std::string& out, const std::string& fragment,
                       int exitCode, double maxSeconds = 20) {
        Run run = runCli(args);
        QVERIFY2(run.exitCode == exitCode, ("exit " + std::to_string(run.exitCode) + "\n" + run.err).c_str());
        auto errors = errorLines(run.err);
        QVERIFY2(errors.size() == 1, run.err.c_str());
        QVERIFY2(errors[0].find(fragment) != std::string::npos,
                 (errors[0] + "\n  expected: " + fragment).c_str());
        QVERIFY2(run.seconds < maxSeconds, ("took " + std::to_string(run.seconds) + " s").c_str());
        QVERIFY2(!std::filesystem::exists(out), "a file was written");
    }

    std::string writeFile(const std::string& name, const std::string& text) {
        std::string p = h_->path(name);
        std::ofstream(p) << text;
        return p;
    }

  private slots:
    void initTestCase() {
        if (std::string why = prometheusMissing(); !why.empty()) QSKIP(why.c_str());
        h_ = std::make_unique<HistoryHarness>();
        https_ = h_->another("https", true, {});
        tokenFile_ = writeFile("token", std::string(kToken) + "\n");
        wrongTokenFile_ = writeFile("wrong-token", "not-the-token\n");
        forbiddenTokenFile_ = writeFile("forbidden-token", "forbidden-token-1\n");
    }

    // --- the server ---

    void unreachable() {
        const int port = freePort();
        const std::string url = "http://127.0.0.1:" + std::to_string(port);
        expectFailure(importArgs(url, h_->path("out/x.yaml")), h_->path("out/x.yaml"),
                      "error: cannot connect to " + url + ": connection refused", 3);
    }

    void stalledServerTimesOut() {
        CannedServer stalled({200, "application/json", "", true});
        expectFailure(importArgs(stalled.url(), h_->path("out/x.yaml")) << "--request-timeout"
                                                                        << "2",
                      h_->path("out/x.yaml"),
                      "sent no answer to GET /api/v1/status/buildinfo within 2 s (stalled)", 3, 10);
    }

    void notPrometheus() {
        CannedServer page(
            {200, "text/html", "<html><body>Welcome to the captive portal</body></html>", false});
        expectFailure(
            importArgs(page.url(), h_->path("out/x.yaml")), h_->path("out/x.yaml"),
            "is not Prometheus's (text/html): <html><body>Welcome to the captive portal</body></html> -- is "
            "the URL the address of a Prometheus server?",
            3);
    }

    void wrongPath() {
        CannedServer missing({404, "text/plain", "404 page not found\n", false});
        expectFailure(importArgs(missing.url(), h_->path("out/x.yaml")), h_->path("out/x.yaml"),
                      missing.url() +
                          " answered 404 Not Found to GET /api/v1/query: is it the address of Prometheus",
                      3);
    }

    void queryRejected() {
        CannedServer bad(
            {400, "application/json",
             R"({"status":"error","errorType":"bad_data","error":"invalid parameter \"query\": 1:1: parse error"})",
             false});
        expectFailure(importArgs(bad.url(), h_->path("out/x.yaml")), h_->path("out/x.yaml"),
                      "(400 Bad Request: invalid parameter \"query\": 1:1: parse error)", 3);
    }

    void unavailableIsRetriedThenGivenUp() {
        CannedServer down({503, "application/json",
                           R"({"status":"error","errorType":"unavailable","error":"TSDB not ready"})",
                           false});
        expectFailure(
            importArgs(down.url(), h_->path("out/x.yaml")), h_->path("out/x.yaml"),
            "answered 503 Service Unavailable to GET /api/v1/status/buildinfo 5 times; giving up: TSDB "
            "not ready",
            3, 30);
        QCOMPARE(int(down.targets().size()), 5);
    }

    void aWindowWithoutKubeStateMetrics() {
        const std::string out = h_->path("out/x.yaml");
        // The week before the data: Prometheus answers, with nothing.
        const double start = h_->fixture.dataStart - 8 * 86400, end = start + 86400;
        expectFailure({"import", "--prometheus", QString::fromStdString(h_->prometheus->url()), "--start",
                       QString::fromStdString(gantry::history::formatRfc3339(start)), "--end",
                       QString::fromStdString(gantry::history::formatRfc3339(end)), "--out",
                       QString::fromStdString(out)},
                      out, "has no kube-state-metrics series from", 3);
    }

    void ctrlCStopsAWaitingImport() {
        CannedServer stalled({200, "application/json", "", true});
        const std::string out = h_->path("out/cancelled.yaml");
        QProcess p;
        p.start(GANTRY_CLI, importArgs(stalled.url(), out));
        QVERIFY(p.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(!stalled.targets().empty(), 10000);
        QElapsedTimer timer;
        timer.start();
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(10000));
        QVERIFY2(timer.elapsed() < 3000, "cancel took too long");
        QCOMPARE(p.exitCode(), 3);
        QVERIFY(QString::fromUtf8(p.readAllStandardError())
                    .contains("cancelled; " + QString::fromStdString(out) + " was not written"));
        QVERIFY(!std::filesystem::exists(out));
    }

    // --- TLS and the bearer token ---

    void httpsWithTheCaFile() {
        const std::string out = h_->path("out/https.yaml");
        Run run = runCli(importArgs(https_->url(), out) << "--ca-file" << QString::fromStdString(h_->caFile));
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        QVERIFY(readFile(out).find("kind: PodGroup") != std::string::npos);
    }

    void httpsWithoutTheCaIsRefused() {
        expectFailure(
            importArgs(https_->url(), h_->path("out/x.yaml")), h_->path("out/x.yaml"),
            "TLS: the certificate of " + https_->url() +
                " is signed by an unknown authority (not trusted by the system's trusted authorities)",
            3);
        expectFailure(importArgs(https_->url(), h_->path("out/x.yaml"))
                          << "--ca-file" << QString::fromStdString(h_->otherCaFile),
                      h_->path("out/x.yaml"),
                      "is signed by an unknown authority (not trusted by --ca-file " + h_->otherCaFile + ")",
                      3);
    }

    void bearerTokenThroughAProxy() {
        BearerProxy proxy(h_->prometheus->port(), h_->pki.server().cert, h_->pki.server().key,
                          {{kToken, true}, {"forbidden-token-1", false}});
        const std::string out = h_->path("out/proxied.yaml");
        Run run = runCli(importArgs(proxy.url(), out)
                         << "--ca-file" << QString::fromStdString(h_->caFile) << "--bearer-token-file"
                         << QString::fromStdString(tokenFile_));
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        // Every request carried the token; no query reached over more than six hours.
        const auto auths = proxy.authorizations();
        QVERIFY(!auths.empty());
        for (const auto& a : auths) QCOMPARE(a, std::string("Bearer ") + kToken);
        int queries = 0;
        const std::regex range("%5B([0-9]+)ms");
        for (const auto& t : proxy.targets()) {
            if (t.rfind("/api/v1/query?", 0) != 0) continue;
            ++queries;
            std::smatch m;
            QVERIFY2(std::regex_search(t, m, range), t.c_str());
            QVERIFY2(std::stoll(m[1]) <= 6LL * 3600 * 1000, t.c_str());
        }
        QVERIFY2(run.err.find("(" + std::to_string(queries) + " queries in") != std::string::npos,
                 run.err.c_str());
        // 26 hours: five chunks of 14 queries.
        QCOMPARE(queries, 5 * 14);

        expectFailure(importArgs(proxy.url(), h_->path("out/x.yaml"))
                          << "--ca-file" << QString::fromStdString(h_->caFile),
                      h_->path("out/x.yaml"),
                      "Prometheus at " + proxy.url() +
                          " asks for credentials (401 Unauthorized: Unauthorized); give a bearer token with "
                          "--bearer-token-file",
                      3);
        expectFailure(importArgs(proxy.url(), h_->path("out/x.yaml"))
                          << "--ca-file" << QString::fromStdString(h_->caFile) << "--bearer-token-file"
                          << QString::fromStdString(wrongTokenFile_),
                      h_->path("out/x.yaml"),
                      "rejected the bearer token of " + wrongTokenFile_ + " (401 Unauthorized: Unauthorized)",
                      3);
        expectFailure(importArgs(proxy.url(), h_->path("out/x.yaml"))
                          << "--ca-file" << QString::fromStdString(h_->caFile) << "--bearer-token-file"
                          << QString::fromStdString(forbiddenTokenFile_),
                      h_->path("out/x.yaml"),
                      "does not let the bearer token of " + forbiddenTokenFile_ +
                          " run queries (403 Forbidden: Forbidden (user=system:serviceaccount:gantry:reader",
                      3);
    }

    // Prometheus refusing a chunk as too large (--query.max-samples) gets it in halves: same result.
    void tooLargeChunksAreSplit() {
        auto small = h_->another("small", false, {"--query.max-samples=8000"});
        const std::string whole = h_->path("out/whole.yaml"), split = h_->path("out/split.yaml");
        Run a = runCli(importArgs(h_->prometheus->url(), whole));
        QVERIFY2(a.exitCode == 0, a.err.c_str());
        Run b = runCli(importArgs(small->url(), split));
        QVERIFY2(b.exitCode == 0, b.err.c_str());
        std::smatch m;
        const std::regex read("read ([0-9]+) chunks");
        QVERIFY2(std::regex_search(b.err, m, read) && std::stoi(m[1]) > 5, b.err.c_str()); // five, some split
        auto body = [](const std::string& text) {
            std::string out;
            size_t pos = 0;
            while (pos < text.size()) {
                size_t end = text.find('\n', pos);
                std::string line = text.substr(pos, end - pos);
                // Where it was read differs: the port of each Prometheus.
                if (line.rfind("#   written:", 0) != 0 && line.rfind("#   prometheus:", 0) != 0 &&
                    line.find("gantry.io/history:") == std::string::npos)
                    out += line + "\n";
                pos = end + 1;
            }
            return out;
        };
        QVERIFY(body(readFile(whole)) == body(readFile(split)));
    }

    // --- what the user typed ---

    void badInputIsExitTwo() {
        const std::string out = h_->path("out/x.yaml");
        const QString url = QString::fromStdString(h_->prometheus->url());
        expectFailure({"import", "--prometheus", "ftp://prom.example", "--out", QString::fromStdString(out)},
                      out, "--prometheus ftp://prom.example: give the server's URL, http:// or https://", 2);
        expectFailure(
            {"import", "--prometheus", "https://prom.example", "--bearer-token-file",
             QString::fromStdString(h_->path("no-such-token")), "--out", QString::fromStdString(out)},
            out,
            "cannot read --bearer-token-file " + h_->path("no-such-token") + ": No such file or directory",
            2);
        expectFailure({"import", "--prometheus", url, "--bearer-token-file",
                       QString::fromStdString(tokenFile_), "--out", QString::fromStdString(out)},
                      out, "--bearer-token-file: a token is only sent over https", 2);
        expectFailure({"import", "--prometheus", "https://prom.example", "--ca-file",
                       QString::fromStdString(tokenFile_), "--out", QString::fromStdString(out)},
                      out, "holds no PEM certificate", 2);
        expectFailure({"import", "--prometheus", url, "--start", "yesterday", "--end", "2026-01-01T00:00:00Z",
                       "--out", QString::fromStdString(out)},
                      out, "--start 'yesterday' is not an RFC 3339 time", 2);
        expectFailure({"import", "--prometheus", url, "--start", "2026-01-02T00:00:00Z", "--end",
                       "2026-01-01T00:00:00Z", "--out", QString::fromStdString(out)},
                      out, "--end 2026-01-01T00:00:00Z is not after --start 2026-01-02T00:00:00Z", 2);
        expectFailure(
            {"import", "--prometheus", url, "--since", "a while", "--out", QString::fromStdString(out)}, out,
            "--since 'a while' is not a duration", 2);
        expectFailure({"import", "--prometheus", url, "--since", "1h", "--step", "2h", "--out",
                       QString::fromStdString(out)},
                      out, "--step 2h is longer than the window (1h)", 2);
    }

    void usageIsExitOne() {
        const QString out = QString::fromStdString(h_->path("out/x.yaml"));
        const QString url = QString::fromStdString(h_->prometheus->url());
        for (const QStringList& args :
             {QStringList{"import", "--prometheus", url, "--since", "1h", "--start", "2026-01-01T00:00:00Z",
                          "--end", "2026-01-02T00:00:00Z", "--out", out},
              QStringList{"import", "--prometheus", url, "--start", "2026-01-01T00:00:00Z", "--out", out},
              QStringList{"import", "--prometheus", url, "--kubeconfig", "/dev/null", "--out", out},
              QStringList{"import", "--since", "1h", "--out", out}}) {
            Run run = runCli(args);
            QVERIFY2(run.exitCode == 1, (args.join(' ').toStdString() + "\n" + run.err).c_str());
        }
    }
};

GANTRY_TEST(PrometheusFailureTest)
#include "test_prometheus_failures.moc"
