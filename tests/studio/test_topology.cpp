// Bulk label assignment (by pattern and by selection), its undo, and the preview tree.
#include "core/cluster_commands.h"
#include "core/label_plan.h"
#include "core/topology_paths.h"
#include "gpumap/gpu_occupancy.h"
#include "studio_test_support.h"
#include "tabs/topology_tab.h"
#include "test_registry.h"
#include "workspace.h"

#include <QComboBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QTreeWidget>
#include <QtTest>

using namespace gantry;
using namespace gantry::studio;

class TopologyTest : public QObject {
    Q_OBJECT
  private slots:
    void patterns() {
        Project p = fixtures::loadLab();
        QString error;
        QCOMPARE(nodesMatching(p.cluster, "h100-a0-*", &error)->size(), size_t(24));
        QCOMPARE(nodesMatching(p.cluster, "*-r01-0?", &error)->size(), size_t(8 + 8 + 4 + 8));
        QCOMPARE(nodesMatching(p.cluster, "/l40s-b1-r0[12]-.*/", &error)->size(), size_t(8));
        QCOMPARE(nodesMatching(p.cluster, "cpu-0", &error)->size(), size_t(0)); // globs match whole names
        QVERIFY(!nodesMatching(p.cluster, "/h100-[/", &error));
        QVERIFY(error.contains("regular expression"));
    }

    void numberedValues() {
        LabelPlan plan{"topology.gantry.io/rack", "rack-{n:02}", 4, 1};
        auto v = planValues(plan, 10);
        QCOMPARE(v.front(), std::string("rack-01"));
        QCOMPARE(v[3], std::string("rack-01"));
        QCOMPARE(v[4], std::string("rack-02"));
        QCOMPARE(v.back(), std::string("rack-03"));
        LabelPlan same{"k", "zone-a", 0, 0};
        QCOMPARE(planValues(same, 3), (std::vector<std::string>{"zone-a", "zone-a", "zone-a"}));
        LabelPlan each{"k", "n{i}", 0, 0};
        QCOMPARE(planValues(each, 3), (std::vector<std::string>{"n0", "n1", "n2"}));
        QVERIFY(isValidLabelValue("rack-01"));
        QVERIFY(!isValidLabelValue("rack 01"));
        QVERIFY(!isValidLabelValue("-rack"));
        QVERIFY(isValidLabelKey("topology.gantry.io/rack"));
        QVERIFY(!isValidLabelKey("Topology.Gantry.io/rack"));
        QVERIFY(!isValidLabelKey("rack/"));
    }

    void tabLabelsNodesByPatternAndUndoes() {
        Workspace ws(makeDefaultWhatIfEngine());
        fixtures::openLab(*ws.document());
        TopologyTab tab(&ws);
        tab.patternEdit()->setText("a100-*");
        tab.keyBox()->setEditText("topology.gantry.io/nvlink-island");
        tab.valueEdit()->setText("island-{n}");
        tab.perValueSpin()->setValue(16);
        QCOMPARE(tab.applyLabels(), 32);
        const auto& nodes = ws.document()->project().cluster.nodes;
        std::map<std::string, int> counts;
        for (const auto& n : nodes) {
            auto it = n.labels.find("topology.gantry.io/nvlink-island");
            if (it != n.labels.end()) counts[it->second]++;
        }
        QCOMPARE(counts, (std::map<std::string, int>{{"island-0", 16}, {"island-1", 16}}));
        // Numbering follows natural name order: the first 16 A100 nodes are racks r01 and r02.
        for (const auto& n : nodes)
            if (n.name == "a100-b0-r02-08")
                QCOMPARE(n.labels.at("topology.gantry.io/nvlink-island"), std::string("island-0"));
        QCOMPARE(ws.document()->undoStack()->count(), 1);
        ws.document()->undoStack()->undo();
        for (const auto& n : ws.document()->project().cluster.nodes)
            QVERIFY(!n.labels.count("topology.gantry.io/nvlink-island"));
    }

    void previewShowsTheTreeAndFollowsEdits() {
        Workspace ws(makeDefaultWhatIfEngine());
        fixtures::openLab(*ws.document());
        TopologyTab tab(&ws);
        QTreeWidgetItem* root = tab.preview()->topLevelItem(0);
        QVERIFY(root);
        QCOMPARE(root->text(1), QStringLiteral("100"));
        QCOMPARE(root->childCount(), 2); // two zones
        QCOMPARE(root->child(0)->text(0), QStringLiteral("zone eu-west-1a"));
        QCOMPARE(root->child(0)->text(2), QStringLiteral("384"));
        QCOMPARE(root->child(0)->text(3), QStringLiteral("4")); // zone is tier 4 above nvlink, rack, block
        // Moving the CPU nodes to a third zone adds a branch.
        std::vector<int> cpu;
        for (size_t i = 0; i < ws.document()->project().cluster.nodes.size(); ++i)
            if (ws.document()->project().cluster.nodes[i].name.rfind("cpu-", 0) == 0) cpu.push_back(int(i));
        ws.document()->undoStack()->push(new SetNodeLabelCommand(
            ws.document(), cpu, "topology.kubernetes.io/zone", std::string("eu-west-1c")));
        QCOMPARE(tab.preview()->topLevelItem(0)->childCount(), 3);
        auto tree = buildTopologyTree(ws.document()->project().cluster);
        QCOMPARE(tree.levels.size(), size_t(4));
        QCOMPARE(tree.entries[0].gpus, 704);
    }

    void levelsChangeThroughCommands() {
        ProjectDocument doc;
        fixtures::openLab(doc);
        auto levels = effectiveLevels(doc.project().cluster);
        levels.pop_back(); // drop nvlink
        doc.undoStack()->push(new SetTopologyLevelsCommand(&doc, levels));
        QCOMPARE(buildTopologyTree(doc.project().cluster).levels.size(), size_t(3));
        doc.undoStack()->undo();
        QCOMPARE(buildTopologyTree(doc.project().cluster).levels.size(), size_t(4));
    }
};

GANTRY_TEST(TopologyTest)
#include "test_topology.moc"
