// Kubeflow Trainer TrainJobs read as the JobSet the trainer builds from their runtime (kubeflow/trainer
// at 8c0f5059: pkg/runtime/core/trainingruntime.go newRuntimeInfo; the torch and mpi plugins'
// EnforceMLPolicy; plugins/jobset syncParallelCount and builder.go; plugins/volcano).
#include "snapshot/snapshot_importer.h"
#include "test_registry.h"
#include "test_support.h"

#include <QtTest>

using namespace gantry;
using namespace gantry::test;

namespace {

// A runtime of two steps: an initializer the patches leave alone, and the trainer's node job whose
// pod template has a nodeSelector, a toleration, a label and a gate of its own.
const char* kRuntime = R"(apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {name: rt}
spec:
  mlPolicy: {numNodes: 2, torch: {}}
  template:
    spec:
      replicatedJobs:
      - name: dataset-initializer
        template:
          metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: dataset-initializer}}
          spec:
            template:
              spec:
                nodeSelector: {zone: a}
                containers: [{name: dataset-initializer, image: x}]
      - name: node
        template:
          metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}}
          spec:
            template:
              metadata: {labels: {team: a, keep: "yes"}}
              spec:
                nodeSelector: {zone: a, pool: old}
                tolerations: [{key: gpu, operator: Exists, effect: NoSchedule}]
                schedulingGates: [{name: example.io/quota}]
                containers: [{name: node, image: x}]
)";

std::string trainJob(const std::string& patches) {
    return "---\napiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: tj, namespace: "
           "ns}\nspec:\n  runtimeRef: {name: rt}\n  runtimePatches:\n" +
           patches;
}

std::string nodePatch(const std::string& manager, const std::string& job, const std::string& podTemplate) {
    return "  - manager: " + manager +
           "\n    trainingRuntimeSpec:\n      template:\n        spec:\n          replicatedJobs:\n          "
           "- name: " +
           job + "\n            template:\n              spec:\n                template: " + podTemplate +
           "\n";
}

Cluster read(const std::string& text) {
    SnapshotImporter in;
    in.addText(text, "in.yaml");
    Diagnostics d;
    Cluster c = in.finish(d);
    throwIfErrors(d);
    return c;
}

} // namespace

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
    // runtimePatches are strategic-merged in order into the runtime's JobSet before it is built
    // (mergeRuntimePatches, pkg/runtime/core/trainingruntime.go). Into a corev1.PodSpec a strategic
    // merge patch merges nodeSelector key by key (null deletes a key), replaces the atomic
    // tolerations list, and merges schedulingGates by name (kubernetes/website
    // update-api-object-kubectl-patch.md; PodSpec's patchStrategy tags); pod labels merge too.
    void runtimePatchesMergeIntoThePodTemplates() {
        const Cluster c = read(
            kRuntime +
            trainJob(
                nodePatch("example.io/platform", "node",
                          "{metadata: {labels: {team: ml}}, spec: {nodeSelector: {node-type: training, pool: "
                          "null}, tolerations: [{key: training-workload, operator: Equal, value: \"true\", "
                          "effect: NoSchedule}], schedulingGates: [{name: example.io/quota}]}}") +
                nodePatch("example.io/scheduler", "node",
                          "{spec: {nodeSelector: {node-type: gpu-training}, schedulingGates: [{name: "
                          "example.io/data}]}}")));
        const Pod* node = findPod(c, "ns", "tj-node-0-1");
        QVERIFY(node);
        QCOMPARE(node->nodeSelector, (Labels{{"zone", "a"}, {"node-type", "gpu-training"}}));
        QCOMPARE(node->tolerations.size(), size_t(1));
        QCOMPARE(node->tolerations[0].key, std::string("training-workload"));
        QCOMPARE(node->schedulingGates, (std::vector<std::string>{"example.io/quota", "example.io/data"}));
        QCOMPARE(node->labels.at("team"), std::string("ml"));
        QCOMPARE(node->labels.at("keep"), std::string("yes"));
        QCOMPARE(node->labels.at("jobset.sigs.k8s.io/jobset-name"), std::string("tj"));
        // A replicated job no patch names is built as the runtime has it.
        const Pod* init = findPod(c, "ns", "tj-dataset-initializer-0-0");
        QVERIFY(init);
        QCOMPARE(init->nodeSelector, (Labels{{"zone", "a"}}));
        QVERIFY(init->schedulingGates.empty());
    }

    // What the trainer's webhook refuses (plugins/jobset Validate): a patch for a replicated job the
    // runtime does not have, and a manager that is not a domain-prefixed path.
    void runtimePatchErrors() {
        QCOMPARE(
            errorOf([&] { read(kRuntime + trainJob(nodePatch("example.io/platform", "launcher", "{}"))); }),
            QString("in.yaml:40:19: error: TrainJob 'ns/tj': spec.runtimePatches[0].trainingRuntimeSpec."
                    "template.spec.replicatedJobs[0].name: replicated job 'launcher' is not in the runtime's "
                    "JobSet template: the trainer refuses the TrainJob"));
        QCOMPARE(
            errorOf([&] { read(kRuntime + trainJob(nodePatch("platform", "node", "{}"))); }),
            QString(
                "in.yaml:35:14: error: TrainJob 'ns/tj': spec.runtimePatches[0].manager: manager must be a "
                "domain-prefixed path (such as \"acme.io/foo\"), got 'platform'"));
    }
};

GANTRY_TEST(TrainerObjectsTest)
#include "test_trainer_objects.moc"
