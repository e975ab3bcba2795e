// Kueue's Configuration and job integrations, restated from Kueue's own unit tests at
// kubernetes-sigs/kueue ff69552e:
// - pkg/workload/workload_test.go TestNewInfo: the requests Kueue counts after
//   resources.excludeResourcePrefixes and resources.transformations (multiplyBy, allowances);
// - pkg/controller/jobframework/defaults_test.go TestWorkloadShouldBeSuspended,
//   TestApplyDefaultLocalQueue, TestApplyDefaultWorkloadPriorityClass: which jobs Kueue manages
//   (queue-name label, manageJobsWithoutQueueName, managedJobsNamespaceSelector), the LocalQueue
//   "default" and the WorkloadPriorityClass "default" the webhooks give;
// - pkg/config/validation.go and apis/config/v1beta2/defaults.go: integrations.frameworks.
#include "input_error.h"
#include "kueue_config_reader.h"
#include "model/resources.h"
#include "profiles/kueue/afs_ledger.h"
#include "profiles/kueue/controllers.h"
#include "profiles/kueue/resource_transformations.h"
#include "test_registry.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <limits>

using namespace gantry;
using namespace gantry::engine::kueue;

namespace {

KueueConfig config(const std::string& yaml) {
    Diagnostics warnings;
    return parseKueueConfig("apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\n" + yaml,
                            "config.yaml", &warnings);
}

// Requests from Kubernetes quantities ("2", "500m", "512Ki"), in the model's canonical amounts.
Requests requests(std::initializer_list<std::pair<const char*, const char*>> list) {
    Requests out;
    for (const auto& [name, text] : list) {
        std::string error;
        auto a = parseAmount(name, text, &error);
        if (!a) throw std::invalid_argument(error);
        out.emplace_back(name, *a);
    }
    return out;
}

// What Kueue's test expects, in Kueue's units (cpu in milli-cores, memory in bytes, other resources
// in whole units), turned into the model's canonical amounts.
Requests kueueUnits(std::initializer_list<std::pair<const char*, int64_t>> list) {
    Requests out;
    for (const auto& [name, v] : list) {
        const bool milli = unitOf(name) == ResourceUnit::Milli && std::string(name) != "cpu";
        out.emplace_back(name, milli && v < std::numeric_limits<int64_t>::max() / 1000 ? v * 1000 : v);
    }
    return out;
}

bool same(Requests a, Requests b) {
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    return a == b;
}

QString show(const Requests& r) {
    QStringList parts;
    for (const auto& [name, v] : r) parts << QString::fromStdString(name) + "=" + QString::number(v);
    return parts.join(", ");
}

#define COMPARE_REQUESTS(got, want)                                                                          \
    QVERIFY2(same(got, want), qPrintable("got " + show(got) + ", want " + show(want)))

// The HAMi page's transformations (and TestNewInfo's vgpu ones): per-vGPU values multiplied by the
// vGPU count.
const char* kVgpu = R"(resources:
  transformations:
  - input: nvidia.com/mig-1g.5gb
    strategy: Replace
    outputs:
      example.com/accelerator-memory: 5Ki
      example.com/credits: "10"
  - input: nvidia.com/mig-2g.10gb
    strategy: Replace
    outputs:
      example.com/accelerator-memory: 10Ki
      example.com/credits: "15"
  - input: nvidia.com/gpu
    strategy: Retain
    outputs:
      example.com/accelerator-memory: 40Ki
      example.com/credits: "100"
  - input: nvidia.com/vgpucores
    strategy: Replace
    multiplyBy: nvidia.com/vgpu
    outputs:
      nvidia.com/total-vgpucores: "1"
  - input: nvidia.com/vgpumem
    strategy: Replace
    multiplyBy: nvidia.com/vgpu
    outputs:
      nvidia.com/total-vgpumem: "1"
)";

// The allowance of TestNewInfo: a GPU's first 1024 of memory are free.
const char* kAllowance = R"(resources:
  transformations:
  - input: nvidia.com/gpumem
    strategy: Replace
    multiplyBy: nvidia.com/gpu
    outputs:
      quota.example.com/gpu-memory-overage: "1"
  - input: nvidia.com/gpu
    strategy: Retain
    outputs:
      quota.example.com/gpu-memory-overage: "-1024"
)";

// --- integrations

