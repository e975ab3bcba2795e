// Hand-written real Kubernetes objects of every kind the snapshot importer reads: what each field
// becomes in the model, and where every object is said to come from.
#include "snapshot/snapshot_importer.h"
#include "test_registry.h"
#include "test_support.h"

#include <QtTest>

using namespace gantry;
using namespace gantry::test;

namespace {

Cluster import(const std::vector<std::string>& files, Diagnostics& warnings) {
    std::vector<std::string> paths;
    for (const auto& f : files) paths.push_back(dataPath("importers/" + f));
    return readSnapshotFiles(paths, &warnings);
}

const Queue* queue(const Cluster& c, const char* name) {
    return c.findQueue(name);
}
constexpr int64_t Gi = int64_t(1) << 30;
constexpr int64_t Mi = int64_t(1) << 20;
constexpr int64_t Ti = int64_t(1) << 40;

} // namespace

class SnapshotObjectsTest : public QObject {
    Q_OBJECT
  private slots:
    // The JobSet controller's order and exclusive placement (kubernetes-sigs/jobset
    // pkg/controllers/jobset_controller.go, depends_on.go, pkg/webhooks/pod_webhook.go).
    void jobSetOrderAndExclusivePlacement() {
        const std::string text = R"(apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: hi}
value: 500
---
apiVersion: v1
kind: Namespace
metadata: {name: ml}
---
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: js
  namespace: ml
  annotations: {alpha.jobset.sigs.k8s.io/exclusive-topology: rack}
spec:
  startupPolicy: {startupPolicyOrder: InOrder}
  replicatedJobs:
  - name: init
    template:
      metadata:
        annotations: {gantry.io/duration: 30s}
      spec:
        template:
          spec:
            containers: [{name: c, image: x}]
  - name: train
    replicas: 2
    dependsOn: [{name: init, status: Complete}]
    template:
      spec:
        parallelism: 2
        template:
          spec:
            priorityClassName: hi
            containers: [{name: c, image: x}]
)";
        SnapshotImporter in;
        in.addText(text, "js.yaml");
        Diagnostics w;
        const Cluster c = in.finish(w);
        const Pod* init = findPod(c, "ml", "js-init-0-0");
        QVERIFY(init);
        QVERIFY(init->createdAfter.empty());
        QCOMPARE(init->runSeconds.value_or(-1), 30.0);
        QCOMPARE(init->labels.at("jobset.sigs.k8s.io/priority"), std::string("0"));
        // InOrder: after init is ready; dependsOn: after it is complete.
        const Pod* leader = findPod(c, "ml", "js-train-1-0");
        QVERIFY(leader);
        QCOMPARE(leader->createdAfter.size(), size_t(2));
        QVERIFY(leader->createdAfter[0].kind == CreationCondition::Kind::RoleReady);
        QVERIFY(leader->createdAfter[1].kind == CreationCondition::Kind::RoleComplete);
        QCOMPARE(leader->createdAfter[1].name, std::string("init"));
        QVERIFY(!leader->runSeconds);
        // The job key is the SHA-1 of <namespace>/<job name>.
        QCOMPARE(leader->labels.at("jobset.sigs.k8s.io/job-key"),
                 std::string("3e4b29b728050740d95456802af11cbdf5162665"));
        QCOMPARE(leader->labels.at("jobset.sigs.k8s.io/job-index"), std::string("1"));
        QCOMPARE(leader->labels.at("jobset.sigs.k8s.io/priority"), std::string("500"));
        QCOMPARE(leader->podAffinity.required.size(), size_t(1));
        QCOMPARE(leader->podAffinity.required[0].topologyKey, std::string("rack"));
        QCOMPARE(leader->podAntiAffinity.required.size(), size_t(1));
        const auto& anti = leader->podAntiAffinity.required[0].labelSelector->matchExpressions;
        QCOMPARE(anti.size(), size_t(3));
        QCOMPARE(anti[2].values, std::vector<std::string>{"500"});
        const Pod* follower = findPod(c, "ml", "js-train-1-1");
        QVERIFY(follower->podAffinity.empty());
        QCOMPARE(follower->createdAfter.size(), size_t(3));
        QVERIFY(follower->createdAfter[2].kind == CreationCondition::Kind::PodScheduled);
        QCOMPARE(follower->createdAfter[2].name, std::string("js-train-1-0"));
        QCOMPARE(follower->createdAfter[2].topologyKey, std::string("rack"));
        // The initializer finishes before the rest: the gang is the four train pods.
        QCOMPARE(c.findPodGroup("ml", "js")->minMember, 4);
        QVERIFY2(w.empty(), qPrintable(joined(w)));
    }

    void disruptionBudgetsAndPodStatus() {
        const std::string text = R"(apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: ns}
spec:
  minAvailable: 50%
  selector: {matchLabels: {app: web}}
status:
  disruptionsAllowed: 1
  disruptedPods: {web-0: "2024-01-01T00:00:00Z"}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns}
spec:
  containers: [{name: c, image: x}]
