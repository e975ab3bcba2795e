// Bad snapshot input: every case gives the exact located error or warning docs/errors.md promises.
#include "snapshot/snapshot_importer.h"
#include "test_registry.h"
#include "test_support.h"

#include <QtTest>
#include <algorithm>

using namespace gantry;
using namespace gantry::test;

namespace {

// Imports one text as "bad.yaml"; returns the first error (located) or "no error".
QString firstError(const std::string& text) {
    return errorOf([&] {
        SnapshotImporter in;
        in.addText(text, "bad.yaml");
        Diagnostics d;
        in.finish(d);
        throwIfErrors(d);
    });
}

Diagnostics diagnosticsOf(const std::string& text) {
    SnapshotImporter in;
    in.addText(text, "in.yaml");
    Diagnostics d;
    in.finish(d);
    return d;
}

const char* kNode =
    "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\nstatus:\n  allocatable: {cpu: \"4\"}\n";

std::string queue(const std::string& name, const std::string& parent) {
    return "---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata:\n  name: " + name +
           "\nspec:\n  parent: " + parent + "\n";
}

std::string pod(const std::string& requests) {
    return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: ns\nspec:\n  containers:\n  - "
           "name: c\n"
           "    resources:\n      requests: " +
           requests + "\n";
}

} // namespace

