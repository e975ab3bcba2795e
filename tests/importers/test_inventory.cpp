// The YAML inventory: the bundled sample, the layout rules, and each located error.
#include "inventory/inventory_reader.h"
#include "test_registry.h"
#include "test_support.h"

#include <QtTest>
#include <set>

using namespace gantry;
using namespace gantry::test;

namespace {

const char* kHead = "apiVersion: gantry.io/v1alpha1\nkind: Inventory\nname: t\n";

Inventory parse(const std::string& body, Diagnostics* w = nullptr) {
    return readInventory(kHead + body, "inv.yaml", w);
}

QString parseError(const std::string& body) {
    return errorOf([&] { parse(body); });
}

int countLabel(const Cluster& c, const std::string& label, const std::string& value) {
    int n = 0;
    for (const auto& node : c.nodes) {
        auto it = node.labels.find(label);
        if (it != node.labels.end() && it->second == value) ++n;
    }
    return n;
}

} // namespace

class InventoryTest : public QObject {
    Q_OBJECT
  private slots:
    void bundledSample() {
        Diagnostics w;
        auto inv =
            readInventoryFile(std::string(GANTRY_SOURCE_DIR) + "/resources/samples/gpu-cloud-east.yaml", &w);
        QVERIFY2(w.empty(), qPrintable(joined(w)));
        const Cluster& c = inv.cluster;
        QCOMPARE(c.name, std::string("gpu-cloud-east"));
        QCOMPARE(c.nodes.size(), size_t(36 + 32 + 24 + 16 + 16));
        int64_t gpus = 0;
        std::map<std::string, int> models;
        for (const auto& n : c.nodes) {
            gpus += n.gpus.count;
            if (n.gpus.count) ++models[n.gpus.model];
            QCOMPARE(n.allocatable.get("nvidia.com/gpu"), int64_t(n.gpus.count) * 1000);
            QCOMPARE(n.labels.at("kubernetes.io/hostname"), n.name);
        }
        QCOMPARE(gpus, int64_t(656));
        QCOMPARE(models.size(), size_t(4)); // several GPU generations
        QCOMPARE(c.topologyLevels.size(), size_t(4));
        // Three-level queue tree: research > llm > pretrain.
        QCOMPARE(c.findQueue("pretrain")->parent, std::string("llm"));
        QCOMPARE(c.findQueue("llm")->parent, std::string("research"));
        QVERIFY(c.findQueue("research")->parent.empty());
        QVERIFY(c.queues.size() >= 10);
        QCOMPARE(c.findQueue("chat")->resourceGroups.size(), size_t(1));
        QCOMPARE(c.resourceFlavors.size(), size_t(4));
        QCOMPARE(c.localQueues.size(), size_t(2));
        QCOMPARE(c.priorityClasses.size(), size_t(5));
        QVERIFY(!c.hyperNodes.empty());
        QCOMPARE(inv.workloads.size(), size_t(8));
        std::set<std::string> arrivalKinds;
        for (const auto& wl : inv.workloads) arrivalKinds.insert(std::to_string(int(wl.arrival.kind)));
        QCOMPARE(arrivalKinds.size(), size_t(3)); // fixed, Poisson and burst arrivals in the mix
        QVERIFY(!inv.description.empty());
    }

    void layoutLabelsNodesEvenly() {
        // 8 racks of 8 nodes in 2 zones, racks paired into blocks, NVLink domains of 4 nodes.
        auto inv =
            parse("hyperNodes: true\npools:\n- name: h100\n  count: 64\n  cpu: 192\n  memory: 2Ti\n"
                  "  gpu: {model: H100, count: 8, memory: 80Gi}\n"
                  "  layout: {zones: [za, zb], nodesPerRack: 8, racksPerBlock: 2, nvlinkDomainNodes: 4}\n");
        const Cluster& c = inv.cluster;
        QCOMPARE(c.nodes.size(), size_t(64));
        QCOMPARE(c.nodes.front().name, std::string("h100-00"));
        QCOMPARE(c.nodes.back().name, std::string("h100-63"));
        QCOMPARE(countLabel(c, "topology.kubernetes.io/zone", "za"), 32);
        QCOMPARE(countLabel(c, "topology.gantry.io/rack", "za-rack-01"), 8);
        QCOMPARE(countLabel(c, "topology.gantry.io/rack", "zb-rack-04"), 8);
        QCOMPARE(countLabel(c, "topology.gantry.io/block", "zb-block-02"), 16);
        QCOMPARE(countLabel(c, "nvidia.com/gpu.clique", "h100-nvl-16"), 4);
        QCOMPARE(c.nodes[9].labels.at("topology.gantry.io/rack"), std::string("za-rack-02"));
        QCOMPARE(c.nodes[9].labels.at("nvidia.com/gpu.product"), std::string("H100"));
        QCOMPARE(c.nodes[9].labels.at("nvidia.com/gpu.memory"), std::string("81920"));
        QCOMPARE(c.nodes[9].gpus.memoryBytes, int64_t(80) << 30);
        QCOMPARE(c.nodes[9].allocatable.get("pods"), int64_t(110));
        // HyperNodes: 16 NVLink domains (tier 1), 8 racks (2), 4 blocks (3), 2 zones (4).
        std::map<int, int> tiers;
        for (const auto& h : c.hyperNodes) ++tiers[h.tier];
        QCOMPARE(tiers, (std::map<int, int>{{1, 16}, {2, 8}, {3, 4}, {4, 2}}));
        const HyperNode* rack =
            findIf(c.hyperNodes, [](const HyperNode& h) { return h.name == "za-rack-01"; });
        QVERIFY(rack);
        QCOMPARE(rack->members.size(), size_t(2));
        QCOMPARE(rack->members[0].value, std::string("h100-nvl-01"));
        const HyperNode* zone = findIf(c.hyperNodes, [](const HyperNode& h) { return h.name == "zone-zb"; });
        QCOMPARE(zone->members.size(), size_t(2));
    }

