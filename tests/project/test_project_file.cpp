// The .gantry project file: lossless load -> save -> load on real inputs and on a project that sets
// every field, atomic saves, and located loading errors.
#include "input_error.h"
#include "input_loader.h"
#include "project/project_reader.h"
#include "project/project_writer.h"
#include "test_registry.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace gantry;

namespace {

std::string data(const std::string& rel) {
    return std::string(GANTRY_TEST_DATA) + "/" + rel;
}

QString errorOf(const std::string& text) {
    try {
        readProject(text, "p.gantry");
    } catch (const InputError& e) {
        return QString::fromStdString(e.diagnostic().str());
    }
    return "no error";
}

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// A project that sets every field of the model to something other than its default.
Project everything() {
    Project p;
    p.name = "all fields";
    p.description = "multi\nline: description # not a comment";
    p.target = TargetScheduler::YuniKorn;
    p.simulation = {0.5, 86400.25, 7, {"kube-default", "volcano"}};
    KubeSchedulerProfile k;
    k.schedulerName = "gpu-binpack";
    k.strategy = KubeSchedulerProfile::Strategy::RequestedToCapacityRatio;
    k.resourceWeights = {{"nvidia.com/gpu", 5}, {"cpu", 1}};
    k.shape = {{0, 0}, {100, 10}};
    k.pluginWeights = {{"NodeResourcesFit", 2}};
    k.disabledPlugins = {"ImageLocality"};
    k.preemption = false;
    k.minCandidateNodesPercentage = 20;
    k.minCandidateNodesAbsolute = 5;
    k.percentageOfNodesToScore = 30;
    p.contrast = k;
    p.volcano.actions = {"enqueue", "allocate", "preempt"};
    p.volcano.tiers[0].plugins[0].arguments = {{"a.b", "1"}, {"empty", ""}, {"list.0", "x"}};
    p.volcano.configurations = {{"preempt", {{"enableTopologyAwarePreemption", "true"}}, {}}};
    p.volcano.metrics = {{"interval", "30s"}};
    KueueConfig kueue;
    kueue.fairSharing = true;
    kueue.admissionFairSharing = KueueConfig::AdmissionFairSharing{3600, 60, {{"nvidia.com/gpu", 10}}};
    kueue.preemptionStrategies = {"LessThanInitialShare"};
    kueue.waitForPodsReady = true;
    kueue.podsReadyTimeoutSeconds = 120;
    kueue.blockAdmission = true;
    kueue.requeuingTimestamp = "Creation";
    kueue.backoffLimitCount = 3;
    kueue.backoffBaseSeconds = 10;
    kueue.backoffMaxSeconds = 600;
    kueue.featureGates = {{"PartialAdmission", false}};
    kueue.frameworks = std::vector<std::string>{"batch/job", "pod"};
    kueue.manageJobsWithoutQueueName = true;
    kueue.managedJobsNamespaceSelector = LabelSelector{{{"team", "a"}}, {}};
    kueue.kueueNamespace = "queueing";
    kueue.transformations = {{"nvidia.com/mig-1g.5gb", true, "", {{"example.com/credits", 2000}}}};
    kueue.excludeResourcePrefixes = {"example.com/"};
    kueue.document =
        R"({"apiVersion":"config.kueue.x-k8s.io/v1beta2","kind":"Configuration","webhook":{"port":9443}})";
    p.kueue = kueue;

    Cluster& c = p.cluster;
    c.name = "c";
    c.topologyLevels = {{"zone", "topology.kubernetes.io/zone"}};
    Node n;
    n.name = "n1";
    n.pool = "h100";
    // Strings YAML would read as something else unless quoted.
    n.labels = {{"null", "null"}, {"tilde", "~"},     {"bool", "true"}, {"empty", ""},
                {"num", "0123"},  {"colon", "a: b"},  {"hash", "#x"},   {"dash", "-"},
                {"star", "*"},    {"space", " lead"}, {"yes", "yes"}};
    n.annotations = {{"json", "{\"a\": [1, 2]}"}};
    n.capacity = {
        {"cpu", 96000}, {"memory", 1000000000001}, {"nvidia.com/gpu", 8000}, {"example.com/odd", 1}};
    n.allocatable = {{"cpu", 95500}, {"memory", int64_t(1) << 40}, {"pods", 110}};
    n.taints = {{"k", "v", TaintEffect::PreferNoSchedule}};
    n.unschedulable = true;
    n.ready = false;
    n.gpus = {"H100", 8, int64_t(80) << 30, "amd.com/gpu", 9, {{"1g.10gb", 7}}, "dra"};
    c.nodes.push_back(n);
    c.namespaces = {{"ml", {{"team", "ml"}}, {{"note", "x"}}}};
    Pod pod;
    pod.name = "p";
    pod.ns = "ml";
    pod.uid = "u";
    pod.labels = {{"a", "b"}};
    pod.annotations = {{"c", "d"}};
    pod.requests = {{"cpu", 1500}, {"memory", 400}};
    pod.gpu = {2, 250, {"H100", "A100"}};
    pod.nodeSelector = {{"zone", "a"}};
    NodeAffinity aff;
    aff.required = std::vector<NodeSelectorTerm>{};
    aff.preferred = {{10, {{{"k", SelectorOp::Gt, {"3"}}}, {{"metadata.name", SelectorOp::In, {"n1"}}}}}};
    pod.nodeAffinity = aff;
    PodAffinityTerm term;
    term.labelSelector = LabelSelector{};
    term.namespaces = {"a"};
    term.namespaceSelector = LabelSelector{{{"x", "y"}}, {{"e", SelectorOp::DoesNotExist, {}}}};
    term.topologyKey = "kubernetes.io/hostname";
    pod.podAffinity.required = {term};
    pod.podAntiAffinity.preferred = {{7, term}};
    pod.tolerations = {{"", true, "", std::nullopt, std::nullopt},
                       {"k", false, "v", TaintEffect::NoExecute, 30}};
    TopologySpreadConstraint tsc;
    tsc.maxSkew = 2;
    tsc.topologyKey = "zone";
    tsc.doNotSchedule = false;
    tsc.labelSelector = LabelSelector{{{"app", "x"}}, {}};
    tsc.minDomains = 2;
    tsc.matchLabelKeys = {"pod-template-hash"};
    pod.topologySpread = {tsc};
    pod.priority = -5;
    pod.priorityClassName = "pc";
    pod.preemptionPolicy = "Never";
    pod.schedulerName = "volcano";
    pod.phase = PodPhase::Failed;
    pod.nodeName = "n1";
    pod.gpuIndices = {0, 3};
    pod.group = "g";
    pod.role = "worker";
    pod.preemptable = false;
    pod.ownerKind = "Job";
    pod.ownerName = "j";
    pod.resourceClaims = {{"gpu", "", "single-gpu", "p-gpu-x7k2"}};
    c.pods.push_back(pod);
    // DRA objects: every kind of field once.
    c.dra.deviceClasses.push_back(
        DeviceClass{"gpu.nvidia.com", {"device.driver == 'gpu.nvidia.com'"}, "nvidia.com/gpu", {}});
    ResourceSlice slice;
    slice.name = "n1-gpu";
    slice.driver = "gpu.nvidia.com";
    slice.pool = "n1";
    slice.poolGeneration = 3;
    slice.resourceSliceCount = 2;
    slice.nodeName = "n1";
    slice.nodeSelector = {
        NodeSelectorTerm{{}, {SelectorRequirement{"metadata.name", SelectorOp::In, {"n1"}}}}};
    slice.sharedCounters = {{"gpu-0-counter-set", {{"memory", int64_t(80) << 40}, {"memory-slice-0", 1000}}}};
    Device device;
    device.name = "gpu-0-mig-1g10gb-19-0";
    device.attributes = {{"type", {"string", "mig", 0, false}},
                         {"index", {"int", "", 3, false}},
                         {"mig", {"bool", "", 0, true}},
                         {"driverVersion", {"version", "570.172.8", 0, false}}};
    device.capacity = {{"memory", int64_t(9984) << 30}};
    device.consumesCounters = {{"gpu-0-counter-set", {{"memory-slice-0", 1000}}}};
    device.allowMultipleAllocations = true;
    slice.devices.push_back(device);
    c.dra.resourceSlices.push_back(slice);
    DeviceClaimSpec spec;
    spec.requests = {DeviceRequest{
        "gpu",
        true,
        {DeviceSubRequest{"big",
                          "gpu.nvidia.com",
                          {"device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('40Gi')) >= 0"},
                          false,
                          2,
                          {{"memory", 1000}}},
         DeviceSubRequest{"all", "mig.nvidia.com", {}, true, 1, {}}}}};
    spec.constraints = {DeviceConstraint{{"gpu"}, "gpu.nvidia.com/parentUUID"}};
    ResourceClaim claim;
    claim.name = "p-gpu-x7k2";
    claim.ns = "ml";
    claim.spec = spec;
    claim.allocation =
        ClaimAllocation{{AllocatedDevice{"gpu/big", "gpu.nvidia.com", "n1", "gpu-0", {{"memory", 1000}}}},
                        slice.nodeSelector};
    claim.reservedFor = {"p"};
    c.dra.resourceClaims.push_back(claim);
    c.dra.resourceClaimTemplates.push_back(ResourceClaimTemplate{"single-gpu", "ml", spec, {}});
    PodGroup g;
    g.name = "g";
    g.ns = "ml";
    g.queue = "leaf";
    g.minMember = 3;
    g.minTaskMember = {{"", 1}, {"worker", 2}};
    g.minResources = {{"cpu", 1}};
    g.priorityClassName = "pc";
    g.phase = PodGroupPhase::Inqueue;
    g.networkTopology = {NetworkTopologyConstraint::Mode::Soft, 2, ""};
    g.origin = "batch/Job";
    g.labels = {{"l", "1"}};
    g.annotations = {{"a", "2"}};
    g.arrivalSeconds = 0.1;
    g.durationSeconds = 1e-9;
    g.checkpointSeconds = 123456.789;
    c.podGroups.push_back(g);
    Queue root;
    root.name = "root";
    root.kind = Queue::Kind::YuniKornQueue;
    root.submitAcl = "*";
    root.adminAcl = " admins";
    root.properties = {{"application.sort.policy", "fifo"}};
    root.limits = {{"cap", {"u1"}, {"g1"}, {{"vcore", 10000}}, 5}};
    root.maxApplications = 18446744073709551615ull;
    root.parentFlag = true;
    root.childTemplate.maxApplications = 7;
    root.childTemplate.properties = {{"application.sort.policy", "fair"}};
    root.childTemplate.max = {{"vcore", 4000}};
    root.guaranteed = {{"vcore", 1}};
    root.max = {{"memory", 1024}};
    Queue leaf;
    leaf.name = "leaf";
    leaf.parent = "root";
    leaf.kind = Queue::Kind::KueueClusterQueue;
    leaf.weight = 3;
    leaf.priority = 2;
    leaf.state = QueueState::Closing;
    leaf.guarantee = {{"cpu", 1000}};
    leaf.deserved = {{"cpu", 2000}};
    leaf.capability = {{"cpu", 3000}};
    leaf.reclaimable = false;
    leaf.dequeueStrategy = "fifo";
    leaf.resourceGroups = {
        {{"cpu", "nvidia.com/gpu"},
         {{"f", {{"cpu", 1000, 500, std::nullopt}, {"nvidia.com/gpu", 0, std::nullopt, 0}}}}}};
    leaf.preemption = {"LowerPriority", "Any", "LowerPriority", 100};
    leaf.fairSharingWeight = 0.25;
    leaf.queueingStrategy = "StrictFIFO";
    leaf.namespaceSelector = LabelSelector{};
    leaf.stopPolicy = "Hold";
    leaf.whenCanBorrow = "TryNextFlavor";
    leaf.whenCanPreempt = "MayStopSearch";
    leaf.labels = {{"x", "y"}};
    leaf.annotations = {{"z", "w"}};
    c.queues = {root, leaf};
    c.localQueues = {{"lq", "ml", "leaf", 2.5, "HoldAndDrain", {}, {}}};
    c.localQueues[0].consumed.set("cpu", 8000); // Admission Fair Sharing's usage
    c.resourceFlavors = {{"f",
                          {{"gpu", "h100"}},
                          {{"k", "", TaintEffect::NoSchedule}},
                          {{"k", true, "", TaintEffect::NoSchedule, std::nullopt}},
                          "topo",
                          {}}};
    c.priorityClasses = {{"pc", -10, true, "Never", "d", false, {}}, {"wpc", 5, false, "", "", true, {}}};
    HyperNode h;
    h.name = "h";
    h.tier = 2;
    h.tierName = "spine";
    h.members = {{HyperNodeMember::Type::HyperNode, HyperNodeMember::Match::Regex, "rack-.*", {}},
                 {HyperNodeMember::Type::Node, HyperNodeMember::Match::Label, "", {{{"rack", "a"}}, {}}}};
    c.hyperNodes = {h};
    c.kueueTopologies = {{"t", {"zone", "kubernetes.io/hostname"}, {}}};
    YuniKornPartition yk;
    yk.name = "gpu";
    PlacementRule fixed{"fixed", false, "root.a", "", {}, {}, {}};
    yk.placementRules = {{"tag", true, "namespace", "deny", {"u"}, {"g"}, {fixed}}};
    yk.nodeSortPolicy = "binpacking";
    yk.nodeSortWeights = {{"vcore", 1.5}};
    yk.preemptionEnabled = false;
    yk.quotaPreemptionEnabled = true;
    yk.limits = {{"", {"*"}, {}, {}, 3}};
    yk.settings = {{"log.level", "DEBUG"}};
    c.yunikorn = yk;
    c.volcanoConf = defaultVolcanoConf();
    c.kueueConf = KueueConfig{};
    c.kueueConf->fairSharing = true;
    c.fairshareStates.push_back(
        {"fairshare-usage-state",
         "volcano-system",
         R"({"lastCycle":"2026-04-07T12:00:00Z","queues":{"gpu-queue":{"alice":800,"bob":300}}})",
         {}});

    WorkloadTemplate w;
    w.name = "w";
    w.ns = "ml";
    w.queue = "leaf";
    w.priorityClass = "pc";
    w.jobs = 5;
    w.replicas = 4;
    w.minMember = 2;
    w.role = "server";
    w.podRequests = {{"cpu", 500}, {"nvidia.com/gpu", 1000}};
    w.gpu = {1, 1000, {"L40S"}};
    w.nodeSelector = {{"a", "b"}};
    w.tolerations = {{"k", true, "", TaintEffect::NoSchedule, std::nullopt}};
    w.networkTopology = {NetworkTopologyConstraint::Mode::Hard, std::nullopt, "rack"};
    w.arrival.kind = ArrivalProcess::Kind::Fixed;
    w.arrival.startSeconds = 60;
    w.arrival.times = {0, 1.5, 3600};
    w.duration.kind = DurationDistribution::Kind::Uniform;
    w.duration.minSeconds = 60;
    w.duration.maxSeconds = 120;
    w.checkpointSeconds = 900;
    w.preemptable = false;
    WorkloadTemplate burst = w;
    burst.name = "burst";
    burst.arrival = {};
    burst.arrival.kind = ArrivalProcess::Kind::Burst;
    burst.arrival.burstSize = 3;
    burst.arrival.intervalSeconds = 7200;
    burst.duration = {};
    burst.duration.kind = DurationDistribution::Kind::LogNormal;
    burst.duration.meanSeconds = 600;
    burst.duration.sigma = 0.8;
    WorkloadTemplate poisson = w;
    poisson.name = "poisson";
    poisson.arrival = {};
    poisson.arrival.kind = ArrivalProcess::Kind::Poisson;
    poisson.arrival.ratePerHour = 0.75;
    poisson.duration = {};
    poisson.duration.kind = DurationDistribution::Kind::Exponential;
    poisson.duration.meanSeconds = 42;
    p.workloads = {w, burst, poisson};
    return p;
}

} // namespace

