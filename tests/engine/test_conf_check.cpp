// checkSchedulerConf on configurations read from text: located errors and warnings.
#include "input_error.h"
#include "kube_scheduler_config_reader.h"
#include "profiles/volcano/volcano_profile.h"
#include "test_registry.h"
#include "volcano/scheduler_conf_reader.h"

#include <QtTest>

using namespace gantry;

namespace {

Diagnostics check(const std::string& text) {
    TextOrigin origin;
    origin.file = "volcano-scheduler.conf";
    return checkSchedulerConf(parseSchedulerConf(text, origin));
}

const Diagnostic* find(const Diagnostics& ds, Severity sev, const std::string& part) {
    for (const auto& d : ds)
        if (d.severity == sev && d.message.find(part) != std::string::npos) return &d;
    return nullptr;
}

} // namespace

class ConfCheckTest : public QObject {
    Q_OBJECT
  private slots:
    void unknownNamesAreLocatedErrors() {
        const auto ds = check("actions: \"enqueue, alocate\"\n"
                              "tiers:\n"
                              "- plugins:\n"
                              "  - name: gang\n"
                              "  - name: binpak\n");
        const Diagnostic* action = find(ds, Severity::Error, "alocate");
        QVERIFY(action);
        QCOMPARE(action->where.line, 1);
        const Diagnostic* plugin = find(ds, Severity::Error, "binpak");
        QVERIFY(plugin);
        QCOMPARE(plugin->where.line, 5);
    }
    void capacityWithProportion() {
        const auto ds = check("actions: \"allocate\"\n"
                              "tiers:\n"
                              "- plugins:\n"
                              "  - name: proportion\n"
                              "  - name: capacity\n");
        const Diagnostic* d = find(ds, Severity::Error, "capacity and proportion");
        QVERIFY(d);
        QCOMPARE(d->where.line, 5);
        // capacity only ordering queues next to proportion is what upstream's own test does: a warning.
        const auto ok = check("actions: \"preempt\"\n"
                              "tiers:\n"
                              "- plugins:\n"
                              "  - name: proportion\n"
                              "  - name: capacity\n"
                              "    enableQueueOrder: true\n"
                              "    enabledAllocatable: false\n"
                              "    enabledOverused: false\n"
                              "    enableReclaimable: false\n"
                              "    enablePreemptive: false\n"
                              "    enableJobEnqueued: false\n");
        QVERIFY(!hasErrors(ok));
        QVERIFY(find(ok, Severity::Warning, "capacity and proportion"));
    }
    void hierarchicalDrfWithProportion() {
        const auto ds = check("actions: \"allocate\"\n"
                              "tiers:\n"
                              "- plugins:\n"
                              "  - name: drf\n"
                              "    enableHierarchy: true\n"
                              "  - name: proportion\n");
        QVERIFY(find(ds, Severity::Error, "drf with enableHierarchy"));
    }
    void badArgumentTypes() {
        const auto ds = check("actions: \"allocate\"\n"
                              "tiers:\n"
                              "- plugins:\n"
                              "  - name: binpack\n"
                              "    arguments:\n"
                              "      binpack.weight: heavy\n"
                              "  - name: overcommit\n"
                              "    arguments:\n"
                              "      overcommit-factor: x\n");
        const Diagnostic* w = find(ds, Severity::Error, "binpack.weight");
        QVERIFY(w);
        QCOMPARE(w->where.line, 4);
        QVERIFY(find(ds, Severity::Error, "overcommit-factor"));
    }
    void defaultConfigurationIsClean() {
        const auto ds = check("actions: \"enqueue, allocate, backfill\"\n"
                              "tiers:\n"
                              "- plugins:\n"
                              "  - name: priority\n"
                              "  - name: gang\n"
                              "  - name: conformance\n"
                              "- plugins:\n"
                              "  - name: overcommit\n"
                              "  - name: drf\n"
                              "  - name: predicates\n"
                              "  - name: proportion\n"
                              "  - name: nodeorder\n"
                              "  - name: binpack\n");
        QVERIFY(!hasErrors(ds));
    }
};

