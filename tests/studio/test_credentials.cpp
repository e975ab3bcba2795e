// No credential ever leaves the kubeconfig: a marker secret is planted in each kind of credential
// (bearer token, client key, basic-auth password, exec-plugin output), a cluster is imported with it
// from the loopback API server, by the CLI and by the studio's connect dialog, with success and with
// failure, and every output is searched for it: standard output and error, Qt's log, the snapshot,
// the project file, the autosave copy and its notes, and the manifests and report of every export.
#include "core/autosave.h"
#include "core/project_document.h"
#include "core/project_files.h"
#include "live/base64.h"
#include "live_harness.h"
#include "test_registry.h"
#include "widgets/connect_dialog.h"

#include <QDirIterator>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QtTest>

using namespace gantry;
using namespace gantry::studio;
using namespace gantry::testing;

namespace {

QStringList qtLog;
void captureQtLog(QtMsgType, const QMessageLogContext&, const QString& message) {
    qtLog << message;
}

struct Credential {
    std::string kind;
    std::vector<std::string> userLines; // accepted by the server
    std::vector<std::string> rejected;  // the same kind, refused
    std::vector<std::string> secrets;   // what must never be seen
};

QString readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

class CredentialsTest : public QObject {
    Q_OBJECT
    std::unique_ptr<LiveHarness> h_;
    std::vector<Credential> credentials_;

    // Fails naming the output and the secret when `text` holds any of the secrets.
    static bool clean(const Credential& c, const QString& what, const QString& text) {
        for (const auto& s : c.secrets)
            if (text.contains(QString::fromStdString(s))) {
                qWarning("%s: %s holds the secret %s", c.kind.c_str(), qPrintable(what), s.c_str());
                return false;
            }
        return true;
    }

  private slots:
    void initTestCase() {
        h_ = std::make_unique<LiveHarness>();
        h_->server->addToken("marker-token-b41d9e", "marker-token-user");
        h_->server->addBasicUser("marker-user", "marker-password-77c3a0");
        h_->server->addToken("marker-exec-token-0e5f12", "marker-exec-user");
        Pem cert = h_->pki.client("marker-cert-user", {"ml"});
        Pem foreign = h_->pki.client("mallory", {}, false); // signed by a CA the server does not trust
        std::string keyBody = cert.key.substr(cert.key.find('\n') + 1, 48);
        std::string goodExec = h_->path("cred-marker");
        writeTextFile(goodExec + "/cred.json", execCredentialJson("marker-exec-token-0e5f12", ""));
        std::string badExec = h_->path("cred-marker-bad");
        writeTextFile(badExec + "/cred.json", execCredentialJson("marker-exec-token-refused-6a90", ""));
        // A plugin set up wrongly prints a bare token instead of an ExecCredential.
        std::string bareExec = h_->path("cred-marker-bare");
        writeTextFile(bareExec + "/cred.json", "marker-bare-token-5d2c\n");
        credentials_ = {
            {"token",
             {"token: marker-token-b41d9e"},
             {"token: marker-token-refused-3f88"},
             {"marker-token-b41d9e", "marker-token-refused-3f88"}},
            {"client key",
             {"client-certificate-data: " + live::base64Encode(cert.cert),
              "client-key-data: " + live::base64Encode(cert.key)},
             {"client-certificate-data: " + live::base64Encode(foreign.cert),
              "client-key-data: " + live::base64Encode(foreign.key)},
             {keyBody, live::base64Encode(cert.key).substr(0, 48), "PRIVATE KEY",
              foreign.key.substr(foreign.key.find('\n') + 1, 48)}},
            {"password",
             {"username: marker-user", "password: marker-password-77c3a0"},
             {"username: marker-user", "password: marker-password-refused-19bd"},
             {"marker-password-77c3a0", "marker-password-refused-19bd"}},
            {"exec plugin output",
             h_->execPlugin("marker-plugin", goodExec),
             h_->execPlugin("marker-plugin-bad", badExec),
             {"marker-exec-token-0e5f12", "marker-exec-token-refused-6a90"}},
            {"exec plugin bare output",
             h_->execPlugin("marker-plugin-2", goodExec),
             h_->execPlugin("marker-plugin-bare", bareExec),
             {"marker-exec-token-0e5f12", "marker-bare-token-5d2c"}},
        };
    }