struct Job {
    PodGroup group;
    std::vector<Pod> pods;
    std::vector<const Pod*> list() const {
        std::vector<const Pod*> out;
        for (const auto& p : pods) out.push_back(&p);
        return out;
    }
};

Job batchJob(const std::string& ns, const std::string& queue = "", const std::string& priorityClass = "") {
    Job j;
    j.group.name = "test-job";
    j.group.ns = ns;
    j.group.origin = "batch/Job";
    j.group.minMember = 1;
    if (!queue.empty()) j.group.labels["kueue.x-k8s.io/queue-name"] = queue;
    if (!priorityClass.empty()) j.group.labels["kueue.x-k8s.io/priority-class"] = priorityClass;
    Pod p;
    p.name = "test-job-0";
    p.ns = ns;
    j.pods.push_back(p);
    return j;
}

// The namespaces of TestWorkloadShouldBeSuspended, and its selector: every namespace but unmanaged-ns.
IntegrationContext context(const std::string& yaml = "") {
    IntegrationContext c;
    c.config = config(yaml + R"(managedJobsNamespaceSelector:
  matchExpressions:
  - key: kubernetes.io/metadata.name
    operator: NotIn
    values: [unmanaged-ns]
)");
    for (const char* ns : {"managed-ns", "unmanaged-ns", "default"})
        c.namespaceLabels[ns] = Labels{{"kubernetes.io/metadata.name", ns}};
    return c;
}

} // namespace

class KueueIntegrationsTest : public QObject {
    Q_OBJECT

  private slots:
    // TestNewInfo "filterResources".
    void excludedPrefixesAreDropped() {
        KueueConfig c =
            config("resources:\n  excludeResourcePrefixes: [dummyPrefix, networking.example.com/]\n");
        COMPARE_REQUESTS(
            countedRequests(
                c, requests({{"cpu", "10m"}, {"memory", "512Ki"}, {"networking.example.com/vpc1", "1"}})),
            kueueUnits({{"cpu", 10}, {"memory", 512 * 1024}}));
    }

    // TestNewInfo "transformResources": pod sets a, b, c and d, per pod.
    void transformResources() {
        KueueConfig c = config(kVgpu);
        COMPARE_REQUESTS(
            countedRequests(
                c, requests({{"nvidia.com/mig-1g.5gb", "2"}, {"nvidia.com/mig-2g.10gb", "1"}, {"cpu", "1"}})),
            kueueUnits(
                {{"cpu", 1000}, {"example.com/accelerator-memory", 20 * 1024}, {"example.com/credits", 35}}));
        COMPARE_REQUESTS(countedRequests(c, requests({{"nvidia.com/gpu", "1"}, {"cpu", "2"}})),
                         kueueUnits({{"cpu", 2000},
                                     {"example.com/accelerator-memory", 40 * 1024},
                                     {"example.com/credits", 100},
                                     {"nvidia.com/gpu", 1}}));
        COMPARE_REQUESTS(countedRequests(c, requests({{"nvidia.com/vgpu", "2"},
                                                      {"nvidia.com/vgpucores", "20"},
                                                      {"nvidia.com/vgpumem", "1024"}})),
                         kueueUnits({{"nvidia.com/vgpu", 2},
                                     {"nvidia.com/total-vgpucores", 2 * 20},
                                     {"nvidia.com/total-vgpumem", 2 * 1024}}));
        COMPARE_REQUESTS(countedRequests(c, requests({{"nvidia.com/vgpu", "2"},
                                                      {"nvidia.com/vgpucores", "30"},
                                                      {"nvidia.com/vgpumem", "2048"}})),
                         kueueUnits({{"nvidia.com/vgpu", 2},
                                     {"nvidia.com/total-vgpucores", 2 * 30},
                                     {"nvidia.com/total-vgpumem", 2 * 2048}}));
    }

