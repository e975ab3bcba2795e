// Growing and shrinking a pool of the bundled sample the way an operator would buy or retire nodes:
// new nodes continue the pool's layout (zones even, racks filled to the pool's size) with names of
// their own, the HyperNodes follow, removal takes free nodes from the fullest zone, and what cannot
// be done is said.
#include "input_loader.h"
#include "model/layout_hypernodes.h"
#include "plan/node_change.h"
#include "test_registry.h"

#include <QtTest>
#include <map>
#include <set>

using namespace gantry;
using namespace gantry::plan;

namespace {

const std::string kSample = std::string(GANTRY_SOURCE_DIR) + "/resources/samples/gpu-cloud-east.yaml";

std::string labelOfLevel(const Cluster& c, const char* level) {
    for (const auto& l : c.topologyLevels.empty() ? defaultTopologyLevels() : c.topologyLevels)
        if (l.name == level) return l.nodeLabel;
    return {};
}

std::map<std::string, int> countBy(const Cluster& c, const std::string& pool, const std::string& label) {
    std::map<std::string, int> out;
    for (const auto& n : c.nodes)
        if (nodePoolOf(n) == pool) ++out[n.labels.count(label) ? n.labels.at(label) : ""];
    return out;
}

int spread(const std::map<std::string, int>& counts) {
    int lo = INT32_MAX, hi = 0;
    for (const auto& [k, v] : counts) lo = std::min(lo, v), hi = std::max(hi, v);
    return hi - lo;
}

} // namespace

class NodeChangeTest : public QObject {
    Q_OBJECT
  private slots:
    void growingContinuesTheLayout() {
        Cluster c = loadInputs({kSample}).project.cluster;
        const size_t before = c.nodes.size();
        const std::string zone = labelOfLevel(c, "zone"), rack = labelOfLevel(c, "rack");
        QVERIFY(!zone.empty() && !rack.empty());
        const auto racksBefore = countBy(c, "h100", rack);
        const NodeChange change = changeNodes(c, NodeType::pool("h100"), 9);
        QCOMPARE(change.added.size(), size_t(9));
        QCOMPARE(c.nodes.size(), before + 9);
        std::set<std::string> names;
        for (const auto& n : c.nodes) QVERIFY2(names.insert(n.name).second, n.name.c_str());
        QCOMPARE(summaryOf(c, NodeType::pool("h100")).nodes, int64_t(41));
        // Two zones, kept even; racks of 4 (the pool's), the new ones numbered after the cluster's.
        const auto zones = countBy(c, "h100", zone);
        QCOMPARE(zones.size(), size_t(2));
        QVERIFY(spread(zones) <= 1);
        const auto racks = countBy(c, "h100", rack);
        for (const auto& [name, n] : racks) {
            QVERIFY2(!name.empty(), "every new node is in a rack");
            QVERIFY2(n <= 4, name.c_str());
        }
        QVERIFY(racks.size() > racksBefore.size());
        for (const auto& n : c.nodes)
            if (std::find(change.added.begin(), change.added.end(), n.name) != change.added.end()) {
                QCOMPARE(n.labels.at("kubernetes.io/hostname"), n.name);
                QCOMPARE(n.gpus.count, 8);
            }
        // The sample's HyperNodes come from its labels: they are made again, new racks included.
        QVERIFY(change.notes.empty());
        std::vector<TopologyLevel> used;
        for (const auto& l : c.topologyLevels.empty() ? defaultTopologyLevels() : c.topologyLevels)
            if (std::any_of(c.nodes.begin(), c.nodes.end(),
                            [&](const Node& n) { return n.labels.count(l.nodeLabel); }))
                used.push_back(l);
        QVERIFY(c.hyperNodes == hyperNodesFromLabels(c.nodes, used));
        for (const auto& [name, n] : racks) {
            bool found = false;
            for (const auto& h : c.hyperNodes) found = found || h.name.find(name) != std::string::npos;
            QVERIFY2(found, ("no HyperNode for rack " + name).c_str());
        }
    }

    void shrinkingTakesFreeNodesFromTheFullestZone() {
        Cluster c = loadInputs({kSample}).project.cluster;
        const std::string zone = labelOfLevel(c, "zone");
        const NodeChange change = changeNodes(c, NodeType::pool("a100"), -5);
        QCOMPARE(change.removed.size(), size_t(5));
        QCOMPARE(summaryOf(c, NodeType::pool("a100")).nodes, int64_t(19));
        QVERIFY(spread(countBy(c, "a100", zone)) <= 1);
        for (const auto& name : change.removed)
            for (const auto& n : c.nodes) QVERIFY(n.name != name);
    }

    void whatCannotBeDoneIsSaid() {
        Cluster c = loadInputs({kSample}).project.cluster;
        try {
            changeNodes(c, NodeType::pool("h200"), 1);
            QFAIL("an unknown pool must throw");
        } catch (const std::invalid_argument& e) {
            const QString what = e.what();
            QVERIFY2(what.contains("'h200'") && what.contains("h100") && what.contains("gb200"), e.what());
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, changeNodes(c, NodeType::pool("l40s"), -17));
        Node t = c.nodes.front();
        t.name = "template";
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, changeNodes(c, NodeType::fromTemplate(t), -1));
        const size_t before = c.nodes.size();
        QCOMPARE(changeNodes(c, NodeType::fromTemplate(t), 3).added.size(), size_t(3));
        QCOMPARE(c.nodes.size(), before + 3);
    }
};

GANTRY_TEST(NodeChangeTest)
#include "test_node_change.moc"
