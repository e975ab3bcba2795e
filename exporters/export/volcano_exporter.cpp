// Volcano: Queues (scheduling.volcano.sh/v1beta1), the scheduler ConfigMap derived from the chosen
// policy, HyperNodes (topology.volcano.sh/v1alpha1), PriorityClasses, vcjob templates
// (batch.volcano.sh/v1alpha1) and node label patches.
#include "export/export_support.h"
#include "export/scheduler_conf_writer.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace gantry {

using namespace exporting;

namespace {

constexpr const char* kTarget = "Volcano";

bool defaultPreemption(const KueuePreemption& p) {
    return p.withinClusterQueue == "Never" && p.reclaimWithinCohort == "Never" &&
           p.borrowWithinCohort == "Never";
}

// What a queue from another scheduler carries that a Volcano Queue cannot.
void foreignQueueLosses(const Queue& q, Losses& losses) {
    if (q.kind == Queue::Kind::Queue && !q.resourceGroups.empty())
        losses.queue(q, "flavors",
                     "the Kueue quotas per flavor designed for this queue are not used by Volcano (its own "
                     "quotas are)");
    if (q.kind == Queue::Kind::YuniKornQueue) {
        if (q.maxApplications > 0)
            losses.queue(q, "maxapplications", "Volcano queues have no application count limit; dropped");
        if (!q.properties.empty())
            losses.queue(q, "properties", "YuniKorn queue properties have no Volcano counterpart; dropped");
        if (!q.submitAcl.empty() || !q.adminAcl.empty())
            losses.queue(q, "submitacl/adminacl",
                         "Volcano has no queue ACLs (use RBAC on namespaces); dropped");
        if (!q.limits.empty())
            losses.queue(q, "limits", "per-user and per-group limits have no Volcano counterpart; dropped");
        if (q.parentFlag && q.guaranteed.empty())
            losses.queue(q, "parent", "a parent for dynamically created queues has no Volcano counterpart");
    }
    if (q.kind == Queue::Kind::KueueClusterQueue || q.kind == Queue::Kind::KueueCohort) {
        if (!q.queueingStrategy.empty() && q.queueingStrategy != "StrictFIFO" &&
            q.queueingStrategy != "BestEffortFIFO")
            losses.queue(q, "spec.queueingStrategy", "no Volcano counterpart; dropped");
        if (!defaultPreemption(q.preemption))
            losses.queue(q, "spec.preemption",
                         "Kueue's preemption policies map to Volcano's preempt and reclaim actions and the "
                         "reclaimable flag only roughly; not carried over");
        if (q.namespaceSelector && !q.namespaceSelector->empty())
            losses.queue(q, "spec.namespaceSelector", "Volcano queues do not restrict namespaces; dropped");
        if (q.stopPolicy == "Hold" || q.stopPolicy == "HoldAndDrain")
            losses.queue(
                q, "spec.stopPolicy",
                "a held queue becomes a Volcano Queue to close with vcctl; the manifest cannot close it");
        if ((!q.whenCanBorrow.empty() && q.whenCanBorrow != "MayStopSearch") ||
            (!q.whenCanPreempt.empty() && q.whenCanPreempt != "TryNextFlavor"))
            losses.queue(q, "spec.flavorFungibility", "Volcano has no flavors to fall back between; dropped");
        if (q.fairSharingWeight && std::floor(*q.fairSharingWeight) != *q.fairSharingWeight)
            losses.queue(q, "spec.fairSharing.weight",
                         "Volcano weights are whole numbers; rounded to " +
                             std::to_string(std::max<int64_t>(1, std::llround(*q.fairSharingWeight))));
    }
}

int32_t volcanoWeight(const Queue& q) {
    if (q.kind == Queue::Kind::Queue) return q.weight;
    if (q.fairSharingWeight)
        return int32_t(std::clamp<int64_t>(std::llround(*q.fairSharingWeight), 1, 65535));
    return 1;
}

// Volcano's webhook wants parents to cover their children (guarantee and deserved), and children's
// capability within their ancestors'; the scheduler wants every capability within the cluster's
// (the root queue's), or it stops scheduling altogether (volcano#4819).
void fitTree(const QueueTree& tree, std::vector<NeutralQuota>& quota, const ResourceList& clusterCapacity,
             Losses& losses) {
    for (size_t k = tree.nodes.size(); k-- > 0;) {
        const QueueNode& n = tree.nodes[k];
        if (n.children.empty()) continue;
        ResourceList sumE, sumR;
        for (int c : n.children) {
            sumE += quota[size_t(c)].entitled;
            sumR += quota[size_t(c)].reserved;
        }
        auto cover = [&](ResourceList& own, const ResourceList& sum, const char* field) {
            for (const auto& [res, amount] : sum)
                if (!own.has(res)) {
                    own.set(res, amount);
                    losses.note("queue " + n.name + ": " + field + "[" + res +
                                "] set to its children's sum " + formatAmount(res, amount) +
                                " (Volcano requires a parent to cover its children)");
                }
        };
        cover(quota[k].entitled, sumE, "deserved");
        cover(quota[k].reserved, sumR, "guarantee");
        for (const auto& [res, amount] : quota[k].reserved)
            if (!quota[k].entitled.has(res)) quota[k].entitled.set(res, amount);
    }
    for (size_t k = 0; k < tree.nodes.size(); ++k) {
        const QueueNode& n = tree.nodes[k];
        for (auto [res, amount] : quota[k].cap.entries()) {
            int64_t limit = clusterCapacity.get(res);
            std::string by = "the cluster has";
            for (int up = n.parent; up >= 0; up = tree.nodes[size_t(up)].parent)
                if (int64_t a = quota[size_t(up)].cap.get(res); a > 0) {
                    limit = a;
                    by = "ancestor " + tree.nodes[size_t(up)].name + " allows";
                    break;
                }
            if (limit > 0 && amount > limit) {
                losses.queue(*n.queue, "capability[" + res + "]",
                             formatAmount(res, amount) + " is more than " + by + "; lowered to " +
                                 formatAmount(res, limit));
                quota[k].cap.set(res, limit);
            }
        }
    }
}

Json hyperNodeJson(const HyperNode& h) {
    Json members = Json::array();
    for (const auto& m : h.members) {
        Json sel = Json::object();
        switch (m.match) {
        case HyperNodeMember::Match::Exact:
            sel["exactMatch"] = Json{{"name", m.value}};
            break;
        case HyperNodeMember::Match::Regex:
            sel["regexMatch"] = Json{{"pattern", m.value}};
            break;
        case HyperNodeMember::Match::Label: {
            Json ls = Json::object();
            if (!m.selector.matchLabels.empty()) ls["matchLabels"] = m.selector.matchLabels;
            if (!m.selector.matchExpressions.empty()) {
                Json exprs = Json::array();
                for (const auto& e : m.selector.matchExpressions) {
                    Json x{{"key", e.key}, {"operator", toString(e.op)}};
                    if (!e.values.empty()) x["values"] = e.values;
                    exprs.push_back(x);
                }
                ls["matchExpressions"] = exprs;
            }
            sel["labelMatch"] = ls;
            break;
        }
        }
        members.push_back(
            Json{{"type", m.type == HyperNodeMember::Type::Node ? "Node" : "HyperNode"}, {"selector", sel}});
    }
    Json spec = Json::object();
    spec["tier"] = h.tier;
    if (!h.tierName.empty()) spec["tierName"] = h.tierName;
    spec["members"] = members;
    return Json{{"apiVersion", "topology.volcano.sh/v1alpha1"},
                {"kind", "HyperNode"},
                {"metadata", objectMeta(h.name)},
                {"spec", spec}};
}

// HyperNodes from the topology labels: the lowest level (tier 1) selects nodes by their labels,
// each higher level lists the HyperNodes below it.
std::vector<HyperNode> hyperNodesFromLabels(const Cluster& cluster, Losses& losses) {
    auto levels = usedTopologyLevels(cluster);
    std::vector<HyperNode> out;
    if (levels.empty()) return out;
    const size_t depth = levels.size();
    // Path of label values, top first, for every node that carries all levels.
    std::map<std::vector<std::string>, int> paths;
    size_t missing = 0;
    for (const auto& n : cluster.nodes) {
        std::vector<std::string> path;
        for (const auto& l : levels) {
            auto it = n.labels.find(l.nodeLabel);
            if (it == n.labels.end()) break;
            path.push_back(it->second);
        }
        if (path.size() == depth)
            ++paths[path];
        else
            ++missing;
    }
    if (missing > 0)
        losses.note(std::to_string(missing) +
                    " node(s) lack one of the topology labels and belong to no HyperNode");
    auto nameOf = [&](const std::vector<std::string>& path, size_t level) {
        std::string name = levels[level].name;
        for (size_t i = 0; i <= level; ++i) name += "-" + path[i];
        return dnsSubdomain(name);
    };
    for (size_t level = depth; level-- > 0;) {
        int32_t tier = int32_t(depth - level);
        std::map<std::string, HyperNode> byName;
        for (const auto& [path, count] : paths) {
            std::string name = nameOf(path, level);
            HyperNode& h = byName[name];
            h.name = name;
            h.tier = tier;
            h.tierName = levels[level].name;
            HyperNodeMember m;
            if (level + 1 == depth) {
                m.type = HyperNodeMember::Type::Node;
                m.match = HyperNodeMember::Match::Label;
                for (size_t i = 0; i < depth; ++i) m.selector.matchLabels[levels[i].nodeLabel] = path[i];
            } else {
                m.type = HyperNodeMember::Type::HyperNode;
                m.match = HyperNodeMember::Match::Exact;
                m.value = nameOf(path, level + 1);
            }
            if (std::find(h.members.begin(), h.members.end(), m) == h.members.end()) h.members.push_back(m);
        }
        for (auto& [name, h] : byName) out.push_back(std::move(h));
    }
    return out;
}

Json priorityClassJson(const PriorityClass& pc) {
    Json j{
        {"apiVersion", "scheduling.k8s.io/v1"}, {"kind", "PriorityClass"}, {"metadata", objectMeta(pc.name)}};
    j["value"] = pc.value;
    if (pc.globalDefault) j["globalDefault"] = true;
    if (!pc.preemptionPolicy.empty()) j["preemptionPolicy"] = pc.preemptionPolicy;
    if (!pc.description.empty()) j["description"] = pc.description;
    return j;
}

} // namespace

