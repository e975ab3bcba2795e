// Kueue (kueue.x-k8s.io v1beta1 and v1beta2): ResourceFlavor, ClusterQueue, Cohort, LocalQueue,
// Topology. WorkloadPriorityClass is read with the other priority classes (core_objects.cpp).
#include "import_state.h"
#include "kubernetes/k8s_fields.h"

#include <algorithm>
#include <set>

namespace gantry::snapshot {

namespace {

// Reads a field that was renamed between API versions; the other spelling is accepted with a warning
// so that the value does not vanish.
std::string renamedField(const Y& spec, const std::string& version, const char* v1beta1Name,
                         const char* v1beta2Name) {
    bool beta1 = version == "v1beta1" || version == "v1alpha1";
    const char* want = beta1 ? v1beta1Name : v1beta2Name;
    const char* other = beta1 ? v1beta2Name : v1beta1Name;
    if (spec[want].present()) return spec[want].str();
    if (spec[other].present()) {
        spec[other].warn(std::string("kueue.x-k8s.io/") + version + " calls this field '" + want +
                         "', not '" + other + "'; read as the same thing");
        return spec[other].str();
    }
    return {};
}

std::optional<double> fairSharingWeight(const Y& fairSharing) {
    fairSharing.checkKeys("fairSharing", {"weight"});
    auto w = fairSharing["weight"];
    if (!w.present()) return std::nullopt;
    if (!w.isScalar()) w.fail("expected a quantity");
    std::string text = w.str(), error;
    auto q = Quantity::parse(text, &error);
    if (!q) w.fail(std::string("not a valid quantity: ").append(error));
    if (q->negative() && !q->isZero()) w.fail("weight must not be negative");
    return q->toDouble();
}

std::vector<ResourceGroup> readResourceGroups(const Y& node, bool hasCohort) {
    std::vector<ResourceGroup> out;
    std::set<std::string> flavorsSeen;
    for (const auto& g : node.items()) {
        g.checkKeys("resource group", {"coveredResources", "flavors"});
        ResourceGroup rg;
        rg.coveredResources = g["coveredResources"].strings();
        if (rg.coveredResources.empty()) g.fail("coveredResources must list at least one resource");
        auto flavors = g["flavors"].items();
        if (flavors.empty()) g.fail("flavors must list at least one flavor");
        for (const auto& f : flavors) {
            f.checkKeys("flavor quotas", {"name", "resources"});
            FlavorQuotas fq;
            fq.flavor = f["name"].str();
            if (fq.flavor.empty()) f.fail("flavor has no name");
            if (!flavorsSeen.insert(fq.flavor).second)
                f["name"].fail("flavor '" + fq.flavor +
                               "' appears in more than one place of this queue's resource groups");
            auto resources = f["resources"].items();
            if (resources.size() != rg.coveredResources.size())
                f["resources"].fail("flavor '" + fq.flavor + "' must list exactly the covered resources (" +
                                    std::to_string(rg.coveredResources.size()) + "), in the same order");
            for (size_t i = 0; i < resources.size(); ++i) {
                const auto& r = resources[i];
                r.checkKeys("resource quota", {"name", "nominalQuota", "borrowingLimit", "lendingLimit"});
                ResourceQuota q;
                q.resource = r["name"].str();
                if (q.resource != rg.coveredResources[i])
                    r["name"].fail("expected covered resource '" + rg.coveredResources[i] +
                                   "' at this position, got '" + q.resource + "'");
                if (!r["nominalQuota"].present()) r.fail("nominalQuota is required");
                // Kueue reads a quota too large for int64 as unlimited.
                q.nominal = r["nominalQuota"].quantity(q.resource, false, true);
                q.borrowingLimit = r["borrowingLimit"].optQuantity(q.resource, true);
                q.lendingLimit = r["lendingLimit"].optQuantity(q.resource, true);
                if (!hasCohort && (q.borrowingLimit || q.lendingLimit))
                    r.fail("borrowingLimit and lendingLimit need a cohort");
                fq.resources.push_back(std::move(q));
            }
            rg.flavors.push_back(std::move(fq));
        }
        out.push_back(std::move(rg));
    }
    return out;
}

} // namespace

void readResourceFlavor(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("ResourceFlavor", {"apiVersion", "kind", "metadata", "spec"});
    auto spec = r["spec"];
    spec.checkKeys("ResourceFlavor", {"nodeLabels", "nodeTaints", "tolerations", "topologyName"});
    ResourceFlavor f;
    f.name = o.name;
    f.source = o.source;
    f.nodeLabels = spec["nodeLabels"].stringMap();
    f.nodeTaints = readTaints(spec["nodeTaints"]);
    f.tolerations = readTolerations(spec["tolerations"]);
    f.topologyName = spec["topologyName"].str();
    s.cluster.resourceFlavors.push_back(std::move(f));
}

void readClusterQueue(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("ClusterQueue", {"apiVersion", "kind", "metadata", "spec", "status"});
    auto spec = r["spec"];
    spec.checkKeys("ClusterQueue",
                   {"cohort", "cohortName", "resourceGroups", "queueingStrategy", "namespaceSelector",
                    "flavorFungibility", "preemption", "fairSharing", "stopPolicy", "admissionChecks",
                    "admissionChecksStrategy", "admissionScope"},
                   {"concurrentAdmissionPolicy"});
    Queue q;
    q.name = o.name;
    q.kind = Queue::Kind::KueueClusterQueue;
    q.labels = o.labels;
    q.annotations = o.annotations;
    q.source = o.source;
    q.parent = renamedField(spec, o.version, "cohort", "cohortName");
    q.resourceGroups = readResourceGroups(spec["resourceGroups"], !q.parent.empty());
    q.queueingStrategy = spec["queueingStrategy"].choice("", {"StrictFIFO", "BestEffortFIFO"});
    q.namespaceSelector = readOptionalLabelSelector(spec["namespaceSelector"]);
    auto fung = spec["flavorFungibility"];
    fung.checkKeys("ClusterQueue", {"whenCanBorrow", "whenCanPreempt", "preference"});
    q.whenCanBorrow = fung["whenCanBorrow"].choice("", {"MayStopSearch", "TryNextFlavor", "Borrow"});
    q.whenCanPreempt = fung["whenCanPreempt"].choice("", {"MayStopSearch", "TryNextFlavor", "Preempt"});
    q.fungibilityPreference =
        fung["preference"].choice("", {"BorrowingOverPreemption", "PreemptionOverBorrowing"});
    for (const auto& ac : spec["admissionChecks"].items()) q.admissionChecks.push_back({ac.str(), {}});
    auto strategy = spec["admissionChecksStrategy"];
    strategy.checkKeys("admissionChecksStrategy", {"admissionChecks"});
    for (const auto& rule : strategy["admissionChecks"].items()) {
        rule.checkKeys("admission check rule", {"name", "onFlavors"});
        q.admissionChecks.push_back({rule["name"].str(), rule["onFlavors"].strings()});
    }
    auto pre = spec["preemption"];
    pre.checkKeys("ClusterQueue", {"withinClusterQueue", "reclaimWithinCohort", "borrowWithinCohort"});
    q.preemption.withinClusterQueue =
        pre["withinClusterQueue"].choice("Never", {"Never", "LowerPriority", "LowerOrNewerEqualPriority"});
    q.preemption.reclaimWithinCohort =
        pre["reclaimWithinCohort"].choice("Never", {"Never", "LowerPriority", "Any"});
    auto bwc = pre["borrowWithinCohort"];
    bwc.checkKeys("ClusterQueue", {"policy", "maxPriorityThreshold"});
    q.preemption.borrowWithinCohort = bwc["policy"].choice("Never", {"Never", "LowerPriority"});
    q.preemption.borrowMaxPriorityThreshold = bwc["maxPriorityThreshold"].optI32();
    q.fairSharingWeight = fairSharingWeight(spec["fairSharing"]);
    q.stopPolicy = spec["stopPolicy"].choice("", {"None", "Hold", "HoldAndDrain"});
    auto scope = spec["admissionScope"];
    scope.checkKeys("ClusterQueue admissionScope", {"admissionMode"});
    if (scope.present())
        q.admissionMode =
            scope["admissionMode"].choice("", {"UsageBasedAdmissionFairSharing", "NoAdmissionFairSharing"});
    s.cluster.queues.push_back(std::move(q));
}

void readCohort(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("Cohort", {"apiVersion", "kind", "metadata", "spec", "status"});
    auto spec = r["spec"];
    spec.checkKeys("Cohort", {"parent", "parentName", "resourceGroups", "fairSharing"});
    Queue q;
    q.name = o.name;
    q.kind = Queue::Kind::KueueCohort;
    q.labels = o.labels;
    q.annotations = o.annotations;
    q.source = o.source;
    // v1alpha1 called it parent; v1beta1 and v1beta2 call it parentName.
    q.parent = renamedField(spec, o.version == "v1alpha1" ? "v1alpha1" : "v1beta2", "parent", "parentName");
    q.resourceGroups = readResourceGroups(spec["resourceGroups"], true);
    q.fairSharingWeight = fairSharingWeight(spec["fairSharing"]);
    s.cluster.queues.push_back(std::move(q));
}

void readLocalQueue(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("LocalQueue", {"apiVersion", "kind", "metadata", "spec", "status"});
    auto spec = r["spec"];
    spec.checkKeys("LocalQueue", {"clusterQueue", "fairSharing", "stopPolicy"});
    LocalQueue lq;
    lq.name = o.name;
    lq.ns = o.ns;
    lq.source = o.source;
    lq.clusterQueue = spec["clusterQueue"].str();
    if (lq.clusterQueue.empty()) spec.fail("LocalQueue needs spec.clusterQueue");
    lq.fairSharingWeight = fairSharingWeight(spec["fairSharing"]);
    lq.stopPolicy = spec["stopPolicy"].choice("", {"None", "Hold", "HoldAndDrain"});
    // The usage Admission Fair Sharing orders by, as the LocalQueue controller persisted it.
    auto fs = r["status"]["fairSharing"];
    fs.checkKeys("LocalQueue status.fairSharing", {"admissionFairSharingStatus"}, {"weightedShare"});
    auto afs = fs["admissionFairSharingStatus"];
    afs.checkKeys("LocalQueue admissionFairSharingStatus", {"consumedResources"}, {"lastUpdate"});
    lq.consumed = afs["consumedResources"].resources();
    s.cluster.localQueues.push_back(std::move(lq));
}

void readKueueTopology(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("Topology", {"apiVersion", "kind", "metadata", "spec"});
    auto spec = r["spec"];
    spec.checkKeys("Topology", {"levels"});
    KueueTopology t;
    t.name = o.name;
    t.source = o.source;
    for (const auto& level : spec["levels"].items()) {
        level.checkKeys("Topology level", {"nodeLabel"});
        std::string label = level["nodeLabel"].str();
        if (label.empty()) level.fail("level has no nodeLabel");
        if (std::find(t.levels.begin(), t.levels.end(), label) != t.levels.end())
            level["nodeLabel"].fail("level '" + label + "' appears twice");
        t.levels.push_back(label);
    }
    if (t.levels.empty()) spec.fail("a Topology needs at least one level");
    auto host = std::find(t.levels.begin(), t.levels.end(), "kubernetes.io/hostname");
    if (host != t.levels.end() && host + 1 != t.levels.end())
        spec["levels"].fail("kubernetes.io/hostname must be the last level");
    s.cluster.kueueTopologies.push_back(std::move(t));
}

} // namespace gantry::snapshot
