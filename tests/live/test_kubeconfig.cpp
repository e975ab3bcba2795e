// kubeconfig loading as kubectl does it: which files, how they merge, relative paths, located errors,
// and the in-cluster service account. No server needed.
#include "input_error.h"
#include "live/base64.h"
#include "live/exec_credential.h"
#include "live/kubeconfig.h"
#include "test_pki.h"
#include "test_registry.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace gantry;
using namespace gantry::live;
using gantry::testing::writeTextFile;

namespace {

const char* kFirst = R"(apiVersion: v1
kind: Config
current-context: alpha
clusters:
- name: shared
  cluster:
    server: https://first.example:6443
    certificate-authority: certs/first-ca.crt
contexts:
- name: alpha
  context: {cluster: shared, user: alice}
users:
- name: alice
  user:
    tokenFile: tokens/alice
)";

const char* kSecond = R"(apiVersion: v1
kind: Config
current-context: beta
clusters:
- name: shared
  cluster:
    server: https://second.example:6443
- name: other
  cluster:
    server: https://other.example
    insecure-skip-tls-verify: true
contexts:
- name: alpha
  context: {cluster: other, user: bob}
- name: beta
  context: {cluster: other, user: bob, namespace: ml}
users:
- name: alice
  user:
    token: from-second-file
- name: bob
  user:
    username: bob
    password: hunter2
)";

} // namespace

class KubeconfigTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::string path(const std::string& name) const { return dir_.path().toStdString() + "/" + name; }

  private slots:
    void mergesFilesAsKubectlDoes() {
        std::string a = writeTextFile(path("a/config"), kFirst);
        std::string b = writeTextFile(path("b/config"), kSecond);
        writeTextFile(path("a/certs/first-ca.crt"), "CA-PEM-OF-FIRST");
        writeTextFile(path("a/tokens/alice"), "alice-token\n");
        Environment env;
        env.kubeconfig = a + ":" + b + ":" + path("missing/config");
        auto files = kubeconfigFiles("", env);
        QCOMPARE(files.size(), size_t(3));
        // The first file to set current-context wins; so does the first to define a name, whole.
        Connection c = resolveConnection({}, env);
        QCOMPARE(c.context, std::string("alpha"));
        QCOMPARE(c.server, std::string("https://first.example:6443"));
        QCOMPARE(c.caPem, std::string("CA-PEM-OF-FIRST")); // relative to a/, not to the working directory
        QCOMPARE(c.token, std::string("alice-token"));     // alice of the first file: tokenFile, not token
        QVERIFY(!c.warnings.empty());                      // the missing file is reported
        // A context only the second file defines still comes through, with its cluster and user.
        Connection beta = resolveConnection({"", "beta"}, env);
        QCOMPARE(beta.server, std::string("https://other.example"));
        QCOMPARE(beta.username, std::string("bob"));
        QVERIFY(beta.insecureSkipTlsVerify);
        QVERIFY(std::any_of(beta.warnings.begin(), beta.warnings.end(), [](const std::string& w) {
            return w.find("insecure-skip-tls-verify") != std::string::npos;
        }));
    }

    void explicitFileWinsAndMustExist() {
        std::string b = writeTextFile(path("explicit/config"), kSecond);
        Environment env;
        env.kubeconfig = path("a/config");
        Connection c = resolveConnection({b, ""}, env);
        QCOMPARE(c.context, std::string("beta"));
        try {
            resolveConnection({path("nope/config"), ""}, env);
            QFAIL("a missing --kubeconfig must be an error");
        } catch (const InputError& e) {
            QVERIFY(e.diagnostic().str().find("nope/config") != std::string::npos);
        }
    }

    void defaultsToHomeKubeConfig() {
        writeTextFile(path("home/.kube/config"), kSecond);
        Environment env;
        env.home = path("home");
        auto files = kubeconfigFiles("", env);
        QCOMPARE(files.size(), size_t(1));
        QCOMPARE(files[0], path("home/.kube/config"));
        QCOMPARE(resolveConnection({}, env).context, std::string("beta"));
        // Nothing configured anywhere: a clear error, not a crash.
        Environment empty;
        empty.home = path("no-home");
        try {
            resolveConnection({}, empty);
            QFAIL("expected an error");
        } catch (const InputError& e) {
            QVERIFY(e.diagnostic().message.find("no cluster configured") != std::string::npos);
        }
    }

    void unknownContextListsTheKnownOnes() {
        std::string b = writeTextFile(path("ctx/config"), kSecond);
        try {
            resolveConnection({b, "gamma"}, Environment{});
            QFAIL("expected an error");
        } catch (const InputError& e) {
            std::string m = e.diagnostic().message;
            QVERIFY2(m.find("'gamma'") != std::string::npos && m.find("alpha, beta") != std::string::npos,
                     m.c_str());
        }
    }

    void mistakesAreLocated_data() {
        QTest::addColumn<QString>("yaml");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");
        const char* head = "apiVersion: v1\nkind: Config\ncurrent-context: c\ncontexts:\n- name: c\n  "
                           "context: {cluster: k, user: u}\n";
        auto row = [&](const char* name, std::string body, int line, const char* message) {
            QTest::newRow(name) << QString::fromStdString(head + body) << line << message;
        };
        row("clusters not a list", "clusters: {k: 1}\n", 7, "clusters: expected a list");
        row("bad base64",
            "clusters:\n- name: k\n  cluster:\n    server: https://x\n    certificate-authority-data: "
            "'%%%'\n",
            11, "not valid base64");
        row("bool expected",
            "clusters:\n- name: k\n  cluster:\n    server: https://x\n    insecure-skip-tls-verify: maybe\n",
            11, "true or false");
        row("insecure with CA",
            "clusters:\n- name: k\n  cluster:\n    server: https://x\n    insecure-skip-tls-verify: true\n"
            "    certificate-authority-data: QUJD\nusers:\n- name: u\n  user: {}\n",
            8, "insecure-skip-tls-verify");
        row("token and basic",
            "clusters:\n- name: k\n  cluster: {server: https://x}\nusers:\n- name: u\n  user: {token: t, "
            "username: a, password: b}\n",
            11, "only one is allowed");
        row("cert without key",
            "clusters:\n- name: k\n  cluster: {server: https://x}\nusers:\n- name: u\n  user: "
            "{client-certificate-data: QUJD}\n",
            11, "no client key");
        row("exec v1 without interactiveMode",
            "clusters:\n- name: k\n  cluster: {server: https://x}\nusers:\n- name: u\n  user:\n    exec:\n   "
            "   apiVersion: client.authentication.k8s.io/v1\n      command: aws\n",
            14, "interactiveMode");
        row("exec bad apiVersion",
            "clusters:\n- name: k\n  cluster: {server: https://x}\nusers:\n- name: u\n  user:\n    exec:\n   "
            "   apiVersion: client.authentication.k8s.io/v9\n      command: aws\n      interactiveMode: "
            "Never\n",
            14, "not supported");
        row("no server", "clusters:\n- name: k\n  cluster: {certificate-authority-data: QUJD}\n", 8,
            "no server");
        row("unknown user", "clusters:\n- name: k\n  cluster: {server: https://x}\n", 5, "user 'u'");
        row("gcp auth-provider",
            "clusters:\n- name: k\n  cluster: {server: https://x}\nusers:\n- name: u\n  user:\n    "
            "auth-provider: {name: gcp}\n",
            11, "gke-gcloud-auth-plugin");
        row("syntax error", "clusters: [\n", 8, "YAML syntax error");
    }

    void mistakesAreLocated() {
        QFETCH(QString, yaml);
        QFETCH(int, line);
        QFETCH(QString, message);
        std::string file = writeTextFile(path("bad/config"), yaml.toStdString());
        try {
            resolveConnection({file, ""}, Environment{});
            QFAIL("expected an InputError");
        } catch (const InputError& e) {
            const Diagnostic& d = e.diagnostic();
            QCOMPARE(d.where.file, file);
            QVERIFY2(d.message.find(message.toStdString()) != std::string::npos, d.str().c_str());
            QVERIFY2(d.where.line == line, d.str().c_str());
            QVERIFY(d.where.column > 0);
        }
    }

    void execPluginSettingsAreRead() {
        std::string file = writeTextFile(path("exec/config"), R"(apiVersion: v1
kind: Config
current-context: eks
clusters:
- name: eks
  cluster: {server: https://ABCDEF.gr7.us-west-2.eks.amazonaws.com}
contexts:
- name: eks
  context: {cluster: eks, user: aws}
users:
- name: aws
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: ./bin/credential-helper
      args: [eks, get-token, --cluster-name, prod]
      env:
      - {name: AWS_PROFILE, value: prod}
      installHint: install the AWS CLI
      provideClusterInfo: true
)");
        Connection c = resolveConnection({file, ""}, Environment{});
        QVERIFY(c.exec.has_value());
        QCOMPARE(c.exec->command, path("exec/bin/credential-helper")); // a path is relative to the kubeconfig
        QCOMPARE(c.exec->args.size(), size_t(4));
        QCOMPARE(c.exec->env.at(0).second, std::string("prod"));
        QCOMPARE(c.exec->interactiveMode, std::string("IfAvailable")); // v1beta1's default
        QVERIFY(c.exec->provideClusterInfo);
        QCOMPARE(c.server, std::string("https://ABCDEF.gr7.us-west-2.eks.amazonaws.com"));
    }

    void inClusterServiceAccount() {
        writeTextFile(path("sa/token"), "sa-token\n");
        writeTextFile(path("sa/ca.crt"), "SA-CA");
        writeTextFile(path("sa/namespace"), "gantry");
        Environment env;
        env.home = path("no-home");
        env.serviceHost = "10.96.0.1";
        env.servicePort = "443";
        env.serviceAccountDir = path("sa");
        Connection c = resolveConnection({}, env);
        QCOMPARE(c.server, std::string("https://10.96.0.1:443"));
        QCOMPARE(c.token, std::string("sa-token"));
        QCOMPARE(c.caPem, std::string("SA-CA"));
        QCOMPARE(c.user, std::string("system:serviceaccount:gantry"));
        env.serviceHost = "fd00::1";
        QCOMPARE(inClusterConnection(env)->server, std::string("https://[fd00::1]:443"));
        env.serviceAccountDir = path("no-sa");
        QVERIFY(!inClusterConnection(env).has_value());
    }

    void rfc3339Times() {
        auto t = parseRfc3339("2025-03-01T10:00:00Z");
        QVERIFY(t.has_value());
        QCOMPARE(std::chrono::system_clock::to_time_t(*t), time_t(1740823200));
        QCOMPARE(std::chrono::system_clock::to_time_t(*parseRfc3339("2025-03-01T12:00:00.123+02:00")),
                 time_t(1740823200));
        QVERIFY(!parseRfc3339("yesterday").has_value());
        QVERIFY(!parseRfc3339("2025-03-01T10:00:00").has_value());
    }

    void base64RoundTrip() {
        for (std::string s : {"", "a", "ab", "abc", "abcd", "\x01\xff\x10 binary"}) {
            auto d = base64Decode(base64Encode(s));
            QVERIFY(d.has_value());
            QCOMPARE(*d, s);
        }
        QCOMPARE(*base64Decode("YWxp\nY2U="), std::string("alice"));
        QVERIFY(!base64Decode("not*base64").has_value());
    }
};

GANTRY_TEST(KubeconfigTest)
#include "test_kubeconfig.moc"
