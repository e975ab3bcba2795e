// Every Volcano conformance case imports: the snapshot into a Cluster (no errors, every object kept,
// quantities verbatim) and scheduler.yaml into a SchedulerConf.
#include "snapshot/snapshot_importer.h"
#include "test_registry.h"
#include "test_support.h"
#include "volcano/scheduler_conf_reader.h"

#include <QDir>
#include <QRegularExpression>
#include <QtTest>
#include <algorithm>
#include <fstream>
#include <sstream>

using namespace gantry;
using namespace gantry::test;

namespace {

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Counts documents of a kind by reading the file as text, independently of the importer.
int countKind(const std::string& text, const QString& kind) {
    return int(QString::fromStdString(text).count(
        QRegularExpression("^kind: " + kind + "$", QRegularExpression::MultilineOption)));
}

QStringList caseDirs() {
    QDir dir(QString::fromStdString(dataPath("conformance/volcano")));
    return dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
}

Cluster importCase(const QString& name, Diagnostics* warnings = nullptr) {
    return readSnapshotFiles({dataPath("conformance/volcano/" + name.toStdString() + "/snapshot.yaml")},
                             warnings);
}

} // namespace

class ConformanceImportTest : public QObject {
    Q_OBJECT
  private slots:
    void everyCaseImports_data() {
        QTest::addColumn<QString>("name");
        auto dirs = caseDirs();
        QVERIFY(dirs.size() >= 14);
        for (const auto& d : dirs) QTest::newRow(qPrintable(d)) << d;
    }
    void everyCaseImports() {
        QFETCH(QString, name);
        std::string path = dataPath("conformance/volcano/" + name.toStdString() + "/snapshot.yaml");
        std::string text = slurp(path);
        Diagnostics warnings;
        Cluster c;
        try {
            c = readSnapshotFiles({path}, &warnings);
        } catch (const InputError& e) {
            QFAIL(e.what());
        }
        // Nothing unmodelled, nothing dangling. The upstream tests' namespaces (c1, ns1) have no
        // Namespace object: the importer assumes them and says so, once.
        Diagnostics unexpected;
        int assumed = 0;
        for (const auto& d : warnings)
            if (d.message.rfind("namespace '", 0) == 0 &&
                d.message.find("assumed to exist") != std::string::npos)
                ++assumed;
            else
                unexpected.push_back(d);
        QVERIFY2(unexpected.empty(), qPrintable(joined(unexpected)));
        QVERIFY(assumed <= 1);
        for (const char* ns : {"default", "kube-system", "kube-public", "kube-node-lease"})
            QVERIFY2(std::any_of(c.namespaces.begin(), c.namespaces.end(),
                                 [&](const Namespace& n) { return n.name == ns; }),
                     ns);
        QCOMPARE(int(c.nodes.size()), countKind(text, "Node"));
        QCOMPARE(int(c.pods.size()), countKind(text, "Pod"));
        QCOMPARE(int(c.podGroups.size()), countKind(text, "PodGroup"));
        QCOMPARE(int(c.queues.size()), countKind(text, "Queue"));
        QCOMPARE(int(c.priorityClasses.size()), countKind(text, "PriorityClass"));
        QCOMPARE(int(c.hyperNodes.size()), countKind(text, "HyperNode"));
        for (const auto& p : c.pods) {
            QVERIFY(p.source.line > 0);
            QCOMPARE(p.source.file, path);
            QCOMPARE(p.uid, p.ns + "-" + p.name); // the README's UID convention survives
            QVERIFY2(!p.group.empty(), qPrintable(QString::fromStdString(p.key())));
            QCOMPARE(p.schedulerName, std::string("volcano"));
        }
        for (const auto& n : c.nodes) QVERIFY(n.ready);
        for (const auto& q : c.queues) QVERIFY(q.state == QueueState::Open);

        Diagnostics confWarnings;
        auto conf = readSchedulerConfFile(
            dataPath("conformance/volcano/" + name.toStdString() + "/scheduler.yaml"), &confWarnings);
        QVERIFY2(confWarnings.empty(), qPrintable(joined(confWarnings)));
        QVERIFY(!conf.actions.empty());
        QCOMPARE(conf.actionSources.size(), conf.actions.size());
        std::string confText =
            slurp(dataPath("conformance/volcano/" + name.toStdString() + "/scheduler.yaml"));
        int plugins = int(QString::fromStdString(confText).count(
            QRegularExpression("^  - name: ", QRegularExpression::MultilineOption)));
        int read = 0;
        for (const auto& t : conf.tiers) read += int(t.plugins.size());
        QCOMPARE(read, plugins);
        for (const auto& t : conf.tiers)
            for (const auto& p : t.plugins) {
                QVERIFY(p.source.line > 0);
                QCOMPARE(int(p.switches.size()), 25); // every switch written out, as the README says
            }
    }