    // TestNewInfo "transformAllowanceAboveIt", "...ExactlyAtIt", "...UnderIt": a negative output is an
    // allowance; the generated total is floored at zero.
    void allowance() {
        KueueConfig c = config(kAllowance);
        COMPARE_REQUESTS(
            countedRequests(c, requests({{"nvidia.com/gpumem", "2048"}, {"nvidia.com/gpu", "2"}})),
            kueueUnits({{"quota.example.com/gpu-memory-overage", 2048}, {"nvidia.com/gpu", 2}}));
        COMPARE_REQUESTS(
            countedRequests(c, requests({{"nvidia.com/gpumem", "1024"}, {"nvidia.com/gpu", "2"}})),
            kueueUnits({{"quota.example.com/gpu-memory-overage", 0}, {"nvidia.com/gpu", 2}}));
        COMPARE_REQUESTS(
            countedRequests(c, requests({{"nvidia.com/gpumem", "512"}, {"nvidia.com/gpu", "2"}})),
            kueueUnits({{"quota.example.com/gpu-memory-overage", 0}, {"nvidia.com/gpu", 2}}));
    }

    // TestNewInfo "transformAllowanceDoesNotReachADirectRequest".
    void allowanceDoesNotReachADirectRequest() {
        KueueConfig c = config(R"(resources:
  transformations:
  - input: example.com/credit
    strategy: Replace
    outputs:
      example.com/gpu: "-1"
)");
        COMPARE_REQUESTS(
            countedRequests(c, requests({{"example.com/gpu", "8"}, {"example.com/credit", "3"}})),
            kueueUnits({{"example.com/gpu", 8}}));
    }

    // TestNewInfo "transformOutputSharingANameWithARequestIsAdded" and
    // "...WithItsRetainedInputIsAdded".
    void outputsAddToRequestsOfTheSameName() {
        KueueConfig replace = config(R"(resources:
  transformations:
  - input: example.com/credit
    strategy: Replace
    outputs:
      example.com/gpu: "1"
)");
        COMPARE_REQUESTS(
            countedRequests(replace, requests({{"example.com/gpu", "1"}, {"example.com/credit", "1"}})),
            kueueUnits({{"example.com/gpu", 2}}));
        KueueConfig retain = config(R"(resources:
  transformations:
  - input: example.com/gpu
    strategy: Retain
    outputs:
      example.com/gpu: "5"
)");
        COMPARE_REQUESTS(countedRequests(retain, requests({{"example.com/gpu", "1"}})),
                         kueueUnits({{"example.com/gpu", 6}}));
    }

    // TestNewInfo "transformRetainWithMultiplyBy", "transformRetainWithMultiplyByUnderOne" (strategy
    // left unset: Retain) and "transformOutputSharingANameWithItsRetainedInputIsAddedToTheAmountRequested".
    void multiplyByScalesOnlyTheOutputs() {
        KueueConfig byGpu = config(R"(resources:
  transformations:
  - input: example.com/gpumem
    strategy: Retain
    multiplyBy: example.com/gpu
    outputs:
      example.com/gpumem-quota: "1"
)");
        COMPARE_REQUESTS(
            countedRequests(byGpu, requests({{"example.com/gpumem", "1024"}, {"example.com/gpu", "2"}})),
            kueueUnits(
                {{"example.com/gpumem", 1024}, {"example.com/gpumem-quota", 2048}, {"example.com/gpu", 2}}));
        KueueConfig byCpu = config(R"(resources:
  transformations:
  - input: example.com/gpumem
    multiplyBy: cpu
    outputs:
      example.com/gpumem-quota: "1"
)");
        COMPARE_REQUESTS(
            countedRequests(byCpu, requests({{"example.com/gpumem", "1024"}, {"cpu", "500m"}})),
            kueueUnits({{"example.com/gpumem", 1024}, {"example.com/gpumem-quota", 512}, {"cpu", 500}}));
        KueueConfig byNode = config(R"(resources:
  transformations:
  - input: example.com/gpu
    strategy: Retain
    multiplyBy: example.com/node
    outputs:
      example.com/gpu: "1"
)");
        COMPARE_REQUESTS(
            countedRequests(byNode, requests({{"example.com/gpu", "1"}, {"example.com/node", "2"}})),
            kueueUnits({{"example.com/gpu", 3}, {"example.com/node", 2}}));
        // A multiplyBy resource the pod does not request leaves the input as it is.
        COMPARE_REQUESTS(countedRequests(byGpu, requests({{"example.com/gpumem", "1024"}})),
                         kueueUnits({{"example.com/gpumem", 1024}, {"example.com/gpumem-quota", 1024}}));
    }