class SnapshotErrorsTest : public QObject {
    Q_OBJECT
  private slots:
    // What the JobSet webhook rejects (pkg/webhooks/jobset_webhook.go): dependsOn on the first
    // replicated job or on one that is not earlier; and a status other than Ready or Complete.
    void jobSetDependsOn() {
        const std::string head = "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: js, "
                                 "namespace: ns}\nspec:\n  replicatedJobs:\n";
        const std::string tmpl =
            "    template: {spec: {template: {spec: {containers: [{name: c, image: x}]}}}}\n";
        QCOMPARE(
            firstError(head + "  - name: a\n    dependsOn: [{name: b, status: Ready}]\n" + tmpl),
            QString("bad.yaml:7:17: error: JobSet 'ns/js': spec.replicatedJobs[0].dependsOn[0]: dependsOn "
                    "can't be set for the first replicated job"));
        QCOMPARE(firstError(head + "  - name: a\n" + tmpl +
                            "  - name: b\n    dependsOn: [{name: c, status: Ready}]\n" + tmpl),
                 QString("bad.yaml:9:24: error: JobSet 'ns/js': spec.replicatedJobs[1].dependsOn[0].name: "
                         "replicated job b cannot depend on replicated job 'c': dependsOn names an earlier "
                         "replicated job"));
        QCOMPARE(firstError(head + "  - name: a\n" + tmpl +
                            "  - name: b\n    dependsOn: [{name: a, status: Started}]\n" + tmpl),
                 QString("bad.yaml:9:35: error: JobSet 'ns/js': spec.replicatedJobs[1].dependsOn[0].status: "
                         "expected Ready or Complete, got 'Started'"));
    }
    void disruptionBudgetCounts() {
        QCOMPARE(
            firstError("apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: p, namespace: "
                       "ns}\nspec:\n  minAvailable: 1\n  maxUnavailable: 20x\n"),
            QString("bad.yaml:6:19: error: PodDisruptionBudget 'ns/p': spec.maxUnavailable: expected a "
                    "non-negative number of pods or a percentage (\"50%\"), got '20x'"));
        QCOMPARE(
            firstError("apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: p, namespace: "
                       "ns}\nspec:\n  minAvailable: 1\n  maxUnavailable: 20%\n"),
            QString("bad.yaml:5:3: error: PodDisruptionBudget 'ns/p': spec: minAvailable and maxUnavailable "
                    "cannot be both set"));
    }
    void malformedYaml() {
        QCOMPARE(firstError("apiVersion: v1\nkind: Node\nmetadata:\n  name: [n1, n2\nstatus: {}\n"),
                 QString("bad.yaml:5:7: error: YAML syntax error: did not find expected ',' or ']' while "
                         "parsing a flow sequence (started at line 4)"));
        QCOMPARE(firstError("apiVersion: v1\nkind: Node\n\tmetadata: {}\n"),
                 QString("bad.yaml:3:1: error: YAML syntax error: found a tab character that violates "
                         "indentation while scanning a plain scalar (started at line 2)"));
    }
    void malformedJson() {
        // A trailing comma is valid YAML flow but not JSON; the JSON parser stops at the offending token.
        QCOMPARE(firstError("{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"Node\",\n}\n"),
                 QString("bad.yaml:4:1: error: JSON syntax error: expected a string key, got '}'"));
        QCOMPARE(firstError(
                     "{\"kind\": \"List\", \"items\": [\n  {\"kind\": \"Node\" \"apiVersion\": \"v1\"}\n]}"),
                 QString("bad.yaml:2:19: error: JSON syntax error: expected ',' or '}' after an object "
                         "member, got '\"'"));
        QCOMPARE(firstError("{\"kind\": \"Node\", \"apiVersion\": \"v1"),
                 QString("bad.yaml:1:32: error: JSON syntax error: unterminated string"));
        QCOMPARE(firstError("{\"a\": \"x\\qy\"}"),
                 QString("bad.yaml:1:10: error: JSON syntax error: unknown escape \\q"));
        QCOMPARE(firstError("[1, 2] 3"),
                 QString("bad.yaml:1:8: error: JSON syntax error: unexpected '3' after the JSON value"));
        QCOMPARE(firstError("{\"a\": 01}"), QString("bad.yaml:1:8: error: JSON syntax error: expected ',' or "
                                                    "'}' after an object member, got '1'"));
        QCOMPARE(firstError("{\"a\": -}"),
                 QString("bad.yaml:1:8: error: JSON syntax error: expected digits in a number, got '}'"));
        QCOMPARE(firstError("{\"a\": tru}"),
                 QString("bad.yaml:1:7: error: JSON syntax error: unexpected 't', expected a value"));
        QCOMPARE(firstError("{\"a\": \"line\nbreak\"}"),
                 QString("bad.yaml:1:12: error: JSON syntax error: control character byte 0x0a in a string "
                         "(escape it)"));
    }
    void jsonStringsDecode() {
        SnapshotImporter in;
        in.addText("{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": "
                   "\"n\\u00e9-\\ud83d\\ude80\", "
                   "\"labels\": {\"a\\/b\": \"x\\ty\\\"z\"}}, \"status\": {\"allocatable\": {\"cpu\": 1.5, "
                   "\"pods\": 1e2}}}",
                   "n.json");
        Diagnostics d;
        Cluster c = in.finish(d);
        QCOMPARE(c.nodes.at(0).name, std::string("n\xc3\xa9-\xf0\x9f\x9a\x80"));
        QCOMPARE(c.nodes[0].labels.at("a/b"), std::string("x\ty\"z"));
        QCOMPARE(c.nodes[0].allocatable.get("cpu"), int64_t(1500));
        QCOMPARE(c.nodes[0].allocatable.get("pods"), int64_t(100));
        QCOMPARE(c.nodes[0].source.str(), std::string("n.json:1:1"));
    }
    void wrongTypes() {
        QCOMPARE(
            firstError("apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: q}\n"
                       "spec:\n  weight: \"4\"\n"),
            QString(
                "bad.yaml:5:11: error: Queue 'q': spec.weight: expected an integer, got the string \"4\""));
        QCOMPARE(firstError("apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  labels: [a, b]\n"),
                 QString("bad.yaml:5:11: error: Node: metadata.labels: expected a mapping, got a list"));
        QCOMPARE(
            firstError("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nspec:\n  unschedulable: maybe\n"),
            QString(
                "bad.yaml:5:18: error: Node 'n1': spec.unschedulable: expected true or false, got 'maybe'"));
        QCOMPARE(firstError("- just\n- a list\n"),
                 QString("bad.yaml:1:1: error: expected a Kubernetes object (a mapping with apiVersion and "
                         "kind), got a list"));
        QCOMPARE(firstError("apiVersion: v1\nmetadata: {name: x}\n"),
                 QString("bad.yaml:1:1: error: object has no kind"));
        QCOMPARE(firstError("kind: Node\nmetadata: {name: x}\n"),
                 QString("bad.yaml:1:1: error: Node has no apiVersion"));
        QCOMPARE(firstError("apiVersion: v1\nkind: Node\nmetadata: {labels: {a: b}}\n"),
                 QString("bad.yaml:3:11: error: Node: metadata: the object has no name (metadata.name or "
                         "metadata.generateName)"));
    }
    void badQuantities() {
        QCOMPARE(
            firstError(pod("{cpu: \"-1\"}")),
            QString(
                "bad.yaml:10:23: error: Pod 'ns/p': spec.containers[0].resources.requests.cpu: quantity '-1' "
                "must not be negative"));
        QCOMPARE(firstError(pod("{memory: 4GB}")),
                 QString("bad.yaml:10:26: error: Pod 'ns/p': spec.containers[0].resources.requests.memory: "
                         "'4GB' is not "
                         "a valid quantity: unknown suffix (expected one of m, k, M, G, T, P, E, Ki, Mi, Gi, "
                         "Ti, Pi, Ei "
                         "or e<exp>)"));
        QCOMPARE(firstError(pod("{nvidia.com/gpu: 500m}")),
                 QString("bad.yaml:1:1: error: Pod 'ns/p': nvidia.com/gpu must be requested in whole "
                         "devices, got 500m"));
        QCOMPARE(
            firstError(pod("{cpu: [1]}")),
            QString(
                "bad.yaml:10:23: error: Pod 'ns/p': spec.containers[0].resources.requests.cpu: expected a "
                "quantity, got a list"));
    }
    void duplicateKeysAndNames() {
        QCOMPARE(firstError("apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  name: n2\n"),
                 QString("bad.yaml:5:3: error: Node: metadata: duplicate key 'name'"));
        auto text = std::string(kNode) + "---\n" + kNode;
        QCOMPARE(firstError(text),
                 QString("bad.yaml:8:1: error: duplicate node 'n1' (first defined at bad.yaml:1:1)"));
        // Every cross-object error is reported, not only the first.
        try {
            SnapshotImporter in;
            in.addText(text + "---\n" + kNode + queue("a", "ghost"), "bad.yaml");
            Diagnostics d;
            in.finish(d);
            throwIfErrors(d);
            QFAIL("no error");
        } catch (const InputError& e) {
            QCOMPARE(e.all().size(), size_t(3));
            QCOMPARE(QString::fromStdString(e.all()[2].str()),
                     QString("bad.yaml:22:1: error: queue 'a' names parent 'ghost', which does not exist"));
        }
    }
    void queueTreeErrors() {
        QCOMPARE(firstError(queue("a", "b") + queue("b", "a")),
                 QString("bad.yaml:2:1: error: cycle in the queue tree: a -> b -> a"));
        QCOMPARE(firstError(queue("a", "a")), QString("bad.yaml:2:1: error: queue 'a' is its own parent"));
        QCOMPARE(firstError("apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: "
                            "q}\nstatus: {state: Open}\n"
                            "spec: {weight: 70000}\n"),
                 QString("bad.yaml:5:16: error: Queue 'q': spec.weight: weight must be in 1..65535"));
    }
    void unknownPodGroupIsAWarning() {
        auto d = diagnosticsOf(
            pod("{cpu: 1}") +
            "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: q\n  namespace: ns\n  annotations:\n"
            "    scheduling.k8s.io/group-name: ghost\nspec:\n  containers: [{name: c}]\n");
        QCOMPARE(d.size(), size_t(2)); // and namespace 'ns' assumed
        QCOMPARE(QString::fromStdString(d[1].str()),
                 QString("in.yaml:12:1: warning: pod 'ns/q' names PodGroup 'ghost', which does not exist; "
                         "the pod will "
                         "stay pending"));
    }
    // GPU feature discovery's memory label in MiB: a value whose bytes do not fit 64 bits is a
    // warning like any other that is not a number (found by the cycle_volcano fuzz target).
    void gpuMemoryLabelTooLarge() {
        for (const char* value : {"81999999999999920", "lots"}) {
            auto d = diagnosticsOf(std::string("apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n  labels:\n"
                                               "    nvidia.com/gpu.memory: \"") +
                                   value + "\"\n");
            const bool warned = std::any_of(d.begin(), d.end(), [](const Diagnostic& x) {
                return x.str().find("is not a number of MiB; GPU memory left unknown") != std::string::npos;
            });
            QVERIFY2(warned, value);
        }
    }
    // The API server's checks of spec.schedulingGates (validatePodSchedulingGates and, at creation,
    // a nodeName with gates left): each is refused where it is written, and nothing else is lost.
    void schedulingGateErrors() {
        const std::string head =
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c}]\n";
        QCOMPARE(firstError(head + "  schedulingGates: [{name: a.io/x}, {name: a.io/x}]\n"),
                 QString("bad.yaml:6:44: error: Pod 'default/p': spec.schedulingGates[1].name: duplicate "
                         "scheduling gate 'a.io/x'"));
        QCOMPARE(
            firstError(head + "  schedulingGates: [{name: \"\"}]\n"),
            QString("bad.yaml:6:28: error: Pod 'default/p': spec.schedulingGates[0].name: a scheduling gate "
                    "needs a name"));
        QCOMPARE(
            firstError(head + "  nodeName: n1\n  schedulingGates: [{name: a.io/x}]\n"),
            QString("bad.yaml:6:13: error: Pod 'default/p': spec.nodeName: nodeName cannot be set until all "
                    "schedulingGates have been removed"));
    }
    // A replica count no cluster runs (found by the cycle_kueue fuzz target: an MPIJob of two
    // billion launchers) is refused where the workload is, before its pods are made; a JobSet's
    // replicas times parallelism does not overflow on the way.
    void workloadTooLarge() {
        QCOMPARE(firstError("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j, namespace: ns}\nspec:\n"
                            "  parallelism: 2000000\n  template: {spec: {containers: [{name: c}]}}\n"),
                 QString("bad.yaml:1:1: error: Job 'ns/j': the workload would create 2000000 pods; Gantry "
                         "expands at most 100000 pods of one workload"));
        const QString js = firstError(
            "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: js, namespace: ns}\nspec:\n"
            "  replicatedJobs:\n  - name: w\n    replicas: 2000000000\n    template: {spec: {parallelism: "
            "2000000000, template: {spec: {containers: [{name: c}]}}}}\n");
        QVERIFY2(js.contains("the workload would create 2147483647 pods"), qPrintable(js));
    }
    void badEnumsAndSelectors() {
        QCOMPARE(
            firstError("apiVersion: v1\nkind: Node\nmetadata: {name: n}\nspec:\n  taints:\n  - {key: a, "
                       "effect: NoPlace}\n"),
            QString("bad.yaml:6:22: error: Node 'n': spec.taints[0].effect: unknown taint effect 'NoPlace' "
                    "(expected NoSchedule, PreferNoSchedule or NoExecute)"));
        QCOMPARE(firstError(
                     "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c}]\n"
                     "  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n"
                     "        nodeSelectorTerms:\n        - matchExpressions:\n"
                     "          - {key: zone, operator: Near, values: [a]}\n"),
                 QString("bad.yaml:11:35: error: Pod 'default/p': "
                         "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
                         "nodeSelectorTerms[0]."
                         "matchExpressions[0].operator: unknown operator 'Near' (expected In, NotIn, Exists, "
                         "DoesNotExist, Gt, Lt)"));
        QCOMPARE(
            firstError("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: "
                       "c}]\nstatus: {phase: Sleeping}\n"),
            QString(
                "bad.yaml:6:17: error: Pod 'default/p': status.phase: unknown pod phase 'Sleeping' (expected "
                "Pending, Running, Succeeded, Failed or Unknown)"));
    }
    void kueueShapeErrors() {
        QCOMPARE(
            firstError("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq}\nspec:\n"
                       "  resourceGroups:\n  - coveredResources: [cpu, memory]\n    flavors:\n    - name: f\n"
                       "      resources:\n      - {name: memory, nominalQuota: 1Gi}\n      - {name: cpu, "
                       "nominalQuota: 4}\n"),
            QString("bad.yaml:10:16: error: ClusterQueue 'cq': "
                    "spec.resourceGroups[0].flavors[0].resources[0].name: "
                    "expected covered resource 'cpu' at this position, got 'memory'"));
        // The v1beta1 spelling in a v1beta2 object is read, with a warning.
        auto d = diagnosticsOf(
            "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq}\nspec:\n"
            "  cohort: team\n");
        QCOMPARE(d.size(), size_t(1));
        QCOMPARE(QString::fromStdString(d[0].str()),
                 QString("in.yaml:5:11: warning: ClusterQueue 'cq': spec.cohort: kueue.x-k8s.io/v1beta2 "
                         "calls this field "
                         "'cohortName', not 'cohort'; read as the same thing"));
    }
    void unknownFieldsAreNotedOnce() {
        std::string q =
            "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: %}\nspec:\n  wieght: "
            "3\n"
            "  extendClusters: [{name: c1, weight: 1}]\n";
        std::string text;
        for (const char* n : {"a", "b", "c"}) {
            std::string one = q;
            one.replace(one.find('%'), 1, n);
            text += "---\n" + one;
        }
        auto d = diagnosticsOf(text);
        QCOMPARE(d.size(), size_t(2));
        QCOMPARE(QString::fromStdString(d[0].str()),
                 QString("in.yaml:6:3: warning: Queue field 'spec.wieght' is not modelled by Gantry and was "
                         "ignored (3 "
                         "objects; first here)"));
        QCOMPARE(
            QString::fromStdString(d[1].str()),
            QString("in.yaml:7:3: warning: Queue field 'spec.extendClusters' is not modelled by Gantry and "
                    "was ignored (3 "
                    "objects; first here)"));
    }
    void embeddedConfigErrorsAreLocatedInTheFile() {
        std::string cm = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: yunikorn-configs, namespace: "
                         "yunikorn}\ndata:\n"
                         "  queues.yaml: |\n    partitions:\n      - name: default\n        queues:\n"
                         "          - name: root\n            maxapps: 3\n";
        QCOMPARE(
            firstError(cm),
            QString("bad.yaml:10:13: error: partitions[0].queues[0]: unknown key 'maxapps' (expected one of: "
                    "name, "
                    "parent, resources, maxapplications, properties, adminacl, submitacl, queues, limits, "
                    "childtemplate)"));
        std::string vc =
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: volcano-scheduler-configmap}\ndata:\n"
            "  volcano-scheduler.conf: |\n    actions: \"enqueue, allocate\"\n    tiers:\n    - plugins:\n"
            "      - name: gang\n        enableJobReady: sometimes\n";
        QCOMPARE(
            firstError(vc),
            QString("bad.yaml:10:25: error: tiers[0].plugins[0].enableJobReady: expected true or false, got "
                    "'sometimes'"));
    }
    // queues.yaml quantities are YuniKorn's own (yunikorn-core pkg/common/resources/quantity.go,
    // ParseQuantity: digits and an optional suffix, no decimal point or sign; vcore in millicores,
    // `m` for vcore only). What YuniKorn refuses is refused here at its key, so the profile runs only
    // what gantry validate accepts.
    void yunikornQuantitiesAreYuniKornsOwn() {
        auto queues = [](const std::string& resources) {
            return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: yunikorn-configs, namespace: "
                   "yunikorn}\ndata:\n  queues.yaml: |\n    partitions:\n      - name: default\n"
                   "        queues:\n          - name: root\n            queues:\n"
                   "              - name: a\n                resources:\n                  guaranteed: " +
                   resources + "\n";
        };
        QCOMPARE(
            firstError(queues("{vcore: 1.5}")),
            QString("bad.yaml:13:39: error: partitions[0].queues[0].queues[0].resources.guaranteed.vcore: "
                    "'1.5' is not a YuniKorn quantity for vcore: invalid quantity (digits only, no sign or "
                    "decimal point)"));
        QVERIFY(firstError(queues("{memory: 500m}")).contains("m is allowed for vcore only"));
        QVERIFY(firstError(queues("{nvidia.com/gpu: -1}")).contains("not a YuniKorn quantity"));
        SnapshotImporter in;
        in.addText(queues("{vcore: 500m, memory: 1G, nvidia.com/gpu: 8}"), "in.yaml");
        Diagnostics d;
        const Cluster c = in.finish(d);
        throwIfErrors(d);
        const Queue* a = nullptr;
        for (const auto& q : c.queues)
            if (q.name == "a") a = &q;
        QVERIFY(a);
        // The model's units: CPU in millicores, bytes, devices in milli-units.
        QCOMPARE(a->guaranteed.get("vcore") + a->guaranteed.get("cpu"), int64_t(500));
        QCOMPARE(a->guaranteed.get("memory"), int64_t(1000000000));
        QCOMPARE(a->guaranteed.get("nvidia.com/gpu"), int64_t(8000));
    }

    // Kubernetes names are unique per kind (the API server keys objects by resource and name): Kueue's
    // cohort docs name a Cohort and its ClusterQueue alike in their own examples' style, and Kueue's
    // cache keeps cohorts and ClusterQueues apart (pkg/cache/scheduler: cohorts by name, CQs by name).
    void aCohortAndAClusterQueueMayShareAName() {
        const std::string text =
            "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata: {name: team-a}\n---\n"
            "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: team-a}\n"
            "spec: {cohortName: team-a}\n---\n"
            "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: team-b}\n"
            "spec: {cohortName: shared}\n---\n"
            "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: shared}\n";
        SnapshotImporter in;
        in.addText(text, "in.yaml");
        Diagnostics d;
        Cluster c = in.finish(d);
        QVERIFY2(d.empty(), qPrintable(QString::fromStdString(d.empty() ? "" : d[0].str())));
        auto count = [&](const std::string& name, Queue::Kind kind) {
            return std::count_if(c.queues.begin(), c.queues.end(),
                                 [&](const Queue& q) { return q.name == name && q.kind == kind; });
        };
        QCOMPARE(count("team-a", Queue::Kind::KueueCohort), 1);
        QCOMPARE(count("team-a", Queue::Kind::KueueClusterQueue), 1);
        // team-b names a cohort "shared" that no Cohort defines: Kueue makes it implicitly, although a
        // ClusterQueue is called so.
        QCOMPARE(count("shared", Queue::Kind::KueueCohort), 1);
        QCOMPARE(count("shared", Queue::Kind::KueueClusterQueue), 1);
        // Two objects of one kind may not.
        QCOMPARE(
            firstError(text +
                       "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata: {name: team-a}\n"),
            QString("bad.yaml:19:1: error: duplicate Cohort 'team-a' (first defined at bad.yaml:1:1)"));
    }
    void filesAndEmptiness() {
        QCOMPARE(errorOf([] { readSnapshotFiles({"/nonexistent/cluster.yaml"}); }),
                 QString("/nonexistent/cluster.yaml: error: cannot open file: No such file or directory"));
        auto d = diagnosticsOf("# nothing here\n---\n");
        QCOMPARE(d.size(), size_t(1));
        QCOMPARE(QString::fromStdString(d[0].str()), QString("in.yaml: warning: the file holds no objects"));
    }
};

GANTRY_TEST(SnapshotErrorsTest)
#include "test_snapshot_errors.moc"
