// The embedded schemas: every bundled CRD and Gantry schema compiles, the kinds Gantry exports are
// served, and every CEL rule of the CRDs is either evaluated by a C++ check or a transition rule.
#include "embedded/embedded_files.h"
#include "test_registry.h"
#include "validation/schema_catalog.h"

#include <QtTest>
#include <set>

using namespace gantry;

class CatalogTest : public QObject {
    Q_OBJECT
  private slots:
    void embeddedFilesAreTheBundledOnes() {
        std::set<std::string> paths;
        for (const auto& f : embeddedFiles()) paths.insert(std::string(f.path));
        for (const char* p :
             {"volcano/scheduling.volcano.sh_queues.yaml", "volcano/scheduling.volcano.sh_podgroups.yaml",
              "volcano/batch.volcano.sh_jobs.yaml", "volcano/topology.volcano.sh_hypernodes.yaml",
              "kueue/kueue.x-k8s.io_clusterqueues.yaml", "kueue/kueue.x-k8s.io_cohorts.yaml",
              "kueue/kueue.x-k8s.io_localqueues.yaml", "kueue/kueue.x-k8s.io_resourceflavors.yaml",
              "kueue/kueue.x-k8s.io_topologies.yaml", "kueue/kueue.x-k8s.io_workloadpriorityclasses.yaml",
              "gantry/yunikorn.queues.yaml", "gantry/volcano.scheduler-conf.yaml"})
            QVERIFY2(paths.count(p), p);
        QVERIFY(!paths.count("kueue/kueue.x-k8s.io_workloads.yaml")); // 1.4 MB, not a kind Gantry writes
        // The bytes are the file's, unchanged.
        QFile source(QString(GANTRY_SOURCE_DIR) +
                     "/resources/schemas/volcano/scheduling.volcano.sh_queues.yaml");
        QVERIFY(source.open(QIODevice::ReadOnly));
        QCOMPARE(QByteArray::fromStdString(
                     std::string(*embeddedFile("volcano/scheduling.volcano.sh_queues.yaml"))),
                 source.readAll());
    }

    void everyKindCompiles() {
        auto kinds = SchemaCatalog::shared().allKinds();
        std::set<std::string> names;
        for (const auto& k : kinds) {
            QVERIFY(k.schema);
            names.insert(k.apiVersion() + " " + k.kind);
        }
        for (const char* k : {"scheduling.volcano.sh/v1beta1 Queue", "scheduling.volcano.sh/v1beta1 PodGroup",
                              "batch.volcano.sh/v1alpha1 Job", "topology.volcano.sh/v1alpha1 HyperNode",
                              "kueue.x-k8s.io/v1beta2 ClusterQueue", "kueue.x-k8s.io/v1beta1 ClusterQueue",
                              "kueue.x-k8s.io/v1beta2 Cohort", "kueue.x-k8s.io/v1beta2 LocalQueue",
                              "kueue.x-k8s.io/v1beta2 ResourceFlavor", "kueue.x-k8s.io/v1beta2 Topology",
                              "kueue.x-k8s.io/v1beta2 WorkloadPriorityClass", "v1 ConfigMap", "v1 Node",
                              "scheduling.k8s.io/v1 PriorityClass", "batch/v1 Job"})
            QVERIFY2(names.count(k), k);
        const KindSchema* cq = SchemaCatalog::shared().find("kueue.x-k8s.io/v1beta1", "ClusterQueue");
        QVERIFY(cq && cq->deprecated && !cq->storage);
        QVERIFY(SchemaCatalog::shared().find("kueue.x-k8s.io/v1beta2", "ClusterQueue")->storage);
        QVERIFY(!SchemaCatalog::shared().find("kueue.x-k8s.io/v1alpha1", "ClusterQueue"));
        QVERIFY(SchemaCatalog::shared().document("yunikorn-queues"));
        QVERIFY(SchemaCatalog::shared().document("volcano-scheduler-conf"));
    }

    void everyCelRuleIsEvaluatedOrATransitionRule() {
        auto missing = SchemaCatalog::shared().unevaluatedRules();
        QString list;
        for (const auto& r : missing) list += QString::fromStdString(r) + "\n";
        QVERIFY2(missing.empty(), qPrintable("CEL rules without a C++ check:\n" + list));
    }
};

GANTRY_TEST(CatalogTest)
#include "test_catalog.moc"
