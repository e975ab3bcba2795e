// The Policy tab's Kueue and YuniKorn pages edit each scheduler's own policy in its own terms: what
// they set is what the profile runs and the export writes; a value the scheduler refuses is shown
// and not applied; every edit is one undo step.
#include "core/project_files.h"
#include "export/export.h"
#include "policy/kueue_policy_editor.h"
#include "policy/yunikorn_policy_editor.h"
#include "studio_test_support.h"
#include "test_registry.h"
#include "workspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QTreeWidget>
#include <QUndoStack>
#include <QtTest>

using namespace gantry;
using namespace gantry::studio;

namespace {

Project load(const char* rel) {
    return loadFile(QStringLiteral(GANTRY_SOURCE_DIR "/tests/data/") + rel).project;
}

void type(QLineEdit* e, const QString& text) {
    e->setText(text);
    e->setModified(true);
    emit e->editingFinished();
}

void choose(QComboBox* box, int index) {
    box->setCurrentIndex(index);
    emit box->activated(index);
}

} // namespace

class PolicyPagesTest : public QObject {
    Q_OBJECT
  private slots:
    void kueuePageEditsKueuesConfiguration() {
        Workspace ws(makeDefaultWhatIfEngine());
        ws.document()->replace(load("export/manifests/valid-kueue-cohorts.yaml"), QString(), QString());
        QVERIFY(!ws.document()->project().kueue); // Kueue's install defaults
        KueuePolicyEditor page(&ws);
        QUndoStack* undo = ws.document()->undoStack();

        auto* fairSharing = page.findChild<QCheckBox*>("kueueFairSharing");
        QVERIFY(!fairSharing->isChecked());
        fairSharing->click();
        QVERIFY(ws.document()->project().kueue && ws.document()->project().kueue->fairSharing);
        undo->undo();
        QVERIFY(!ws.document()->project().kueue);
        undo->redo();

        page.findChild<QCheckBox*>("kueueAdmissionFairSharing")->click();
        QVERIFY(ws.document()->project().kueue->admissionFairSharing);
        // Kueue reads usageHalfLifeTime as a Go duration (metav1.Duration): "6 hours" is refused
        // where it was typed, "6h" is 21600 s.
        auto* halfLife = page.findChild<QLineEdit*>("kueueUsageHalfLifeTime");
        auto* error = page.findChild<QLabel*>("kueueError");
        const int steps = undo->count();
        type(halfLife, "6 hours");
        QVERIFY(!error->isHidden());
        QVERIFY2(error->text().contains("usageHalfLifeTime"), qPrintable(error->text()));
        QCOMPARE(undo->count(), steps);
        QCOMPARE(halfLife->text(), QStringLiteral("6 hours")); // kept, to be corrected
        type(halfLife, "6h");
        QVERIFY(error->isHidden());
        QCOMPARE(ws.document()->project().kueue->admissionFairSharing->usageHalfLifeSeconds, 21600.0);
        QCOMPARE(policiesOf(ws.document()->project()).kueue.admissionFairSharing->usageHalfLifeSeconds,
                 21600.0);

        // A ClusterQueue's preemption is the queue's own, and the export writes it.
        auto* table = page.findChild<QTableWidget*>("kueuePreemption");
        QVERIFY(table->rowCount() > 0);
        const std::string queue = table->item(0, 0)->data(Qt::UserRole).toString().toStdString();
        auto* within = qobject_cast<QComboBox*>(table->cellWidget(0, 1));
        choose(within, within->findText("LowerPriority"));
        QCOMPARE(ws.document()->project().cluster.findQueue(queue)->preemption.withinClusterQueue,
                 std::string("LowerPriority"));

        // The ClusterQueue CRD's own rule (x-kubernetes-validations on spec.preemption): borrowing
        // within the cohort needs reclaimWithinCohort; refused on a queue that reclaims Never.
        int never = -1;
        for (int r = 0; r < table->rowCount(); ++r)
            if (qobject_cast<QComboBox*>(table->cellWidget(r, 2))->currentText() == "Never") never = r;
        QVERIFY(never >= 0);
        const std::string neverQueue = table->item(never, 0)->data(Qt::UserRole).toString().toStdString();
        auto* borrow = qobject_cast<QComboBox*>(table->cellWidget(never, 3));
        const int before = undo->count();
        choose(borrow, borrow->findText("LowerPriority"));
        QVERIFY2(error->text().contains("reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never"),
                 qPrintable(error->text()));
        QCOMPARE(undo->count(), before);
        QCOMPARE(ws.document()->project().cluster.findQueue(neverQueue)->preemption.borrowWithinCohort,
                 std::string("Never"));

        ExportOptions o;
        o.target = TargetScheduler::Kueue;
        bool configMap = false;
        for (const auto& x : exportProject(ws.document()->project(), o).objects)
            if (x.object["kind"] == "ConfigMap") {
                configMap = true;
                const std::string text = x.object["data"]["controller_manager_config.yaml"];
                QVERIFY2(text.find("usageHalfLifeTime: 6h") != std::string::npos, text.c_str());
            }
        QVERIFY(configMap);
    }

