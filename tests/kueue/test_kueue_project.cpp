// A project designed in Gantry's own terms (Volcano-style hierarchical queues, topology labels, a
// tainted GPU pool) runs under the Kueue profile with exactly the Kueue objects `gantry export
// --target kueue` writes: simulating the project directly and simulating its exported
// ResourceFlavors, Topology, Cohorts, ClusterQueues and LocalQueues with the same workload decide
// the same, to the last sample.
#include "export/export.h"
#include "input_error.h"
#include "input_loader.h"
#include "kueue_config_reader.h"
#include "profile/registry.h"
#include "project/project_reader.h"
#include "project/project_writer.h"
#include "sim/simulator.h"
#include "sim/sources.h"
#include "snapshot/snapshot_importer.h"
#include "test_registry.h"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

using namespace gantry;
using namespace gantry::sim;

namespace {

const std::string kProject = std::string(GANTRY_TEST_DATA) + "/kueue/project-hierarchy.yaml";

// The leaves carry Kueue preemption of their own (LowerPriority within, Any reclaim): the only place
// the Kueue profile and export take it from.
Project load() {
    return loadInputs({kProject}).project;
}

// The project's cluster with its queues replaced by the Kueue policy objects of its export, read
// back as `gantry import` reads them, in a cluster that has the namespaces its LocalQueues live in.
Cluster exported(const Project& project) {
    ExportOptions o;
    o.target = TargetScheduler::Kueue;
    ExportBundle bundle = exportProject(project, o);
    const std::set<std::string> policyFiles = {"topology.yaml",    "resourceflavors.yaml",
                                               "cohorts.yaml",     "clusterqueues.yaml",
                                               "localqueues.yaml", "workloadpriorityclasses.yaml"};
    SnapshotImporter in;
    for (const auto& [name, text] : renderExport(bundle, ExportLayout::PerKind))
        if (policyFiles.count(name)) in.addText(text, name);
    Diagnostics d;
    Cluster objects = in.finish(d);
    if (hasErrors(d)) throw std::runtime_error("the exported Kueue objects do not import");
    Cluster c = project.cluster;
    c.queues = objects.queues;
    c.localQueues = objects.localQueues;
    c.resourceFlavors = objects.resourceFlavors;
    c.kueueTopologies = objects.kueueTopologies;
    for (const auto& pc : objects.priorityClasses) c.priorityClasses.push_back(pc);
    std::set<std::string> namespaces;
    for (const auto& lq : c.localQueues) namespaces.insert(lq.ns);
    for (const auto& ns : namespaces) c.namespaces.push_back(Namespace{ns, {}, {}});
    return c;
}

SimResult run(const Project& project, Cluster cluster) {
    SimOptions options;
    options.profile = "kueue";
    options.policies = policiesOf(project);
    options.evictionGraceSeconds = 0;
    options.sampleSeconds = 300;
    SimWorkload w = fromTemplates(project.workloads, cluster, options.seed);
    Diagnostics warnings;
    return simulate(cluster, w, options, &warnings);
}

const engine::ObjectSeries* object(const SimResult& r, const std::string& kind, const std::string& name) {
    for (const auto& o : r.objects)
        if (o.kind == kind && o.name == name) return &o;
    return nullptr;
}

const std::vector<double>* series(const engine::ObjectSeries& o, const std::string& measure) {
    for (const auto& [m, values] : o.series)
        if (m == measure) return &values;
    return nullptr;
}

} // namespace