class KubeConfigTest : public QObject {
    Q_OBJECT
  private slots:
    void readsScoringStrategy() {
        const auto p = parseKubeSchedulerConfig("apiVersion: kubescheduler.config.k8s.io/v1\n"
                                                "kind: KubeSchedulerConfiguration\n"
                                                "profiles:\n"
                                                "- schedulerName: default-scheduler\n"
                                                "  pluginConfig:\n"
                                                "  - name: NodeResourcesFit\n"
                                                "    args:\n"
                                                "      scoringStrategy:\n"
                                                "        type: MostAllocated\n"
                                                "        resources:\n"
                                                "        - name: nvidia.com/gpu\n"
                                                "          weight: 5\n",
                                                "kube.yaml");
        QCOMPARE(p.strategy, KubeSchedulerProfile::Strategy::MostAllocated);
        QCOMPARE(p.resourceWeights.size(), size_t(1));
        QCOMPARE(p.resourceWeights[0].second, int64_t(5));
    }
    // DefaultPreemption: on by default, off when postFilter (or multiPoint) disables it, its
    // DefaultPreemptionArgs read and validated as ValidateDefaultPreemptionArgs does.
    void readsDefaultPreemption() {
        const std::string head = "apiVersion: kubescheduler.config.k8s.io/v1\n"
                                 "kind: KubeSchedulerConfiguration\n"
                                 "profiles:\n"
                                 "- schedulerName: default-scheduler\n";
        QVERIFY(parseKubeSchedulerConfig(head, "kube.yaml").preemption);
        QVERIFY(!parseKubeSchedulerConfig(head + "  plugins:\n    postFilter:\n      disabled:\n"
                                                 "      - name: DefaultPreemption\n",
                                          "kube.yaml")
                     .preemption);
        QVERIFY(!parseKubeSchedulerConfig(
                     head + "  plugins:\n    multiPoint:\n      disabled:\n      - name: '*'\n", "kube.yaml")
                     .preemption);
        const auto p = parseKubeSchedulerConfig(head + "  pluginConfig:\n  - name: DefaultPreemption\n"
                                                       "    args:\n      minCandidateNodesPercentage: 40\n"
                                                       "      minCandidateNodesAbsolute: 2\n",
                                                "kube.yaml");
        QCOMPARE(p.minCandidateNodesPercentage, 40);
        QCOMPARE(p.minCandidateNodesAbsolute, 2);
        try {
            parseKubeSchedulerConfig(head + "  pluginConfig:\n  - name: DefaultPreemption\n"
                                            "    args:\n      minCandidateNodesPercentage: 140\n",
                                     "kube.yaml");
            QFAIL("expected an error");
        } catch (const InputError& e) {
            QCOMPARE(e.diagnostic().where.line, 8);
            QVERIFY(QString::fromStdString(e.diagnostic().message).contains("0..100"));
        }
    }
    void badValuesAreLocated() {
        try {
            parseKubeSchedulerConfig("apiVersion: kubescheduler.config.k8s.io/v1\n"
                                     "kind: KubeSchedulerConfiguration\n"
                                     "profiles:\n"
                                     "- pluginConfig:\n"
                                     "  - name: NodeResourcesFit\n"
                                     "    args:\n"
                                     "      scoringStrategy:\n"
                                     "        type: Spread\n",
                                     "kube.yaml");
            QFAIL("expected an error");
        } catch (const InputError& e) {
            QCOMPARE(e.diagnostic().where.line, 8);
            QVERIFY(QString::fromStdString(e.diagnostic().message).contains("LeastAllocated"));
        }
    }
};

GANTRY_TEST(ConfCheckTest)
GANTRY_TEST(KubeConfigTest)
#include "test_conf_check.moc"
