// Kueue (kueue.x-k8s.io/v1beta2): Topology, ResourceFlavors (one per node class), Cohorts and
// ClusterQueues (the queue tree: inner queues become cohorts), LocalQueues per namespace,
// WorkloadPriorityClasses, suspended Job templates and node label patches.
#include "export/export_support.h"
#include "export/scheduler_conf_writer.h"

#include <algorithm>
#include <cmath>

namespace gantry {

using namespace exporting;

namespace {

constexpr const char* kTarget = "Kueue";
constexpr const char* kApi = "kueue.x-k8s.io/v1beta2";
constexpr const char* kHostname = "kubernetes.io/hostname";

Json kueueObject(const char* kind, const std::string& name, const std::string& ns = "") {
    return Json{{"apiVersion", kApi}, {"kind", kind}, {"metadata", objectMeta(name, ns)}};
}

std::string weightText(double w) {
    if (std::floor(w) == w && std::fabs(w) < 1e15) return std::to_string(int64_t(w));
    std::string s = std::to_string(w);
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
}

Json resourceGroupsJson(const std::vector<ResourceGroup>& groups) {
    Json out = Json::array();
    for (const auto& g : groups) {
        Json flavors = Json::array();
        for (const auto& f : g.flavors) {
            Json resources = Json::array();
            for (const auto& r : f.resources) {
                Json j{{"name", r.resource}, {"nominalQuota", readableAmount(r.resource, r.nominal)}};
                if (r.borrowingLimit) j["borrowingLimit"] = readableAmount(r.resource, *r.borrowingLimit);
                if (r.lendingLimit) j["lendingLimit"] = readableAmount(r.resource, *r.lendingLimit);
                resources.push_back(j);
            }
            flavors.push_back(Json{{"name", f.flavor}, {"resources", resources}});
        }
        out.push_back(Json{{"coveredResources", g.coveredResources}, {"flavors", flavors}});
    }
    return out;
}

Json labelSelectorJson(const LabelSelector& s) {
    Json j = Json::object();
    if (!s.matchLabels.empty()) j["matchLabels"] = s.matchLabels;
    if (!s.matchExpressions.empty()) {
        Json exprs = Json::array();
        for (const auto& e : s.matchExpressions) {
            Json x{{"key", e.key}, {"operator", toString(e.op)}};
            if (!e.values.empty()) x["values"] = e.values;
            exprs.push_back(x);
        }
        j["matchExpressions"] = exprs;
    }
    return j;
}

Json taintsJson(const std::vector<Taint>& taints) {
    Json out = Json::array();
    for (const auto& t : taints) {
        Json j{{"key", t.key}};
        if (!t.value.empty()) j["value"] = t.value;
        j["effect"] = toString(t.effect);
        out.push_back(j);
    }
    return out;
}

Json tolerationsJson(const std::vector<Toleration>& tolerations) {
    Json out = Json::array();
    for (const auto& t : tolerations) out.push_back(tolerationJson(t));
    return out;
}

bool isKueue(const Queue& q) {
    return q.kind == Queue::Kind::KueueClusterQueue || q.kind == Queue::Kind::KueueCohort;
}

void foreignQueueLosses(const Queue& q, Losses& losses) {
    if (q.kind == Queue::Kind::Queue) {
        if (q.priority > 0)
            losses.queue(q, "spec.priority", "Kueue queues have no priority (workloads do); dropped");
        if (!q.reclaimable)
            losses.queue(
                q, "spec.reclaimable",
                "in Kueue the lending queue decides whether it reclaims (reclaimWithinCohort); this queue "
                "cannot be kept from giving back what it borrowed");
    }
    if (q.kind == Queue::Kind::YuniKornQueue) {
        if (q.maxApplications > 0)
            losses.queue(q, "maxapplications", "Kueue queues have no application count limit; dropped");
        if (!q.properties.empty())
            losses.queue(q, "properties", "YuniKorn queue properties have no Kueue counterpart; dropped");
        if (!q.submitAcl.empty() || !q.adminAcl.empty())
            losses.queue(q, "submitacl/adminacl", "Kueue restricts namespaces, not users; ACLs dropped");
        if (!q.limits.empty())
            losses.queue(q, "limits", "per-user and per-group limits have no Kueue counterpart; dropped");
    }
}

} // namespace

ExportBundle exportKueue(const Project& project, const ExportOptions& options) {
    ExportBundle bundle;
    bundle.target = TargetScheduler::Kueue;
    Losses losses(bundle);
    const Cluster& cluster = project.cluster;
    for (const auto& n : cluster.nodes) bundle.clusterCapacity += n.allocatable;
    QueueTree tree = buildQueueTree(cluster);
    nameQueues(tree, dnsSubdomain, "Kubernetes name", losses);
    auto quota = neutralQuotas(tree, cluster, kTarget, losses);
    auto classes = nodeClasses(cluster);

    // Topology: the cluster's own, else one from the topology labels, with hostname last.
    std::vector<std::string> levels;
    std::string topologyName;
    if (!cluster.kueueTopologies.empty()) {
        for (const auto& t : cluster.kueueTopologies) {
            Json obj = kueueObject("Topology", t.name);
            Json lv = Json::array();
            for (const auto& l : t.levels) lv.push_back(Json{{"nodeLabel", l}});
            obj["spec"] = Json{{"levels", lv}};
            bundle.objects.push_back({obj, "topology.yaml"});
        }
        topologyName = cluster.kueueTopologies.front().name;
        levels = cluster.kueueTopologies.front().levels;
    } else if (auto used = usedTopologyLevels(cluster); !used.empty()) {
        for (const auto& l : used) levels.push_back(l.nodeLabel);
        if (std::find(levels.begin(), levels.end(), kHostname) == levels.end()) levels.push_back(kHostname);
        topologyName = "default";
        Json obj = kueueObject("Topology", topologyName);
        Json lv = Json::array();
        for (const auto& l : levels) lv.push_back(Json{{"nodeLabel", l}});
        obj["spec"] = Json{{"levels", lv}};
        bundle.objects.push_back({obj, "topology.yaml"});
    } else if (!cluster.hyperNodes.empty()) {
        losses.add("topology", "HyperNodes", "members",
                   "Volcano HyperNodes list their members; Kueue's Topology needs node labels, so no "
                   "Topology is exported");
    }

    // Flavors: the imported ones; otherwise one per node class. Queues whose quotas know no
    // flavors (Volcano, YuniKorn) use the single class when there is one, else default-flavor.
    bool anyForeign = std::any_of(tree.nodes.begin(), tree.nodes.end(), [&](const QueueNode& n) {
        const NeutralQuota& nq = quota[size_t(&n - tree.nodes.data())];
        return !isKueue(*n.queue) && n.queue->resourceGroups.empty() &&
               !(nq.entitled.empty() && nq.cap.empty() && nq.reserved.empty());
    });
    std::string agnosticFlavor;
    std::set<std::string> flavorNames;
    bool classLabels = false;
    if (!cluster.resourceFlavors.empty()) {
        for (const auto& f : cluster.resourceFlavors) {
            Json obj = kueueObject("ResourceFlavor", f.name);
            Json spec = Json::object();
            if (!f.nodeLabels.empty()) spec["nodeLabels"] = f.nodeLabels;
            if (!f.nodeTaints.empty()) spec["nodeTaints"] = taintsJson(f.nodeTaints);
            if (!f.tolerations.empty()) spec["tolerations"] = tolerationsJson(f.tolerations);
            if (!f.topologyName.empty()) spec["topologyName"] = f.topologyName;
            if (!spec.empty()) obj["spec"] = spec;
            bundle.objects.push_back({obj, "resourceflavors.yaml"});
            flavorNames.insert(f.name);
        }
    } else {
        for (const auto& c : classes) {
            Json obj = kueueObject("ResourceFlavor", c.name);
            Json spec{{"nodeLabels", c.selector}};
            if (!c.commonTaints.empty()) {
                // The nodes of the class are tainted (GPU nodes usually are): the flavor carries the
                // tolerations, so what Kueue admits to it can run there without its own.
                std::vector<Toleration> tolerations;
                std::string keys;
                for (const auto& t : c.commonTaints) {
                    tolerations.push_back({t.key, t.value.empty(), t.value, t.effect, std::nullopt});
                    keys += (keys.empty() ? "" : ", ") + t.key;
                }
                spec["tolerations"] = tolerationsJson(tolerations);
                losses.note("ResourceFlavor " + c.name + " tolerates its nodes' taints (" + keys +
                            "): workloads admitted to it get the tolerations");
            }
            if (!topologyName.empty()) spec["topologyName"] = topologyName;
            obj["spec"] = spec;
            bundle.objects.push_back({obj, "resourceflavors.yaml"});
            flavorNames.insert(c.name);
            classLabels = classLabels || c.patchLabel;
        }
        if (classes.size() == 1 && !classes[0].patchLabel)
            agnosticFlavor = classes[0].name;
        else if (classes.size() > 1)
            losses.note(
                "ResourceFlavors " + std::to_string(classes.size()) +
                " node classes are exported; queue quotas that know no flavors are placed on default-flavor "
                "(any node), so split them per class where you want per-model quotas");
    }
    if (anyForeign && agnosticFlavor.empty()) {
        agnosticFlavor = "default-flavor";
        if (!cluster.resourceFlavors.empty())
            losses.note("queues whose quotas name no flavor get them on default-flavor (any node); the other "
                        "ResourceFlavors are used only by queues with Kueue quotas of their own");
        if (!flavorNames.count(agnosticFlavor)) {
            bundle.objects.push_back({kueueObject("ResourceFlavor", agnosticFlavor), "resourceflavors.yaml"});
            flavorNames.insert(agnosticFlavor);
        }
    }

    // The cohort tree. Top-level queues from other schedulers share one cohort, root, as all
    // Volcano and YuniKorn queues share the cluster.
    const std::string rootCohort = "root";
    bool needRoot = (tree.root && tree.root->kind == Queue::Kind::KueueCohort) ||
                    std::any_of(tree.topLevel.begin(), tree.topLevel.end(),
                                [&](int k) { return !isKueue(*tree.nodes[size_t(k)].queue); });
    if (needRoot && tree.find(rootCohort) < 0)
        bundle.objects.push_back({kueueObject("Cohort", rootCohort), "cohorts.yaml"});
    const auto& actions = project.volcano.actions;
    bool reclaim = std::find(actions.begin(), actions.end(), "reclaim") != actions.end() ||
                   (cluster.yunikorn && cluster.yunikorn->preemptionEnabled.value_or(true));
    bool preempt = std::find(actions.begin(), actions.end(), "preempt") != actions.end();
    bool weighted = false;
    for (size_t k = 0; k < tree.nodes.size(); ++k) {
        const QueueNode& n = tree.nodes[k];
        const Queue& q = *n.queue;
        bool cohort = q.kind == Queue::Kind::KueueCohort || (!isKueue(q) && !n.leaf());
        if (q.kind == Queue::Kind::KueueClusterQueue && !n.leaf())
            losses.queue(q, "children", "a ClusterQueue cannot have children in Kueue");
        std::string parent = n.parent >= 0 ? tree.nodes[size_t(n.parent)].name
                             : isKueue(q) && !(tree.root && tree.root->kind == Queue::Kind::KueueCohort)
                                 ? ""
                                 : rootCohort;
        Json obj = kueueObject(cohort ? "Cohort" : "ClusterQueue", n.name);
        if (!q.labels.empty()) obj["metadata"]["labels"] = q.labels;
        if (!q.annotations.empty()) obj["metadata"]["annotations"] = q.annotations;
        if (cohort && !isKueue(q) && (q.dequeueStrategy == "fifo"))
            losses.queue(q, "spec.dequeueStrategy",
                         "becomes a Kueue Cohort, which queues no workloads; fifo ordering dropped");
        Json spec = Json::object();
        if (!parent.empty()) spec[cohort ? "parentName" : "cohortName"] = parent;
        std::vector<ResourceGroup> groups;
        // Kueue quotas designed on any queue (an inventory's flavors) are used as they are.
        if (isKueue(q) || !q.resourceGroups.empty()) {
            groups = q.resourceGroups;
            if (!isKueue(q)) foreignQueueLosses(q, losses);
        } else {
            foreignQueueLosses(q, losses);
            const NeutralQuota& nq = quota[k];
            ResourceList childEntitled;
            for (int c : n.children) childEntitled += quota[size_t(c)].entitled;
            std::set<std::string> covered;
            for (const auto* list : {&nq.entitled, &nq.cap, &nq.reserved})
                for (const auto& [r, a] : *list) covered.insert(r);
            ResourceGroup g;
            FlavorQuotas f;
            f.flavor = agnosticFlavor;
            for (const auto& r : covered) {
                ResourceQuota rq;
                rq.resource = r;
                int64_t entitled = nq.entitled.get(r);
                rq.nominal = cohort ? entitled - childEntitled.get(r) : entitled;
                if (rq.nominal < 0) {
                    losses.queue(q, "deserved[" + r + "]",
                                 "less than its children's sum; the cohort gets no quota of its own for " +
                                     r);
                    rq.nominal = 0;
                }
                if (nq.cap.has(r)) rq.borrowingLimit = std::max<int64_t>(0, nq.cap.get(r) - entitled);
                if (nq.reserved.has(r)) rq.lendingLimit = std::max<int64_t>(0, entitled - nq.reserved.get(r));
                if (!cohort && rq.lendingLimit && *rq.lendingLimit > rq.nominal) rq.lendingLimit = rq.nominal;
                g.coveredResources.push_back(r);
                f.resources.push_back(rq);
            }
            if (!g.coveredResources.empty()) {
                g.flavors.push_back(f);
                groups.push_back(g);
            }
        }
        if (!groups.empty()) spec["resourceGroups"] = resourceGroupsJson(groups);
        std::optional<double> weight = q.fairSharingWeight;
        if (!weight && q.kind == Queue::Kind::Queue && q.weight != 1) weight = q.weight;
        if (weight) {
            spec["fairSharing"] = Json{{"weight", weightText(*weight)}};
            weighted = weighted || !isKueue(q);
        }
        if (!cohort) {
            if (isKueue(q)) {
                if (q.namespaceSelector) spec["namespaceSelector"] = labelSelectorJson(*q.namespaceSelector);
                if (!q.queueingStrategy.empty()) spec["queueingStrategy"] = q.queueingStrategy;
                Json p = Json::object();
                if (q.preemption.withinClusterQueue != "Never")
                    p["withinClusterQueue"] = q.preemption.withinClusterQueue;
                if (q.preemption.reclaimWithinCohort != "Never")
                    p["reclaimWithinCohort"] = q.preemption.reclaimWithinCohort;
                if (q.preemption.borrowWithinCohort != "Never" || q.preemption.borrowMaxPriorityThreshold) {
                    Json b{{"policy", q.preemption.borrowWithinCohort}};
                    if (q.preemption.borrowMaxPriorityThreshold)
                        b["maxPriorityThreshold"] = *q.preemption.borrowMaxPriorityThreshold;
                    p["borrowWithinCohort"] = b;
                }
                if (!p.empty()) spec["preemption"] = p;
                if (!q.whenCanBorrow.empty() || !q.whenCanPreempt.empty()) {
                    Json ff = Json::object();
                    if (!q.whenCanBorrow.empty()) ff["whenCanBorrow"] = q.whenCanBorrow;
                    if (!q.whenCanPreempt.empty()) ff["whenCanPreempt"] = q.whenCanPreempt;
                    spec["flavorFungibility"] = ff;
                }
                if (!q.stopPolicy.empty()) spec["stopPolicy"] = q.stopPolicy;
            } else {
                spec["namespaceSelector"] =
                    q.namespaceSelector ? labelSelectorJson(*q.namespaceSelector) : Json::object();
                if (q.dequeueStrategy == "fifo") spec["queueingStrategy"] = "StrictFIFO";
                Json p = Json::object();
                bool designed = q.preemption != KueuePreemption{};
                if (designed) {
                    // Kueue preemption designed on the queue wins over the one derived from the policy.
                    if (q.preemption.withinClusterQueue != "Never")
                        p["withinClusterQueue"] = q.preemption.withinClusterQueue;
                    if (q.preemption.reclaimWithinCohort != "Never")
                        p["reclaimWithinCohort"] = q.preemption.reclaimWithinCohort;
                    if (q.preemption.borrowWithinCohort != "Never")
                        p["borrowWithinCohort"] = Json{{"policy", q.preemption.borrowWithinCohort}};
                } else {
                    if (preempt) p["withinClusterQueue"] = "LowerPriority";
                    if (reclaim) p["reclaimWithinCohort"] = "Any";
                }
                if (!p.empty()) spec["preemption"] = p;
                if (q.state == QueueState::Closed || q.state == QueueState::Closing)
                    spec["stopPolicy"] = "Hold";
            }
        }
        if (!spec.empty()) obj["spec"] = spec;
        bundle.objects.push_back({obj, cohort ? "cohorts.yaml" : "clusterqueues.yaml"});
    }
    if (weighted)
        losses.note("queue weights became fairSharing weights; they apply only with fairSharing enabled in "
                    "Kueue's configuration");
    if (!tree.nodes.empty() && std::any_of(tree.nodes.begin(), tree.nodes.end(),
                                           [](const QueueNode& n) { return !isKueue(*n.queue); }))
        losses.note(std::string("preemption of the ClusterQueues: ") +
                    (preempt ? "withinClusterQueue LowerPriority" : "none within a queue") + ", " +
                    (reclaim ? "reclaimWithinCohort Any" : "no reclaim") + " (from the chosen policy)");

    // LocalQueues: the imported ones, and one per namespace that runs a workload of a ClusterQueue.
    std::set<std::pair<std::string, std::string>> localQueues;        // (ns, name)
    std::map<std::pair<std::string, std::string>, std::string> lqFor; // (ns, queue) -> LocalQueue name
    auto addLocalQueue = [&](const std::string& name, const std::string& ns, const std::string& cq,
                             std::optional<double> weight, const std::string& stop) {
        if (!localQueues.insert({ns, name}).second) return;
        Json obj = kueueObject("LocalQueue", name, ns);
        Json spec{{"clusterQueue", cq}};
        if (weight) spec["fairSharing"] = Json{{"weight", weightText(*weight)}};
        if (!stop.empty()) spec["stopPolicy"] = stop;
        obj["spec"] = spec;
        bundle.objects.push_back({obj, "localqueues.yaml"});
    };
    for (const auto& lq : cluster.localQueues) {
        int k = tree.find(dnsSubdomain(lq.clusterQueue));
        addLocalQueue(lq.name, lq.ns, k >= 0 ? tree.nodes[size_t(k)].name : lq.clusterQueue,
                      lq.fairSharingWeight, lq.stopPolicy);
        lqFor[{lq.ns, lq.clusterQueue}] = lq.name;
    }
    if (options.workloads)
        for (const auto& w : project.workloads) {
            if (w.queue.empty() || lqFor.count({w.ns, w.queue})) continue;
            int k = tree.find(dnsSubdomain(w.queue));
            if (k < 0 || !tree.nodes[size_t(k)].leaf()) {
                losses.add("workload", w.name, "queue",
                           k < 0 ? "queue " + w.queue + " is not in the project; no LocalQueue for it"
                                 : "queue " + w.queue +
                                       " has children, so it is a Kueue Cohort and takes no workloads");
                continue;
            }
            std::string name = tree.nodes[size_t(k)].name;
            addLocalQueue(name, w.ns, name, std::nullopt, "");
            lqFor[{w.ns, w.queue}] = name;
        }

    for (const auto& pc : cluster.priorityClasses) {
        if (pc.name.rfind("system-", 0) == 0) continue;
        Json obj = kueueObject("WorkloadPriorityClass", pc.name);
        obj["value"] = pc.value;
        if (!pc.description.empty()) obj["description"] = pc.description;
        if (!pc.workload && (pc.globalDefault || pc.preemptionPolicy == "Never"))
            losses.add("PriorityClass", pc.name, pc.globalDefault ? "globalDefault" : "preemptionPolicy",
                       "a WorkloadPriorityClass has no default flag and no preemption policy; dropped");
        bundle.objects.push_back({obj, "workloadpriorityclasses.yaml"});
    }

    if (options.workloads) {
        std::vector<std::string> tasLevels = levels; // without the hostname, top first
        tasLevels.erase(std::remove(tasLevels.begin(), tasLevels.end(), kHostname), tasLevels.end());
        for (const auto& w : project.workloads) {
            auto lq = lqFor.find({w.ns, w.queue});
            if (lq == lqFor.end()) continue; // reported above
            Labels labels{{"kueue.x-k8s.io/queue-name", lq->second}};
            if (!w.priorityClass.empty()) labels["kueue.x-k8s.io/priority-class"] = w.priorityClass;
            Labels podAnnotations;
            if (w.networkTopology.mode != NetworkTopologyConstraint::Mode::None) {
                if (tasLevels.empty()) {
                    losses.add("workload", w.name, "networkTopology", "no Topology to place it in; dropped");
                } else {
                    size_t tier = 1;
                    if (w.networkTopology.highestTierAllowed)
                        tier = size_t(std::max(1, *w.networkTopology.highestTierAllowed));
                    tier = std::min(tier, tasLevels.size());
                    const std::string& label = tasLevels[tasLevels.size() - tier];
                    bool hard = w.networkTopology.mode == NetworkTopologyConstraint::Mode::Hard;
                    podAnnotations[hard ? "kueue.x-k8s.io/podset-required-topology"
                                        : "kueue.x-k8s.io/podset-preferred-topology"] = label;
                }
            }
            if (!w.preemptable)
                losses.add("workload", w.name, "preemptable",
                           "Kueue has no per-workload opt-out of preemption; dropped");
            Json tmpl = workloadPodTemplate(w, losses, {}, podAnnotations);
            Json spec{{"suspend", true},
                      {"parallelism", w.replicas},
                      {"completions", w.replicas},
                      {"backoffLimit", 0},
                      {"template", tmpl}};
            Labels annotations;
            if (w.minMember > 0 && w.minMember < w.replicas)
                annotations["kueue.x-k8s.io/job-min-parallelism"] = std::to_string(w.minMember);
            Json obj = workloadJob("batch/v1", w, spec, labels, annotations);
            bundle.objects.push_back({obj, "jobs.yaml"});
        }
    }
    addNodeLabelPatches(project, classes, classLabels, bundle);
    return bundle;
}

} // namespace gantry
