#include "snapshot_importer.h"

#include "import_state.h"
#include "model/cluster_check.h"
#include "model/gpu_exposure.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <unordered_map>

namespace gantry {

using namespace snapshot;

struct SnapshotImporter::State : snapshot::State {};

namespace {

using Reader = void (*)(snapshot::State&, const Object&);

struct KindInfo {
    const char* group;
    const char* kind;
    bool namespaced;
    Reader read;
};

constexpr KindInfo kKinds[] = {
    {"", "Node", false, readNode},
    {"", "Pod", true, readPod},
    {"", "Namespace", false, readNamespace},
    {"", "ConfigMap", true, readConfigMap},
    {"scheduling.k8s.io", "PriorityClass", false, readPriorityClass},
    {"policy", "PodDisruptionBudget", true, readPodDisruptionBudget},
    {"scheduling.volcano.sh", "Queue", false, readVolcanoQueue},
    {"scheduling.volcano.sh", "PodGroup", true, readVolcanoPodGroup},
    {"topology.volcano.sh", "HyperNode", false, readHyperNode},
    {"batch.volcano.sh", "Job", true, readVolcanoJob},
    {"flow.volcano.sh", "JobTemplate", true, readJobTemplate},
    {"flow.volcano.sh", "JobFlow", true, readJobFlow},
    {"kueue.x-k8s.io", "ResourceFlavor", false, readResourceFlavor},
    {"kueue.x-k8s.io", "ClusterQueue", false, readClusterQueue},
    {"kueue.x-k8s.io", "Cohort", false, readCohort},
    {"kueue.x-k8s.io", "LocalQueue", true, readLocalQueue},
    {"kueue.x-k8s.io", "Topology", false, readKueueTopology},
    {"kueue.x-k8s.io", "WorkloadPriorityClass", false, readWorkloadPriorityClass},
    {"kueue.x-k8s.io", "Workload", true, readKueueWorkload},
    {"kueue.x-k8s.io", "AdmissionCheck", false, readAdmissionCheck},
    {"", "LimitRange", true, readLimitRange},
    {"scheduling.sigs.k8s.io", "PodGroup", true, readCoschedulingPodGroup},
    {"scheduling.x-k8s.io", "PodGroup", true, readCoschedulingPodGroup},
    {"batch", "Job", true, readBatchJob},
    {"jobset.x-k8s.io", "JobSet", true, readJobSet},
    {"kubeflow.org", "PyTorchJob", true, readKubeflowJob},
    {"kubeflow.org", "MPIJob", true, readKubeflowJob},
    {"kubeflow.org", "TFJob", true, readKubeflowJob},
    {"trainer.kubeflow.org", "TrainingRuntime", true, readTrainingRuntime},
    {"trainer.kubeflow.org", "ClusterTrainingRuntime", false, readTrainingRuntime},
    {"trainer.kubeflow.org", "TrainJob", true, readTrainJob},
    {"apps", "Deployment", true, readDeployment},
    {"apps", "ReplicaSet", true, readReplicaSet},
    {"apps", "StatefulSet", true, readStatefulSet},
    {"resource.k8s.io", "DeviceClass", false, readDeviceClass},
    {"resource.k8s.io", "ResourceSlice", false, readResourceSlice},
    {"resource.k8s.io", "ResourceClaim", true, readResourceClaim},
    {"resource.k8s.io", "ResourceClaimTemplate", true, readResourceClaimTemplate},
};

void addObject(snapshot::State& s, const Y& root, const std::string& listApiVersion,
               const std::string& listItemKind) {
    if (!root.isMap())
        root.fail(std::string("expected a Kubernetes object (a mapping with apiVersion and kind), got ") +
                  (root.isSeq() ? "a list" : "a scalar"));
    std::string kind = root["kind"].str(listItemKind);
    if (kind.empty() && readBareYuniKornConfig(s, root)) return;
    if (kind.empty()) root.fail("object has no kind");
    std::string apiVersion = root["apiVersion"].str(listApiVersion);
    bool isList = kind == "List" || (kind.size() > 4 && kind.compare(kind.size() - 4, 4, "List") == 0 &&
                                     root["items"].present());
    if (isList) {
        root.checkKeys(kind, {"apiVersion", "kind", "items"}, {"metadata"});
        std::string itemKind = kind == "List" ? "" : kind.substr(0, kind.size() - 4);
        for (const auto& item : root["items"].items())
            addObject(s, item, itemKind.empty() ? "" : apiVersion, itemKind);
        return;
    }
    if (apiVersion.empty()) root.fail(kind + " has no apiVersion");
    Object o;
    o.root = root.withSubject(kind);
    o.kind = kind;
    auto slash = apiVersion.find('/');
    o.group = slash == std::string::npos ? "" : apiVersion.substr(0, slash);
    o.version = slash == std::string::npos ? apiVersion : apiVersion.substr(slash + 1);
    for (const auto& k : kKinds) {
        if (o.group != k.group || kind != k.kind) continue;
        readMetadata(o, k.namespaced);
        k.read(s, o);
        return;
    }
    s.skip(kind + " (" + apiVersion + ")", root.where());
}

// Kueue creates a cohort implicitly when a ClusterQueue or Cohort names one that has no object.
void addImplicitCohorts(Cluster& c) {
    // Where each is first named, by value: adding the cohorts reallocates c.queues (a pointer into it
    // was a use after free, found by fuzzing: tests/fuzz/corpus/snapshot/implicit-cohorts-realloc).
    std::map<std::string, SourceRef> referenced;
    std::set<std::string> names; // cohorts: a ClusterQueue of the same name is another object
    for (const auto& q : c.queues)
        if (q.kind == Queue::Kind::KueueCohort) names.insert(q.name);
    for (const auto& q : c.queues)
        if ((q.kind == Queue::Kind::KueueClusterQueue || q.kind == Queue::Kind::KueueCohort) &&
            !q.parent.empty() && !names.count(q.parent))
            referenced.try_emplace(q.parent, q.source);
    for (const auto& [name, where] : referenced) {
        Queue cohort;
        cohort.name = name;
        cohort.kind = Queue::Kind::KueueCohort;
        cohort.source = where;
        c.queues.push_back(std::move(cohort));
    }
}

// Kueue's plain-pod groups: pods labelled kueue.x-k8s.io/pod-group-name form one workload.
void addKueuePodGroups(snapshot::State& s) {
    auto& c = s.cluster;
    for (auto& p : c.pods) {
        auto it = p.labels.find("kueue.x-k8s.io/pod-group-name");
        if (it == p.labels.end() || !p.group.empty()) continue;
        p.group = it->second;
        if (c.findPodGroup(p.ns, p.group)) continue;
        PodGroup g;
        g.name = p.group;
        g.ns = p.ns;
        g.origin = "kueue.x-k8s.io/pod-group";
        g.source = p.source;
        auto total = p.annotations.find("kueue.x-k8s.io/pod-group-total-count");
        if (total != p.annotations.end()) {
            try {
                g.minMember = std::stoi(total->second);
            } catch (const std::exception&) {
                s.warnings.push_back(
                    Diagnostic{Severity::Warning, p.source,
                               "pod '" + p.key() + "': kueue.x-k8s.io/pod-group-total-count='" +
                                   total->second + "' is not a number; the group counts its pods"});
            }
        }
        bool kueue = false;
        g.queue = queueFromMetadata(p.labels, p.annotations, &kueue);
        if (kueue) s.kueueGroupQueues.emplace_back(g.key(), g.queue);
        g.phase = PodGroupPhase::Pending;
        c.podGroups.push_back(std::move(g));
    }
    for (auto& g : c.podGroups)
        if (g.origin == "kueue.x-k8s.io/pod-group" && g.minMember == 0)
            g.minMember = int32_t(std::count_if(c.pods.begin(), c.pods.end(), [&](const Pod& p) {
                return p.ns == g.ns && p.group == g.name;
            }));
}

void resolveLocalQueues(snapshot::State& s) {
    auto& c = s.cluster;
    if (s.kueueGroupQueues.empty()) return;
    std::unordered_map<std::string, size_t> groupAt;
    for (size_t i = 0; i < c.podGroups.size(); ++i) groupAt.emplace(c.podGroups[i].key(), i);
    std::map<std::pair<std::string, std::string>, const LocalQueue*> localQueue;
    for (const auto& l : c.localQueues) localQueue.emplace(std::make_pair(l.ns, l.name), &l);
    for (const auto& [groupKey, lqName] : s.kueueGroupQueues) {
        auto at = groupAt.find(groupKey);
        if (at == groupAt.end()) continue;
        PodGroup& g = c.podGroups[at->second];
        auto lq = localQueue.find({g.ns, lqName});
        // A LocalQueue that does not exist is the Kueue profile's to report (in its words, only there).
        if (lq != localQueue.end()) g.queue = lq->second->clusterQueue;
    }
}

// Label-defined topology levels: the well-known ones the nodes carry; otherwise a Kueue Topology's.
void chooseTopologyLevels(Cluster& c) {
    for (const auto& level : defaultTopologyLevels())
        if (std::any_of(c.nodes.begin(), c.nodes.end(),
                        [&](const Node& n) { return n.labels.count(level.nodeLabel); }))
            c.topologyLevels.push_back(level);
    if (!c.topologyLevels.empty() || c.kueueTopologies.empty()) return;
    for (const auto& label : c.kueueTopologies.front().levels) {
        if (label == "kubernetes.io/hostname") continue;
        auto slash = label.rfind('/');
        std::string name = slash == std::string::npos ? label : label.substr(slash + 1);
        c.topologyLevels.push_back(TopologyLevel{name, label});
    }
}

// What every cluster has, where the input leaves it out: the namespaces the API server creates
// (default, kube-system, kube-public, kube-node-lease), and the namespace of every object the input
// holds (the API server refuses an object in a namespace that does not exist). Every namespace
// carries kubernetes.io/metadata.name, which the API server sets (NamespaceDefaultLabelName).
void addClusterDefaults(snapshot::State& s) {
    auto& c = s.cluster;
    std::set<std::string> known;
    for (const auto& ns : c.namespaces) known.insert(ns.name);
    std::vector<std::string> assumed;
    SourceRef firstUse;
    auto need = [&](const std::string& ns, const SourceRef& where) {
        if (ns.empty() || known.count(ns)) return;
        known.insert(ns);
        c.namespaces.push_back(Namespace{ns, {}, {}});
        if (assumed.empty()) firstUse = where;
        assumed.push_back(ns);
    };
    for (const auto& p : c.pods) need(p.ns, p.source);
    for (const auto& g : c.podGroups) need(g.ns, g.source);
    for (const auto& l : c.localQueues) need(l.ns, l.source);
    for (const auto& l : c.limitRanges) need(l.ns, l.source);
    const bool used = !assumed.empty();
    for (const char* builtIn : {"default", "kube-system", "kube-public", "kube-node-lease"})
        if (!known.count(builtIn)) {
            known.insert(builtIn);
            c.namespaces.push_back(Namespace{builtIn, {}, {}});
        }
    for (auto& ns : c.namespaces) ns.labels.try_emplace("kubernetes.io/metadata.name", ns.name);
    if (!used) return;
    std::string list;
    for (const auto& n : assumed) list += (list.empty() ? "'" : ", '") + n + "'";
    s.warnings.push_back(
        Diagnostic{Severity::Warning, firstUse,
                   "namespace" + std::string(assumed.size() > 1 ? "s " : " ") + list +
                       " not in the input, but objects are in " + (assumed.size() > 1 ? "them" : "it") +
                       ": assumed to exist, as the API server would have required, with no labels but "
                       "kubernetes.io/metadata.name"});
}

// One warning per kind, at its first object, so that each points at an object of the kind it names.
void emitSkipped(snapshot::State& s) {
    for (const auto& k : s.skippedOrder) {
        const auto& e = s.skipped.at(k);
        s.warnings.push_back(Diagnostic{
            Severity::Warning, e.first,
            "skipped " + (e.count > 1 ? std::to_string(e.count) + " objects" : std::string("an object")) +
                " of kind " + k + ", which Gantry does not read"});
    }
}

} // namespace

SnapshotImporter::SnapshotImporter() : state_(std::make_unique<State>()) {}
SnapshotImporter::~SnapshotImporter() = default;

void SnapshotImporter::addFile(const std::string& path) {
    addText(readTextFile(path), path);
}

void SnapshotImporter::addText(const std::string& text, const std::string& name) {
    if (state_->finished) throw std::logic_error("SnapshotImporter: addText after finish");
    auto& s = *state_;
    s.texts[name] = text;
    auto docs = loadDocuments(text, name);
    if (docs.empty())
        s.warnings.push_back(
            Diagnostic{Severity::Warning, SourceRef{name, 0, 0, 0}, "the file holds no objects"});
    if (s.cluster.name.empty()) s.cluster.name = std::filesystem::path(name).stem().string();
    for (const auto& doc : docs) addObject(s, readerFor(doc, &s.warnings, &s.notes), "", "");
}

Cluster SnapshotImporter::finish(Diagnostics& diagnostics) {
    if (state_->finished) throw std::logic_error("SnapshotImporter: finish called twice");
    auto& s = *state_;
    s.finished = true;
    finishYuniKorn(s);
    finishJobFlows(s);
    for (auto& w : s.workloads) {
        // A live export holds the workload's pods already; expanding it again would double them.
        if (s.podOwners.count({w.group + "/" + w.kind, w.ns, w.name})) continue;
        w.expand();
    }
    addKueuePodGroups(s);
    addImplicitCohorts(s.cluster);
    resolveLocalQueues(s);
    addClusterDefaults(s);
    chooseTopologyLevels(s.cluster);
    readDraGpus(s.cluster);
    emitSkipped(s);
    s.notes.appendTo(s.warnings);
    diagnostics.insert(diagnostics.end(), s.warnings.begin(), s.warnings.end());
    auto checks = checkCluster(s.cluster);
    diagnostics.insert(diagnostics.end(), checks.begin(), checks.end());
    return std::move(s.cluster);
}

Cluster readSnapshotFiles(const std::vector<std::string>& paths, Diagnostics* warnings) {
    SnapshotImporter importer;
    for (const auto& p : paths) importer.addFile(p);
    Diagnostics diags;
    Cluster cluster = importer.finish(diags);
    throwIfErrors(diags);
    if (warnings) warnings->insert(warnings->end(), diags.begin(), diags.end());
    return cluster;
}

} // namespace gantry