namespace exporting {

// PriorityClasses for Volcano and YuniKorn (both use the Kubernetes kind).
void addPriorityClasses(const Project& project, ExportBundle& bundle, Losses& losses) {
    for (const auto& pc : project.cluster.priorityClasses) {
        if (pc.name.rfind("system-", 0) == 0) continue; // built into every cluster
        if (pc.workload)
            losses.note("Kueue WorkloadPriorityClass " + pc.name +
                        " becomes a PriorityClass (pods name it in priorityClassName)");
        bundle.objects.push_back({priorityClassJson(pc), "priorityclasses.yaml"});
    }
    std::set<std::string> known;
    for (const auto& pc : project.cluster.priorityClasses) known.insert(pc.name);
    for (const auto& w : project.workloads)
        if (!w.priorityClass.empty() && !known.count(w.priorityClass) &&
            w.priorityClass.rfind("system-", 0) != 0)
            losses.add("workload", w.name, "priorityClass",
                       "PriorityClass " + w.priorityClass +
                           " is not defined in the project; create it before the jobs");
}

void addNodeLabelPatches(const Project& project, const std::vector<NodeClass>& classes, bool useClassLabels,
                         ExportBundle& bundle) {
    std::vector<NodeClass> used = classes;
    if (!useClassLabels)
        for (auto& c : used) c.patchLabel = false;
    for (auto& n : nodeLabelPatches(project.cluster, used))
        bundle.objects.push_back({std::move(n), "node-labels.yaml"});
}

} // namespace exporting