    // TestNewInfo "transformProductPastTheRangeIsNotFlooredAway".
    void productPastTheRangeIsUnlimited() {
        KueueConfig c = config(R"(resources:
  transformations:
  - input: example.com/credit
    strategy: Replace
    outputs:
      example.com/gpu: "10000000000"
)");
        COMPARE_REQUESTS(countedRequests(c, requests({{"example.com/credit", "10000000000"}})),
                         (Requests{{"example.com/gpu", std::numeric_limits<int64_t>::max()}}));
    }

    // TestNewInfo "transformMilliValues": 100m x 3000 = 300, 100M x 3m = 300k.
    void milliValues() {
        KueueConfig c = config(R"(resources:
  transformations:
  - input: cpu
    strategy: Replace
    outputs:
      example.com/cpu-credits: "3000"
  - input: memory
    strategy: Replace
    outputs:
      example.com/memory-credits: 3m
)");
        COMPARE_REQUESTS(
            countedRequests(c, requests({{"cpu", "100m"}, {"memory", "100M"}})),
            kueueUnits({{"example.com/cpu-credits", 300}, {"example.com/memory-credits", 300 * 1000}}));
    }

    // validateResourceTransformations: one transformation per input.
    // Admission Fair Sharing's section as Kueue's API defines it (config/v1beta2 AdmissionFairSharing:
    // usageHalfLifeTime, usageSamplingInterval as durations, resourceWeights per resource).
    void admissionFairSharingSection() {
        const KueueConfig c =
            config("admissionFairSharing:\n  usageHalfLifeTime: 168h\n  usageSamplingInterval: 5m\n"
                   "  resourceWeights:\n    cpu: 0\n    example.com/gpu: 2.5\n");
        QVERIFY(c.admissionFairSharing);
        QCOMPARE(c.admissionFairSharing->usageHalfLifeSeconds, 168.0 * 3600);
        QCOMPARE(c.admissionFairSharing->usageSamplingIntervalSeconds, 300.0);
        QCOMPARE(c.admissionFairSharing->resourceWeights.at("cpu"), 0.0);
        QCOMPARE(c.admissionFairSharing->resourceWeights.at("example.com/gpu"), 2.5);
        QVERIFY(!config("fairSharing: {}\n").admissionFairSharing);
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 config("admissionFairSharing:\n  resourceWeights:\n    cpu: -1\n"));
    }
    // The LocalQueue controller's sampling (CalculateDecayedConsumed, restated from Kueue's
    // TestCalculateDecayedConsumedConvergesToUsage): a queue whose admitted workloads hold 2 cpu,
    // sampled every 5m with a 168h half-life, has consumed 1, 1.5 and 1.75 cpu after one, two and
    // three half-lives (within 1m), never more than 2; a sample before the interval changes nothing.
    void afsUsageDecaysTowardAdmittedUsage() {
        World w;
        w.config.admissionFairSharing = KueueConfig::AdmissionFairSharing{168 * 3600.0, 300, {}};
        w.resources = {"cpu"};
        w.cqs.resize(1);
        w.cqs[0].admissionFairSharing = true;
        w.cqs[0].admitted = {0};
        gantry::engine::kueue::LocalQueue lq;
        lq.ns = "ns";
        lq.name = "lq";
        lq.cq = 0;
        w.localQueues[{"ns", "lq"}] = lq;
        std::vector<Workload> wls(1);
        wls[0].ns = "ns";
        wls[0].queueName = "lq";
        wls[0].cq = 0;
        wls[0].state = WlState::Admitted;
        wls[0].usage = {{w.fr(0, 0), 2000}};
        afsSeed(w, 0);
        QVERIFY(afsSample(w, wls, 299).empty());
        double t = 0;
        const double want[] = {1, 1.5, 1.75};
        for (double expected : want) {
            for (int i = 0; i < 2016; ++i) QCOMPARE(afsSample(w, wls, t += 300), std::vector<int>{0});
            const double cpu = w.localQueues.at({"ns", "lq"}).consumed.at("cpu");
            QVERIFY2(std::abs(cpu - expected) <= 0.001 && cpu <= 2, qPrintable(QString::number(cpu)));
            QCOMPARE(w.localQueues.at({"ns", "lq"}).afsUsage, cpu);
        }
    }
    void secondTransformationOfAnInputIsAnError() {
        QVERIFY_THROWS_EXCEPTION(InputError, config(R"(resources:
  transformations:
  - input: example.com/gpu
    outputs: {example.com/credits: "1"}
  - input: example.com/gpu
    outputs: {example.com/credits: "2"}
)"));
    }

    // A DeviceClass maps to one quota resource: a second mapping of it is refused where it is written.
    void deviceClassMappedTwiceIsAnError() {
        const auto c = config(R"(resources:
  deviceClassMappings:
  - name: example.com/gpu
    deviceClassNames: [gpu.example.com, gpu.nvidia.com]
)");
        QCOMPARE(c.deviceClassMappings.size(), size_t(1));
        try {
            config(R"(resources:
  deviceClassMappings:
  - name: example.com/gpu
    deviceClassNames: [gpu.example.com]
  - name: example.com/other
    deviceClassNames: [gpu.example.com]
)");
            QFAIL("a class mapped twice was accepted");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("config.yaml:8") != std::string::npos, e.what());
            // pkg/config/validation.go validateDeviceClassMappings' words.
            QVERIFY2(std::string(e.what()).find("device class already mapped to resource example.com/gpu") !=
                         std::string::npos,
                     e.what());
        }
    }

    // defaults.go: a Configuration listing no integration manages batch/job alone; validateIntegrations
    // refuses a name no integration registers.
    void frameworksOfAConfiguration() {
        KueueConfig none = config("fairSharing: {}\n");
        QVERIFY(none.manages("batch/job"));
        QVERIFY(!none.manages("jobset.x-k8s.io/jobset"));
        QVERIFY(!none.manages("pod"));
        KueueConfig listed = config("integrations:\n  frameworks: [pod, deployment]\n");
        QVERIFY(listed.manages("deployment"));
        QVERIFY(!listed.manages("batch/job"));
        QVERIFY_THROWS_EXCEPTION(InputError, config("integrations:\n  frameworks: [batch/jobs]\n"));
        // Without a Configuration: the install's own list (controller_manager_config.yaml).
        KueueConfig install;
        QVERIFY(install.manages("jobset.x-k8s.io/jobset"));
        QVERIFY(install.manages("trainer.kubeflow.org/trainjob"));
        QVERIFY(!install.manages("kubeflow.org/pytorchjob"));
    }

    // TestWorkloadShouldBeSuspended.
    void whichJobsKueueManages() {
        const IntegrationContext off = context(), on = context("manageJobsWithoutQueueName: true\n");
        auto read = [](const IntegrationContext& c, const Job& j) {
            return readWorkload(c, j.group, j.list());
        };
        // "job with queue name" (either way).
        for (const auto* c : {&off, &on}) {
            auto r = read(*c, batchJob("managed-ns", "default"));
            QVERIFY(r.managed);
            QCOMPARE(r.queue, std::string("default"));
        }
        // "job without queue name": left alone.
        QVERIFY(!read(off, batchJob("managed-ns")).managed);
        // "job without queue name with manageJobs": suspended (its Workload names no LocalQueue).
        auto r = read(on, batchJob("managed-ns"));
        QVERIFY(r.managed);
        QCOMPARE(r.queue, std::string());
        // "job without queue name with manageJobs in unmanaged ns".
        QVERIFY(!read(on, batchJob("unmanaged-ns")).managed);
        // The default selector leaves out kube-system and Kueue's own namespace.
        IntegrationContext byDefault;
        byDefault.config = config("manageJobsWithoutQueueName: true\n");
        QVERIFY(!read(byDefault, batchJob("kube-system")).managed);
        QVERIFY(!read(byDefault, batchJob("kueue-system")).managed);
        QVERIFY(read(byDefault, batchJob("team-a")).managed);
    }

    // TestApplyDefaultLocalQueue, with a LocalQueue "default" in every namespace.
    void defaultLocalQueue() {
        IntegrationContext c = context();
        c.namespacesWithDefaultQueue = {"managed-ns", "unmanaged-ns"};
        auto queueOf = [&](const Job& j) { return readWorkload(c, j.group, j.list()).queue; };
        QCOMPARE(queueOf(batchJob("managed-ns")), std::string("default"));
        QCOMPARE(queueOf(batchJob("unmanaged-ns")), std::string());
        QCOMPARE(queueOf(batchJob("managed-ns", "other")), std::string("other"));
    }

    // TestApplyDefaultWorkloadPriorityClass, and ExtractPriority (jobframework/reconciler.go): the
    // WorkloadPriorityClass of the label, else the pods' PriorityClass, else the global default.
    void workloadPriority() {
        auto priority = [](const std::string& yaml, const std::vector<PriorityClass>& classes, const Job& j) {
            IntegrationContext c = context(yaml);
            c.addPriorityClasses(classes);
            return readWorkload(c, j.group, j.list()).priority;
        };
        const PriorityClass defaultWpc{"default", 100, false, "", "", true, {}};
        const PriorityClass highWpc{"high", 1000, false, "", "", true, {}};
        const PriorityClass podClass{"pod-class", 7, false, "", "", false, {}};
        const PriorityClass globalDefault{"everyone", 3, true, "", "", false, {}};
        // "feature gate enabled, no label, default WPC exists".
        QCOMPARE(priority("", {defaultWpc}, batchJob("default", "lq")), std::optional<int32_t>(100));
        // "feature gate disabled, no label, default WPC exists": the pods' class decides, here none.
        QCOMPARE(priority("featureGates: {WorkloadPriorityClassDefaulting: false}\n", {defaultWpc},
                          batchJob("default", "lq")),
                 std::optional<int32_t>(0));
        // "feature gate enabled, label already set".
        QCOMPARE(priority("", {defaultWpc, highWpc}, batchJob("default", "lq", "high")),
                 std::optional<int32_t>(1000));
        // "feature gate enabled, no label, default WPC does not exist".
        QCOMPARE(priority("", {}, batchJob("default", "lq")), std::optional<int32_t>(0));
        // The label wins over the pods' PriorityClass; without it the pods' class, else the global default.
        Job withPodClass = batchJob("default", "lq", "high");
        withPodClass.pods[0].priorityClassName = "pod-class";
        QCOMPARE(priority("", {highWpc, podClass}, withPodClass), std::optional<int32_t>(1000));
        withPodClass.group.labels.erase("kueue.x-k8s.io/priority-class");
        QCOMPARE(priority("", {highWpc, podClass, globalDefault}, withPodClass), std::optional<int32_t>(7));
        QCOMPARE(priority("", {highWpc, globalDefault}, batchJob("default", "lq")),
                 std::optional<int32_t>(3));
        // A WorkloadPriorityClass named but missing: no Workload (the job stays suspended).
        auto missing = [&] {
            IntegrationContext c = context();
            Job j = batchJob("default", "lq", "nonexistent");
            return readWorkload(c, j.group, j.list());
        }();
        QVERIFY(missing.managed);
        QCOMPARE(missing.queue, std::string());
    }

    // The pod integration: plain pods and a Deployment's one Workload each; a StatefulSet's and a pod
    // group's pods one Workload; plain pods outside managedJobsNamespaceSelector are not Kueue's even
    // with a queue name (pod_webhook.go Default), a Deployment's are (suspended by their parent).
    void podIntegration() {
        // A Configuration listing no frameworks has batch/job alone (defaults.go): enable the pod ones.
        const IntegrationContext c =
            context("integrations:\n  frameworks: [batch/job, pod, deployment, statefulset]\n");
        auto read = [&](const std::string& origin, const std::string& ns) {
            Job j = batchJob(ns);
            j.group.origin = origin;
            j.pods[0].labels["kueue.x-k8s.io/queue-name"] = "lq";
            if (origin == "apps/Deployment") j.group.labels["kueue.x-k8s.io/queue-name"] = "lq";
            return readWorkload(c, j.group, j.list());
        };
        QVERIFY(read("v1/Pod", "managed-ns").podsAdmittedApart);
        QVERIFY(read("apps/Deployment", "managed-ns").podsAdmittedApart);
        QVERIFY(!read("apps/StatefulSet", "managed-ns").podsAdmittedApart);
        QVERIFY(!read("kueue.x-k8s.io/pod-group", "managed-ns").podsAdmittedApart);
        QVERIFY(!read("batch/Job", "managed-ns").podsAdmittedApart);
        QVERIFY(!read("v1/Pod", "unmanaged-ns").managed);
        QVERIFY(read("apps/Deployment", "unmanaged-ns").managed);
    }
};

GANTRY_TEST(KueueIntegrationsTest)
#include "test_kueue_integrations.moc"
