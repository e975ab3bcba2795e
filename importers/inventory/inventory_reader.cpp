#include "inventory_reader.h"

#include "gantry/workload_reader.h"
#include "kubernetes/k8s_fields.h"
#include "model/cluster_check.h"
#include "model/gpu_exposure.h"
#include "model/layout_hypernodes.h"
#include "yaml/yaml_reader.h"

#include <algorithm>
#include <map>
#include <set>

namespace gantry {

namespace {

constexpr int64_t kMaxNodes = 100000;

struct Builder {
    Cluster& c;
    std::map<std::string, std::string> levelLabel; // level name -> node label
    std::set<std::string> usedLevels;
    std::map<std::string, int> rackCounter, blockCounter; // per zone ("" = no zones)
    std::map<std::string, SourceRef> poolFlavors;         // flavor named by a pool -> where
    std::set<std::string> namespaces;
};

std::string padded(int64_t i, int width) {
    std::string s = std::to_string(i);
    return std::string(size_t(std::max(0, width - int(s.size()))), '0') + s;
}

const std::string& labelFor(Builder& b, const Y& where, const std::string& level) {
    auto it = b.levelLabel.find(level);
    if (it == b.levelLabel.end())
        where.fail("the layout uses " + level + "s, but topologyLevels has no level named '" + level + "'");
    b.usedLevels.insert(level);
    return it->second;
}

// Taints as mappings or in kubectl's short form "key=value:Effect".
// gpu.mig: some of the pool's GPUs split into MIG instances, as the NVIDIA device plugin's mixed
// strategy offers them (nvidia.com/mig-<profile> per profile, nvidia.com/gpu for the rest). The
// instances must fit the split GPUs (7 compute and 8 memory slices each, NVIDIA's MIG user guide).
// Returns how many GPUs are split.
int32_t readMigLayout(const Y& gpu, GpuDevices& gpus, ResourceList& alloc, Labels& labels) {
    auto mig = gpu["mig"];
    if (!mig.present()) return 0;
    mig.checkKeys("pool gpu mig", {"gpus", "instances"});
    if (gpus.resourceName != res::NvidiaGpu)
        mig.fail("MIG is NVIDIA's: the GPU resource must be nvidia.com/gpu");
    const int32_t split = mig["gpus"].i32(0);
    if (split < 1 || split > gpus.count)
        (mig["gpus"].present() ? mig["gpus"] : mig)
            .fail("mig.gpus must be between 1 and the pool's GPU count (" + std::to_string(gpus.count) + ")");
    const double memoryGB = gpuMemoryGB(gpus);
    int64_t compute = 0, memory = 0;
    for (const auto& [profile, count] : mig["instances"].entries()) {
        auto p = parseMigProfile(profile);
        if (!p) count.fail("'" + profile + "' is not a MIG profile (such as 1g.10gb or 3g.40gb)");
        const int32_t n = count.i32(0);
        if (n < 1) count.fail("a MIG profile's instances must be at least 1");
        if (n > migInstancesPerGpu(*p, memoryGB) * split)
            count.fail(std::to_string(n) + " instances of " + profile + " do not fit " +
                       std::to_string(split) + " GPU(s): at most " +
                       std::to_string(migInstancesPerGpu(*p, memoryGB)) + " a GPU");
        compute += int64_t(n) * p->computeSlices;
        memory += int64_t(n) * migMemorySlices(*p, memoryGB);
        gpus.mig.push_back(MigSlices{profile, n});
        alloc.set("nvidia.com/mig-" + profile, int64_t(n) * 1000);
    }
    if (gpus.mig.empty()) mig.fail("mig needs instances: {PROFILE: count}");
    if (compute > 7 * split || memory > 8 * split)
        mig["instances"].fail("the instances take " + std::to_string(compute) + " compute and " +
                              std::to_string(memory) + " memory slices; " + std::to_string(split) +
                              " GPU(s) have " + std::to_string(7 * split) + " and " +
                              std::to_string(8 * split));
    labels.try_emplace("nvidia.com/mig.strategy", "mixed");
    return split;
}

std::vector<Taint> readPoolTaints(const Y& node) {
    std::vector<Taint> out;
    for (const auto& t : node.items()) {
        if (!t.isScalar()) {
            out.push_back(readTaint(t));
            continue;
        }
        std::string s = t.str();
        auto colon = s.rfind(':');
        if (colon == std::string::npos) t.fail("expected key=value:Effect, got '" + s + "'");
        Taint taint;
        std::string kv = s.substr(0, colon);
        auto effect = taintEffectFromString(s.substr(colon + 1));
        if (!effect)
            t.fail("unknown taint effect '" + s.substr(colon + 1) +
                   "' (expected NoSchedule, PreferNoSchedule or NoExecute)");
        taint.effect = *effect;
        auto eq = kv.find('=');
        taint.key = kv.substr(0, eq);
        if (eq != std::string::npos) taint.value = kv.substr(eq + 1);
        if (taint.key.empty()) t.fail("taint has no key");
        out.push_back(std::move(taint));
    }
    return out;
}

void readPool(Builder& b, const Y& pool, std::set<std::string>& names) {
    pool.checkKeys("pool",
                   {"name", "count", "namePrefix", "cpu", "memory", "pods", "ephemeralStorage", "resources",
                    "gpu", "labels", "annotations", "taints", "unschedulable", "flavor", "layout"});
    std::string name = pool["name"].str();
    if (name.empty()) pool.fail("pool has no name");
    if (!names.insert(name).second) pool["name"].fail("duplicate pool '" + name + "'");
    Y p = pool.withSubject("pool '" + name + "'");
    if (!p["count"].present()) p.fail("count is required");
    int64_t count = p["count"].i64();
    if (count < 1) p["count"].fail("count must be at least 1");
    if (int64_t(b.c.nodes.size()) + count > kMaxNodes)
        p["count"].fail("the inventory would exceed " + std::to_string(kMaxNodes) + " nodes");
    if (!p["cpu"].present()) p.fail("cpu is required");
    if (!p["memory"].present()) p.fail("memory is required");
    ResourceList alloc = p["resources"].resources();
    alloc.set(res::Cpu, p["cpu"].quantity(res::Cpu));
    alloc.set(res::Memory, p["memory"].quantity(res::Memory));
    alloc.set(res::Pods, p["pods"].present() ? p["pods"].quantity(res::Pods) : 110);
    if (p["ephemeralStorage"].present())
        alloc.set(res::EphemeralStorage, p["ephemeralStorage"].quantity(res::EphemeralStorage));
    for (const auto& [r, amount] : alloc)
        if (amount == 0 && (r == res::Cpu || r == res::Memory))
            p[r == res::Cpu ? "cpu" : "memory"].fail("must be positive");

    GpuDevices gpus;
    Labels labels = p["labels"].stringMap();
    auto gpu = p["gpu"];
    if (gpu.present()) {
        gpu.checkKeys("pool gpu", {"model", "count", "memory", "resource", "mig"});
        gpus.model = gpu["model"].str();
        gpus.count = gpu["count"].i32(0);
        if (gpus.count < 1)
            (gpu["count"].present() ? gpu["count"] : gpu).fail("GPU count must be at least 1");
        gpus.memoryBytes = gpu["memory"].present() ? gpu["memory"].quantity(res::Memory) : 0;
        gpus.resourceName = gpu["resource"].str(std::string(res::NvidiaGpu));
        if (alloc.has(gpus.resourceName))
            gpu["resource"].fail(gpus.resourceName + " is also listed under resources");
        const int32_t migGpus = readMigLayout(gpu, gpus, alloc, labels);
        alloc.set(gpus.resourceName, int64_t(gpus.count - migGpus) * 1000);
        // The labels NVIDIA's GPU feature discovery puts on a node: gpu.count counts every GPU.
        if (!gpus.model.empty()) labels.try_emplace("nvidia.com/gpu.product", gpus.model);
        labels.try_emplace("nvidia.com/gpu.count", std::to_string(gpus.count));
        if (migGpus > 0) {
            gpus.physical = gpus.count;
            gpus.count -= migGpus; // what nvidia.com/gpu offers: the GPUs not in MIG mode
        }
        if (gpus.memoryBytes > 0)
            labels.try_emplace("nvidia.com/gpu.memory", std::to_string(gpus.memoryBytes >> 20));
    }
    labels["gantry.io/pool"] = name;
    std::string flavor = p["flavor"].str();
    if (!flavor.empty()) {
        labels["gantry.io/flavor"] = flavor;
        b.poolFlavors.try_emplace(flavor, p["flavor"].where());
    }
    Labels annotations = p["annotations"].stringMap();
    auto taints = readPoolTaints(p["taints"]);
    bool unschedulable = p["unschedulable"].boolean(false);
    std::string prefix = p["namePrefix"].str(name);

    // Layout: nodes split evenly over zones; within a zone they fill racks, racks form blocks, and
    // consecutive nodes of a rack form NVLink domains.
    auto layout = p["layout"];
    layout.checkKeys("layout", {"zones", "nodesPerRack", "racksPerBlock", "nvlinkDomainNodes"});
    std::vector<std::string> zones = layout["zones"].strings();
    int64_t nodesPerRack = layout["nodesPerRack"].i64(0);
    int64_t racksPerBlock = layout["racksPerBlock"].i64(0);
    int64_t nvlinkNodes = layout["nvlinkDomainNodes"].i64(0);
    if (layout["nodesPerRack"].present() && nodesPerRack < 1)
        layout["nodesPerRack"].fail("must be at least 1");
    if (layout["racksPerBlock"].present() && racksPerBlock < 1)
        layout["racksPerBlock"].fail("must be at least 1");
    if (racksPerBlock > 0 && nodesPerRack == 0)
        layout["racksPerBlock"].fail("racksPerBlock needs nodesPerRack");
    if (layout["nvlinkDomainNodes"].present() && nvlinkNodes < 1)
        layout["nvlinkDomainNodes"].fail("must be at least 1");
    if (nvlinkNodes > 0 && nodesPerRack > 0 && nodesPerRack % nvlinkNodes != 0)
        layout["nvlinkDomainNodes"].fail(
            "an NVLink domain must not span racks: nodesPerRack (" + std::to_string(nodesPerRack) +
            ") is not a multiple of nvlinkDomainNodes (" + std::to_string(nvlinkNodes) + ")");
    std::set<std::string> zoneSet(zones.begin(), zones.end());
    if (zoneSet.size() != zones.size()) layout["zones"].fail("a zone is listed twice");
    size_t zoneCount = zones.empty() ? 1 : zones.size();
    if (count % int64_t(zoneCount) != 0)
        layout["zones"].fail(std::to_string(count) + " nodes do not split evenly over " +
                             std::to_string(zoneCount) + " zones");
    int64_t perZone = count / int64_t(zoneCount);
    const std::string* zoneLabel = zones.empty() ? nullptr : &labelFor(b, layout["zones"], "zone");
    const std::string* rackLabel = nodesPerRack ? &labelFor(b, layout["nodesPerRack"], "rack") : nullptr;
    const std::string* blockLabel = racksPerBlock ? &labelFor(b, layout["racksPerBlock"], "block") : nullptr;
    const std::string* nvlinkLabel =
        nvlinkNodes ? &labelFor(b, layout["nvlinkDomainNodes"], "nvlink") : nullptr;

    int width = std::max(2, int(std::to_string(count - 1).size()));
    int64_t index = 0;
    int nvlinkCounter = 0;
    for (size_t z = 0; z < zoneCount; ++z) {
        std::string zone = zones.empty() ? "" : zones[z];
        std::string zonePrefix = zone.empty() ? "" : zone + "-";
        std::string rack, block, nvlink;
        for (int64_t k = 0; k < perZone; ++k, ++index) {
            Node n;
            n.name = prefix + "-" + padded(index, width);
            n.labels = labels;
            n.labels["kubernetes.io/hostname"] = n.name;
            if (zoneLabel) n.labels[*zoneLabel] = zone;
            if (nodesPerRack && k % nodesPerRack == 0) {
                int r = ++b.rackCounter[zone];
                rack = zonePrefix + "rack-" + padded(r, 2);
                if (racksPerBlock && (k / nodesPerRack) % racksPerBlock == 0)
                    block = zonePrefix + "block-" + padded(++b.blockCounter[zone], 2);
            }
            if (rackLabel) n.labels[*rackLabel] = rack;
            if (blockLabel) n.labels[*blockLabel] = block;
            int64_t inRack = nodesPerRack ? k % nodesPerRack : k;
            if (nvlinkNodes && inRack % nvlinkNodes == 0)
                nvlink = name + "-nvl-" + padded(++nvlinkCounter, 2);
            if (nvlinkLabel) n.labels[*nvlinkLabel] = nvlink;
            n.annotations = annotations;
            n.capacity = alloc;
            n.allocatable = alloc;
            n.taints = taints;
            n.unschedulable = unschedulable;
            n.gpus = gpus;
            n.pool = name;
            n.source = pool.where();
            b.c.nodes.push_back(std::move(n));
        }
    }
}

void checkAtMost(const Y& where, const ResourceList& small, const char* smallName, const ResourceList& big,
                 const char* bigName, bool requireBig) {
    for (const auto& [r, amount] : small) {
        if (!big.has(r)) {
            if (requireBig) where.fail(std::string(smallName) + " " + r + " needs a " + bigName + " " + r);
            continue;
        }
        if (amount > big.get(r))
            where.fail(std::string(smallName) + " " + r + " (" + formatAmount(r, amount) + ") exceeds " +
                       bigName + " (" + formatAmount(r, big.get(r)) + ")");
    }
}

ResourceQuota readQuota(const std::string& resource, const Y& node) {
    ResourceQuota q;
    q.resource = resource;
    if (node.isScalar()) {
        q.nominal = node.quantity(resource);
        return q;
    }
    node.checkKeys("quota", {"nominal", "borrowingLimit", "lendingLimit"});
    if (!node["nominal"].present()) node.fail("nominal is required");
    q.nominal = node["nominal"].quantity(resource);
    q.borrowingLimit = node["borrowingLimit"].optQuantity(resource);
    q.lendingLimit = node["lendingLimit"].optQuantity(resource);
    if (q.lendingLimit && *q.lendingLimit > q.nominal)
        node["lendingLimit"].fail("lendingLimit must not exceed nominal");
    return q;
}

// flavors: {h100: {nvidia.com/gpu: 32, cpu: {nominal: 100, borrowingLimit: 10}}} -> one resource group
// covering every resource named, in order of first appearance (a flavor that omits one has 0).
std::vector<ResourceGroup> readFlavorQuotas(const Y& node, std::map<std::string, SourceRef>& referenced) {
    std::vector<ResourceGroup> out;
    if (!node.present()) return out;
    ResourceGroup g;
    std::vector<std::pair<std::string, std::map<std::string, ResourceQuota>>> flavors;
    for (const auto& [flavor, quotas] : node.entries()) {
        referenced.try_emplace(flavor, quotas.where());
        std::map<std::string, ResourceQuota> byResource;
        for (const auto& [resource, q] : quotas.entries()) {
            if (std::find(g.coveredResources.begin(), g.coveredResources.end(), resource) ==
                g.coveredResources.end())
                g.coveredResources.push_back(resource);
            byResource[resource] = readQuota(resource, q);
        }
        if (byResource.empty()) quotas.fail("flavor '" + flavor + "' lists no resources");
        flavors.emplace_back(flavor, std::move(byResource));
    }
    for (auto& [flavor, byResource] : flavors) {
        FlavorQuotas fq;
        fq.flavor = flavor;
        for (const auto& r : g.coveredResources) {
            auto it = byResource.find(r);
            fq.resources.push_back(it != byResource.end() ? it->second
                                                          : ResourceQuota{r, 0, std::nullopt, std::nullopt});
        }
        g.flavors.push_back(std::move(fq));
    }
    out.push_back(std::move(g));
    return out;
}

void readQueue(Builder& b, const Y& node, const std::string& parent,
               std::map<std::string, SourceRef>& flavorRefs) {
    node.checkKeys("queue", {"name",
                             "kind",
                             "weight",
                             "priority",
                             "state",
                             "reclaimable",
                             "dequeueStrategy",
                             "guarantee",
                             "deserved",
                             "capability",
                             "flavors",
                             "preemption",
                             "fairSharingWeight",
                             "queueingStrategy",
                             "namespaces",
                             "namespaceSelector",
                             "stopPolicy",
                             "localQueues",
                             "labels",
                             "annotations",
                             "queues"});
    Queue q;
    q.name = node["name"].str();
    if (q.name.empty()) node.fail("queue has no name");
    Y n = node.withSubject("queue '" + q.name + "'");
    q.parent = parent;
    q.source = node.where();
    std::string kind = n["kind"].str("Queue");
    if (kind == "Queue")
        q.kind = Queue::Kind::Queue;
    else if (kind == "ClusterQueue")
        q.kind = Queue::Kind::KueueClusterQueue;
    else if (kind == "Cohort")
        q.kind = Queue::Kind::KueueCohort;
    else
        n["kind"].fail("expected Queue, ClusterQueue or Cohort, got '" + kind + "'");
    q.weight = n["weight"].i32(1);
    if (q.weight < 1 || q.weight > 65535) n["weight"].fail("weight must be in 1..65535");
    q.priority = n["priority"].i32(0);
    if (q.priority < 0) n["priority"].fail("priority must not be negative");
    if (n["state"].present()) {
        auto st = queueStateFromString(n["state"].str());
        if (!st) n["state"].fail("expected Open or Closed, got '" + n["state"].str() + "'");
        q.state = *st;
    }
    q.reclaimable = n["reclaimable"].boolean(true);
    q.dequeueStrategy = n["dequeueStrategy"].str();
    if (!q.dequeueStrategy.empty() && q.dequeueStrategy != "fifo" && q.dequeueStrategy != "traverse")
        n["dequeueStrategy"].fail("expected fifo or traverse, got '" + q.dequeueStrategy + "'");
    q.guarantee = n["guarantee"].resources();
    q.deserved = n["deserved"].resources();
    q.capability = n["capability"].resources();
    // Volcano's admission rules, so a design that Volcano would reject is caught here.
    checkAtMost(n["guarantee"], q.guarantee, "guarantee", q.deserved, "deserved", true);
    checkAtMost(n["deserved"], q.deserved, "deserved", q.capability, "capability", false);
    q.resourceGroups = readFlavorQuotas(n["flavors"], flavorRefs);
    auto pre = n["preemption"];
    pre.checkKeys("preemption", {"withinClusterQueue", "reclaimWithinCohort", "borrowWithinCohort",
                                 "borrowMaxPriorityThreshold"});
    q.preemption.withinClusterQueue =
        pre["withinClusterQueue"].choice("Never", {"Never", "LowerPriority", "LowerOrNewerEqualPriority"});
    q.preemption.reclaimWithinCohort =
        pre["reclaimWithinCohort"].choice("Never", {"Never", "LowerPriority", "Any"});
    q.preemption.borrowWithinCohort = pre["borrowWithinCohort"].choice("Never", {"Never", "LowerPriority"});
    q.preemption.borrowMaxPriorityThreshold = pre["borrowMaxPriorityThreshold"].optI32();
    if (n["fairSharingWeight"].present()) {
        q.fairSharingWeight = n["fairSharingWeight"].num();
        if (*q.fairSharingWeight < 0) n["fairSharingWeight"].fail("must not be negative");
    }
    q.queueingStrategy = n["queueingStrategy"].str();
    if (!q.queueingStrategy.empty())
        n["queueingStrategy"].expectOneOf(q.queueingStrategy, {"StrictFIFO", "BestEffortFIFO"});
    q.stopPolicy = n["stopPolicy"].choice("", {"None", "Hold", "HoldAndDrain"});
    if (n["namespaces"].present() && n["namespaceSelector"].present())
        n["namespaces"].fail("give namespaces or namespaceSelector, not both");
    if (n["namespaces"].present()) {
        LabelSelector sel;
        sel.matchExpressions.push_back(
            SelectorRequirement{"kubernetes.io/metadata.name", SelectorOp::In, n["namespaces"].strings()});
        q.namespaceSelector = sel;
        for (const auto& ns : sel.matchExpressions[0].values) b.namespaces.insert(ns);
    } else if (n["namespaceSelector"].present()) {
        q.namespaceSelector = readLabelSelector(n["namespaceSelector"]);
    } else if (!q.resourceGroups.empty()) {
        q.namespaceSelector =
            LabelSelector{}; // Kueue's null admits nothing; a designed queue admits every namespace
    }
    q.labels = n["labels"].stringMap();
    q.annotations = n["annotations"].stringMap();
    for (const auto& ns : n["localQueues"].items()) {
        LocalQueue lq;
        lq.name = q.name;
        lq.ns = ns.str();
        lq.clusterQueue = q.name;
        lq.source = ns.where();
        b.namespaces.insert(lq.ns);
        b.c.localQueues.push_back(std::move(lq));
    }
    std::string name = q.name;
    size_t self = b.c.queues.size();
    b.c.queues.push_back(std::move(q));
    size_t firstChild = b.c.queues.size();
    std::vector<size_t> children;
    for (const auto& child : n["queues"].items()) {
        children.push_back(b.c.queues.size());
        readQueue(b, child, name, flavorRefs);
    }
    if (firstChild == b.c.queues.size()) return;
    // The children's guarantee and deserved must fit in the parent's; no child may cap above its parent.
    ResourceList guarantee, deserved;
    for (size_t i : children) {
        guarantee += b.c.queues[i].guarantee;
        deserved += b.c.queues[i].deserved;
    }
    const Queue& me = b.c.queues[self];
    for (const auto& [r, amount] : guarantee)
        if (me.guarantee.has(r) && amount > me.guarantee.get(r))
            n["guarantee"].fail("the children's guarantee " + r + " (" + formatAmount(r, amount) +
                                ") exceeds this queue's (" + formatAmount(r, me.guarantee.get(r)) + ")");
    for (const auto& [r, amount] : deserved)
        if (me.deserved.has(r) && amount > me.deserved.get(r))
            n["deserved"].fail("the children's deserved " + r + " (" + formatAmount(r, amount) +
                               ") exceeds this queue's (" + formatAmount(r, me.deserved.get(r)) + ")");
    for (size_t i : children)
        for (const auto& [r, amount] : b.c.queues[i].capability)
            if (me.capability.has(r) && amount > me.capability.get(r))
                n["capability"].fail("child queue '" + b.c.queues[i].name + "' has capability " + r + " " +
                                     formatAmount(r, amount) + ", above this queue's " +
                                     formatAmount(r, me.capability.get(r)));
}

// Volcano HyperNodes from the layout labels of the levels some pool lays out.
void addHyperNodes(Builder& b) {
    std::vector<TopologyLevel> used;
    for (const auto& [level, label] : b.levelLabel)
        if (b.usedLevels.count(level)) used.push_back({level, label});
    b.c.hyperNodes = hyperNodesFromLabels(b.c.nodes, used);
}

Inventory readRoot(const Y& root, Diagnostics* warnings) {
    root.checkKeys("inventory",
                   {"apiVersion", "kind", "name", "description", "topologyLevels", "pools", "flavors",
                    "namespaces", "queues", "priorityClasses", "workloads", "hyperNodes"});
    if (!root["apiVersion"].present())
        root.fail(std::string("an inventory needs apiVersion: ") + kGantryApiVersion);
    if (root["apiVersion"].str() != kGantryApiVersion)
        root["apiVersion"].fail(std::string("expected ") + kGantryApiVersion + " for an inventory, got '" +
                                root["apiVersion"].str() + "'");
    if (root["kind"].str() != kInventoryKind)
        (root["kind"].present() ? root["kind"] : root).fail("expected kind: Inventory");
    Inventory inv;
    Cluster& c = inv.cluster;
    c.name = root["name"].str();
    inv.description = root["description"].str();
    Builder b{c, {}, {}, {}, {}, {}, {}};
    std::vector<TopologyLevel> levels = defaultTopologyLevels();
    if (root["topologyLevels"].present()) {
        levels.clear();
        for (const auto& l : root["topologyLevels"].items()) {
            l.checkKeys("topology level", {"name", "nodeLabel"});
            TopologyLevel level{l["name"].str(), l["nodeLabel"].str()};
            if (level.name.empty() || level.nodeLabel.empty())
                l.fail("a topology level needs name and nodeLabel");
            if (b.levelLabel.count(level.name)) l["name"].fail("level '" + level.name + "' appears twice");
            b.levelLabel[level.name] = level.nodeLabel;
            levels.push_back(level);
        }
    } else {
        for (const auto& l : levels) b.levelLabel[l.name] = l.nodeLabel;
    }

    auto pools = root["pools"].items();
    if (pools.empty())
        (root["pools"].present() ? root["pools"] : root).fail("an inventory needs at least one pool");
    std::set<std::string> poolNames;
    for (const auto& p : pools) readPool(b, p, poolNames);
    // Levels: all given ones, or the default ones some pool lays out.
    for (const auto& l : levels)
        if (root["topologyLevels"].present() || b.usedLevels.count(l.name)) c.topologyLevels.push_back(l);

    std::map<std::string, SourceRef> flavorRefs;
    for (const auto& f : root["flavors"].items()) {
        f.checkKeys("flavor", {"name", "nodeLabels", "nodeTaints", "tolerations", "topologyName"});
        ResourceFlavor rf;
        rf.name = f["name"].str();
        if (rf.name.empty()) f.fail("flavor has no name");
        rf.nodeLabels = f["nodeLabels"].stringMap();
        rf.nodeTaints = readTaints(f["nodeTaints"]);
        rf.tolerations = readTolerations(f["tolerations"]);
        rf.topologyName = f["topologyName"].str();
        rf.source = f.where();
        c.resourceFlavors.push_back(std::move(rf));
    }
    auto hasFlavor = [&](const std::string& f) {
        return std::any_of(c.resourceFlavors.begin(), c.resourceFlavors.end(),
                           [&](const ResourceFlavor& x) { return x.name == f; });
    };
    for (const auto& [flavor, where] : b.poolFlavors)
        if (!hasFlavor(flavor)) {
            ResourceFlavor rf;
            rf.name = flavor;
            rf.nodeLabels["gantry.io/flavor"] = flavor;
            rf.source = where;
            c.resourceFlavors.push_back(std::move(rf));
        }

    for (const auto& q : root["queues"].items()) readQueue(b, q, "", flavorRefs);
    for (const auto& [flavor, where] : flavorRefs)
        if (!hasFlavor(flavor))
            throw InputError(where, "flavor '" + flavor + "' is not defined (set `flavor: " + flavor +
                                        "` on a pool, or list it under flavors)");

    for (const auto& p : root["priorityClasses"].items())
        c.priorityClasses.push_back(readGantryPriorityClass(p));

    for (const auto& wn : root["workloads"].items()) {
        auto w = readWorkloadTemplate(wn);
        b.namespaces.insert(w.ns);
        inv.workloads.push_back(std::move(w));
    }
    throwIfErrors(checkWorkloads(c, inv.workloads));

    std::set<std::string> listed;
    for (const auto& ns : root["namespaces"].items()) {
        Namespace n;
        if (ns.isScalar()) {
            n.name = ns.str();
        } else {
            ns.checkKeys("namespace", {"name", "labels", "annotations"});
            n.name = ns["name"].str();
            n.labels = ns["labels"].stringMap();
            n.annotations = ns["annotations"].stringMap();
        }
        if (n.name.empty()) ns.fail("namespace has no name");
        if (!listed.insert(n.name).second) ns.fail("duplicate namespace '" + n.name + "'");
        c.namespaces.push_back(std::move(n));
    }
    for (const auto& ns : b.namespaces)
        if (!listed.count(ns))
            c.namespaces.push_back(Namespace{ns, {{"kubernetes.io/metadata.name", ns}}, {}});

    if (root["hyperNodes"].boolean(false)) addHyperNodes(b);

    auto checks = checkCluster(c);
    throwIfErrors(checks);
    if (warnings) warnings->insert(warnings->end(), checks.begin(), checks.end());
    return inv;
}

} // namespace

Inventory readInventory(const std::string& text, const std::string& name, Diagnostics* warnings) {
    TextOrigin origin;
    origin.file = name;
    auto doc = loadSingleDocument(text, origin, "the inventory");
    auto root = readerFor(doc, warnings, nullptr);
    if (!root.isMap()) root.fail("expected an inventory (a mapping with apiVersion, kind and pools)");
    return readRoot(root, warnings);
}

Inventory readInventoryFile(const std::string& path, Diagnostics* warnings) {
    return readInventory(readTextFile(path), path, warnings);
}

} // namespace gantry