    void quantitiesAreVerbatim() {
        // 13: nodes have 4Gi of memory, pods ask for 4G (= 4e9 bytes, less than 4Gi).
        auto c = importCase("13-topology-hard-fits-one-hypernode");
        QCOMPARE(c.findNode("s0-n1")->allocatable.get("memory"), int64_t(4) << 30);
        QCOMPARE(findPod(c, "c1", "p1")->requests.get("memory"), int64_t(4000000000));
        QCOMPARE(findPod(c, "c1", "p1")->requests.get("cpu"), int64_t(2000));
        QCOMPARE(findPod(c, "c1", "p1")->role, std::string("master"));
        // 94: fractional cpu, explicit zero memory, GPUs on a node and in a request.
        auto b = importCase("94-binpack-scores-custom-weights");
        QCOMPARE(findPod(b, "c1", "p2")->requests.get("cpu"), int64_t(1500));
        QVERIFY(!findPod(b, "c1", "p2")->requests.has("memory"));
        QCOMPARE(findPod(b, "c1", "p2")->nodeName, std::string("n3"));
        QVERIFY(findPod(b, "c1", "p2")->phase == PodPhase::Pending); // bound but Pending, as written
        QCOMPARE(b.findNode("n2")->gpus.count, 4);
        QCOMPARE(b.findNode("n2")->allocatable.get("nvidia.com/gpu"), int64_t(4000));
        QCOMPARE(b.findNode("n3")->allocatable.get("example.com/foo"), int64_t(16000));
        QCOMPARE(b.findNode("n1")->gpus.count, 0);
        QCOMPARE(findPod(b, "c1", "p3")->gpu.count, 2);
        QCOMPARE(findPod(b, "c1", "p3")->gpu.milliPerGpu, 1000);
    }

    void gangsRolesAndTopology() {
        auto c = importCase("13-topology-hard-fits-one-hypernode");
        const auto* pg = c.findPodGroup("c1", "pg1");
        QVERIFY(pg);
        QCOMPARE(pg->minMember, 2);
        QCOMPARE(pg->queue, std::string("q1"));
        QCOMPARE(pg->phase, gantry::PodGroupPhase::Inqueue);
        QVERIFY(pg->networkTopology.mode == NetworkTopologyConstraint::Mode::Hard);
        QCOMPARE(pg->networkTopology.highestTierAllowed.value_or(-1), 1);
        const auto* s2 = findIf(c.hyperNodes, [](const HyperNode& h) { return h.name == "s2"; });
        QVERIFY(s2);
        QCOMPARE(s2->tier, 2);
        QCOMPARE(s2->members.size(), size_t(2));
        QVERIFY(s2->members[0].type == HyperNodeMember::Type::HyperNode);
        QVERIFY(s2->members[0].match == HyperNodeMember::Match::Exact);
        QCOMPARE(s2->members[1].value, std::string("s1"));

        auto m = importCase("03-allocate-mintaskmember-unsatisfiable");
        const auto* g = m.findPodGroup("c1", "pg1");
        QCOMPARE(g->minTaskMember.at("master"), 2);
        QCOMPARE(g->minTaskMember.at("worker"), 0);
        QCOMPARE(findPod(m, "c1", "p0")->nodeSelector.at("nodeRole"), std::string("master"));
        QCOMPARE(m.findNode("n1")->labels.at("nodeRole"), std::string("master"));
    }

    void queueTreePreemptableAndPriority() {
        auto h = importCase("66-capacity-hier-leaf-queue");
        QCOMPARE(h.findQueue("q11")->parent, std::string("q1"));
        QCOMPARE(h.findQueue("q11")->capability.get("cpu"), int64_t(1000));
        QCOMPARE(h.findQueue("q1")->parent, std::string("root"));
        QVERIFY(h.findQueue("root"));

        auto p = importCase("20-preempt-one-victim-other-job");
        QCOMPARE(findPod(p, "c1", "preemptee1")->preemptable, std::optional<bool>(true));
        QCOMPARE(findPod(p, "c1", "preemptee2")->preemptable, std::optional<bool>(false));
        QVERIFY(!p.priorityClasses.empty());
        int running = 0;
        for (const auto& pod : p.pods)
            if (pod.phase == PodPhase::Running) {
                ++running;
                QVERIFY(!pod.nodeName.empty());
            }
        QVERIFY(running > 0);
    }

    void schedulerConfArgumentsAndConfigurations() {
        auto conf = readSchedulerConfFile(
            dataPath("conformance/volcano/94-binpack-scores-custom-weights/scheduler.yaml"));
        const auto* binpack = conf.plugin("binpack");
        QVERIFY(binpack);
        QCOMPARE(binpack->argument("binpack.weight").value_or(""), std::string("10"));
        QCOMPARE(binpack->argument("binpack.resources").value_or(""),
                 std::string("nvidia.com/gpu, example.com/foo"));
        QCOMPARE(binpack->argument("binpack.resources.nvidia.com/gpu").value_or(""), std::string("7"));
        QVERIFY(binpack->enabled("enableNodeOrder"));
        QVERIFY(!binpack->enabled("enableJobOrder"));

        auto pre = readSchedulerConfFile(
            dataPath("conformance/volcano/20-preempt-one-victim-other-job/scheduler.yaml"));
        QCOMPARE(pre.configurations.size(), size_t(1));
        QCOMPARE(pre.configurations[0].name, std::string("preempt"));
        QCOMPARE(pre.configurations[0].arguments.at("enableTopologyAwarePreemption"), std::string("false"));
        QVERIFY(pre.configurations[0].source.line > 0);

        auto multi =
            readSchedulerConfFile(dataPath("conformance/volcano/97-enqueue-pending-admitted/scheduler.yaml"));
        QCOMPARE(multi.actions, (std::vector<std::string>{"enqueue"}));
        QCOMPARE(multi.plugin("sla")->argument("sla-waiting-time").value_or(""), std::string("3m"));
    }
};

GANTRY_TEST(ConformanceImportTest)
#include "test_conformance_import.moc"