    void racksAreNumberedAcrossPools() {
        auto inv = parse(
            "pools:\n- {name: a, count: 4, cpu: 8, memory: 8Gi, layout: {zones: [z], nodesPerRack: 2}}\n"
            "- {name: b, count: 2, cpu: 8, memory: 8Gi, layout: {zones: [z], nodesPerRack: 2}, taints: "
            "[\"gpu=yes:NoSchedule\", {key: k, effect: NoExecute}]}\n");
        QCOMPARE(inv.cluster.nodes[4].labels.at("topology.gantry.io/rack"), std::string("z-rack-03"));
        QCOMPARE(inv.cluster.nodes[4].taints.size(), size_t(2));
        QCOMPARE(inv.cluster.nodes[4].taints[0].value, std::string("yes"));
        QVERIFY(inv.cluster.nodes[4].taints[1].effect == TaintEffect::NoExecute);
        QCOMPARE(inv.cluster.topologyLevels.size(), size_t(2)); // zone and rack only: the levels used
    }

    void queuesFlavorsAndWorkloads() {
        auto inv = parse(
            "pools:\n- {name: l40s, count: 2, cpu: 8, memory: 8Gi, flavor: l40s, gpu: {count: 4}}\n"
            "priorityClasses:\n- {name: high, value: 100}\n"
            "queues:\n- name: org\n  deserved: {nvidia.com/gpu: 8}\n  queues:\n  - name: team\n"
            "    kind: ClusterQueue\n    deserved: {nvidia.com/gpu: 8}\n"
            "    flavors: {l40s: {nvidia.com/gpu: {nominal: 8, borrowingLimit: 2}, cpu: 16}}\n"
            "    namespaces: [ml]\n    localQueues: [ml]\n"
            "workloads:\n- name: infer\n  namespace: ml\n  queue: team\n  priorityClass: high\n  jobs: 3\n"
            "  replicas: 2\n  gpu: {count: 1, milli: 250}\n  resources: {cpu: 1}\n"
            "  arrival: {burst: 2, every: 1h}\n  duration: {kind: lognormal, median: 30m, sigma: 0.3}\n"
            "- name: train\n  gpu: 4\n  arrival: {ratePerHour: 2.5, start: 10m}\n  duration: 90m\n");
        const Cluster& c = inv.cluster;
        const Queue* team = c.findQueue("team");
        QVERIFY(team->kind == Queue::Kind::KueueClusterQueue);
        QCOMPARE(team->parent, std::string("org"));
        const auto& rg = team->resourceGroups.at(0);
        QCOMPARE(rg.coveredResources, (std::vector<std::string>{"nvidia.com/gpu", "cpu"}));
        QCOMPARE(rg.flavors[0].resources[0].borrowingLimit.value_or(0), int64_t(2000));
        QCOMPARE(rg.flavors[0].resources[1].nominal, int64_t(16000));
        QCOMPARE(team->namespaceSelector->matchExpressions[0].values, std::vector<std::string>{"ml"});
        QCOMPARE(c.resourceFlavors[0].nodeLabels.at("gantry.io/flavor"), std::string("l40s"));
        QCOMPARE(c.nodes[0].labels.at("gantry.io/flavor"), std::string("l40s"));
        QCOMPARE(c.localQueues[0].ns, std::string("ml"));
        QVERIFY(std::any_of(c.namespaces.begin(), c.namespaces.end(),
                            [](const Namespace& n) { return n.name == "ml"; }));
        const auto& infer = inv.workloads[0];
        QCOMPARE(infer.gpu.milliPerGpu, 250);
        QVERIFY(!infer.podRequests.has("nvidia.com/gpu"));
        QVERIFY(infer.arrival.kind == ArrivalProcess::Kind::Burst);
        QCOMPARE(infer.arrival.burstSize, 2);
        QCOMPARE(infer.arrival.intervalSeconds, 3600.0);
        QVERIFY(infer.duration.kind == DurationDistribution::Kind::LogNormal);
        QCOMPARE(infer.duration.meanSeconds, 1800.0);
        const auto& train = inv.workloads[1];
        QCOMPARE(train.podRequests.get("nvidia.com/gpu"), int64_t(4000));
        QCOMPARE(train.gpu.count, 4);
        QVERIFY(train.arrival.kind == ArrivalProcess::Kind::Poisson);
        QCOMPARE(train.arrival.ratePerHour, 2.5);
        QCOMPARE(train.arrival.startSeconds, 600.0);
        QCOMPARE(train.duration.meanSeconds, 5400.0);
        QCOMPARE(train.ns, std::string("default"));
    }
    // Durations read as Go's time.ParseDuration reads them (time/format.go: "us" and both micro
    // signs, U+00B5 and U+03BC), the same as the engine's annotations and confs.
    void durationsInGoForm() {
        const std::string pool = "pools:\n- {name: p, count: 1, cpu: 8, memory: 8Gi}\n";
        for (const char* micro : {"5us", "5\xC2\xB5s", "5\xCE\xBCs"}) {
            auto inv = parse(pool + "workloads:\n- {name: w, duration: " + micro + "}\n");
            QCOMPARE(inv.workloads[0].duration.meanSeconds, 5e-6);
        }
        QCOMPARE(
            parse(pool + "workloads:\n- {name: w, duration: 1h30m0.5s}\n").workloads[0].duration.meanSeconds,
            5400.5);
    }

