// kube-scheduler's search for feasible nodes: how many it looks for (percentageOfNodesToScore),
// where each search starts, the node tree's zone-interleaved order, and the configuration fields.
// Cases restated from kubernetes/kubernetes:
//   pkg/scheduler/schedule_one_test.go @ 008b3652 (TestNumFeasibleNodesToFind,
//     TestFairEvaluationForNodes),
//   pkg/scheduler/internal/cache/node_tree_test.go @ 15b08666 (TestNodeTree_List,
//     TestNodeTree_AddNode, TestNodeTreeMultiOperations),
//   pkg/scheduler/apis/config/validation/validation_test.go @ 030880a5 (percentageOfNodesToScore
//     101 and -1 are "not in valid range [0-100]").
#include "engine_fixtures.h"
#include "input_error.h"
#include "k8s/feasible_nodes.h"
#include "k8s/kube_scheduler.h"
#include "kube_scheduler_config_reader.h"
#include "test_registry.h"

#include <QtTest>
#include <cstdio>

using namespace gantry;
using namespace gantry::engine;

namespace {

const std::string kRegion = "topology.kubernetes.io/region", kZone = "topology.kubernetes.io/zone";
const std::string kBetaRegion = "failure-domain.beta.kubernetes.io/region",
                  kBetaZone = "failure-domain.beta.kubernetes.io/zone";

// node_tree_test.go's allNodes: name and labels.
std::vector<std::pair<std::string, Labels>> treeNodes() {
    return {{"node-0", {}},
            {"node-1", {{kRegion, "region-1"}}},
            {"node-2", {{kZone, "zone-2"}}},
            {"node-3", {{kRegion, "region-1"}, {kZone, "zone-2"}}},
            {"node-4", {{kRegion, "region-1"}, {kZone, "zone-2"}}},
            {"node-5", {{kRegion, "region-1"}, {kZone, "zone-3"}}},
            {"node-6", {{kRegion, "region-2"}, {kZone, "zone-2"}}},
            {"node-7", {{kRegion, "region-2"}, {kZone, "zone-2"}}},
            {"node-8", {{kRegion, "region-2"}, {kZone, "zone-2"}}},
            {"node-9",
             {{kRegion, "region-2"}, {kZone, "zone-2"}, {kBetaRegion, "region-2"}, {kBetaZone, "zone-2"}}},
            {"node-10", {{kBetaRegion, "region-2"}, {kBetaZone, "zone-3"}}}};
}

// nodeTree.list() over the nodes added in the order of `added` (indexes into treeNodes()).
std::vector<std::string> listed(const std::vector<int>& added) {
    const auto all = treeNodes();
    std::vector<std::string> zones;
    for (int i : added) zones.push_back(k8s::zoneKey(all[size_t(i)].second));
    std::vector<std::string> names;
    for (uint32_t i : k8s::nodeTreeOrder(zones)) names.push_back(all[size_t(added[i])].first);
    return names;
}

KubeSchedulerProfile readConfig(const std::string& text) {
    return parseKubeSchedulerConfig(text, "scheduler.yaml", nullptr, "default-scheduler");
}

} // namespace

class KubeNodeSearchTest : public QObject {
    Q_OBJECT

  private slots:
    // TestNumFeasibleNodesToFind: (global, profile) percentages resolve to the profile's, else the
    // global one, as numFeasibleNodesToFind reads them; the cutoff is 100 nodes.
    void numFeasibleNodesToFind_data() {
        QTest::addColumn<int>("percentage"); // -1: unset
        QTest::addColumn<int>("nodes");
        QTest::addColumn<int>("want");
        QTest::newRow("unset, 10 nodes") << -1 << 10 << 10;
        QTest::newRow("profile 40, 10 nodes") << 40 << 10 << 10;
        QTest::newRow("unset, 1000 nodes") << -1 << 1000 << 420;
        QTest::newRow("profile 40, 1000 nodes") << 40 << 1000 << 400;
        QTest::newRow("global 40, 1000 nodes") << 40 << 1000 << 400;
        QTest::newRow("unset, 6000 nodes") << -1 << 6000 << 300;
        QTest::newRow("profile 40, 6000 nodes") << 40 << 6000 << 2400;
        // The adaptive share's floors: 5 % of 20,000 nodes, and 100 nodes.
        QTest::newRow("unset, 20000 nodes") << -1 << 20000 << 1000;
        QTest::newRow("profile 1, 1000 nodes") << 1 << 1000 << 100;
    }
    void numFeasibleNodesToFind() {
        QFETCH(int, percentage);
        QFETCH(int, nodes);
        QFETCH(int, want);
        const auto p = percentage < 0 ? std::nullopt : std::optional<int32_t>(percentage);
        QCOMPARE(k8s::numFeasibleNodesToFind(p, nodes), want);
    }

