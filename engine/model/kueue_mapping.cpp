#include "model/kueue_mapping.h"

#include "model/kubernetes_names.h"
#include "model/queue_tree.h"

#include <algorithm>
#include <set>

namespace gantry::kueue {

namespace {

constexpr const char* kTarget = "Kueue";
constexpr const char* kHostname = "kubernetes.io/hostname";
constexpr const char* kRootCohort = "root";
constexpr const char* kAnyNodeFlavor = "default-flavor";

bool isKueue(const Queue& q) {
    return q.kind == Queue::Kind::KueueClusterQueue || q.kind == Queue::Kind::KueueCohort;
}

void foreignQueueLosses(const Queue& q, LossLog& losses) {
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

struct Mapper {
    const Cluster& cluster;
    Mapping& m;
    QueueTree tree;
    std::vector<NeutralQuota> quota;
    std::string anyFlavor;     // the flavor of quotas that name none ("" when no queue needs one)
    ResourceList anyFlavorHas; // what the nodes of that flavor offer
    std::set<std::string> extraCovered;

    void topology() {
        if (!cluster.kueueTopologies.empty()) {
            m.objects.topologies = cluster.kueueTopologies;
            m.topologyLevels = cluster.kueueTopologies.front().levels;
        } else if (auto used = usedTopologyLevels(cluster); !used.empty()) {
            for (const auto& l : used) m.topologyLevels.push_back(l.nodeLabel);
            if (std::find(m.topologyLevels.begin(), m.topologyLevels.end(), kHostname) ==
                m.topologyLevels.end())
                m.topologyLevels.push_back(kHostname);
            m.objects.topologies.push_back(KueueTopology{"default", m.topologyLevels, {}});
        } else if (!cluster.hyperNodes.empty()) {
            m.log.add("topology", "HyperNodes", "members",
                      "Volcano HyperNodes list their members; Kueue's Topology needs node labels, so no "
                      "Topology is exported");
        }
    }

    // A queue of another scheduler whose quotas know no flavors, and which has quota or takes
    // workloads, needs the flavor that stands for any node.
    bool needsAnyFlavor(size_t k) const {
        const QueueNode& n = tree.nodes[k];
        const NeutralQuota& nq = quota[k];
        return !isKueue(*n.queue) && n.queue->resourceGroups.empty() &&
               (n.leaf() || !(nq.entitled.empty() && nq.cap.empty() && nq.reserved.empty()));
    }

    void flavors() {
        const std::string topologyName =
            m.objects.topologies.empty() ? std::string() : m.objects.topologies.front().name;
        std::set<std::string> names;
        if (!cluster.resourceFlavors.empty()) {
            m.objects.flavors = cluster.resourceFlavors;
            for (const auto& f : cluster.resourceFlavors) names.insert(f.name);
        } else {
            for (const auto& c : m.classes) {
                ResourceFlavor f;
                f.name = c.name;
                f.nodeLabels = c.selector;
                // The nodes of the class are tainted (GPU nodes usually are): the flavor carries the
                // tolerations, so what Kueue admits to it can run there without its own.
                std::string keys;
                for (const auto& t : c.commonTaints) {
                    f.tolerations.push_back({t.key, t.value.empty(), t.value, t.effect, std::nullopt});
                    keys += (keys.empty() ? "" : ", ") + t.key;
                }
                if (!keys.empty())
                    m.log.note("ResourceFlavor " + c.name + " tolerates its nodes' taints (" + keys +
                               "): workloads admitted to it get the tolerations");
                f.topologyName = topologyName;
                m.objects.flavors.push_back(std::move(f));
                names.insert(c.name);
                m.classLabels = m.classLabels || c.patchLabel;
            }
            if (m.classes.size() == 1 && !m.classes[0].patchLabel) {
                anyFlavor = m.classes[0].name;
                anyFlavorHas = m.classes[0].capacity;
            } else if (m.classes.size() > 1) {
                m.log.note("ResourceFlavors " + std::to_string(m.classes.size()) +
                           " node classes are exported; queue quotas that know no flavors are placed on "
                           "default-flavor (any node), so split them per class where you want per-model "
                           "quotas");
            }
        }
        bool needed = false;
        for (size_t k = 0; k < tree.nodes.size(); ++k) needed = needed || needsAnyFlavor(k);
        if (!needed) {
            anyFlavor.clear();
            return;
        }
        if (anyFlavor.empty()) {
            anyFlavor = kAnyNodeFlavor;
            anyFlavorHas = {};
            for (const auto& n : cluster.nodes) anyFlavorHas += n.allocatable;
            if (!cluster.resourceFlavors.empty())
                m.log.note("queues whose quotas name no flavor get them on default-flavor (any node); the "
                           "other ResourceFlavors are used only by queues with Kueue quotas of their own");
            if (!names.count(anyFlavor))
                m.objects.flavors.push_back(ResourceFlavor{anyFlavor, {}, {}, {}, {}, {}});
        }
        anyFlavorHas.erase(res::Pods); // Kueue counts pods only where a ClusterQueue covers them
    }

    // The resource groups of a queue whose quotas know no flavors, on the flavor for any node.
    std::vector<ResourceGroup> neutralGroups(size_t k, bool cohort) {
        const QueueNode& n = tree.nodes[k];
        const Queue& q = *n.queue;
        const NeutralQuota& nq = quota[k];
        ResourceList childEntitled;
        for (int c : n.children) childEntitled += quota[size_t(c)].entitled;
        std::set<std::string> limited, covered;
        for (const auto* list : {&nq.entitled, &nq.cap, &nq.reserved})
            for (const auto& [r, a] : *list) limited.insert(r);
        covered = limited;
        if (!cohort)
            for (const auto& [r, a] : anyFlavorHas)
                if (a > 0 && covered.insert(r).second) extraCovered.insert(r);
        ResourceGroup g;
        FlavorQuotas f;
        f.flavor = anyFlavor;
        for (const auto& r : covered) {
            ResourceQuota rq;
            rq.resource = r;
            if (!limited.count(r)) {
                rq.nominal = anyFlavorHas.get(r);
                g.coveredResources.push_back(r);
                f.resources.push_back(rq);
                continue;
            }
            int64_t entitled = nq.entitled.get(r);
            rq.nominal = cohort ? entitled - childEntitled.get(r) : entitled;
            if (rq.nominal < 0) {
                m.log.queue(q, "deserved[" + r + "]",
                            "less than its children's sum; the cohort gets no quota of its own for " + r);
                rq.nominal = 0;
            }
            if (nq.cap.has(r)) rq.borrowingLimit = std::max<int64_t>(0, nq.cap.get(r) - entitled);
            if (nq.reserved.has(r)) rq.lendingLimit = std::max<int64_t>(0, entitled - nq.reserved.get(r));
            if (!cohort && rq.lendingLimit && *rq.lendingLimit > rq.nominal) rq.lendingLimit = rq.nominal;
            g.coveredResources.push_back(r);
            f.resources.push_back(rq);
        }
        if (g.coveredResources.empty()) return {};
        g.flavors.push_back(f);
        return {g};
    }

    void queues() {
        bool needRoot = (tree.root && tree.root->kind == Queue::Kind::KueueCohort) ||
                        std::any_of(tree.topLevel.begin(), tree.topLevel.end(),
                                    [&](int k) { return !isKueue(*tree.nodes[size_t(k)].queue); });
        if (needRoot && tree.find(kRootCohort) < 0) {
            Queue root;
            root.name = kRootCohort;
            root.kind = Queue::Kind::KueueCohort;
            m.objects.queues.push_back(root);
        }
        bool weighted = false;
        std::vector<std::string> neverPreempt; // ClusterQueues left with Kueue's default preemption
        for (size_t k = 0; k < tree.nodes.size(); ++k) {
            const QueueNode& n = tree.nodes[k];
            const Queue& q = *n.queue;
            const bool cohort = q.kind == Queue::Kind::KueueCohort || (!isKueue(q) && !n.leaf());
            if (q.kind == Queue::Kind::KueueClusterQueue && !n.leaf())
                m.log.queue(q, "children", "a ClusterQueue cannot have children in Kueue");
            Queue out;
            out.name = n.name;
            out.kind = cohort ? Queue::Kind::KueueCohort : Queue::Kind::KueueClusterQueue;
            out.parent = n.parent >= 0 ? tree.nodes[size_t(n.parent)].name
                         : isKueue(q) && !(tree.root && tree.root->kind == Queue::Kind::KueueCohort)
                             ? ""
                             : kRootCohort;
            out.labels = q.labels;
            out.annotations = q.annotations;
            out.source = q.source;
            if (cohort && !isKueue(q) && q.dequeueStrategy == "fifo")
                m.log.queue(q, "spec.dequeueStrategy",
                            "becomes a Kueue Cohort, which queues no workloads; fifo ordering dropped");
            // Kueue quotas designed on any queue (an inventory's flavors) are used as they are.
            if (isKueue(q) || !q.resourceGroups.empty()) {
                out.resourceGroups = q.resourceGroups;
                if (!isKueue(q)) foreignQueueLosses(q, m.log);
            } else {
                foreignQueueLosses(q, m.log);
                out.resourceGroups = neutralGroups(k, cohort);
            }
            out.fairSharingWeight = q.fairSharingWeight;
            if (!out.fairSharingWeight && q.kind == Queue::Kind::Queue && q.weight != 1)
                out.fairSharingWeight = q.weight;
            weighted = weighted || (out.fairSharingWeight && !isKueue(q));
            if (!cohort) {
                m.objects.clusterQueueOf[q.name] = n.name;
                if (isKueue(q)) {
                    out.namespaceSelector = q.namespaceSelector;
                    out.queueingStrategy = q.queueingStrategy;
                    out.preemption = q.preemption;
                    out.whenCanBorrow = q.whenCanBorrow;
                    out.whenCanPreempt = q.whenCanPreempt;
                    out.stopPolicy = q.stopPolicy;
                } else {
                    out.namespaceSelector = q.namespaceSelector ? *q.namespaceSelector : LabelSelector{};
                    if (q.dequeueStrategy == "fifo") out.queueingStrategy = "StrictFIFO";
                    // Kueue's preemption is the ClusterQueue's own: what the queue designs for Kueue, else
                    // Kueue's defaults (Never). Another scheduler's actions say nothing about it.
                    out.preemption = q.preemption;
                    out.preemption.borrowMaxPriorityThreshold.reset();
                    if (q.preemption == KueuePreemption{}) neverPreempt.push_back(n.name);
                    if (q.state == QueueState::Closed || q.state == QueueState::Closing)
                        out.stopPolicy = "Hold";
                }
            }
            m.objects.queues.push_back(std::move(out));
        }
        if (weighted)
            m.log.note(
                "queue weights became fairSharing weights; they apply only with fairSharing enabled in "
                "Kueue's configuration");
        if (!neverPreempt.empty()) {
            std::string list;
            for (const auto& name : neverPreempt) list += (list.empty() ? "" : ", ") + name;
            m.log.note("ClusterQueues with no Kueue preemption designed keep Kueue's defaults "
                       "(withinClusterQueue, reclaimWithinCohort and borrowWithinCohort Never): " +
                       list);
        }
        if (!extraCovered.empty()) {
            std::string list;
            for (const auto& r : extraCovered) list += (list.empty() ? "" : ", ") + r;
            m.log.note("ClusterQueues also cover what their queues do not limit (" + list + ") on " +
                       anyFlavor +
                       ", with the capacity of its nodes as nominal quota: Kueue admits a workload only when "
                       "its ClusterQueue covers every resource it asks for");
        }
    }

    void localQueues(const std::vector<WorkloadTemplate>& workloads) {
        std::set<std::pair<std::string, std::string>> made; // (namespace, name)
        auto add = [&](const std::string& name, const std::string& ns, const std::string& cq,
                       std::optional<double> weight, const std::string& stop) {
            if (!made.insert({ns, name}).second) return;
            m.objects.localQueues.push_back(LocalQueue{name, ns, cq, weight, stop, {}, {}});
        };
        for (const auto& lq : cluster.localQueues) {
            int k = tree.find(dnsSubdomain(lq.clusterQueue));
            add(lq.name, lq.ns, k >= 0 ? tree.nodes[size_t(k)].name : lq.clusterQueue, lq.fairSharingWeight,
                lq.stopPolicy);
            m.localQueueOf[{lq.ns, lq.clusterQueue}] = lq.name;
        }
        for (const auto& w : workloads) {
            if (w.queue.empty() || m.localQueueOf.count({w.ns, w.queue})) continue;
            int k = tree.find(dnsSubdomain(w.queue));
            if (k < 0 || !tree.nodes[size_t(k)].leaf()) {
                m.log.add("workload", w.name, "queue",
                          k < 0 ? "queue " + w.queue + " is not in the project; no LocalQueue for it"
                                : "queue " + w.queue +
                                      " has children, so it is a Kueue Cohort and takes no workloads");
                continue;
            }
            const std::string& name = tree.nodes[size_t(k)].name;
            add(name, w.ns, name, std::nullopt, "");
            m.localQueueOf[{w.ns, w.queue}] = name;
        }
    }
};

} // namespace

Mapping mapToKueue(const Cluster& cluster, const std::vector<WorkloadTemplate>& workloads) {
    Mapping m;
    m.objects.fromProject = true;
    Mapper mapper{cluster, m, buildQueueTree(cluster), {}, {}, {}, {}};
    nameQueues(mapper.tree, dnsSubdomain, "Kubernetes name", m.log);
    mapper.quota = neutralQuotas(mapper.tree, cluster, kTarget, m.log);
    m.classes = nodeClasses(cluster);
    mapper.topology();
    mapper.flavors();
    mapper.queues();
    mapper.localQueues(workloads);
    return m;
}

bool hasKueueQueues(const Cluster& cluster) {
    return std::any_of(cluster.queues.begin(), cluster.queues.end(),
                       [](const Queue& q) { return isKueue(q); });
}

PolicyObjects ownObjects(const Cluster& cluster) {
    PolicyObjects o;
    o.topologies = cluster.kueueTopologies;
    o.flavors = cluster.resourceFlavors;
    for (const auto& q : cluster.queues)
        if (isKueue(q)) o.queues.push_back(q);
    o.localQueues = cluster.localQueues;
    return o;
}

} // namespace gantry::kueue