ExportBundle exportVolcano(const Project& project, const ExportOptions& options) {
    ExportBundle bundle;
    bundle.target = TargetScheduler::Volcano;
    Losses losses(bundle);
    const Cluster& cluster = project.cluster;
    for (const auto& n : cluster.nodes) bundle.clusterCapacity += n.allocatable;
    QueueTree tree = buildQueueTree(cluster);
    nameQueues(tree, dnsSubdomain, "Kubernetes name", losses);
    if (tree.root &&
        (!tree.root->capability.empty() || !tree.root->deserved.empty() || !tree.root->guarantee.empty() ||
         !tree.root->guaranteed.empty() || !tree.root->max.empty()))
        losses.queue(*tree.root, "quotas",
                     "the root queue is Volcano's own (the whole cluster); its quotas are not exported");
    auto quota = neutralQuotas(tree, cluster, kTarget, losses);
    fitTree(tree, quota, bundle.clusterCapacity, losses);

    // The policy: the project's scheduler configuration, made consistent with the queues.
    std::vector<HyperNode> hyperNodes =
        cluster.hyperNodes.empty() ? hyperNodesFromLabels(cluster, losses) : cluster.hyperNodes;
    bool topologyJobs =
        std::any_of(project.workloads.begin(), project.workloads.end(), [](const WorkloadTemplate& w) {
            return w.networkTopology.mode != NetworkTopologyConstraint::Mode::None;
        });
    SchedulerConf conf =
        deriveVolcanoConf(project.volcano, tree, quota, !hyperNodes.empty() && topologyJobs, losses);
    bool proportion = conf.plugin("proportion") != nullptr;

    for (size_t k = 0; k < tree.nodes.size(); ++k) {
        const QueueNode& n = tree.nodes[k];
        const Queue& q = *n.queue;
        foreignQueueLosses(q, losses);
        if (proportion && q.kind == Queue::Kind::Queue && !q.deserved.empty())
            losses.queue(q, "spec.deserved",
                         "the proportion plugin computes deserved from weights and ignores this value");
        if (q.state == QueueState::Closed || q.state == QueueState::Closing)
            losses.queue(q, "status.state", "a queue is closed with vcctl, not by a manifest; exported open");
        Json spec = Json::object();
        if (n.parent >= 0) spec["parent"] = tree.nodes[size_t(n.parent)].name;
        spec["weight"] = volcanoWeight(q);
        spec["reclaimable"] = q.kind == Queue::Kind::Queue ? q.reclaimable : true;
        if (q.kind == Queue::Kind::Queue && q.priority > 0) spec["priority"] = q.priority;
        std::string dequeue = q.kind == Queue::Kind::Queue         ? q.dequeueStrategy
                              : q.queueingStrategy == "StrictFIFO" ? "fifo"
                                                                   : "";
        if (!dequeue.empty()) spec["dequeueStrategy"] = dequeue;
        if (!quota[k].reserved.empty())
            spec["guarantee"] = Json{{"resource", quantityMap(quota[k].reserved)}};
        if (!quota[k].entitled.empty()) spec["deserved"] = quantityMap(quota[k].entitled);
        if (!quota[k].cap.empty()) spec["capability"] = quantityMap(quota[k].cap);
        if (q.nodeGroupAffinity) {
            // Node groups the queue's pods must or may use, or avoid (the nodegroup plugin reads them).
            auto terms = [](const std::vector<std::string>& required,
                            const std::vector<std::string>& preferred) {
                Json t = Json::object();
                if (!required.empty()) t["requiredDuringSchedulingIgnoredDuringExecution"] = required;
                if (!preferred.empty()) t["preferredDuringSchedulingIgnoredDuringExecution"] = preferred;
                return t;
            };
            const NodeGroupAffinity& a = *q.nodeGroupAffinity;
            Json affinity = Json::object();
            if (!a.required.empty() || !a.preferred.empty())
                affinity["nodeGroupAffinity"] = terms(a.required, a.preferred);
            if (!a.antiRequired.empty() || !a.antiPreferred.empty())
                affinity["nodeGroupAntiAffinity"] = terms(a.antiRequired, a.antiPreferred);
            spec["affinity"] = affinity;
        }
        Json obj{{"apiVersion", "scheduling.volcano.sh/v1beta1"},
                 {"kind", "Queue"},
                 {"metadata", objectMeta(n.name, "", q.labels, q.annotations)},
                 {"spec", spec}};
        bundle.objects.push_back({obj, "queues.yaml"});
    }

    Json data = Json::object();
    data["volcano-scheduler.conf"] = schedulerConfText(conf);
    bundle.objects.push_back(
        {Json{{"apiVersion", "v1"},
              {"kind", "ConfigMap"},
              {"metadata", objectMeta("volcano-scheduler-configmap", options.volcanoNamespace)},
              {"data", data}},
         "scheduler-configmap.yaml"});
    losses.note("the scheduler ConfigMap is named volcano-scheduler-configmap (Helm names it "
                "<release>-scheduler-configmap; rename it to match your release)");

    for (const auto& h : hyperNodes) bundle.objects.push_back({hyperNodeJson(h), "hypernodes.yaml"});
    addPriorityClasses(project, bundle, losses);

    if (options.workloads) {
        for (const auto& w : project.workloads) {
            std::string queue = w.queue.empty() ? "default" : dnsSubdomain(w.queue);
            int qi = tree.find(queue);
            if (!w.queue.empty() && qi < 0)
                losses.add("workload", w.name, "queue",
                           "queue " + w.queue + " is not in the project; the job names it anyway");
            Labels podAnnotations;
            if (!w.preemptable) podAnnotations["volcano.sh/preemptable"] = "false";
            Json tmpl = workloadPodTemplate(w, losses, {}, podAnnotations);
            Json task{{"name", dnsLabel(w.role.empty() ? "worker" : w.role)},
                      {"replicas", w.replicas},
                      {"template", tmpl}};
            Json spec = Json::object();
            spec["schedulerName"] = "volcano";
            spec["queue"] = queue;
            spec["minAvailable"] = w.minMember > 0 ? w.minMember : w.replicas;
            if (!w.priorityClass.empty()) spec["priorityClassName"] = w.priorityClass;
            if (w.networkTopology.mode != NetworkTopologyConstraint::Mode::None) {
                Json nt{{"mode", toString(w.networkTopology.mode)}};
                if (w.networkTopology.highestTierAllowed)
                    nt["highestTierAllowed"] = *w.networkTopology.highestTierAllowed;
                else if (!w.networkTopology.highestTierName.empty())
                    nt["highestTierName"] = w.networkTopology.highestTierName;
                spec["networkTopology"] = nt;
            }
            spec["tasks"] = Json::array({task});
            Json obj = workloadJob("batch.volcano.sh/v1alpha1", w, spec);
            bundle.objects.push_back({obj, "jobs.yaml"});
        }
    }
    addNodeLabelPatches(project, nodeClasses(cluster), false, bundle);
    return bundle;
}

} // namespace gantry