    // The same cases through a KubeSchedulerConfiguration: a profile's own value wins over the
    // configuration's (global 100 with profile 40: 400 of 1000).
    void configurationPercentages() {
        const std::string head =
            "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";
        auto p =
            readConfig(head + "percentageOfNodesToScore: 100\nprofiles:\n- schedulerName: default-scheduler\n"
                              "  percentageOfNodesToScore: 40\n");
        QCOMPARE(k8s::numFeasibleNodesToFind(p.percentageOfNodesToScore, 1000), 400);
        p = readConfig(head +
                       "percentageOfNodesToScore: 40\nprofiles:\n- schedulerName: default-scheduler\n");
        QCOMPARE(k8s::numFeasibleNodesToFind(p.percentageOfNodesToScore, 1000), 400);
        p = readConfig(head + "percentageOfNodesToScore: 40\n");
        QCOMPARE(k8s::numFeasibleNodesToFind(p.percentageOfNodesToScore, 1000), 400);
        p = readConfig(head + "profiles:\n- schedulerName: default-scheduler\n");
        QCOMPARE(k8s::numFeasibleNodesToFind(p.percentageOfNodesToScore, 1000), 420);
        for (const char* bad : {"101", "-1"}) {
            for (const std::string& where : {std::string("percentageOfNodesToScore: ") + bad + "\n",
                                             std::string("profiles:\n- schedulerName: default-scheduler\n"
                                                         "  percentageOfNodesToScore: ") +
                                                 bad + "\n"}) {
                try {
                    readConfig(head + where);
                    QFAIL(qPrintable(QString::fromStdString("accepted " + where)));
                } catch (const InputError& e) {
                    QVERIFY2(std::string(e.what()).find("not in valid range [0-100]") != std::string::npos,
                             e.what());
                    QVERIFY2(std::string(e.what()).find("scheduler.yaml:") != std::string::npos, e.what());
                }
            }
        }
    }

    // TestFairEvaluationForNodes: 500 nodes that all pass, 30 %: each search finds 150 and the next
    // one starts 150 further, modulo 500, over more than two rounds of the nodes.
    void fairEvaluationForNodes() {
        const int all = 500;
        const int toFind = k8s::numFeasibleNodesToFind(30, all);
        QCOMPARE(toFind, 150);
        k8s::NodeSearch search;
        std::vector<uint32_t> order(all);
        for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
        search.setOrder(order);
        std::vector<uint32_t> found;
        for (int i = 0; i < 2 * (all / toFind + 1); ++i) {
            search.find(
                uint32_t(toFind), [](uint32_t) { return true; }, found);
            QCOMPARE(int(found.size()), toFind);
            QCOMPARE(int(search.next()), (i + 1) * toFind % all);
        }
    }

