// The three exporters on a project designed in C++: every export validates against the bundled
// CRDs and rules, and carries the policy, topology and workloads the way each scheduler wants them.
#include "export_fixtures.h"
#include "test_registry.h"

#include <QtTest>
#include <algorithm>

using namespace gantry;
using namespace gantry::test;

namespace {

void expectValid(const ExportBundle& b) {
    Diagnostics d = validateExport(b, ExportLayout::PerKind);
    QVERIFY2(!hasErrors(d), qPrintable(messages(d, Severity::Error).join('\n')));
    Diagnostics single = validateExport(b, ExportLayout::SingleFile);
    QVERIFY2(!hasErrors(single), qPrintable(messages(single, Severity::Error).join('\n')));
}

Json parseYaml(const std::string& text) {
    return parseManifests(text, "embedded").at(0).value;
}

} // namespace

class ExportersTest : public QObject {
    Q_OBJECT
  private slots:
    void volcanoQueuesPolicyTopologyAndJobs() {
        ExportBundle b = exportVolcano(gpuProject(), {});
        expectValid(b);
        auto queues = objectsOf(b, "Queue");
        QCOMPARE(queues.size(), size_t(4));
        QCOMPARE(queues[0]["metadata"]["name"], Json("org")); // parents before children
        const Json* a = named(queues, "team-a");
        QVERIFY(a);
        QCOMPARE((*a)["spec"]["parent"], Json("org"));
        QCOMPARE((*a)["spec"]["weight"], Json(3));
        QCOMPARE((*a)["spec"]["guarantee"]["resource"]["nvidia.com/gpu"], Json("4"));
        QCOMPARE((*a)["spec"]["deserved"]["memory"], Json("512Gi"));
        QCOMPARE((*a)["spec"]["capability"]["nvidia.com/gpu"], Json("32"));
        // team-b sets 1.5 cores.
        QCOMPARE((*named(queues, "team-b"))["spec"]["deserved"]["cpu"], Json("1500m"));
        // org covers its children's memory, which it did not set (Volcano's webhook requires it).
        QCOMPARE((*named(queues, "org"))["spec"]["deserved"]["memory"], Json("512Gi"));

        // The policy: a queue tree needs capacity with enableHierarchy and never proportion.
        auto maps = objectsOf(b, "ConfigMap");
        QCOMPARE(maps.size(), size_t(1));
        Json conf = parseYaml(maps[0]["data"]["volcano-scheduler.conf"].get<std::string>());
        QCOMPARE(conf["actions"], Json("enqueue, allocate, reclaim, backfill"));
        bool capacity = false, proportion = false, topology = false;
        for (const auto& tier : conf["tiers"])
            for (const auto& p : tier["plugins"]) {
                if (p["name"] == "capacity") capacity = p.value("enableHierarchy", false);
                proportion = proportion || p["name"] == "proportion";
                topology = topology || p["name"] == "network-topology-aware";
            }
        QVERIFY(capacity);
        QVERIFY(!proportion);
        QVERIFY(topology); // the train job has a hard network topology constraint

        // HyperNodes: racks at tier 1 selecting nodes by label, zones at tier 2 listing racks.
        auto hyper = objectsOf(b, "HyperNode");
        QCOMPARE(hyper.size(), size_t(6));
        const Json* r1 = named(hyper, "rack-z1-r1");
        QVERIFY(r1);
        QCOMPARE((*r1)["spec"]["tier"], Json(1));
        QCOMPARE(
            (*r1)["spec"]["members"][0]["selector"]["labelMatch"]["matchLabels"]["topology.gantry.io/rack"],
            Json("r1"));
        const Json* z1 = named(hyper, "zone-z1");
        QVERIFY(z1);
        QCOMPARE((*z1)["spec"]["tier"], Json(2));
        QCOMPARE((*z1)["spec"]["members"].size(), size_t(2));
        QCOMPARE((*z1)["spec"]["members"][1]["selector"]["exactMatch"]["name"], Json("rack-z1-r2"));

        // Jobs.
        auto jobs = objectsOf(b, "Job");
        QCOMPARE(jobs.size(), size_t(3));
        const Json* train = named(jobs, "train");
        QCOMPARE((*train)["spec"]["minAvailable"], Json(4));
        QCOMPARE((*train)["spec"]["queue"], Json("team-a"));
        QCOMPARE((*train)["spec"]["networkTopology"], (Json{{"mode", "hard"}, {"highestTierAllowed", 1}}));
        QCOMPARE((*train)["spec"]["tasks"][0]["template"]["spec"]["containers"][0]["resources"]["limits"]
                         ["nvidia.com/gpu"],
                 Json("8"));
        QCOMPARE((*train)["metadata"]["annotations"]["gantry.io/what-if"],
                 Json("jobs=4 arrival=fixed duration=fixed 3600s"));
        const Json* notebook = named(jobs, "notebook");
        QCOMPARE(
            (*notebook)["spec"]["tasks"][0]["template"]["metadata"]["annotations"]["volcano.sh/preemptable"],
            Json("false"));
        QVERIFY(hasWarning(b, "workload notebook, gpu: a share of 500/1000 of a GPU"));
        // Designed nodes get their topology labels as patches.
        auto nodes = objectsOf(b, "Node");
        QCOMPARE(nodes.size(), size_t(8));
        QCOMPARE(nodes[0]["metadata"]["labels"]["topology.gantry.io/rack"], Json("r1"));
        QVERIFY(!hasErrors(b.warnings));
    }

