// Connect to Cluster: the dialog imports from a real HTTPS API server on loopback (the live tests'
// harness) on a worker, and hands back a project that compares with kube-scheduler; a server that
// does not answer leaves the dialog open with what to do.
#include "live_harness.h"
#include "test_registry.h"
#include "widgets/connect_dialog.h"

#include <QLabel>
#include <QPushButton>
#include <QtTest>

using namespace gantry;
using namespace gantry::studio;
using namespace gantry::testing;

class ConnectTest : public QObject {
    Q_OBJECT
    std::unique_ptr<LiveHarness> h_;
  private slots:
    void initTestCase() { h_ = std::make_unique<LiveHarness>(); }

    void importsTheClusterFromTheApiServer() {
        const std::string kc = h_->kubeconfig("studio", {std::string("token: ") + LiveHarness::kToken});
        ConnectDialog dialog;
        dialog.setKubeconfig(QString::fromStdString(kc));
        QVERIFY(!dialog.contextName().isEmpty());
        dialog.startImport();
        QTRY_COMPARE_WITH_TIMEOUT(dialog.QDialog::result(), int(QDialog::Accepted), 120000);
        const Project& p = dialog.result().project;
        QCOMPARE(p.cluster.nodes.size(), size_t(LiveHarness::kNodes));
        QVERIFY(!p.cluster.pods.empty());
        QVERIFY(p.contrast.has_value());
        QVERIFY(dialog.snapshotText().contains("kind: Node"));
    }

    void anUnreachableServerSaysWhatToDo() {
        const std::string url = "https://127.0.0.1:" + std::to_string(closedPort());
        const std::string kc =
            h_->kubeconfig("closed", {std::string("token: ") + LiveHarness::kToken}, "", url);
        ConnectDialog dialog;
        dialog.setKubeconfig(QString::fromStdString(kc));
        dialog.startImport();
        // The Import button comes back when the worker gives up; the dialog stays open.
        QPushButton* import = nullptr;
        for (auto* b : dialog.findChildren<QPushButton*>())
            if (b->text().contains("Import")) import = b;
        QVERIFY(import);
        QTRY_VERIFY_WITH_TIMEOUT(import->isEnabled(), 120000);
        QVERIFY(dialog.QDialog::result() != QDialog::Accepted);
        bool advice = false;
        for (auto* l : dialog.findChildren<QLabel*>())
            advice = advice || l->text().contains("kubectl get nodes");
        QVERIFY(advice);
    }

    // A failure reads the same in the dialog as on the command line: one message for both.
    void aFailureSaysWhatTheCliSays() {
        Fault wrong;
        wrong.path = "/api/v1/nodes";
        wrong.action = Fault::Action::Body;
        wrong.times = 2; // once for the CLI, once for the dialog
        wrong.body = R"({"kind":"PodList","apiVersion":"v1","metadata":{},"items":[]})";
        h_->server->addFault(wrong);
        const std::string kc = h_->kubeconfig("same-message", {std::string("token: ") + LiveHarness::kToken});
        CliRun cli = runGantry({"--kubeconfig", QString::fromStdString(kc), "--out",
                                QString::fromStdString(h_->path("out/same-message.yaml"))});
        QCOMPARE(cli.exitCode, 3);
        const std::string marker = "gantry import: error: ";
        size_t at = cli.err.find(marker);
        QVERIFY2(at != std::string::npos, cli.err.c_str());
        QString line = QString::fromStdString(cli.err.substr(at + marker.size())).trimmed();
        QVERIFY(line.contains("it is a PodList, not a NodeList"));

        ConnectDialog dialog;
        dialog.setKubeconfig(QString::fromStdString(kc));
        dialog.startImport();
        QPushButton* import = nullptr;
        for (auto* b : dialog.findChildren<QPushButton*>())
            if (b->text().contains("Import")) import = b;
        QVERIFY(import);
        QTRY_VERIFY_WITH_TIMEOUT(import->isEnabled(), 120000);
        bool same = false;
        for (auto* l : dialog.findChildren<QLabel*>())
            same = same || l->text().contains(line.toHtmlEscaped());
        QVERIFY2(same, qPrintable(line));
    }
};

GANTRY_TEST(ConnectTest)
#include "test_connect.moc"
