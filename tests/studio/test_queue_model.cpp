// The queue tree model over the lab cluster: structure, editing quotas through the model with undo,
// re-parenting by drag and drop, renaming with references, removal of a subtree.
#include "core/queue_commands.h"
#include "models/queue_tree_model.h"
#include "studio_test_support.h"
#include "test_registry.h"

#include <QAbstractItemModelTester>
#include <QMimeData>
#include <QSignalSpy>
#include <QtTest>

using namespace gantry;
using namespace gantry::studio;

namespace {
const Queue& queueNamed(const ProjectDocument& doc, const std::string& name) {
    return doc.project().cluster.queues[size_t(queueIndex(doc.project(), name))];
}
} // namespace

class QueueModelTest : public QObject {
    Q_OBJECT
  private slots:
    void treeFollowsTheParents() {
        ProjectDocument doc;
        QueueTreeModel model(&doc);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        fixtures::openLab(doc);
        QCOMPARE(model.rowCount(), 3); // research, production, platform
        QModelIndex research = model.indexOfQueue("research");
        QVERIFY(research.isValid());
        QCOMPARE(research.parent(), QModelIndex());
        QCOMPARE(model.rowCount(research), 3);
        QModelIndex nlp = model.indexOfQueue("nlp");
        QCOMPARE(nlp.parent(), research);
        QCOMPARE(model.data(nlp).toString(), QStringLiteral("nlp"));
        // Volcano's terms in the headers; the GPU columns show deserved etc. of nvidia.com/gpu.
        QCOMPARE(model.headerData(QueueTreeModel::QuotaB, Qt::Horizontal).toString(),
                 QStringLiteral("Deserved (GPU)"));
        QCOMPARE(model.data(nlp.siblingAtColumn(QueueTreeModel::QuotaB)).toString(), QStringLiteral("192"));
        QCOMPARE(model.data(nlp.siblingAtColumn(QueueTreeModel::QuotaA)).toString(), QStringLiteral("64"));
        // Share of the parent: 192 of research's 352.
        QVERIFY(std::abs(model.data(nlp, QueueTreeModel::ShareRole).toDouble() - 192.0 / 352.0) < 1e-9);
        QVERIFY(std::abs(model.data(nlp, QueueTreeModel::SiblingShareRole).toDouble() - 1.0) < 1e-9);
        // Top level compares with the cluster: 352 of 704.
        QVERIFY(std::abs(model.data(research, QueueTreeModel::ShareRole).toDouble() - 0.5) < 1e-9);
        QVERIFY(model.data(research, QueueTreeModel::ProblemRole).toString().isEmpty());
    }

    void editQuotaThroughTheModelAndUndo() {
        ProjectDocument doc;
        fixtures::openLab(doc);
        QueueTreeModel model(&doc);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QModelIndex deserved = model.indexOfQueue("vision", QueueTreeModel::QuotaB);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QVERIFY(model.setData(deserved, "128"));
        QCOMPARE(queueNamed(doc, "vision").deserved.get("nvidia.com/gpu"), int64_t(128000));
        QCOMPARE(model.data(deserved).toString(), QStringLiteral("128"));
        QVERIFY(changed.count() > 0);
        QVERIFY(doc.isModified());
        // 192 + 128 + 48 > research's 352: the model reports the problem on the queue.
        QVERIFY(
            model.data(model.indexOfQueue("vision"), QueueTreeModel::ProblemRole).toString().contains("352"));
        doc.undoStack()->undo();
        QCOMPARE(queueNamed(doc, "vision").deserved.get("nvidia.com/gpu"), int64_t(112000));
        QCOMPARE(model.data(deserved).toString(), QStringLiteral("112"));
        QVERIFY(!doc.isModified());
        doc.undoStack()->redo();
        QCOMPARE(queueNamed(doc, "vision").deserved.get("nvidia.com/gpu"), int64_t(128000));
    }

    void badQuantitiesAreRefused() {
        ProjectDocument doc;
        fixtures::openLab(doc);
        QueueTreeModel model(&doc);
        QSignalSpy refused(&model, &QueueTreeModel::refused);
        QModelIndex cap = model.indexOfQueue("rl", QueueTreeModel::QuotaC);
        QVERIFY(!model.setData(cap, "12 GPUs"));
        QVERIFY(!model.setData(cap, "-4"));
        QCOMPARE(refused.count(), 2);
        QCOMPARE(doc.undoStack()->count(), 0);
        // Empty clears the field (no cap).
        QVERIFY(model.setData(cap, ""));
        QVERIFY(!queueNamed(doc, "rl").capability.has("nvidia.com/gpu"));
        QVERIFY(!model.setData(model.indexOfQueue("rl", QueueTreeModel::Weight), "0"));
        QVERIFY(model.setData(model.indexOfQueue("rl", QueueTreeModel::Weight), "7"));
        QCOMPARE(queueNamed(doc, "rl").weight, 7);
    }