class KueueProjectTest : public QObject {
    Q_OBJECT
  private slots:
    void projectDecidesAsItsExport() {
        const Project project = load();
        const SimResult direct = run(project, project.cluster);
        const SimResult viaExport = run(project, exported(project));

        // The run has something to agree on: every job runs, queues borrow, and reclaim evicts.
        QCOMPARE(direct.jobsTotal, int64_t(42));
        QCOMPARE(direct.jobsCompleted, int64_t(42));
        QVERIFY(direct.podEvictions > 0);
        const engine::ObjectSeries* llm = object(direct, "ClusterQueue", "llm");
        QVERIFY(llm);
        const std::vector<double>* borrowed = series(*llm, "borrowed_nvidia.com/gpu");
        QVERIFY(borrowed);
        QVERIFY(*std::max_element(borrowed->begin(), borrowed->end()) > 0);

        // The simulator's own per-queue summaries count Volcano queues only (a Kueue input has
        // none), so the comparison is on what Kueue and kube-scheduler decided: allocation at every
        // sample, evictions, the ClusterQueues' usage, borrowing and lending, time to admission
        // per workload class, and where every pod is at the end.
        QCOMPARE(viaExport.jobsStarted, direct.jobsStarted);
        QCOMPARE(viaExport.jobsCompleted, direct.jobsCompleted);
        QCOMPARE(viaExport.podEvictions, direct.podEvictions);
        QCOMPARE(viaExport.jobRestarts, direct.jobRestarts);
        QCOMPARE(viaExport.endSeconds, direct.endSeconds);
        QCOMPARE(viaExport.allocatedGpuHours, direct.allocatedGpuHours);
        QCOMPARE(viaExport.gpuAllocationPct, direct.gpuAllocationPct);
        QCOMPARE(viaExport.pendingJobs, direct.pendingJobs);
        QCOMPARE(viaExport.objects.size(), direct.objects.size());
        for (const auto& o : direct.objects) {
            const engine::ObjectSeries* same = object(viaExport, o.kind, o.name);
            QVERIFY2(same, o.name.c_str());
            QCOMPARE(same->series, o.series);
            QCOMPARE(same->totals, o.totals);
        }
        QCOMPARE(viaExport.placements.size(), direct.placements.size());
        for (size_t i = 0; i < direct.placements.size(); ++i) {
            QCOMPARE(viaExport.placements[i].node, direct.placements[i].node);
            QCOMPARE(viaExport.placements[i].devices, direct.placements[i].devices);
        }
    }

    // Kueue's Configuration travels whole: a snapshot's kueue-manager-config becomes the project's
    // Kueue policy (the one the kueue profile runs), a .gantry keeps it, and an export writes the
    // ConfigMap back with every field of the install's own file, modelled or not.
    void managerConfigurationTravelsWhole() {
        const std::string file = std::string(GANTRY_TEST_DATA) + "/kueue/kueue-manager-config.yaml";
        const Project p = loadInputs({file}).project;
        QVERIFY(p.kueue.has_value());
        QCOMPARE(p.target, TargetScheduler::Kueue);
        // The same as --scheduler-conf reads the file, and what the profile gets.
        const KueueConfig direct = readKueueConfigFile(file);
        QVERIFY(*p.kueue == direct);
        QVERIFY(policiesOf(p).kueue == direct);
        QVERIFY(direct.fairSharing && direct.waitForPodsReady && direct.manageJobsWithoutQueueName);
        QCOMPARE(direct.admissionFairSharing->usageHalfLifeSeconds, 168 * 3600.0);
        QCOMPARE(direct.admissionFairSharing->resourceWeights.at("example.com/gpu"), 100.0);
        QCOMPARE(direct.podsReadyTimeoutSeconds, 300.0);
        QCOMPARE(direct.frameworks->size(), size_t(12));
        QCOMPARE(direct.transformations.size(), size_t(1));
        QCOMPARE(direct.deviceClassMappings.size(), size_t(1));
        QCOMPARE(direct.deviceClassMappings[0].deviceClassNames,
                 (std::vector<std::string>{"gpu.example.com", "gpu.nvidia.com"}));

        QTemporaryDir dir;
        const std::string path = dir.filePath("p.gantry").toStdString();
        writeProjectFile(path, p);
        QVERIFY(readProjectFile(path) == p);

        ExportOptions o;
        o.target = TargetScheduler::Kueue;
        const ExportBundle bundle = exportProject(p, o);
        const nlohmann::ordered_json* cm = nullptr;
        for (const auto& x : bundle.objects)
            if (x.object["kind"] == "ConfigMap" && x.object["metadata"]["name"] == "kueue-manager-config")
                cm = &x.object;
        QVERIFY(cm);
        QCOMPARE((*cm)["metadata"]["namespace"].get<std::string>(), std::string("kueue-system"));
        const std::string text = (*cm)["data"]["controller_manager_config.yaml"];
        const KueueConfig back = parseKueueConfig(text, "exported");
        KueueConfig modelled = back;
        modelled.document = direct.document;
        QVERIFY(modelled == direct);
        // Every field of the file, the manager's plumbing included, with its value.
        const auto original = nlohmann::json::parse(direct.document),
                   exported = nlohmann::json::parse(back.document);
        for (const auto& [key, value] : original.items()) {
            QVERIFY2(exported.contains(key), key.c_str());
            if (key != "admissionFairSharing" && key != "resources")
                QVERIFY2(exported[key] == value, key.c_str());
        }
        QCOMPARE(exported["controller"]["groupKindConcurrency"]["Workload.kueue.x-k8s.io"].get<int>(), 10);
        QCOMPARE(exported["waitForPodsReady"]["recoveryTimeout"].get<std::string>(), std::string("3m"));
        QCOMPARE(exported["admissionFairSharing"]["usageHalfLifeTime"].get<std::string>(),
                 std::string("168h"));

        // Without a Configuration in the project, none is exported (the install's stays).
        Project none = p;
        none.kueue.reset();
        for (const auto& x : exportProject(none, o).objects) QVERIFY(x.object["kind"] != "ConfigMap");
    }