class ProjectFileTest : public QObject {
    Q_OBJECT
  private slots:
    void roundTripOfRealInputs_data() {
        QTest::addColumn<QStringList>("files");
        QTest::newRow("sample") << QStringList{QString(GANTRY_SOURCE_DIR) +
                                               "/resources/samples/gpu-cloud-east.yaml"};
        QDir conf(QString::fromStdString(data("conformance/volcano")));
        for (const auto& d : conf.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            QTest::newRow(qPrintable(d)) << QStringList{conf.filePath(d + "/snapshot.yaml")};
        // With Volcano fairshare's state ConfigMaps.
        for (const char* suite :
             {"conformance/volcano-fairshare", "conformance/volcano-fairshare-restated"}) {
            QDir fair(QString::fromStdString(data(suite)));
            for (const auto& d : fair.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
                QTest::newRow(qPrintable(d)) << QStringList{fair.filePath(d + "/snapshot.yaml")};
        }
        QDir imp(QString::fromStdString(data("importers")));
        for (const auto& f : imp.entryList({"*.yaml", "*.json"}, QDir::Files))
            if (!f.startsWith("volcano-scheduler"))
                QTest::newRow(qPrintable(f)) << QStringList{imp.filePath(f)};
        QTest::newRow("merged") << QStringList{imp.filePath("kubectl-list.json"),
                                               imp.filePath("volcano-objects.yaml"),
                                               imp.filePath("training-jobs.yaml")};
    }
    void roundTripOfRealInputs() {
        QFETCH(QStringList, files);
        std::vector<std::string> paths;
        for (const auto& f : files) paths.push_back(f.toStdString());
        LoadedInput in = loadInputs(paths);
        QTemporaryDir dir;
        std::string path = dir.filePath("p.gantry").toStdString();
        writeProjectFile(path, in.project);
        Diagnostics w;
        Project back = readProjectFile(path, &w);
        QVERIFY(back == in.project);
        QVERIFY(back.cluster.nodes.size() == in.project.cluster.nodes.size());
        // Saving what was loaded gives the same bytes: the format is stable.
        QCOMPARE(projectToYaml(back), slurp(path));
        // Locations point into the project file now.
        if (!back.cluster.nodes.empty()) {
            QCOMPARE(back.cluster.nodes[0].source.file, path);
            QVERIFY(back.cluster.nodes[0].source.line > 0);
        }
    }
    void roundTripOfEveryField() {
        Project p = everything();
        QVERIFY(!(p == Project{}));
        std::string text = projectToYaml(p);
        Diagnostics w;
        Project back = readProject(text, "all.gantry", &w);
        QVERIFY2(back.cluster == p.cluster, text.c_str());
        QVERIFY(back.workloads == p.workloads);
        QVERIFY(back.contrast == p.contrast);
        QVERIFY(back.volcano == p.volcano);
        QVERIFY(back == p);
        QCOMPARE(back.cluster.nodes[0].labels.at("null"), std::string("null"));
        QCOMPARE(back.cluster.nodes[0].labels.at("empty"), std::string(""));
        QCOMPARE(projectToYaml(back), text);
    }
    void defaultProjectIsSmall() {
        std::string text = projectToYaml(Project{});
        QCOMPARE(
            text,
            std::string(
                "# Gantry project (docs/project-file.md)\napiVersion: gantry.io/v1alpha1\nkind: Project\n"));
        QVERIFY(readProject(text, "empty.gantry") == Project{});
    }
    void saveIsAtomic() {
        QTemporaryDir dir;
        std::string path = dir.filePath("p.gantry").toStdString();
        Project p = everything();
        writeProjectFile(path, p);
        std::string before = slurp(path);
        // A save that cannot complete (the target became a non-empty directory) leaves nothing behind.
        std::string blocked = dir.filePath("blocked.gantry").toStdString();
        std::filesystem::create_directory(blocked);
        std::ofstream(blocked + "/keep") << "x";
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, writeProjectFile(blocked, p));
        QVERIFY(std::filesystem::is_directory(blocked));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1); // no temporary file left
        QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                                 writeProjectFile(dir.filePath("missing/p.gantry").toStdString(), p));
        QCOMPARE(slurp(path), before);
        // Overwriting keeps one file with the new content.
        p.name = "renamed";
        writeProjectFile(path, p);
        QCOMPARE(readProjectFile(path).name, std::string("renamed"));
    }
    void locatedLoadErrors_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        const QString head = "apiVersion: gantry.io/v1alpha1\nkind: Project\n";
        QTest::newRow("wrong kind") << "apiVersion: gantry.io/v1alpha1\nkind: Inventory\n"
                                    << "p.gantry:2:7: error: kind: expected kind: Project";
        QTest::newRow("unknown key")
            << head + "cluster:\n  nodse: []\n"
            << "p.gantry:4:10: error: cluster: unknown key 'nodse' (expected one of: name, "
               "topologyLevels, nodes, namespaces, priorityClasses, queues, localQueues, "
               "resourceFlavors, hyperNodes, kueueTopologies, yunikorn, volcanoConf, kueueConf, "
               "fairshareStates, "
               "podGroups, "
               "pods, disruptionBudgets, dra)";
        QTest::newRow("wrong type")
            << head + "cluster:\n  nodes:\n  - name: n\n    unschedulable: 1\n"
            << "p.gantry:6:20: error: cluster.nodes[0].unschedulable: expected true or false, "
               "got '1'";
        QTest::newRow("bad enum") << head + "cluster:\n  queues:\n  - {name: q, state: Shut}\n"
                                  << "p.gantry:5:22: error: cluster.queues[0].state: unknown value 'Shut'";
        QTest::newRow("no name") << head + "cluster:\n  pods:\n  - {namespace: a}\n"
                                 << "p.gantry:5:5: error: cluster.pods[0]: name is required";
        QTest::newRow("bad quantity")
            << head + "cluster:\n  nodes:\n  - {name: n, allocatable: {cpu: lots}}\n"
            << "p.gantry:5:34: error: cluster.nodes[0].allocatable.cpu: 'lots' is not a valid "
               "quantity: not a number";
        QTest::newRow("duplicate node")
            << head + "cluster:\n  nodes:\n  - {name: n}\n  - {name: n}\n"
            << "p.gantry:6:5: error: duplicate node 'n' (first defined at p.gantry:5:5)";
        QTest::newRow("queue cycle")
            << head + "cluster:\n  queues:\n  - {name: a, parent: b}\n  - {name: b, parent: a}\n"
            << "p.gantry:5:5: error: cycle in the queue tree: a -> b -> a";
        QTest::newRow("bad workload") << head + "workloads:\n- {name: w, jobs: 0}\n"
                                      << "p.gantry:4:19: error: workload 'w': jobs: jobs must be at least 1";
        // kube-scheduler's validation ranges (validation.go), as gantry import applies them.
        QTest::newRow("percentageOfNodesToScore")
            << head + "contrast:\n  percentageOfNodesToScore: 101\n"
            << "p.gantry:4:29: error: contrast.percentageOfNodesToScore: percentageOfNodesToScore 101 is not "
               "in "
               "valid range [0-100]";
        QTest::newRow("DefaultPreemptionArgs")
            << head + "contrast:\n  minCandidateNodesPercentage: 0\n  minCandidateNodesAbsolute: 0\n"
            << "p.gantry:4:3: error: contrast: minCandidateNodesPercentage and minCandidateNodesAbsolute "
               "must not "
               "both be 0";
        QTest::newRow("syntax") << head + "cluster: {nodes: [\n"
                                << "p.gantry:4:1: error: YAML syntax error: did not find expected node "
                                   "content while parsing a flow node";
    }
    void locatedLoadErrors() {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QCOMPARE(errorOf(text.toStdString()), expected);
    }
    void danglingReferencesAreWarnings() {
        Diagnostics w;
        readProject(
            "apiVersion: gantry.io/v1alpha1\nkind: Project\ncluster:\n  pods:\n  - {name: p, group: ghost}\n",
            "p.gantry", &w);
        QCOMPARE(w.size(), size_t(1));
        QCOMPARE(
            QString::fromStdString(w[0].str()),
            QString(
                "p.gantry:5:5: warning: pod '/p' names PodGroup 'ghost', which does not exist; the pod will "
                "stay pending"));
    }
};

GANTRY_TEST(ProjectFileTest)
#include "test_project_file.moc"
