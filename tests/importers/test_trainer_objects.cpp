// Kubeflow Trainer TrainJobs read as the JobSet the trainer builds from their runtime (kubeflow/trainer
// at 8c0f5059: pkg/runtime/core/trainingruntime.go newRuntimeInfo; the torch and mpi plugins'
// EnforceMLPolicy; plugins/jobset syncParallelCount and builder.go; plugins/volcano).
#include "snapshot/snapshot_importer.h"
#include "test_registry.h"
#include "test_support.h"

#include <QtTest>

using namespace gantry;
using namespace gantry::test;

class TrainerObjectsTest : public QObject {
    Q_OBJECT
  private slots:
    void trainJobsBecomeTheirRuntimesJobSets() {
        Diagnostics w;
        Cluster c = readSnapshotFiles({dataPath("importers/trainjobs.yaml")}, &w);
        auto podsOf = [&](const std::string& prefix) {
            return std::count_if(c.pods.begin(), c.pods.end(), [&](const Pod& p) {
                return p.ns == "research" && p.name.rfind(prefix, 0) == 0;
            });
        };
        // The initializer step runs one replica whatever the runtime says; the trainer step the
        // TrainJob's numNodes, with resourcesPerNode over the container node's resources (the
        // runtime's GPU limit stays, a request of it).
        QCOMPARE(podsOf("llm-dataset-initializer-"), 1);
        QCOMPARE(podsOf("llm-node-0-"), 3);
        const Pod* node = findPod(c, "research", "llm-node-0-2");
        QVERIFY(node);
        QCOMPARE(node->requests.get("cpu"), int64_t(2000));
        QCOMPARE(node->requests.get("memory"), int64_t(8) << 30);
        QCOMPARE(node->requests.get("nvidia.com/gpu"), int64_t(1000));
        QCOMPARE(node->role, std::string("node"));
        QCOMPARE(findPod(c, "research", "llm-dataset-initializer-0-0")->requests.get("cpu"), int64_t(500));
        const PodGroup* llm = c.findPodGroup("research", "llm");
        QVERIFY(llm);
        QCOMPARE(llm->origin, std::string("trainer.kubeflow.org/TrainJob"));
        QCOMPARE(llm->labels.at("kueue.x-k8s.io/queue-name"), std::string("training"));
        // MPI with the launcher as a node (deepspeed-distributed's layout): the node job runs
        // numNodes - 1 pods, the launcher (the trainer step) mlPolicy.numNodes; the container node
        // of both takes the resources per node.
        QCOMPARE(podsOf("mpi-launcher-0-"), 1);
        QCOMPARE(podsOf("mpi-node-0-"), 3);
        QCOMPARE(findPod(c, "research", "mpi-node-0-0")->requests.get("cpu"), int64_t(4000));
        QCOMPARE(findPod(c, "research", "mpi-launcher-0-0")->requests.get("cpu"), int64_t(4000));
        // podGroupPolicy volcano: the runtime's numNodes, the pods in the trainer's PodGroup of them
        // all, in the queue of the runtime template's annotation.
        QCOMPARE(podsOf("ganged-node-0-"), 2);
        const Pod* ganged = findPod(c, "research", "ganged-node-0-1");
        QCOMPARE(ganged->group, std::string("ganged"));
        const PodGroup* g = c.findPodGroup("research", "ganged");
        QCOMPARE(g->minMember, 2);
        QCOMPARE(g->specQueue, std::string("research-q"));
        // A TrainJob whose runtime is not in the input: said where it names it, no pods.
        QCOMPARE(podsOf("orphan-"), 0);
        const Diagnostic* orphan = findIf(
            w, [](const Diagnostic& d) { return d.message.find("no-such-runtime") != std::string::npos; });
        QVERIFY2(orphan, qPrintable(joined(w)));
        QCOMPARE(orphan->where.line, 156);
        for (const auto& d : w)
            QVERIFY2(d.message.find("does not read") == std::string::npos, qPrintable(joined(w)));
    }
};

GANTRY_TEST(TrainerObjectsTest)
#include "test_trainer_objects.moc"