    void volcanoTreeConflictIsAnErrorNotAGuess() {
        Project p = gpuProject();
        p.cluster.queues[0].deserved.set("nvidia.com/gpu", 8000); // children want 24 GPUs
        ExportBundle b = exportVolcano(p, {});
        QStringList errors = messages(validateExport(b, ExportLayout::PerKind), Severity::Error);
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors[0].startsWith("queues.yaml:"), qPrintable(errors[0]));
        QVERIFY2(errors[0].contains(
                     "document 1, Queue org, spec.deserved[nvidia.com/gpu]: sum of children's deserved"),
                 qPrintable(errors[0]));
    }

    void yunikornConfigAndGangTemplates() {
        ExportBundle b = exportYuniKorn(gpuProject(), {});
        expectValid(b);
        auto maps = objectsOf(b, "ConfigMap");
        QCOMPARE(maps.size(), size_t(1));
        QCOMPARE(maps[0]["metadata"]["name"], Json("yunikorn-configs"));
        Json cfg = parseManifests(maps[0]["data"]["queues.yaml"].get<std::string>(), "q", YamlRules::Yaml12)
                       .at(0)
                       .value;
        const Json& part = cfg["partitions"][0];
        QCOMPARE(part["name"], Json("default"));
        const Json& root = part["queues"][0];
        QCOMPARE(root["name"], Json("root"));
        QVERIFY(!root.contains("resources"));
        const Json& org = root["queues"][0];
        QCOMPARE(org["name"], Json("org"));
        QCOMPARE(org["resources"]["guaranteed"]["vcore"], Json("256"));
        QCOMPARE(org["resources"]["max"]["nvidia.com/gpu"], Json("48"));
        QCOMPARE(org["queues"][1]["resources"]["guaranteed"]["vcore"], Json("1500m"));
        const Json& batch = root["queues"][1];
        QCOMPARE(batch["properties"]["application.sort.policy"], Json("fifo"));
        // The project sets no YuniKorn node sorting or preemption, and Volcano's binpack plugin and
        // actions are not YuniKorn's: both are left to YuniKorn's defaults (fair, preemption on:
        // yunikorn-core pkg/scheduler/partition.go reads an absent preemption.enabled as true).
        QVERIFY(!part.contains("nodesortpolicy"));
        QVERIFY(!part.contains("preemption"));
        QVERIFY(std::count(b.notes.begin(), b.notes.end(),
                           "node sort policy: none set, YuniKorn's default (fair)"));
        QCOMPARE(part["placementrules"][0]["name"], Json("provided"));
        // Losses name the queue and the field.
        QVERIFY(hasWarning(b, "queue team-a, spec.guarantee: YuniKorn has no never-lent reservation"));
        QVERIFY(hasWarning(b, "queue team-a, spec.weight: YuniKorn queues have no weight"));
        QVERIFY(
            hasWarning(b, "workload train, networkTopology: YuniKorn has no topology-aware gang placement"));
        // Gang annotations.
        auto jobs = objectsOf(b, "Job");
        const Json* train = named(jobs, "train");
        QVERIFY(train);
        const Json& meta = (*train)["spec"]["template"]["metadata"];
        QCOMPARE(meta["labels"]["yunikorn.apache.org/queue"], Json("root.org.team-a"));
        Json groups = Json::parse(meta["annotations"]["yunikorn.apache.org/task-groups"].get<std::string>());
        QCOMPARE(groups[0]["name"], Json("worker"));
        QCOMPARE(groups[0]["minMember"], Json(4));
        QCOMPARE(groups[0]["minResource"]["nvidia.com/gpu"], Json("8"));
        QCOMPARE(groups[0]["minResource"]["cpu"], Json("32"));
        QCOMPARE(meta["annotations"]["yunikorn.apache.org/task-group-name"], Json("worker"));
        QCOMPARE((*train)["spec"]["template"]["spec"]["schedulerName"], Json("yunikorn"));
    }

    void yunikornUnmodelledKeysThatAreNoObjectAreNamed() {
        // The importer writes an object; a hand-edited .gantry may not: said, not written, not fatal.
        Project p = gpuProject();
        p.cluster.yunikorn.emplace();
        p.cluster.yunikorn->unmodelled = "[1]";
        ExportBundle b = exportYuniKorn(p, {});
        QVERIFY(hasWarning(b,
                           "partition default, unmodelled: the project's unmodelled partition keys are not a "
                           "JSON object; not written"));
        p.cluster.yunikorn->unmodelled = R"({"statedumpfilepath": "/tmp/dump"})";
        b = exportYuniKorn(p, {});
        const Json cfg =
            parseManifests(objectsOf(b, "ConfigMap")[0]["data"]["queues.yaml"].get<std::string>(), "q",
                           YamlRules::Yaml12)
                .at(0)
                .value;
        QCOMPARE(cfg["partitions"][0]["statedumpfilepath"], Json("/tmp/dump"));
    }

    void yunikornRoundsFractionalGpusUp() {
        Project p = gpuProject();
        p.cluster.queues[2].deserved.set("nvidia.com/gpu", 2500);
        ExportBundle b = exportYuniKorn(p, {});
        expectValid(b);
        QVERIFY(hasWarning(b, "queue team-b, guaranteed[nvidia.com/gpu]: 2500m is not a whole number and "
                              "YuniKorn quantities have no fractions; rounded up to 3"));
    }

    void kueueCohortsFlavorsTopologyAndJobs() {
        ExportBundle b = exportKueue(gpuProject(), {});
        expectValid(b);
        auto topology = objectsOf(b, "Topology");
        QCOMPARE(topology.size(), size_t(1));
        QCOMPARE(topology[0]["spec"]["levels"],
                 (Json::array({Json{{"nodeLabel", "topology.kubernetes.io/zone"}},
                               Json{{"nodeLabel", "topology.gantry.io/rack"}},
                               Json{{"nodeLabel", "kubernetes.io/hostname"}}})));
        // One flavor per node class; A100 nodes have no label of their own, so Gantry adds one.
        auto flavors = objectsOf(b, "ResourceFlavor");
        const Json* h100 = named(flavors, "gpu-h100");
        QVERIFY(h100);
        QCOMPARE((*h100)["spec"]["nodeLabels"], (Json{{"nvidia.com/gpu.product", "H100"}}));
        QCOMPARE((*h100)["spec"]["tolerations"][0], (Json{{"key", "nvidia.com/gpu"},
                                                          {"operator", "Equal"},
                                                          {"value", "present"},
                                                          {"effect", "NoSchedule"}}));
        QCOMPARE((*h100)["spec"]["topologyName"], Json("default"));
        const Json* a100 = named(flavors, "gpu-a100");
        QCOMPARE((*a100)["spec"]["nodeLabels"], (Json{{"gantry.io/node-class", "gpu-a100"}}));
        QVERIFY(named(flavors, "cpu"));
        QVERIFY(named(flavors, "default-flavor")); // Volcano quotas know no flavors
        auto nodes = objectsOf(b, "Node");
        const Json* a100Node = named(nodes, "a100-0");
        QVERIFY(a100Node);
        QCOMPARE((*a100Node)["metadata"]["labels"]["gantry.io/node-class"], Json("gpu-a100"));

        // The tree: inner queues are cohorts, leaves ClusterQueues; top level in cohort root.
        auto cohorts = objectsOf(b, "Cohort");
        QVERIFY(named(cohorts, "root"));
        const Json* org = named(cohorts, "org");
        QVERIFY(org);
        QCOMPARE((*org)["spec"]["parentName"], Json("root"));
        auto cqs = objectsOf(b, "ClusterQueue");
        const Json* a = named(cqs, "team-a");
        QVERIFY(a);
        QCOMPARE((*a)["spec"]["cohortName"], Json("org"));
        QCOMPARE((*a)["spec"]["fairSharing"]["weight"], Json("3"));
        const Json& res = (*a)["spec"]["resourceGroups"][0];
        QCOMPARE(res["coveredResources"], (Json::array({"cpu", "memory", "nvidia.com/gpu"})));
        QCOMPARE(res["flavors"][0]["name"], Json("default-flavor"));
        // deserved 16 -> nominal; capability 32 -> borrowing 16; guarantee 4 -> lending 12.
        QCOMPARE(res["flavors"][0]["resources"][2], (Json{{"name", "nvidia.com/gpu"},
                                                          {"nominalQuota", "16"},
                                                          {"borrowingLimit", "16"},
                                                          {"lendingLimit", "12"}}));
        // The org cohort holds what its deserved has beyond its children's: 32 - 16 - 8 GPUs.
        const Json& orgGroup = (*org)["spec"]["resourceGroups"][0];
        QCOMPARE(orgGroup["coveredResources"], (Json::array({"cpu", "nvidia.com/gpu"})));
        QCOMPARE(orgGroup["flavors"][0]["resources"][1], (Json{{"name", "nvidia.com/gpu"},
                                                               {"nominalQuota", "8"},
                                                               {"borrowingLimit", "16"},
                                                               {"lendingLimit", "24"}}));
        QCOMPARE((*named(cqs, "batch"))["spec"]["queueingStrategy"], Json("StrictFIFO"));

        // LocalQueues per namespace that runs a workload, WorkloadPriorityClasses, suspended Jobs.
        auto lqs = objectsOf(b, "LocalQueue");
        QCOMPARE(lqs.size(), size_t(3));
        QCOMPARE(lqs[0]["metadata"], (Json{{"name", "team-a"}, {"namespace", "ml"}}));
        QCOMPARE(lqs[0]["spec"]["clusterQueue"], Json("team-a"));
        QCOMPARE(objectsOf(b, "WorkloadPriorityClass").size(), size_t(2));
        auto jobs = objectsOf(b, "Job");
        const Json* train = named(jobs, "train");
        QCOMPARE((*train)["metadata"]["labels"]["kueue.x-k8s.io/queue-name"], Json("team-a"));
        QCOMPARE((*train)["metadata"]["labels"]["kueue.x-k8s.io/priority-class"], Json("high"));
        QCOMPARE((*train)["spec"]["suspend"], Json(true));
        QCOMPARE((*train)["spec"]["template"]["metadata"]["annotations"]
                         ["kueue.x-k8s.io/podset-required-topology"],
                 Json("topology.gantry.io/rack"));
        const Json* sweep = named(jobs, "sweep");
        QCOMPARE((*sweep)["metadata"]["annotations"]["kueue.x-k8s.io/job-min-parallelism"], Json("2"));
        QVERIFY(
            hasWarning(b, "workload notebook, preemptable: Kueue has no per-workload opt-out of preemption"));
    }

    void everyTargetFromTheBundledSample() {
        // resources/samples/: the inventory the studio opens by default.
        ManifestValidator unused;
        (void)unused;
        QDir samples(QString(GANTRY_SOURCE_DIR) + "/resources/samples");
        const auto files = samples.entryList({"*.yaml", "*.gantry"}, QDir::Files, QDir::Name);
        QVERIFY(!files.isEmpty());
        for (const QString& f : files) {
            for (auto target :
                 {TargetScheduler::Volcano, TargetScheduler::YuniKorn, TargetScheduler::Kueue}) {
                ExportOptions o;
                o.target = target;
                const Project project = loadSample(samples.filePath(f).toStdString());
                ExportBundle b = exportProject(project, o);
                Diagnostics d = validateExport(b, ExportLayout::PerKind);
                QVERIFY2(!hasErrors(d), qPrintable(f + " -> " + toString(target) + ":\n" +
                                                   messages(d, Severity::Error).join('\n')));
                // A sample with workload templates exports them too; every one has its queues.
                if (!project.workloads.empty()) QVERIFY(b.objects.size() > 10);
                const char* queueKind = target == TargetScheduler::Volcano    ? "Queue"
                                        : target == TargetScheduler::YuniKorn ? "ConfigMap"
                                                                              : "ClusterQueue";
                QVERIFY2(std::any_of(b.objects.begin(), b.objects.end(),
                                     [&](const auto& x) { return x.object["kind"] == queueKind; }),
                         qPrintable(f + " -> " + toString(target) + ": no " + queueKind));
                // The namespaces of the namespaced objects come first, each once; the ones every
                // cluster has are not among them.
                std::vector<std::string> declared, used;
                for (const auto& object : b.objects) {
                    const Json& meta = object.object["metadata"];
                    if (object.object["kind"] == "Namespace") {
                        QCOMPARE(object.file, std::string("namespaces.yaml"));
                        QVERIFY2(used.empty(), "a Namespace after an object that lives in one");
                        declared.push_back(meta["name"].get<std::string>());
                    } else if (meta.contains("namespace")) {
                        used.push_back(meta["namespace"].get<std::string>());
                    }
                }
                std::sort(declared.begin(), declared.end());
                QVERIFY(std::adjacent_find(declared.begin(), declared.end()) == declared.end());
                std::sort(used.begin(), used.end());
                used.erase(std::unique(used.begin(), used.end()), used.end());
                std::erase_if(used,
                              [](const std::string& n) { return n == "default" || n.starts_with("kube-"); });
                QCOMPARE(declared, used);
                if (!project.workloads.empty()) QVERIFY(!declared.empty());
            }
        }
    }

  private:
    static Project loadSample(const std::string& path);
};

#include "input_loader.h"

Project ExportersTest::loadSample(const std::string& path) {
    return loadInputs({path}).project;
}

GANTRY_TEST(ExportersTest)
#include "test_exporters.moc"