    // A pool whose device plugin runs the MIG mixed strategy: two of eight A100-80GB split into seven
    // 1g.10gb and two 3g.40gb (the NVIDIA MIG user guide's profiles: seven 1g.10gb fill one GPU, two
    // 3g.40gb another); nvidia.com/gpu offers the other six.
    void migPool() {
        Inventory inv = parse("pools:\n- name: a100\n  count: 2\n  cpu: 128\n  memory: 1Ti\n"
                              "  gpu:\n    model: NVIDIA-A100-SXM4-80GB\n    count: 8\n    memory: 80Gi\n"
                              "    mig: {gpus: 2, instances: {1g.10gb: 7, 3g.40gb: 2}}\n");
        const Node& n = inv.cluster.nodes.front();
        QCOMPARE(n.gpus.count, 6);
        QCOMPARE(n.gpus.physicalGpus(), 8);
        QCOMPARE(n.gpus.mig.size(), size_t(2));
        QCOMPARE(n.allocatable.get("nvidia.com/gpu"), int64_t(6000));
        QCOMPARE(n.allocatable.get("nvidia.com/mig-1g.10gb"), int64_t(7000));
        QCOMPARE(n.allocatable.get("nvidia.com/mig-3g.40gb"), int64_t(2000));
        QCOMPARE(n.labels.at("nvidia.com/gpu.count"), std::string("8"));
        QCOMPARE(n.labels.at("nvidia.com/mig.strategy"), std::string("mixed"));
        // Three 3g.40gb on one GPU: at most two fit a GPU.
        QVERIFY(parseError("pools:\n- name: a100\n  count: 1\n  cpu: 8\n  memory: 8Gi\n  gpu:\n"
                           "    model: NVIDIA-A100-SXM4-80GB\n    count: 8\n    memory: 80Gi\n"
                           "    mig: {gpus: 1, instances: {3g.40gb: 3}}\n")
                    .contains("3 instances of 3g.40gb do not fit 1 GPU(s): at most 2 a GPU"));
        // A mix that no GPU count holds: two 3g.40gb and a 2g.20gb on one GPU (8 compute slices).
        QVERIFY(parseError("pools:\n- name: a100\n  count: 1\n  cpu: 8\n  memory: 8Gi\n  gpu:\n"
                           "    model: NVIDIA-A100-SXM4-80GB\n    count: 8\n    memory: 80Gi\n"
                           "    mig: {gpus: 1, instances: {3g.40gb: 2, 2g.20gb: 1}}\n")
                    .contains("inv.yaml:13:"));
        QVERIFY(parseError("pools:\n- name: a100\n  count: 1\n  cpu: 8\n  memory: 8Gi\n  gpu:\n"
                           "    count: 8\n    mig: {gpus: 1, instances: {big: 1}}\n")
                    .contains("'big' is not a MIG profile"));
    }