    // Kueue's preemption is each ClusterQueue's own (kueue apis ClusterQueuePreemption, defaults
    // Never): Volcano's actions change nothing under Kueue, and queues without Kueue preemption of
    // their own get Kueue's defaults, in the export and in the profile alike.
    // Counter-based DRA quota (v1beta2 sources), as Kueue's setup guide writes it
    // (site/content/en/docs/tasks/manage/setup_dra.md @ff69552e, "Configure counter sources"): read,
    // kept in a project and exported; the mistakes pkg/config/validation.go refuses are refused.
    void deviceClassSourcesTravelAndAreChecked() {
        const std::string guide = R"(apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
resources:
  deviceClassMappings:
  - name: gpu.memory
    deviceClassNames:
    - gpu.example.com
    sources:
    - counter:
        name: memory
        driver: gpu.example.com
        deviceSelector:
          cel:
            expression: "device.driver == 'gpu.example.com'"
)";
        const KueueConfig c = parseKueueConfig(guide, "guide.yaml");
        QCOMPARE(c.deviceClassMappings.size(), size_t(1));
        QCOMPARE(c.deviceClassMappings[0].sources.size(), size_t(1));
        const auto& src = c.deviceClassMappings[0].sources[0];
        QVERIFY(src.counter);
        QCOMPARE(src.name, std::string("memory"));
        QCOMPARE(src.driver, std::string("gpu.example.com"));
        QCOMPARE(src.deviceSelector, std::string("device.driver == 'gpu.example.com'"));

        Project p;
        p.kueue = c;
        p.target = TargetScheduler::Kueue;
        QTemporaryDir dir;
        const std::string path = dir.filePath("p.gantry").toStdString();
        try {
            writeProjectFile(path, p);
        } catch (const std::exception& e) {
            qFatal("write: %s", e.what());
        }
        QVERIFY(readProjectFile(path).kueue == c);
        ExportOptions o;
        o.target = TargetScheduler::Kueue;
        ExportBundle bundle;
        try {
            bundle = exportProject(p, o);
        } catch (const std::exception& e) {
            qFatal("export: %s", e.what());
        }
        for (const auto& x : bundle.objects)
            if (x.object["kind"] == "ConfigMap" && x.object["metadata"]["name"] == "kueue-manager-config") {
                const KueueConfig back =
                    parseKueueConfig(x.object["data"]["controller_manager_config.yaml"], "out");
                QVERIFY(back.deviceClassMappings == c.deviceClassMappings);
            }

