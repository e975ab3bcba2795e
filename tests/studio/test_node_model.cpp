// The node table: flat and grouped, sorted and filtered by NodeFilterProxy, following label edits.
#include "core/cluster_commands.h"
#include "models/node_table_model.h"
#include "studio_test_support.h"
#include "test_registry.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace gantry;
using namespace gantry::studio;

class NodeModelTest : public QObject {
    Q_OBJECT
  private slots:
    void flatTableListsEveryNode() {
        ProjectDocument doc;
        NodeTableModel model(&doc);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        fixtures::openLab(doc);
        QCOMPARE(model.rowCount(), 100);
        // Name, Status, Pool, zone, block, rack, nvlink, then the tail.
        QCOMPARE(model.columnCount(), 3 + 4 + NodeTableModel::TailCount);
        QCOMPARE(model.headerData(model.levelColumn(2), Qt::Horizontal).toString(), QStringLiteral("Rack"));
        int h100 = -1;
        for (int r = 0; r < model.rowCount(); ++r)
            if (model.data(model.index(r, 0)).toString() == "h100-a0-r01-01") h100 = r;
        QVERIFY(h100 >= 0);
        QCOMPARE(model.data(model.index(h100, NodeTableModel::Pool)).toString(),
                 QStringLiteral("p5.48xlarge"));
        QCOMPARE(model.data(model.index(h100, model.levelColumn(0))).toString(),
                 QStringLiteral("eu-west-1a"));
        QCOMPARE(model.data(model.index(h100, model.tailColumn(NodeTableModel::Gpus))).toInt(), 8);
        QCOMPARE(model.data(model.index(h100, model.tailColumn(NodeTableModel::GpuModel))).toString(),
                 QStringLiteral("NVIDIA-H100-80GB-HBM3"));
    }

    void groupingByRackAndModel() {
        ProjectDocument doc;
        fixtures::openLab(doc);
        NodeTableModel model(&doc);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setGrouping({NodeGrouping::Kind::GpuModel, -1});
        QCOMPARE(model.rowCount(), 4); // A100, H100, L40S, no GPU
        int total = 0;
        for (int g = 0; g < model.rowCount(); ++g) {
            QModelIndex group = model.index(g, 0);
            total += model.rowCount(group);
            QCOMPARE(model.nodeAt(group), -1);
            for (int r = 0; r < model.rowCount(group); ++r) {
                int node = model.nodeAt(model.index(r, 0, group));
                QCOMPARE(model.indexOfNode(node), model.index(r, 0, group));
            }
        }
        QCOMPARE(total, 100);
        model.setGrouping({NodeGrouping::Kind::Level, 2}); // rack
        QCOMPARE(model.rowCount(), 15);
        QCOMPARE(model.data(model.index(0, 0)).toString(), QStringLiteral("a0-r01"));
        QCOMPARE(model.data(model.index(0, model.tailColumn(NodeTableModel::Gpus))).toLongLong(), 64LL);
    }

    void occupancyFillsTheInUseColumn() {
        ProjectDocument doc;
        fixtures::openLab(doc);
        NodeTableModel model(&doc);
        auto occ = std::make_shared<GpuOccupancy>();
        occ->gpuOffset.assign(101, 0);
        int g = 0;
        for (int i = 0; i < 100; ++i) {
            occ->gpuOffset[size_t(i)] = g;
            g += gpuDeviceCount(doc.project().cluster.nodes[size_t(i)]);
        }
        occ->gpuOffset[100] = g;
        occ->usedMilli.assign(size_t(g), 500);
        model.setOccupancy(occ);
        QCOMPARE(model.data(model.index(0, model.tailColumn(NodeTableModel::GpusUsed))).toString(),
                 QStringLiteral("4"));
    }

    void filterQueries() {
        ProjectDocument doc;
        fixtures::openLab(doc);
        NodeTableModel model(&doc);
        NodeFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setFilterQuery("a0-r01");
        QCOMPARE(proxy.rowCount(), 8);
        proxy.setFilterQuery("nvidia.com/gpu.product=NVIDIA-L40S");
        QCOMPARE(proxy.rowCount(), 16);
        proxy.setFilterQuery("l40s !b1-r01");
        QCOMPARE(proxy.rowCount(), 12);
        proxy.setFilterQuery("cordoned");
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setFilterQuery("nvidia.com/gpu.clique=*");
        QCOMPARE(proxy.rowCount(), 48);
        auto matches = proxy.matchVector(doc.project().cluster, model.levels());
        QCOMPARE(std::count(matches.begin(), matches.end(), 1), 48L);
        // Grouped: only groups with a matching node remain, with just those nodes.
        model.setGrouping({NodeGrouping::Kind::Level, 0});
        proxy.setFilterQuery("a100");
        QCOMPARE(proxy.rowCount(), 1);
        QCOMPARE(proxy.rowCount(proxy.index(0, 0)), 32);
        proxy.setFilterQuery("");
        QCOMPARE(proxy.rowCount(), 2);
    }

    void sortingIsNaturalAndNumeric() {
        ProjectDocument doc;
        fixtures::openLab(doc);
        NodeTableModel model(&doc);
        NodeFilterProxy proxy;
        proxy.setSourceModel(&model);
        proxy.sort(model.tailColumn(NodeTableModel::Gpus), Qt::DescendingOrder);
        QCOMPARE(proxy.data(proxy.index(0, model.tailColumn(NodeTableModel::Gpus))).toInt(), 8);
        QCOMPARE(proxy.data(proxy.index(99, model.tailColumn(NodeTableModel::Gpus))).toInt(), 0);
        proxy.sort(0, Qt::AscendingOrder);
        QCOMPARE(proxy.data(proxy.index(0, 0)).toString(), QStringLiteral("a100-b0-r01-01"));
    }

    void labelEditsReachTheTableAndRegroup() {
        ProjectDocument doc;
        fixtures::openLab(doc);
        NodeTableModel model(&doc);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setGrouping({NodeGrouping::Kind::Level, 0}); // zone
        QCOMPARE(model.rowCount(), 2);
        std::vector<int> cpuNodes;
        for (size_t i = 0; i < doc.project().cluster.nodes.size(); ++i)
            if (doc.project().cluster.nodes[i].name.rfind("cpu-", 0) == 0) cpuNodes.push_back(int(i));
        doc.undoStack()->push(new SetNodeLabelCommand(&doc, cpuNodes, "topology.kubernetes.io/zone",
                                                      std::string("eu-west-1c")));
        QCOMPARE(model.rowCount(), 3);
        doc.undoStack()->undo();
        QCOMPARE(model.rowCount(), 2);
        model.setGrouping({});
        doc.undoStack()->push(new SetNodeLabelCommand(&doc, {0}, "topology.gantry.io/rack", std::nullopt));
        QCOMPARE(model.data(model.index(0, model.levelColumn(2))).toString(), QString());
        doc.undoStack()->undo();
        QCOMPARE(model.data(model.index(0, model.levelColumn(2))).toString(), QStringLiteral("a0-r01"));
    }
};

GANTRY_TEST(NodeModelTest)
#include "test_node_model.moc"