    void locatedErrors_data() {
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("expected");
        const std::string pool = "pools:\n- {name: p, count: 4, cpu: 8, memory: 8Gi}\n";
        auto row = [](const char* name, const std::string& body, const char* expected) {
            QTest::newRow(name) << QString::fromStdString(body) << QString(expected);
        };
        row("unknown key", "pools:\n- {name: p, cout: 4, cpu: 8, memory: 8Gi}\n",
            "inv.yaml:5:13: error: pools[0]: unknown key 'cout' (expected one of: name, count, namePrefix, "
            "cpu, memory, pods, ephemeralStorage, resources, gpu, labels, annotations, taints, "
            "unschedulable, flavor, layout)");
        row("zones uneven", "pools:\n- {name: p, count: 5, cpu: 8, memory: 8Gi, layout: {zones: [a, b]}}\n",
            "inv.yaml:5:60: error: pool 'p': layout.zones: 5 nodes do not split evenly over 2 zones");
        row("negative memory", "pools:\n- {name: p, count: 4, cpu: 8, memory: -8Gi}\n",
            "inv.yaml:5:39: error: pool 'p': memory: quantity '-8Gi' must not be negative");
        row("nvlink spans racks",
            "pools:\n- {name: p, count: 4, cpu: 8, memory: 8Gi, layout: {nodesPerRack: 6, nvlinkDomainNodes: "
            "4}}\n",
            "inv.yaml:5:89: error: pool 'p': layout.nvlinkDomainNodes: an NVLink domain must not span racks: "
            "nodesPerRack (6) is not a multiple of nvlinkDomainNodes (4)");
        row("duplicate pool", pool + "- {name: p, count: 1, cpu: 1, memory: 1Gi}\n",
            "inv.yaml:6:10: error: pools[1].name: duplicate pool 'p'");
        row("deserved above capability",
            pool + "queues:\n- name: a\n  deserved: {cpu: 4}\n  capability: {cpu: 2}\n",
            "inv.yaml:8:13: error: queue 'a': deserved: deserved cpu (4) exceeds capability (2)");
        row("children above parent",
            pool + "queues:\n- name: a\n  deserved: {cpu: 4}\n  queues:\n  - {name: b, deserved: {cpu: 3}}\n"
                   "  - {name: c, deserved: {cpu: 2}}\n",
            "inv.yaml:8:13: error: queue 'a': deserved: the children's deserved cpu (5) exceeds this queue's "
            "(4)");
        row("guarantee without deserved", pool + "queues:\n- {name: a, guarantee: {cpu: 1}}\n",
            "inv.yaml:7:24: error: queue 'a': guarantee: guarantee cpu needs a deserved cpu");
        row("undefined flavor", pool + "queues:\n- {name: a, flavors: {h100: {cpu: 1}}}\n",
            "inv.yaml:7:29: error: flavor 'h100' is not defined (set `flavor: h100` on a pool, or list it "
            "under flavors)");
        row("duplicate queue", pool + "queues:\n- {name: a}\n- {name: a}\n",
            "inv.yaml:8:3: error: duplicate queue 'a' (first defined at inv.yaml:7:3)");
        row("unknown queue", pool + "workloads:\n- {name: w, queue: nope}\nqueues:\n- {name: a}\n",
            "inv.yaml:7:3: error: workload 'w' names queue 'nope', which does not exist");
        row("poisson with every", pool + "workloads:\n- {name: w, arrival: {ratePerHour: 2, every: 1h}}\n",
            "inv.yaml:7:22: error: workload 'w': arrival: times, every and burst do not apply to a Poisson "
            "arrival");
        row("bad duration", pool + "workloads:\n- {name: w, duration: 3 days}\n",
            "inv.yaml:7:23: error: workload 'w': duration: '3 days' is not a duration (seconds, or Go form "
            "such as 90s, 15m, 1h30m)");
        row("minMember above replicas", pool + "workloads:\n- {name: w, replicas: 2, minMember: 3}\n",
            "inv.yaml:7:37: error: workload 'w': minMember: must be in 0..replicas (0 = all)");
        row("no pools", "pools: []\n", "inv.yaml:4:8: error: pools: an inventory needs at least one pool");
        row("two documents", pool + "---\nname: x\n",
            "inv.yaml:7:1: error: the inventory must be a single YAML document");
    }
    void locatedErrors() {
        QFETCH(QString, body);
        QFETCH(QString, expected);
        QCOMPARE(parseError(body.toStdString()), expected);
    }
    void wrongApiVersion() {
        QCOMPARE(
            errorOf([] { readInventory("apiVersion: v1\nkind: Inventory\n", "inv.yaml"); }),
            QString(
                "inv.yaml:1:13: error: apiVersion: expected gantry.io/v1alpha1 for an inventory, got 'v1'"));
    }
};

GANTRY_TEST(InventoryTest)
#include "test_inventory.moc"