    void cliOutputsHoldNoSecret() {
        for (const auto& c : credentials_) {
            const std::string name = "leak-" + std::to_string(&c - credentials_.data());
            std::string snapshot = h_->path("out/" + name + ".yaml");
            CliRun ok = runGantry({"--kubeconfig", QString::fromStdString(h_->kubeconfig(name, c.userLines)),
                                   "--out", QString::fromStdString(snapshot)});
            QVERIFY2(ok.exitCode == 0, (c.kind + ": " + ok.err).c_str());
            QVERIFY(clean(c, "import stdout/stderr", QString::fromStdString(ok.out + ok.err)));
            QVERIFY(clean(c, "snapshot", QString::fromStdString(readText(snapshot))));
            CliRun refused = runGantry(
                {"--kubeconfig", QString::fromStdString(h_->kubeconfig(name + "-refused", c.rejected)),
                 "--out", QString::fromStdString(h_->path("out/" + name + "-no.yaml"))});
            QVERIFY2(refused.exitCode != 0, c.kind.c_str());
            QVERIFY(refused.err.find("gantry import: error: ") != std::string::npos);
            QVERIFY(clean(c, "import error", QString::fromStdString(refused.out + refused.err)));
            // Every export of the snapshot, manifests and report.
            for (const char* target : {"volcano", "yunikorn", "kueue"}) {
                QTemporaryDir out;
                QProcess p;
                p.start(GANTRY_CLI, {"export", "--from", QString::fromStdString(snapshot), "--target", target,
                                     "--out", out.path()});
                QVERIFY(p.waitForFinished(60000));
                QCOMPARE(p.exitCode(), 0);
                QVERIFY(clean(c, "export output",
                              QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError())));
                QDirIterator files(out.path(), QDir::Files | QDir::Hidden);
                while (files.hasNext()) {
                    QString f = files.next();
                    QVERIFY(clean(c, f, readAll(f)));
                }
            }
        }
    }

    void studioOutputsHoldNoSecret() {
        for (const auto& c : credentials_) {
            const std::string name = "studio-leak-" + std::to_string(&c - credentials_.data());
            qtLog.clear();
            QtMessageHandler previous = qInstallMessageHandler(captureQtLog);
            QString labels, snapshotText;
            Project project;
            {
                ConnectDialog dialog;
                dialog.setKubeconfig(QString::fromStdString(h_->kubeconfig(name, c.userLines)));
                dialog.startImport();
                QTRY_COMPARE_WITH_TIMEOUT(dialog.QDialog::result(), int(QDialog::Accepted), 120000);
                for (auto* l : dialog.findChildren<QLabel*>()) labels += l->text() + '\n';
                snapshotText = dialog.snapshotText();
                project = dialog.result().project;
            }
            {
                ConnectDialog refused;
                refused.setKubeconfig(QString::fromStdString(h_->kubeconfig(name + "-refused", c.rejected)));
                refused.startImport();
                QPushButton* import = nullptr;
                for (auto* b : refused.findChildren<QPushButton*>())
                    if (b->text().contains("Import")) import = b;
                QVERIFY(import);
                QTRY_VERIFY_WITH_TIMEOUT(import->isEnabled(), 120000);
                for (auto* l : refused.findChildren<QLabel*>()) labels += l->text() + '\n';
                QVERIFY(labels.contains("401") || labels.contains("rejected") ||
                        labels.contains("not shown"));
            }
            qInstallMessageHandler(previous);
            QVERIFY(clean(c, "dialog texts", labels));
            QVERIFY(clean(c, "snapshot", snapshotText));
            QVERIFY(clean(c, "Qt log", qtLog.join('\n')));

            QTemporaryDir dir;
            const QString file = dir.filePath("cluster.gantry");
            saveProject(project, file);
            QVERIFY(clean(c, "project file", readAll(file)));
            ProjectDocument doc;
            doc.replace(project, file, {}, true);
            Autosaver autosaver(&doc, dir.filePath("autosave"));
            QVERIFY(autosaver.saveNow());
            QVERIFY(clean(c, "autosave", readAll(autosaver.copyPath())));
            QVERIFY(clean(c, "autosave notes", readAll(autosaver.copyPath() + ".json")));
        }
    }

    void cleanupTestCase() { h_.reset(); }
};

GANTRY_TEST(CredentialsTest)
#include "test_credentials.moc"
