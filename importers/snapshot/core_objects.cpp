// v1 Node, Namespace, scheduling.k8s.io PriorityClass, and the metadata every object shares.
#include "import_state.h"
#include "kubernetes/k8s_fields.h"
#include "model/gpu_exposure.h"

#include <filesystem>
#include <limits>

namespace gantry::snapshot {

bool State::hasPodGroup(const std::string& ns, const std::string& name) {
    for (; groupsIndexed_ < cluster.podGroups.size(); ++groupsIndexed_)
        groupNames_.emplace(cluster.podGroups[groupsIndexed_].ns, cluster.podGroups[groupsIndexed_].name);
    return groupNames_.count({ns, name}) > 0;
}

void State::skip(const std::string& what, const SourceRef& where) {
    auto [it, inserted] = skipped.try_emplace(what);
    if (inserted) {
        it->second.first = where;
        skippedOrder.push_back(what);
    }
    ++it->second.count;
}

namespace {

// Five characters of the API server's alphabet for generated names (no vowels, no 0, 1, 3), from a
// hash of the object's file and position.
std::string generatedSuffix(const SourceRef& where) {
    static constexpr char kAlphabet[] = "bcdfghjklmnpqrstvwxz2456789";
    uint64_t h = 1469598103934665603ull;
    auto mix = [&](const std::string& text) {
        for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
    };
    mix(std::filesystem::path(where.file).filename().string()); // the same on every machine
    mix(std::to_string(where.document) + ":" + std::to_string(where.line) + ":" +
        std::to_string(where.column));
    std::string out;
    for (int i = 0; i < 5; ++i) {
        out += kAlphabet[h % (sizeof(kAlphabet) - 1)];
        h /= sizeof(kAlphabet) - 1;
    }
    return out;
}

} // namespace

void readMetadata(Object& o, bool namespaced) {
    auto meta = o.root["metadata"];
    meta.checkKeys(o.kind, {"name", "namespace", "labels", "annotations", "uid", "ownerReferences"},
                   {"generateName", "resourceVersion", "creationTimestamp", "managedFields", "generation",
                    "selfLink", "finalizers", "deletionTimestamp", "deletionGracePeriodSeconds"});
    o.name = meta["name"].str();
    if (o.name.empty()) {
        // `kubectl create` accepts an object named by generateName alone: the API server appends
        // five random characters. Ours are drawn from where the object is, so runs repeat.
        const std::string base = meta["generateName"].str();
        if (base.empty())
            (meta.present() ? meta : o.root)
                .fail("the object has no name (metadata.name or metadata.generateName)");
        o.name = base + generatedSuffix(o.root.where());
    }
    if (namespaced) o.ns = meta["namespace"].str("default");
    o.creationTimestamp = readTimestamp(meta["creationTimestamp"]);
    o.labels = meta["labels"].stringMap();
    o.annotations = meta["annotations"].stringMap();
    o.source = o.root.where();
    o.root = o.root.withSubject(o.kind + " '" + (namespaced ? o.ns + "/" : std::string()) + o.name + "'");
}

PodGroup podGroupOf(const Object& o, std::string origin) {
    PodGroup g;
    g.name = o.name;
    g.ns = o.ns;
    g.labels = o.labels;
    g.annotations = o.annotations;
    g.source = o.source;
    g.creationTimestamp = o.creationTimestamp;
    g.origin = std::move(origin);
    return g;
}

namespace {

void inferGpus(const Y& where, Node& n) {
    for (const auto& [name, amount] : n.allocatable) {
        if (!isGpuResource(name) || amount == 0) continue;
        if (amount % 1000 != 0) where.fail(name + " must be a whole number of devices");
        n.gpus.resourceName = name;
        n.gpus.count = int32_t(amount / 1000);
        break;
    }
    if (n.gpus.count == 0 && n.allocatable.get(key::GpuCount) > 0) {
        int64_t amount = n.allocatable.get(key::GpuCount);
        if (amount % 1000 != 0) where.fail(std::string(key::GpuCount) + " must be a whole number of devices");
        n.gpus.resourceName = key::GpuCount;
        n.gpus.count = int32_t(amount / 1000);
    }
    auto label = [&](const char* k) {
        auto it = n.labels.find(k);
        return it == n.labels.end() ? std::string() : it->second;
    };
    n.gpus.model = label(key::GpuProduct);
    if (n.gpus.model.empty()) n.gpus.model = label(key::GpuCardModel);
    std::string mem = label(key::GpuMemoryMiB); // GPU feature discovery: MiB per device
    if (!mem.empty()) {
        std::string error;
        auto mib = parseAmount("memory", mem, &error);
        // A value whose bytes overflow 64 bits is no GPU's memory either.
        if (!mib || *mib < 0 || *mib > std::numeric_limits<int64_t>::max() / (1024 * 1024))
            where.warn("label " + std::string(key::GpuMemoryMiB) + "='" + mem +
                       "' is not a number of MiB; GPU memory left unknown");
        else
            n.gpus.memoryBytes = *mib * 1024 * 1024;
    }
    std::string note;
    readDevicePluginGpus(n.allocatable, n.labels, n.gpus, &note);
    if (!note.empty()) where.warn(note);
}

} // namespace

void readNode(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("Node", {"apiVersion", "kind", "metadata", "spec", "status"});
    Node n;
    n.name = o.name;
    n.labels = o.labels;
    n.annotations = o.annotations;
    n.source = o.source;
    auto spec = r["spec"];
    spec.checkKeys("Node", {"unschedulable", "taints"},
                   {"podCIDR", "podCIDRs", "providerID", "externalID", "configSource"});
    n.unschedulable = spec["unschedulable"].boolean(false);
    n.taints = readTaints(spec["taints"]);
    auto status = r["status"];
    n.capacity = status["capacity"].resources();
    n.allocatable = status["allocatable"].present() ? status["allocatable"].resources() : n.capacity;
    if (n.capacity.empty() && n.allocatable.empty())
        r.warn("node has neither status.capacity nor status.allocatable; nothing can be placed on it");
    for (const auto& c : status["conditions"].items())
        if (c["type"].str() == "Ready") n.ready = c["status"].str() == "True";
    inferGpus(status["allocatable"].present() ? status["allocatable"] : status["capacity"], n);
    s.cluster.nodes.push_back(std::move(n));
}

void readNamespace(State& s, const Object& o) {
    o.root.checkKeys("Namespace", {"apiVersion", "kind", "metadata"}, {"spec", "status"});
    s.cluster.namespaces.push_back(Namespace{o.name, o.labels, o.annotations});
}

void readPriorityClass(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("PriorityClass", {"apiVersion", "kind", "metadata", "value", "globalDefault",
                                  "preemptionPolicy", "description"});
    PriorityClass pc;
    pc.name = o.name;
    if (!r["value"].present()) r.fail("PriorityClass has no value");
    pc.value = r["value"].i32();
    if (pc.value > 1000000000 && o.name.rfind("system-", 0) != 0)
        r["value"].fail("user priority classes must not exceed 1000000000");
    pc.globalDefault = r["globalDefault"].boolean(false);
    pc.preemptionPolicy = r["preemptionPolicy"].str();
    if (!pc.preemptionPolicy.empty() && pc.preemptionPolicy != "PreemptLowerPriority" &&
        pc.preemptionPolicy != "Never")
        r["preemptionPolicy"].fail("expected PreemptLowerPriority or Never, got '" + pc.preemptionPolicy +
                                   "'");
    pc.description = r["description"].str();
    pc.source = o.source;
    s.cluster.priorityClasses.push_back(std::move(pc));
}

namespace {

// An IntOrString of minAvailable / maxUnavailable: a non-negative count or a percentage.
std::optional<std::string> readIntOrPercent(const Y& node) {
    if (!node.present()) return std::nullopt;
    const std::string text = node.str();
    std::string digits = text;
    if (!digits.empty() && digits.back() == '%') digits.pop_back();
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
        node.fail("expected a non-negative number of pods or a percentage (\"50%\"), got '" + text + "'");
    return text;
}

} // namespace

void readPodDisruptionBudget(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("PodDisruptionBudget", {"apiVersion", "kind", "metadata", "spec", "status"});
    auto spec = r["spec"];
    spec.checkKeys("PodDisruptionBudget", {"selector", "minAvailable", "maxUnavailable"},
                   {"unhealthyPodEvictionPolicy"});
    PodDisruptionBudget pdb;
    pdb.name = o.name;
    pdb.ns = o.ns;
    pdb.selector = readOptionalLabelSelector(spec["selector"]);
    pdb.minAvailable = readIntOrPercent(spec["minAvailable"]);
    pdb.maxUnavailable = readIntOrPercent(spec["maxUnavailable"]);
    if (pdb.minAvailable && pdb.maxUnavailable)
        spec.fail("minAvailable and maxUnavailable cannot be both set");
    auto status = r["status"];
    if (auto allowed = status["disruptionsAllowed"].optI32()) pdb.disruptionsAllowed = *allowed;
    for (const auto& [pod, when] : status["disruptedPods"].entries()) pdb.disruptedPods.push_back(pod);
    pdb.source = o.source;
    s.cluster.disruptionBudgets.push_back(std::move(pdb));
}

void readWorkloadPriorityClass(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("WorkloadPriorityClass", {"apiVersion", "kind", "metadata", "value", "description"});
    PriorityClass pc;
    pc.name = o.name;
    if (!r["value"].present()) r.fail("WorkloadPriorityClass has no value");
    pc.value = r["value"].i32();
    pc.description = r["description"].str();
    pc.workload = true;
    pc.source = o.source;
    s.cluster.priorityClasses.push_back(std::move(pc));
}

} // namespace gantry::snapshot
