#include "model/cluster_check.h"
#include "test_registry.h"

#include <QtTest>

using namespace gantry;

namespace {
Queue queue(std::string name, std::string parent, int line) {
    Queue q;
    q.name = std::move(name);
    q.parent = std::move(parent);
    q.source = SourceRef{"queues.yaml", line, 3, 0};
    return q;
}
QString all(const Diagnostics& d) {
    QStringList out;
    for (const auto& x : d) out << QString::fromStdString(x.str());
    return out.join('\n');
}
} // namespace

class ClusterCheckTest : public QObject {
    Q_OBJECT
  private slots:
    void cleanTreePasses() {
        Cluster c;
        c.queues = {queue("ml", "", 1), queue("team-a", "ml", 10), queue("team-b", "root", 20)};
        QVERIFY2(checkCluster(c).empty(), qPrintable(all(checkCluster(c))));
    }
    void missingParentIsLocatedError() {
        Cluster c;
        c.queues = {queue("team-a", "ml", 7)};
        auto d = checkCluster(c);
        QCOMPARE(d.size(), size_t(1));
        QVERIFY(d[0].severity == Severity::Error);
        QCOMPARE(QString::fromStdString(d[0].str()),
                 QString("queues.yaml:7:3: error: queue 'team-a' names parent 'ml', which does not exist"));
    }
    void cycleIsReportedOnce() {
        Cluster c;
        c.queues = {queue("a", "c", 1), queue("b", "a", 2), queue("c", "b", 3), queue("d", "a", 4)};
        auto d = checkCluster(c);
        QCOMPARE(d.size(), size_t(1));
        QVERIFY(QString::fromStdString(d[0].message).startsWith("cycle in the queue tree: "));
        QVERIFY(hasErrors(d));
    }
    void duplicatesAndDanglingReferences() {
        Cluster c;
        Node n;
        n.name = "n1";
        n.source = {"a.yaml", 3, 1, 1};
        c.nodes = {n, n};
        Pod p;
        p.name = "p";
        p.ns = "ns";
        p.group = "missing";
        p.nodeName = "ghost";
        c.pods = {p};
        auto d = checkCluster(c);
        QCOMPARE(d.size(), size_t(3));
        QVERIFY(d[0].severity == Severity::Error);
        QVERIFY(QString::fromStdString(d[0].message).contains("duplicate node 'n1'"));
        QVERIFY(d[1].severity == Severity::Warning);
        QVERIFY(QString::fromStdString(d[1].message).contains("PodGroup 'missing'"));
        QVERIFY(d[2].severity == Severity::Warning);
    }
};

GANTRY_TEST(ClusterCheckTest)
#include "test_cluster_check.moc"