    // Nodes that fail count as checked too (processedNodes = feasible + statuses); a search that finds
    // fewer than it looks for checks every node and leaves the start where it was.
    void failedNodesMoveTheStart() {
        k8s::NodeSearch search;
        search.setOrder({0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
        std::vector<uint32_t> found;
        search.find(
            2, [](uint32_t n) { return n % 3 == 2; }, found); // 2 and 5 pass; 0..5 checked
        QCOMPARE(found, (std::vector<uint32_t>{2, 5}));
        QCOMPARE(search.next(), 6u);
        search.find(
            2, [](uint32_t n) { return n % 3 == 2; }, found); // 8, then 2 after the wrap
        QCOMPARE(found, (std::vector<uint32_t>{8, 2}));
        QCOMPARE(search.next(), 3u);
        search.find(
            5, [](uint32_t n) { return n == 4; }, found);
        QCOMPARE(found, (std::vector<uint32_t>{4}));
        QCOMPARE(search.next(), 3u);
    }

    // GetZoneKey: region, NUL, zone; the beta labels where the node has them (node-10 has only those).
    void zoneKeys() {
        const auto all = treeNodes();
        QCOMPARE(k8s::zoneKey(all[0].second), std::string());
        QCOMPARE(k8s::zoneKey(all[1].second), std::string("region-1:\0:", 11));
        QCOMPARE(k8s::zoneKey(all[2].second), std::string(":\0:zone-2", 9));
        QCOMPARE(k8s::zoneKey(all[9].second), k8s::zoneKey(all[6].second));
        QCOMPARE(k8s::zoneKey(all[10].second), std::string("region-2:\0:zone-3", 17));
        // The beta key wins even when it is empty (upstream checks that the key is there).
        QCOMPARE(k8s::zoneKey({{kBetaZone, ""}, {kZone, "zone-9"}}), std::string());
    }

    // TestNodeTree_List and TestNodeTreeMultiOperations' orders.
    void nodeTreeList() {
        QCOMPARE(listed({}), std::vector<std::string>{});
        QCOMPARE(listed({0}), std::vector<std::string>{"node-0"});
        QCOMPARE(listed({0, 1, 2, 3}), (std::vector<std::string>{"node-0", "node-1", "node-2", "node-3"}));
        QCOMPARE(listed({0, 1, 2, 3, 4, 5, 6, 7, 8}),
                 (std::vector<std::string>{"node-0", "node-1", "node-2", "node-3", "node-5", "node-6",
                                           "node-4", "node-7", "node-8"}));
        // "add more nodes to an exhausted zone": added 4, 5, 6, 7, 8, then 3.
        QCOMPARE(listed({4, 5, 6, 7, 8, 3}),
                 (std::vector<std::string>{"node-4", "node-5", "node-6", "node-3", "node-7", "node-8"}));
        // node-9 (both label forms) shares node-6's zone, node-10 (beta only) has its own.
        QCOMPARE(listed({6, 9, 10}), (std::vector<std::string>{"node-6", "node-10", "node-9"}));
    }

    // The kube-default profile searches that way. 200 nodes: 100 to find (50 - 200/125 = 49 %, at
    // least 100 nodes). One node is labelled for the pods' preferred node affinity, the 151st by
    // name: the first pod's search stops after the first 100 nodes and cannot see it, the second
    // starts at the 101st and does. With percentageOfNodesToScore 100 the first pod sees every node.
    void kubeDefaultScoresOnlyTheNodesFound() {
        auto build = [](std::optional<int32_t> percentage) {
            Cluster c;
            for (int i = 0; i < 200; ++i) {
                char name[16];
                std::snprintf(name, sizeof name, "n%03d", i);
                Labels labels;
                if (i == 150) labels["tier"] = "gold";
                c.nodes.push_back(fixtures::makeNode(name, 8000, 32, 0, labels));
            }
            for (const char* name : {"a", "b"}) {
                Pod p = fixtures::makePod("default", name, "", 1000, 1);
                p.schedulerName = "default-scheduler";
                NodeSelectorTerm term;
                term.matchExpressions.push_back({"tier", SelectorOp::In, {"gold"}});
                NodeAffinity affinity;
                affinity.preferred.push_back({100, term});
                p.nodeAffinity = affinity;
                c.pods.push_back(p);
            }
            KubeSchedulerProfile profile;
            profile.percentageOfNodesToScore = percentage;
            ClusterState st = buildClusterState(c, nullptr, k8s::kubeBuildOptions());
            return k8s::runKubeScheduler(st, profile).bindings;
        };
        auto windowed = build(std::nullopt);
        QCOMPARE(windowed.size(), size_t(2));
        QVERIFY(windowed.at("default/a") < std::string("n100"));
        QCOMPARE(windowed.at("default/b"), std::string("n150"));
        auto whole = build(100);
        QCOMPARE(whole.at("default/a"), std::string("n150"));
    }
};

GANTRY_TEST(KubeNodeSearchTest)
#include "test_kube_node_search.moc"