        auto refusedText = [&](const std::string& text, const std::string& words) {
            try {
                parseKueueConfig(text, "bad.yaml");
            } catch (const InputError& e) {
                const std::string what = e.what();
                if (what.find(words) == std::string::npos)
                    qFatal("'%s' not in: %s", words.c_str(), what.c_str());
                return;
            }
            qFatal("accepted: %s", text.c_str());
        };
        auto refused = [&](const std::string& from, const std::string& to, const std::string& words) {
            std::string text = guide;
            const size_t at = text.find(from);
            if (at == std::string::npos) qFatal("no '%s' in the guide's text", from.c_str());
            refusedText(text.replace(at, from.size(), to), words);
        };
        // Capacity sources need KueueDRAIntegrationConsumableCapacity, off by default.
        refused("- counter:", "- capacity:",
                "capacity sources require KueueDRAIntegrationConsumableCapacity to be enabled");
        refused("kind: Configuration\n",
                "kind: Configuration\nfeatureGates:\n  KueueDRAIntegrationPartitionableDevices: false\n",
                "counter sources require KueueDRAIntegrationPartitionableDevices to be enabled");
        refused("        name: memory\n", "        name: Memory_Bytes\n", "DNS-1123 label");
        refused("    - counter:\n", "    - {}\n    - counter:\n",
                "exactly one source type must be set per entry");
        // One class under two resources: only for two different counters.
        const std::string second = "\n  - name: gpu.sm\n    deviceClassNames:\n    - gpu.example.com\n";
        refusedText(guide + second.substr(1), "device class already mapped to resource gpu.memory");
        refusedText(
            guide + second.substr(1) +
                "    sources:\n    - counter:\n        name: memory\n        driver: gpu.example.com\n"
                "        deviceSelector:\n          cel:\n            expression: \"true\"\n",
            "device class already has a counter source for counter \"memory\"");
        std::string twoCounters =
            guide + second.substr(1) +
            "    sources:\n    - counter:\n        name: multiprocessors\n        driver: "
            "gpu.example.com\n        deviceSelector:\n          cel:\n            expression: "
            "\"true\"\n";
        QCOMPARE(parseKueueConfig(twoCounters, "two.yaml").deviceClassMappings.size(), size_t(2));

        // Kueue evaluates a source's deviceSelector with full CEL (pkg/dra/counters.go); one outside
        // the CEL Gantry evaluates would silently match no device, so the profile warns where it is.
        std::string odd = guide;
        const std::string plain = "device.driver == 'gpu.example.com'";
        odd.replace(odd.find(plain), plain.size(), "device.attributes['gpu.example.com'].all(k, k != '')");
        SchedulerPolicies policies;
        policies.kueue = parseKueueConfig(odd, "odd.yaml");
        Diagnostics diagnostics;
        const auto* kueue = engine::findProfile("kueue");
        QVERIFY(kueue);
        const Cluster none;
        QVERIFY(kueue->make({none, policies, {}}, &diagnostics));
        bool warned = false;
        for (const auto& d : diagnostics)
            warned = warned ||
                     (d.where.file == "odd.yaml" && d.message.find("deviceSelector") != std::string::npos &&
                      d.message.find("charges nothing") != std::string::npos);
        QVERIFY2(warned, diagnostics.empty() ? "no diagnostic" : diagnostics.front().message.c_str());
        diagnostics.clear();
        policies.kueue = c; // the guide's own selector: nothing to say
        QVERIFY(kueue->make({none, policies, {}}, &diagnostics));
        for (const auto& d : diagnostics)
            QVERIFY2(d.message.find("deviceSelector") == std::string::npos, d.message.c_str());
    }

    void preemptionIsTheClusterQueuesOwn() {
        Project quiet = load(), loud = load();
        quiet.volcano.actions = {"enqueue", "allocate", "backfill"};
        loud.volcano.actions = {"enqueue", "allocate", "preempt", "reclaim", "backfill"};
        const SimResult a = run(quiet, quiet.cluster), b = run(loud, loud.cluster);
        QVERIFY(a.podEvictions > 0);
        QCOMPARE(a.podEvictions, b.podEvictions);
        QCOMPARE(a.endSeconds, b.endSeconds);

        Project none = loud;
        for (auto& q : none.cluster.queues) q.preemption = {};
        const Cluster exportedNone = exported(none);
        int clusterQueues = 0;
        for (const auto& q : exportedNone.queues) {
            if (q.kind != Queue::Kind::KueueClusterQueue) continue;
            ++clusterQueues;
            QCOMPARE(q.preemption, KueuePreemption{});
        }
        QCOMPARE(clusterQueues, 3);
        QCOMPARE(run(none, none.cluster).podEvictions, int64_t(0));
    }

    void mappedQueuesAreKueuesWords() {
        // What the profile says of the project's queues is Kueue's: its ClusterQueues by the
        // queues' names, the inner queue a cohort that holds no workloads.
        const Project project = load();
        const SimResult direct = run(project, project.cluster);
        QVERIFY(object(direct, "ClusterQueue", "llm"));
        QVERIFY(object(direct, "ClusterQueue", "prod"));
        QVERIFY(!object(direct, "ClusterQueue", "research"));
    }
};

GANTRY_TEST(KueueProjectTest)
#include "test_kueue_project.moc"