status:
  phase: Pending
  nominatedNodeName: n1
  startTime: "2024-01-01T00:00:10Z"
)";
        SnapshotImporter in;
        in.addText(text, "pdb.yaml");
        Diagnostics w;
        const Cluster c = in.finish(w);
        QCOMPARE(c.disruptionBudgets.size(), size_t(1));
        const PodDisruptionBudget& pdb = c.disruptionBudgets[0];
        QCOMPARE(pdb.minAvailable.value_or(""), std::string("50%"));
        QVERIFY(!pdb.maxUnavailable);
        QCOMPARE(pdb.disruptionsAllowed.value_or(-1), 1);
        QCOMPARE(pdb.disruptedPods, std::vector<std::string>{"web-0"});
        QCOMPARE(pdb.selector->matchLabels.at("app"), std::string("web"));
        const Pod* p = findPod(c, "ns", "p");
        QCOMPARE(p->nominatedNodeName, std::string("n1"));
        QCOMPARE(p->startTime.value_or(0), int64_t(1704067210));
    }

    void kubectlJsonList() {
        Diagnostics w;
        auto c = import({"kubectl-list.json"}, w);
        QCOMPARE(c.nodes.size(), size_t(2));
        QCOMPARE(c.pods.size(), size_t(2));
        const Node* gpu = c.findNode("gpu-h100-0");
        QVERIFY(gpu);
        QCOMPARE(gpu->gpus.count, 8);
        QCOMPARE(gpu->gpus.model, std::string("NVIDIA-H100-80GB-HBM3"));
        QCOMPARE(gpu->gpus.memoryBytes, int64_t(81559) * Mi);
        QCOMPARE(gpu->allocatable.get("cpu"), int64_t(191450));
        QCOMPARE(gpu->allocatable.get("memory"), int64_t(2055372832) * 1024);
        QCOMPARE(gpu->capacity.get("cpu"), int64_t(192000));
        QCOMPARE(gpu->taints.size(), size_t(1));
        QCOMPARE(gpu->taints[0].value, std::string("present"));
        QVERIFY(gpu->ready);
        QVERIFY(!gpu->unschedulable);
        const Node* cpu = c.findNode("cpu-0");
        QVERIFY(cpu->unschedulable);
        QVERIFY(!cpu->ready); // Ready condition Unknown
        QCOMPARE(cpu->gpus.count, 0);

        const Pod* w0 = findPod(c, "research", "llm-pretrain-worker-0");
        QVERIFY(w0);
        // sum(main 2 + sidecar 0.5) vs init (4 + sidecar 0.5) -> 4.5 cpu; plus 250m overhead.
        QCOMPARE(w0->requests.get("cpu"), int64_t(4750));
        QCOMPARE(w0->requests.get("memory"), 4 * Gi + 512 * Mi + 120 * Mi);
        QCOMPARE(w0->requests.get("nvidia.com/gpu"), int64_t(8000)); // request defaulted from the limit
        QCOMPARE(w0->gpu.count, 8);
        QCOMPARE(w0->role, std::string("worker")); // the annotation wins over the label, as in Volcano
        QCOMPARE(w0->group, std::string("llm-pretrain-7b"));
        QCOMPARE(w0->priority.value_or(-1), 100000);
        QCOMPARE(w0->priorityClassName, std::string("research-high"));
        QCOMPARE(w0->preemptionPolicy, std::string("PreemptLowerPriority"));
        QCOMPARE(w0->ownerKind, std::string("Job"));
        QCOMPARE(w0->ownerName, std::string("llm-pretrain"));
        QCOMPARE(w0->uid, std::string("a3e1f2c4-2222-4b3c-8d4e-5f6071829304"));
        QVERIFY(w0->nodeAffinity && w0->nodeAffinity->required);
        QCOMPARE(w0->nodeAffinity->required->size(), size_t(1));
        QCOMPARE((*w0->nodeAffinity->required)[0].matchExpressions[0].values.size(), size_t(2));
        QCOMPARE(w0->nodeAffinity->preferred.size(), size_t(1));
        QCOMPARE(w0->nodeAffinity->preferred[0].weight, 50);
        QCOMPARE(w0->podAntiAffinity.preferred.size(), size_t(1));
        QCOMPARE(w0->podAntiAffinity.preferred[0].term.topologyKey, std::string("kubernetes.io/hostname"));
        QCOMPARE(w0->tolerations.size(), size_t(2));
        QVERIFY(w0->tolerations[0].exists);
        QCOMPARE(w0->tolerations[1].tolerationSeconds.value_or(0), int64_t(300));
        QVERIFY(w0->tolerations[1].effect == TaintEffect::NoExecute);
        QCOMPARE(w0->topologySpread.size(), size_t(1));
        QVERIFY(!w0->topologySpread[0].doNotSchedule);
        QVERIFY(w0->phase == PodPhase::Pending);
        QCOMPARE(w0->source.line, 92);
        QCOMPARE(w0->source.column, 9);
        QCOMPARE(w0->source.document, 1);

        const Pod* w1 = findPod(c, "research", "llm-pretrain-worker-1");
        QCOMPARE(w1->requests.get("cpu"), int64_t(2000));
        QCOMPARE(w1->nodeName, std::string("gpu-h100-0"));
        QVERIFY(w1->phase == PodPhase::Running);
        QCOMPARE(w1->preemptable, std::optional<bool>(true));
        QCOMPARE(w1->schedulerName, std::string("volcano"));

        // The PodGroup both pods name is not in this file: a warning per pod, not an error. The list
        // holds no Namespace: the pods' one is assumed, and said so first.
        QCOMPARE(w.size(), size_t(3));
        QVERIFY2(w[0].message.rfind("namespace 'research' not in the input", 0) == 0, w[0].message.c_str());
        QCOMPARE(QString::fromStdString(w[1].str()),
                 QString::fromStdString(dataPath("importers/kubectl-list.json")) +
                     ":92:9: warning: pod 'research/llm-pretrain-worker-0' names PodGroup 'llm-pretrain-7b', "
                     "which does not exist; the pod will stay pending");
    }

    void kueueObjectsAndWorkloads() {
        Diagnostics w;
        auto c = import({"kueue.yaml"}, w);
        // Every namespace the file's objects live in is in it but nlp, which is assumed.
        QCOMPARE(w.size(), size_t(1));
        QVERIFY2(w[0].message.rfind("namespace 'nlp' not in the input", 0) == 0, w[0].message.c_str());
        QCOMPARE(c.resourceFlavors.size(), size_t(2));
        const auto& h100 = c.resourceFlavors[0];
        QCOMPARE(h100.nodeLabels.at("nvidia.com/gpu.product"), std::string("NVIDIA-H100-80GB-HBM3"));
        QCOMPARE(h100.nodeTaints.size(), size_t(1));
        QCOMPARE(h100.tolerations.size(), size_t(1));
        QCOMPARE(h100.topologyName, std::string("datacenter"));
        QCOMPARE(c.kueueTopologies.size(), size_t(1));
        QCOMPARE(c.kueueTopologies[0].levels.size(), size_t(3));
        // No node carries the well-known labels: the Kueue Topology's levels are used (without hostname).
        QCOMPARE(c.topologyLevels.size(), size_t(2));
        QCOMPARE(c.topologyLevels[1].nodeLabel, std::string("cloud.example.com/topology-rack"));

        QCOMPARE(c.queues.size(), size_t(5));
        QVERIFY(queue(c, "org")->kind == Queue::Kind::KueueCohort);
        QCOMPARE(queue(c, "research")->parent, std::string("org"));
        QCOMPARE(queue(c, "research")->fairSharingWeight.value_or(0), 2.0);
        QCOMPARE(queue(c, "org")->resourceGroups[0].flavors[0].resources[0].nominal, int64_t(16000));
        const Queue* nlp = queue(c, "team-nlp");
        QVERIFY(nlp->kind == Queue::Kind::KueueClusterQueue);
        QCOMPARE(nlp->parent, std::string("research")); // v1beta2 cohortName
        QCOMPARE(nlp->resourceGroups.size(), size_t(1));
        const auto& rg = nlp->resourceGroups[0];
        QCOMPARE(rg.coveredResources, (std::vector<std::string>{"cpu", "memory", "nvidia.com/gpu"}));
        QCOMPARE(rg.flavors.size(), size_t(2));
        QCOMPARE(rg.flavors[0].resources[1].nominal, 3 * Ti);
        QCOMPARE(rg.flavors[0].resources[2].nominal, int64_t(32000));
        QCOMPARE(rg.flavors[0].resources[2].borrowingLimit.value_or(0), int64_t(16000));
        QCOMPARE(rg.flavors[0].resources[2].lendingLimit.value_or(0), int64_t(8000));
        QVERIFY(!rg.flavors[1].resources[2].borrowingLimit);
        QVERIFY(nlp->namespaceSelector && nlp->namespaceSelector->empty()); // {} = every namespace
        QCOMPARE(nlp->preemption.withinClusterQueue, std::string("LowerPriority"));
        QCOMPARE(nlp->preemption.reclaimWithinCohort, std::string("Any"));
        QCOMPARE(nlp->preemption.borrowWithinCohort, std::string("LowerPriority"));
        QCOMPARE(nlp->preemption.borrowMaxPriorityThreshold.value_or(0), 100);
        QCOMPARE(nlp->fairSharingWeight.value_or(0), 0.5);
        QCOMPARE(nlp->whenCanPreempt, std::string("TryNextFlavor"));
        const Queue* serving = queue(c, "team-serving");
        QCOMPARE(serving->parent, std::string("inference")); // v1beta1 cohort
        QCOMPARE(serving->namespaceSelector->matchLabels.at("team"), std::string("serving"));
        QVERIFY(queue(c, "inference")->kind == Queue::Kind::KueueCohort); // implicit cohort
        QVERIFY(!queue(c, "team-nlp")->namespaceSelector->matchLabels.count("team"));
        QCOMPARE(c.localQueues.size(), size_t(1));
        QCOMPARE(c.priorityClasses.size(), size_t(1));
        QVERIFY(c.priorityClasses[0].workload);
        QCOMPARE(c.priorityClasses[0].value, 10000);

        // batch/v1 Job: 4 pods and an implicit gang on the LocalQueue's ClusterQueue.
        const PodGroup* ft = c.findPodGroup("nlp", "finetune");
        QVERIFY(ft);
        QCOMPARE(ft->origin, std::string("batch/Job"));
        QCOMPARE(ft->minMember, 4);
        QCOMPARE(ft->queue, std::string("team-nlp"));
        // The WorkloadPriorityClass label stays a label: Kueue's integrations read it, not the pods.
        QVERIFY(ft->priorityClassName.empty());
        QCOMPARE(ft->labels.at("kueue.x-k8s.io/priority-class"), std::string("research-urgent"));
        QCOMPARE(ft->arrivalSeconds, 600.0);
        QCOMPARE(ft->durationSeconds, 7200.0);
        QCOMPARE(ft->minResources.get("nvidia.com/gpu"), int64_t(8000));
        for (int i = 0; i < 4; ++i) {
            const Pod* p = findPod(c, "nlp", "finetune-" + std::to_string(i));
            QVERIFY(p);
            QCOMPARE(p->group, std::string("finetune"));
            QCOMPARE(p->requests.get("memory"), 128 * Gi);
            QCOMPARE(p->gpu.count, 2);
            QCOMPARE(p->ownerKind, std::string("Job"));
            QVERIFY(p->source.line > 0);
        }
        // JobSet: 1 driver + 2 jobs x 3 workers, one gang.
        const PodGroup* ms = c.findPodGroup("nlp", "multislice");
        QCOMPARE(ms->minMember, 7);
        QCOMPARE(ms->queue, std::string("team-nlp"));
        QVERIFY(findPod(c, "nlp", "multislice-driver-0-0"));
        const Pod* last = findPod(c, "nlp", "multislice-workers-1-2");
        QVERIFY(last);
        QCOMPARE(last->role, std::string("workers"));
        QCOMPARE(last->requests.get("cpu"), int64_t(96000));
        QCOMPARE(last->requests.get("memory"), Ti);
        QCOMPARE(c.pods.size(), size_t(4 + 7));
    }

    void volcanoObjectsJobAndConfigMap() {
        Diagnostics w;
        auto c = import({"volcano-objects.yaml"}, w);
        QVERIFY2(w.empty(), qPrintable(joined(w)));
        // The file's one namespace, then those every cluster has (default, kube-system, kube-public,
        // kube-node-lease), each labelled with its name as the API server labels it.
        QCOMPARE(c.namespaces.size(), size_t(5));
        QCOMPARE(c.namespaces[0].labels.at("team"), std::string("research"));
        QCOMPARE(c.namespaces[0].labels.at("kubernetes.io/metadata.name"), c.namespaces[0].name);
        const Queue* r = queue(c, "research");
        QCOMPARE(r->weight, 4);
        QCOMPARE(r->priority, 10);
        QVERIFY(!r->reclaimable);
        QCOMPARE(r->dequeueStrategy, std::string("fifo"));
        QCOMPARE(r->guarantee.get("nvidia.com/gpu"), int64_t(8000));
        QCOMPARE(r->deserved.get("memory"), 2 * Ti);
        QCOMPARE(r->capability.get("cpu"), int64_t(512000));
        const Queue* nlp = queue(c, "research-nlp");
        QCOMPARE(nlp->parent, std::string("research"));
        QVERIFY(nlp->state == QueueState::Closed);
        QCOMPARE(nlp->weight, 1);
        QCOMPARE(c.hyperNodes.size(), size_t(1));
        QCOMPARE(c.hyperNodes[0].tierName, std::string("rack"));
        QVERIFY(c.hyperNodes[0].members[0].match == HyperNodeMember::Match::Regex);
        QVERIFY(c.hyperNodes[0].members[1].match == HyperNodeMember::Match::Label);
        QCOMPARE(c.hyperNodes[0].members[1].selector.matchLabels.at("topology.gantry.io/rack"),
                 std::string("a"));

        const PodGroup* job = c.findPodGroup("research", "llm-sft");
        QVERIFY(job);
        QCOMPARE(job->origin, std::string("batch.volcano.sh/Job"));
        QCOMPARE(job->minMember, 3);
        QCOMPARE(job->minTaskMember.at("master"), 1);
        QCOMPARE(job->minTaskMember.at("worker"), 2);
        QCOMPARE(job->queue, std::string("research-nlp"));
        QCOMPARE(job->priorityClassName, std::string("research-high"));
        QVERIFY(job->networkTopology.mode == NetworkTopologyConstraint::Mode::Soft);
        QCOMPARE(job->networkTopology.highestTierAllowed.value_or(0), 2);
        QCOMPARE(job->durationSeconds, 3 * 3600.0); // spec.runningEstimate
        // minResources: the master and two workers (each role's minimum).
        QCOMPARE(job->minResources.get("cpu"), int64_t(8000 + 2 * 32000));
        QCOMPARE(job->minResources.get("memory"), 64 * Gi + 2 * 256 * Gi);
        QCOMPARE(job->minResources.get("nvidia.com/gpu"), int64_t(16000));
        QCOMPARE(c.pods.size(), size_t(5));
        const Pod* m = findPod(c, "research", "llm-sft-master-0");
        QVERIFY(m);
        QCOMPARE(m->role, std::string("master"));
        QCOMPARE(m->group, std::string("llm-sft"));
        QCOMPARE(m->schedulerName, std::string("volcano"));
        QCOMPARE(m->priorityClassName, std::string("research-high"));
        QCOMPARE(findPod(c, "research", "llm-sft-worker-3")->gpu.count, 8);

        // The scheduler ConfigMap: locations point into the ConfigMap's block.
        QVERIFY(c.volcanoConf);
        const auto& conf = *c.volcanoConf;
        QCOMPARE(conf.actions, (std::vector<std::string>{"enqueue", "allocate", "backfill", "preempt"}));
        QCOMPARE(conf.actionSources[0].line, 120);
        QCOMPARE(conf.actionSources[0].column, 15);
        QCOMPARE(conf.actionSources[1].column, 24);
        const auto* capacity = conf.plugin("capacity");
        QVERIFY(capacity && capacity->enabled("enableHierarchy"));
        QCOMPARE(capacity->source.line, 129);
        QCOMPARE(capacity->source.column, 15);
        QCOMPARE(conf.plugin("nodeorder")->argument("mostrequested.weight").value_or(""), std::string("2"));
        QCOMPARE(conf.configurations[0].arguments.at("enableTopologyAwarePreemption"), std::string("true"));
    }

    void yunikornConfigMap() {
        Diagnostics w;
        auto c = import({"yunikorn-configs.yaml"}, w);
        QVERIFY(c.yunikorn);
        const auto& p = *c.yunikorn;
        QCOMPARE(p.name, std::string("default"));
        QCOMPARE(p.nodeSortPolicy, std::string("binpacking"));
        QCOMPARE(p.nodeSortWeights.at("nvidia.com/gpu"), 4.0);
        QCOMPARE(p.preemptionEnabled, std::optional<bool>(true));
        QCOMPARE(p.placementRules.size(), size_t(1));
        QCOMPARE(p.placementRules[0].name, std::string("tag"));
        QCOMPARE(p.placementRules[0].parent.at(0).value, std::string("root.tenants"));
        QCOMPARE(p.limits.at(0).maxApplications, uint64_t(20));
        QCOMPARE(p.settings.at("service.schedulingInterval"), std::string("500ms"));
        QCOMPARE(p.settings.at("log.level"), std::string("INFO"));
        QCOMPARE(c.queues.size(), size_t(3));
        const Queue* tenants = queue(c, "tenants");
        QVERIFY(tenants->kind == Queue::Kind::YuniKornQueue);
        QCOMPARE(tenants->parent, std::string("root"));
        QVERIFY(tenants->parentFlag);
        QCOMPARE(tenants->guaranteed.get("vcore"), int64_t(100000)); // vcore in millicores
        QCOMPARE(tenants->max.get("memory"), 4 * Ti);
        // The template of the leaves the tag rule creates below it.
        QCOMPARE(tenants->childTemplate.maxApplications, uint64_t(4));
        QCOMPARE(tenants->childTemplate.properties.at("application.sort.policy"), std::string("fair"));
        QCOMPARE(tenants->childTemplate.max.get("vcore"), int64_t(32000));
        QCOMPARE(tenants->childTemplate.max.get("nvidia.com/gpu"), int64_t(8000));
        QVERIFY(tenants->childTemplate.guaranteed.empty());
        const Queue* batch = queue(c, "batch");
        QCOMPARE(batch->maxApplications, uint64_t(50));
        QCOMPARE(batch->properties.at("preemption.policy"), std::string("fence"));
        QCOMPARE(batch->limits.at(0).groups, std::vector<std::string>{"research"});
        QCOMPARE(batch->limits.at(0).maxResources.get("memory"), 500 * Gi);
        QCOMPARE(queue(c, "root")->submitAcl, std::string("*"));
        // The second partition is reported where it is written in the embedded queues.yaml.
        QCOMPARE(w.size(), size_t(1));
        QCOMPARE(QString::fromStdString(w[0].str()),
                 QString::fromStdString(dataPath("importers/yunikorn-configs.yaml")) +
                     ":58:9: warning: partitions[1]: partition 'gpu' ignored: Gantry models one partition "
                     "(the Kubernetes shim uses only 'default'); its 1 queue (production) and limits are "
                     "not carried over");
    }

    void trainingJobsSharingAndSkippedKinds() {
        Diagnostics w;
        auto c = import({"training-jobs.yaml"}, w);
        const PodGroup* resnet = c.findPodGroup("vision", "resnet");
        QCOMPARE(resnet->minMember, 3);
        QCOMPARE(resnet->queue, std::string("vision"));
        QCOMPARE(resnet->priorityClassName, std::string("research-high"));
        QCOMPARE(resnet->origin, std::string("kubeflow.org/PyTorchJob"));
        QCOMPARE(findPod(c, "vision", "resnet-master-0")->role, std::string("master"));
        QCOMPARE(findPod(c, "vision", "resnet-worker-2")->requests.get("cpu"), int64_t(8000));
        QCOMPARE(c.findPodGroup("vision", "allreduce")->minMember, 3);
        QVERIFY(findPod(c, "vision", "allreduce-launcher"));
        QCOMPARE(findPod(c, "vision", "allreduce-worker-1")->gpu.count, 8);
        QCOMPARE(c.findPodGroup("vision", "recsys")->minMember, 6);
        QVERIFY(findPod(c, "vision", "recsys-ps-1"));

        const PodGroup* gang = c.findPodGroup("web", "nginx-gang");
        QCOMPARE(gang->origin, std::string("scheduling.x-k8s.io/PodGroup"));
        QCOMPARE(gang->minMember, 2);
        QCOMPARE(gang->phase, gantry::PodGroupPhase::Pending);
        QCOMPARE(findPod(c, "web", "nginx-0")->group, std::string("nginx-gang"));
        QCOMPARE(findPod(c, "web", "nginx-0")->schedulingGates,
                 std::vector<std::string>{"example.com/quota-check"});

        const Pod* share = findPod(c, "web", "share-0");
        QCOMPARE(share->gpu.count, 1);
        QCOMPARE(share->gpu.milliPerGpu, 250);
        QCOMPARE(share->gpu.models, std::vector<std::string>{"T4"});
        QCOMPARE(share->gpuIndices, (std::vector<int32_t>{0, 1, 3}));

        // PodDisruptionBudgets, for kube-scheduler's preemption.
        QCOMPARE(c.disruptionBudgets.size(), size_t(2));
        QCOMPARE(c.disruptionBudgets[0].minAvailable.value_or(""), std::string("1"));
        QCOMPARE(c.disruptionBudgets[1].maxUnavailable.value_or(""), std::string("1"));
        QVERIFY(!c.disruptionBudgets[1].selector);

        // The namespaces the objects live in are assumed (no Namespace objects in the file); each kind
        // Gantry does not read is reported at its own first object.
        QCOMPARE(w.size(), size_t(2));
        std::string file = dataPath("importers/training-jobs.yaml");
        QCOMPARE(QString::fromStdString(w[0].str()),
                 QString::fromStdString(file) +
                     ":104:1: warning: namespaces 'web', 'vision' not in the input, but objects are in them: "
                     "assumed to exist, as the API server would have required, with no labels but "
                     "kubernetes.io/metadata.name");
        QCOMPARE(QString::fromStdString(w[1].str()),
                 QString::fromStdString(file) +
                     ":146:1: warning: skipped an object of kind Service (v1), which "
                     "Gantry does not read");
        for (const char* ns : {"web", "vision", "default", "kube-system", "kube-public", "kube-node-lease"}) {
            auto it = std::find_if(c.namespaces.begin(), c.namespaces.end(),
                                   [&](const Namespace& n) { return n.name == ns; });
            QVERIFY2(it != c.namespaces.end(), ns);
            QCOMPARE(it->labels.at("kubernetes.io/metadata.name"), std::string(ns));
        }
    }

    void severalFilesMerge() {
        SnapshotImporter in;
        in.addFile(dataPath("importers/kubectl-list.json"));
        in.addFile(dataPath("importers/volcano-objects.yaml"));
        in.addFile(dataPath("importers/training-jobs.yaml"));
        Diagnostics d;
        Cluster c = in.finish(d);
        QVERIFY2(!hasErrors(d), qPrintable(joined(d)));
        QCOMPARE(c.nodes.size(), size_t(2));
        QCOMPARE(c.pods.size(), size_t(2 + 5 + 4 + 3 + 6 + 2));
        QVERIFY(c.findPriorityClass("research-high"));
        QVERIFY(c.findQueue("research-nlp"));
        // Objects keep the file they came from.
        QCOMPARE(findPod(c, "research", "llm-pretrain-worker-1")->source.file,
                 dataPath("importers/kubectl-list.json"));
        QCOMPARE(c.findQueue("research")->source.file, dataPath("importers/volcano-objects.yaml"));
        QCOMPARE(c.findQueue("research")->source.document, 3);
    }

    void liveExportIsNotExpandedTwice() {
        // A Volcano Job exported with its pods: the pods are read, the job is not expanded again.
        const char* text = R"(apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: sft, namespace: ml, uid: 1234}
spec:
  tasks:
  - name: worker
    replicas: 2
    template:
      spec:
        containers: [{name: w, image: x, resources: {requests: {cpu: "1"}}}]
---
apiVersion: scheduling.volcano.sh/v1beta1
kind: PodGroup
metadata: {name: sft-1234, namespace: ml}
spec: {minMember: 2, queue: default}
---
apiVersion: v1
kind: Pod
metadata:
  name: sft-worker-0
  namespace: ml
  annotations: {scheduling.k8s.io/group-name: sft-1234}
  ownerReferences: [{apiVersion: batch.volcano.sh/v1alpha1, kind: Job, name: sft, uid: "1234", controller: true}]
spec:
  nodeName: n1
  containers: [{name: w, image: x, resources: {requests: {cpu: "1"}}}]
status: {phase: Running}
)";
        SnapshotImporter in;
        in.addText(text, "live.yaml");
        Diagnostics d;
        Cluster c = in.finish(d);
        QCOMPARE(c.pods.size(), size_t(1));
        QCOMPARE(c.podGroups.size(), size_t(1));
        // Without the pods, the same job expands into two pods of the group <job>-<uid>.
        SnapshotImporter what;
        what.addText(std::string(text).substr(0, std::string(text).find("---\napiVersion: v1")),
                     "whatif.yaml");
        Diagnostics d2;
        Cluster w = what.finish(d2);
        QCOMPARE(w.pods.size(), size_t(2));
        QCOMPARE(w.pods[0].group, std::string("sft-1234"));
        QCOMPARE(w.podGroups.size(), size_t(1)); // joins the existing PodGroup object
    }

    // Volcano's mutating webhook, restated from mutate_job_test.go (TestCreatePatchExecution): tasks
    // without a name are default<index>; a task without minAvailable gets its replicas, or
    // minPartitions x partitionSize when its partitionPolicy sets minPartitions; a job without
    // minAvailable the sum of its tasks' minimums; queue default and scheduler volcano.
    void volcanoJobMutatingDefaults() {
        const char* text = R"(apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: path-task-name, namespace: test}
spec:
  tasks:
  - replicas: 1
    template: {spec: {containers: [{name: fake-name, image: "busybox:1.24"}]}}
  - replicas: 2
    minAvailable: 1
    template: {spec: {containers: [{name: fake-name, image: "busybox:1.24"}]}}
  - replicas: 1
    partitionPolicy: {totalPartitions: 1, minPartitions: 1, partitionSize: 1}
    template: {spec: {containers: [{name: fake-name, image: "busybox:1.24"}]}}
  - replicas: 3
    partitionPolicy: {totalPartitions: 3, partitionSize: 1}
    template: {spec: {containers: [{name: fake-name, image: "busybox:1.24"}]}}
)";
        SnapshotImporter in;
        in.addText(text, "job.yaml");
        Diagnostics d;
        Cluster c = in.finish(d);
        const PodGroup* g = c.findPodGroup("test", "path-task-name");
        QVERIFY(g);
        QCOMPARE(g->minTaskMember, (std::map<std::string, int32_t>{
                                       {"default0", 1}, {"default1", 1}, {"default2", 1}, {"default3", 3}}));
        QCOMPARE(g->minMember, 6); // patchDefaultMinAvailable: the sum of the tasks' minimums
        QCOMPARE(g->queue, std::string("default"));
        QCOMPARE(c.pods.size(), size_t(7));
        const Pod* p = findPod(c, "test", "path-task-name-default1-1");
        QVERIFY(p);
        QCOMPARE(p->role, std::string("default1"));
        QCOMPARE(p->schedulerName, std::string("volcano"));
        QVERIFY(findPod(c, "test", "path-task-name-default3-2"));
    }

    // The job controller's minResources (CalcPGMinResources) sum the task templates' requests as
    // written: a GPU given only as a limit is not counted there, though the pods request it once the
    // API server has defaulted them.
    void volcanoJobMinResourcesFromTemplates() {
        const char* text = R"(apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: train, namespace: ml}
spec:
  minAvailable: 2
  tasks:
  - name: worker
    replicas: 2
    template:
      spec:
        containers:
        - name: w
          image: x
          resources:
            requests: {cpu: "2"}
            limits: {cpu: "4", nvidia.com/gpu: "1"}
)";
        SnapshotImporter in;
        in.addText(text, "job.yaml");
        Diagnostics d;
        Cluster c = in.finish(d);
        const PodGroup* g = c.findPodGroup("ml", "train");
        QVERIFY(g);
        QCOMPARE(g->minResources.get("cpu"), int64_t(4000));
        QVERIFY(!g->minResources.has("nvidia.com/gpu"));
        const Pod* p = findPod(c, "ml", "train-worker-0");
        QCOMPARE(p->requests.get("nvidia.com/gpu"), int64_t(1000));
        QCOMPARE(p->requests.get("cpu"), int64_t(2000));
    }

    // spec.tasks[].dependsOn: read onto the PodGroup; a name that is no task of the job, or tasks
    // waiting for each other, are refused as Volcano's webhook refuses them (validateJobCreate).
    void volcanoJobDependsOn() {
        auto job = [](const std::string& tasks) {
            return "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: j, namespace: "
                   "ns}\nspec:\n"
                   "  tasks:\n" +
                   tasks;
        };
        const std::string t = "    template: {spec: {containers: [{name: c, image: x}]}}\n";
        SnapshotImporter in;
        in.addText(job("  - name: a\n    replicas: 1\n" + t +
                       "  - name: b\n    replicas: 2\n    dependsOn: {name: [a]}\n" + t +
                       "  - name: c\n    replicas: 1\n    dependsOn: {name: [a, b], iteration: any}\n" + t),
                   "j.yaml");
        Diagnostics d;
        Cluster c = in.finish(d);
        const PodGroup* g = c.findPodGroup("ns", "j");
        QVERIFY(g);
        QCOMPARE(g->dependsOn.size(), size_t(2));
        QCOMPARE(g->dependsOn[0].task, std::string("b"));
        QCOMPARE(g->dependsOn[0].after, std::vector<std::string>{"a"});
        QVERIFY(!g->dependsOn[0].any);
        QCOMPARE(g->dependsOn[1].after, (std::vector<std::string>{"a", "b"}));
        QVERIFY(g->dependsOn[1].any);
        QCOMPARE(c.pods.size(), size_t(4)); // every pod is in the model; the job controller holds some back

        auto error = [&](const std::string& text) {
            return errorOf([&] {
                SnapshotImporter bad;
                bad.addText(text, "bad.yaml");
                Diagnostics diags;
                bad.finish(diags);
            });
        };
        const QString unknown = error(job("  - name: t1\n    replicas: 1\n    dependsOn: {name: [t3]}\n" + t +
                                          "  - name: t2\n    replicas: 1\n" + t));
        QVERIFY2(unknown.contains("bad.yaml:8:") &&
                     unknown.contains("doesn't form a directed acyclic graph(DAG)") &&
                     unknown.contains("'t3' is not a task of this job"),
                 qPrintable(unknown));
        const QString cycle = error(job("  - name: a\n    replicas: 1\n    dependsOn: {name: [b]}\n" + t +
                                        "  - name: b\n    replicas: 1\n    dependsOn: {name: [a]}\n" + t));
        QVERIFY2(cycle.contains("bad.yaml:8:") && cycle.contains("waits, through others, for itself"),
                 qPrintable(cycle));
    }

    // The job's PodGroup is made as the job is created: it keeps the job's creationTimestamp,
    // which Volcano's job order reads before the name.
    void volcanoJobCreationTime() {
        SnapshotImporter in;
        in.addText(R"(apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: j, namespace: ns, creationTimestamp: "2025-01-01T00:00:10Z"}
spec:
  tasks:
  - name: a
    replicas: 1
    template: {spec: {containers: [{name: c, image: x}]}}
)",
                   "j.yaml");
        Diagnostics d;
        Cluster c = in.finish(d);
        QCOMPARE(c.findPodGroup("ns", "j")->creationTimestamp, std::optional<int64_t>(1735689610));
    }

    // A JobFlow makes the Volcano Job <flow>-<template> of each flow without dependsOn at once; the
    // others wait for their targets to complete, which a snapshot has not seen: a located warning each.
    void jobFlowMakesItsFirstJobs() {
        SnapshotImporter in;
        in.addText(R"(apiVersion: flow.volcano.sh/v1alpha1
kind: JobFlow
metadata: {name: test, namespace: default}
spec:
  jobRetainPolicy: delete
  flows:
  - name: a
  - name: b
    dependsOn: {targets: [a]}
  - name: missing
)",
                   "flow.yaml");
        in.addText(R"(apiVersion: flow.volcano.sh/v1alpha1
kind: JobTemplate
metadata: {name: a, namespace: default}
spec:
  minAvailable: 1
  tasks:
  - name: default-nginx
    replicas: 1
    template: {spec: {containers: [{name: nginx, image: nginx, resources: {requests: {cpu: "1"}}}]}}
---
apiVersion: flow.volcano.sh/v1alpha1
kind: JobTemplate
metadata: {name: b, namespace: default}
spec:
  tasks:
  - name: default-nginx
    replicas: 1
    template: {spec: {containers: [{name: nginx, image: nginx}]}}
)",
                   "templates.yaml");
        Diagnostics d;
        Cluster c = in.finish(d);
        QCOMPARE(c.pods.size(), size_t(1));
        QVERIFY(findPod(c, "default", "test-a-default-nginx-0"));
        const PodGroup* g = c.findPodGroup("default", "test-a");
        QVERIFY(g);
        QCOMPARE(g->origin, std::string("batch.volcano.sh/Job"));
        QCOMPARE(g->labels.at("volcano.sh/createdByJobFlow"), std::string("default.test"));
        bool waits = false, missing = false;
        for (const auto& diag : d) {
            const std::string s = diag.str();
            waits = waits || (s.find("flow.yaml:8:") != std::string::npos &&
                              s.find("test-b is made only once test-a is Completed") != std::string::npos);
            missing =
                missing || (s.find("flow.yaml:10:") != std::string::npos &&
                            s.find("JobTemplate default/missing is not in the input") != std::string::npos);
        }
        QVERIFY(waits);
        QVERIFY(missing);
    }
};

GANTRY_TEST(SnapshotObjectsTest)
#include "test_snapshot_objects.moc"