    void reparentByDragAndDrop() {
        ProjectDocument doc;
        fixtures::openLab(doc);
        QueueTreeModel model(&doc);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        std::unique_ptr<QMimeData> mime(model.mimeData({model.indexOfQueue("rl")}));
        QVERIFY(mime);
        QModelIndex production = model.indexOfQueue("production");
        QVERIFY(model.canDropMimeData(mime.get(), Qt::MoveAction, -1, -1, production));
        QVERIFY(model.dropMimeData(mime.get(), Qt::MoveAction, -1, -1, production));
        QCOMPARE(queueNamed(doc, "rl").parent, std::string("production"));
        QCOMPARE(model.indexOfQueue("rl").parent(), model.indexOfQueue("production"));
        QCOMPARE(model.rowCount(model.indexOfQueue("research")), 2);
        QCOMPARE(model.rowCount(model.indexOfQueue("production")), 3);
        // Onto empty space: the top level.
        std::unique_ptr<QMimeData> again(model.mimeData({model.indexOfQueue("rl")}));
        QVERIFY(model.dropMimeData(again.get(), Qt::MoveAction, -1, -1, QModelIndex()));
        QCOMPARE(queueNamed(doc, "rl").parent, std::string());
        QCOMPARE(model.rowCount(), 4);
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QCOMPARE(queueNamed(doc, "rl").parent, std::string("research"));
        QCOMPARE(model.rowCount(model.indexOfQueue("research")), 3);
    }

    void dropsThatWouldMakeACycleAreRefused() {
        ProjectDocument doc;
        fixtures::openLab(doc);
        QueueTreeModel model(&doc);
        std::unique_ptr<QMimeData> mime(model.mimeData({model.indexOfQueue("research")}));
        QVERIFY(!model.canDropMimeData(mime.get(), Qt::MoveAction, -1, -1, model.indexOfQueue("nlp")));
        QVERIFY(!model.canDropMimeData(mime.get(), Qt::MoveAction, -1, -1, model.indexOfQueue("research")));
        QSignalSpy refused(&model, &QueueTreeModel::refused);
        QVERIFY(!model.dropMimeData(mime.get(), Qt::MoveAction, -1, -1, model.indexOfQueue("nlp")));
        QCOMPARE(refused.count(), 1);
        QVERIFY(refused.first().first().toString().contains("own children"));
        QCOMPARE(queueNamed(doc, "research").parent, std::string("root"));
    }

    void renameCarriesTheReferences() {
        ProjectDocument doc;
        fixtures::openLab(doc);
        QueueTreeModel model(&doc);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        int groupsInNlp = 0;
        for (const auto& g : doc.project().cluster.podGroups) groupsInNlp += g.queue == "nlp";
        QVERIFY(groupsInNlp > 0);
        QVERIFY(model.setData(model.indexOfQueue("nlp"), "language"));
        QVERIFY(queueIndex(doc.project(), "nlp") < 0);
        QCOMPARE(queueNamed(doc, "language").parent, std::string("research"));
        int moved = 0;
        for (const auto& g : doc.project().cluster.podGroups) moved += g.queue == "language";
        QCOMPARE(moved, groupsInNlp);
        QSignalSpy refused(&model, &QueueTreeModel::refused);
        QVERIFY(!model.setData(model.indexOfQueue("language"), "vision")); // taken
        QCOMPARE(refused.count(), 1);
        doc.undoStack()->undo();
        QVERIFY(queueIndex(doc.project(), "nlp") >= 0);
    }

    void removeTakesTheSubtreeAndUndoRestoresOrder() {
        ProjectDocument doc;
        fixtures::openLab(doc);
        QueueTreeModel model(&doc);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto before = doc.project().cluster.queues;
        doc.undoStack()->push(new RemoveQueueCommand(&doc, "research"));
        QCOMPARE(doc.project().cluster.queues.size(), before.size() - 4);
        QCOMPARE(model.rowCount(), 2);
        doc.undoStack()->undo();
        QVERIFY(doc.project().cluster.queues == before);
        QCOMPARE(model.rowCount(), 3);
        Queue q;
        q.name = uniqueQueueName(doc.project(), "nlp");
        QCOMPARE(q.name, std::string("nlp-2"));
        q.parent = "platform";
        doc.undoStack()->push(new AddQueueCommand(&doc, q));
        QCOMPARE(model.rowCount(model.indexOfQueue("platform")), 3);
    }

    void kueueTermsAndClusterQueuesTakeNoChildren() {
        ProjectDocument doc;
        Project p;
        Queue cohort;
        cohort.name = "org";
        cohort.kind = Queue::Kind::KueueCohort;
        Queue cq;
        cq.name = "team-a";
        cq.parent = "org";
        cq.kind = Queue::Kind::KueueClusterQueue;
        cq.resourceGroups = {
            ResourceGroup{{"nvidia.com/gpu"},
                          {FlavorQuotas{"h100", {ResourceQuota{"nvidia.com/gpu", 16000, 8000, 4000}}},
                           FlavorQuotas{"a100", {ResourceQuota{"nvidia.com/gpu", 8000, {}, {}}}}}}};
        Queue other = cq;
        other.name = "team-b";
        p.cluster.queues = {cohort, cq, other};
        p.target = TargetScheduler::Kueue;
        doc.replace(p, {}, {});
        QueueTreeModel model(&doc);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.headerData(QueueTreeModel::QuotaA, Qt::Horizontal).toString(),
                 QStringLiteral("Nominal (GPU)"));
        QCOMPARE(model.data(model.indexOfQueue("team-a", QueueTreeModel::QuotaA)).toString(),
                 QStringLiteral("24")); // summed over flavors
        // Borrowing limit: one flavor is unlimited, so the sum is "no limit".
        QCOMPARE(model.data(model.indexOfQueue("team-a", QueueTreeModel::QuotaB)).toString(), QString());
        std::unique_ptr<QMimeData> mime(model.mimeData({model.indexOfQueue("team-b")}));
        QVERIFY(!model.canDropMimeData(mime.get(), Qt::MoveAction, -1, -1, model.indexOfQueue("team-a")));
        QVERIFY(model.canDropMimeData(mime.get(), Qt::MoveAction, -1, -1, QModelIndex()));
    }
};

GANTRY_TEST(QueueModelTest)
#include "test_queue_model.moc"