    void yunikornPageEditsThePartition() {
        Workspace ws(makeDefaultWhatIfEngine());
        const Project original = load("export/roundtrip/yunikorn-placement-filters.yaml");
        ws.document()->replace(original, QString(), QString());
        YuniKornPolicyEditor page(&ws);
        QUndoStack* undo = ws.document()->undoStack();

        // Preemption off: YuniKorn's partition flag, written as preemption.enabled: false.
        choose(page.findChild<QComboBox*>("yunikornPreemption"), 2);
        QCOMPARE(ws.document()->project().cluster.yunikorn->preemptionEnabled, std::optional<bool>(false));
        undo->undo();
        QVERIFY(ws.document()->project().cluster.yunikorn == original.cluster.yunikorn);
        undo->redo();

        // Binpacking with weights.
        choose(page.findChild<QComboBox*>("yunikornNodeSort"), 2);
        QCOMPARE(ws.document()->project().cluster.yunikorn->nodeSortPolicy, std::string("binpacking"));

        // A fixed rule needs a queue (yunikorn-core placement/fixed_rule.go): refused, nothing lost.
        auto* rules = page.findChild<QTreeWidget*>("yunikornRules");
        rules->setCurrentItem(rules->topLevelItem(0));
        const auto before = ws.document()->project().cluster.yunikorn;
        choose(page.findChild<QComboBox*>("yunikornRuleName"), 3); // fixed
        QCOMPARE(page.findChild<QComboBox*>("yunikornRuleName")->currentText(), QStringLiteral("fixed"));
        auto* error = page.findChild<QLabel*>("yunikornError");
        QVERIFY(!error->isHidden());
        QVERIFY2(error->text().contains("fixed"), qPrintable(error->text()));
        QVERIFY(ws.document()->project().cluster.yunikorn == before);
        // A fully qualified queue under a parent rule is refused too (fixed_rule.go: "illegal fully
        // qualified 'fixed' rule"); a name under the parent's root.platform is taken, in first place.
        type(page.findChild<QLineEdit*>("yunikornRuleValue"), "root.platform.ops");
        QVERIFY2(error->text().contains("illegal fully qualified"), qPrintable(error->text()));
        QVERIFY(ws.document()->project().cluster.yunikorn == before);
        type(page.findChild<QLineEdit*>("yunikornRuleValue"), "ops");
        QVERIFY2(error->isHidden(), qPrintable(error->text()));
        const auto& first = ws.document()->project().cluster.yunikorn->placementRules.front();
        QCOMPARE(first.name, std::string("fixed"));
        QCOMPARE(first.value, std::string("ops"));
        QCOMPARE(first.parent.front().value, std::string("root.platform"));

        // Adding a rule appends YuniKorn's provided rule, last.
        page.findChild<QPushButton*>("yunikornAddRule")->click();
        QCOMPARE(ws.document()->project().cluster.yunikorn->placementRules.size(), size_t(4));
        QCOMPARE(ws.document()->project().cluster.yunikorn->placementRules.back().name,
                 std::string("provided"));
    }
};

GANTRY_TEST(PolicyPagesTest)
#include "test_policy_pages.moc"
