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
};

GANTRY_TEST(ConnectTest)
#include "test_connect.moc"
