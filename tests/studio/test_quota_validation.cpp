// The quota editor's live checks in each scheduler's terms, and the editor showing them.
#include "core/queue_commands.h"
#include "core/quota_validation.h"
#include "studio_test_support.h"
#include "test_registry.h"
#include "widgets/queue_editor.h"

#include <QLineEdit>
#include <QtTest>

using namespace gantry;
using namespace gantry::studio;

namespace {
bool has(const std::vector<QuotaIssue>& issues, QuotaField field, const std::string& resource,
         const QString& text) {
    for (const auto& i : issues)
        if (i.field == field && i.resource == resource && i.message.contains(text)) return true;
    return false;
}
} // namespace

class QuotaValidationTest : public QObject {
    Q_OBJECT
  private slots:
    void labClusterIsClean() {
        Project p = fixtures::loadLab();
        for (const auto& q : p.cluster.queues) {
            auto issues = validateQueue(p, q.name, TargetScheduler::Volcano);
            for (const auto& i : issues)
                QVERIFY2(i.severity != Severity::Error,
                         qPrintable(QString::fromStdString(q.name) + ": " + i.message));
        }
    }

    void volcanoRules() {
        Project p = fixtures::loadLab();
        Queue nlp = p.cluster.queues[size_t(queueIndex(p, "nlp"))];
        nlp.guarantee.set("nvidia.com/gpu", 200000);  // above deserved 192
        nlp.capability.set("nvidia.com/gpu", 600000); // above research's 560
        auto issues = validateQueue(p, nlp, TargetScheduler::Volcano);
        QVERIFY(has(issues, QuotaField::Low, "nvidia.com/gpu", "exceeds deserved"));
        QVERIFY(has(issues, QuotaField::High, "nvidia.com/gpu", "research"));
        Queue vision = p.cluster.queues[size_t(queueIndex(p, "vision"))];
        vision.deserved.set("nvidia.com/gpu", 200000);
        issues = validateQueue(p, vision, TargetScheduler::Volcano);
        QVERIFY(has(issues, QuotaField::Share, "nvidia.com/gpu", "siblings"));
        Queue research = p.cluster.queues[size_t(queueIndex(p, "research"))];
        research.deserved.set("nvidia.com/gpu", 300000); // children add up to 352
        issues = validateQueue(p, research, TargetScheduler::Volcano);
        QVERIFY(has(issues, QuotaField::Share, "nvidia.com/gpu", "children"));
        Queue bad = research;
        bad.name = "Research_Team";
        p.cluster.queues.push_back(bad);
        QVERIFY(has(validateQueue(p, "Research_Team", TargetScheduler::Volcano), QuotaField::Share, "",
                    "not a valid Kubernetes name"));
        QVERIFY(!has(validateQueue(p, "Research_Team", TargetScheduler::YuniKorn), QuotaField::Share, "",
                     "YuniKorn"));
    }

    // Volcano counts a guarantee the parent does not set as 0 (volcano#5634: the export sets it to the
    // children's sum, the editor warns), and a capability above
    // the cluster's stops its scheduler altogether (volcano#4819).
    void volcanoRulesThatBreakTheScheduler() {
        Project p;
        Node node;
        node.name = "gpu-1";
        node.allocatable.set("nvidia.com/gpu", 8000);
        p.cluster.nodes = {node};
        Queue org;
        org.name = "org";
        org.deserved.set("nvidia.com/gpu", 8000);
        Queue team;
        team.name = "team";
        team.parent = "org";
        team.deserved.set("nvidia.com/gpu", 4000);
        team.guarantee.set("nvidia.com/gpu", 2000);
        team.capability.set("nvidia.com/gpu", 16000);
        p.cluster.queues = {org, team};
        auto issues = validateQueue(p, "team", TargetScheduler::Volcano);
        QVERIFY(has(issues, QuotaField::High, "nvidia.com/gpu",
                    "capability 16 is more than the cluster has (8)"));
        issues = validateQueue(p, "org", TargetScheduler::Volcano);
        QVERIFY(has(issues, QuotaField::Low, "nvidia.com/gpu",
                    "no guarantee set while the children's add up to 2: Volcano counts it as 0"));
        p.cluster.queues[0].guarantee.set("nvidia.com/gpu", 2000);
        p.cluster.queues[1].capability.set("nvidia.com/gpu", 8000);
        for (const char* q : {"org", "team"}) QVERIFY(validateQueue(p, q, TargetScheduler::Volcano).empty());
    }

    void kueueRules() {
        Project p;
        Queue cq;
        cq.name = "solo";
        cq.kind = Queue::Kind::KueueClusterQueue;
        cq.resourceGroups = {ResourceGroup{
            {"nvidia.com/gpu"}, {FlavorQuotas{"h100", {ResourceQuota{"nvidia.com/gpu", 8000, 4000, 9000}}}}}};
        p.cluster.queues = {cq};
        auto issues = validateQueue(p, "solo", TargetScheduler::Kueue);
        QVERIFY(has(issues, QuotaField::High, "nvidia.com/gpu", "needs a cohort"));
        QVERIFY(has(issues, QuotaField::Low, "nvidia.com/gpu", "needs a cohort"));
        QVERIFY(has(issues, QuotaField::Low, "nvidia.com/gpu", "exceeds nominal"));
    }

    void yunikornRules() {
        Project p;
        Queue parent;
        parent.name = "org";
        parent.max.set("nvidia.com/gpu", 16000);
        parent.maxApplications = 10;
        Queue child;
        child.name = "team.a";
        child.parent = "org";
        child.guaranteed.set("nvidia.com/gpu", 8000);
        child.max.set("nvidia.com/gpu", 32000);
        p.cluster.queues = {parent, child};
        auto issues = validateQueue(p, "team.a", TargetScheduler::YuniKorn);
        QVERIFY(has(issues, QuotaField::High, "nvidia.com/gpu", "ancestor org"));
        QVERIFY(has(issues, QuotaField::Share, "", "no dots"));
        QVERIFY(has(issues, QuotaField::Share, "", "max applications"));
        // A child's guaranteed above its parent's max: YuniKorn refuses the whole configuration.
        p.cluster.queues[1].guaranteed.set("nvidia.com/gpu", 24000);
        issues = validateQueue(p, "team.a", TargetScheduler::YuniKorn);
        QVERIFY(
            has(issues, QuotaField::Share, "nvidia.com/gpu", "guaranteed 24 exceeds ancestor org's max 16"));
    }

    void editorShowsMessagesWhileTypingAndCommitsOnLeave() {
        ProjectDocument doc;
        fixtures::openLab(doc);
        QueueEditor editor(&doc);
        editor.setQueue("vision");
        QLineEdit* deserved = editor.quotaField("nvidia.com/gpu", QuotaField::Share);
        QVERIFY(deserved);
        QCOMPARE(deserved->text(), QStringLiteral("112"));
        deserved->setText("200");
        emit deserved->textEdited("200");
        QVERIFY(editor.messageFor("nvidia.com/gpu").contains("siblings"));
        QCOMPARE(doc.undoStack()->count(), 0); // nothing committed while typing
        deserved->setText("12 GPUs");
        emit deserved->textEdited("12 GPUs");
        QVERIFY(editor.messageFor("nvidia.com/gpu").contains("not a quantity"));
        deserved->setText("96");
        emit deserved->textEdited("96");
        QVERIFY(editor.messageFor("nvidia.com/gpu").isEmpty());
        emit deserved->editingFinished();
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(doc.project().cluster.queues[size_t(queueIndex(doc.project(), "vision"))].deserved.get(
                     "nvidia.com/gpu"),
                 int64_t(96000));
        doc.undoStack()->undo();
        QCOMPARE(editor.quotaField("nvidia.com/gpu", QuotaField::Share)->text(), QStringLiteral("112"));
    }
};

GANTRY_TEST(QuotaValidationTest)
#include "test_quota_validation.moc"
