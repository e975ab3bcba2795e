#include "model/cluster_check.h"

#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace gantry {
namespace {

void add(Diagnostics& out, Severity s, const SourceRef& where, std::string message) {
    out.push_back(Diagnostic{s, where, std::move(message)});
}

template <class T, class KeyFn>
void checkUnique(Diagnostics& out, const std::vector<T>& items, const char* what, KeyFn key) {
    std::unordered_map<std::string, const T*> seen;
    for (const auto& item : items) {
        auto [it, inserted] = seen.emplace(key(item), &item);
        if (!inserted)
            add(out, Severity::Error, item.source,
                std::string("duplicate ") + what + " '" + key(item) + "' (first defined at " +
                    it->second->source.str() + ")");
    }
}

bool kueueKind(const Queue& q) {
    return q.kind == Queue::Kind::KueueCohort || q.kind == Queue::Kind::KueueClusterQueue;
}

// Kubernetes names are per kind: a Kueue Cohort and a ClusterQueue may share a name. The queues of
// the tree a queue's parent is looked up in: Kueue's parents are cohorts, the others' their own kind.
std::string nameKey(const Queue& q) {
    switch (q.kind) {
    case Queue::Kind::KueueClusterQueue:
        return "ClusterQueue/" + q.name;
    case Queue::Kind::KueueCohort:
        return "Cohort/" + q.name;
    default:
        return "Queue/" + q.name;
    }
}
// A Kueue queue's parent is a cohort, or a queue designed in Gantry (a cohort once exported).
template <class Map> std::string parentKey(const Map& queues, const Queue& q) {
    if (kueueKind(q) && !queues.count("Cohort/" + q.parent) && queues.count("Queue/" + q.parent))
        return "Queue/" + q.parent;
    return (kueueKind(q) ? "Cohort/" : "Queue/") + q.parent;
}

} // namespace

Diagnostics checkCluster(const Cluster& c) {
    Diagnostics out;
    checkUnique(out, c.nodes, "node", [](const Node& n) { return n.name; });
    {
        std::unordered_map<std::string, const Queue*> seen;
        for (const auto& q : c.queues) {
            auto [it, inserted] = seen.emplace(nameKey(q), &q);
            if (inserted) continue;
            const std::string kind = nameKey(q).substr(0, nameKey(q).find('/'));
            add(out, Severity::Error, q.source,
                "duplicate " + std::string(kind == "Queue" ? "queue" : kind) + " '" + q.name +
                    "' (first defined at " + it->second->source.str() + ")");
        }
    }
    checkUnique(out, c.priorityClasses, "priority class", [](const PriorityClass& p) {
        return std::string(p.workload ? "WorkloadPriorityClass " : "PriorityClass ") + p.name;
    });
    checkUnique(out, c.pods, "pod", [](const Pod& p) { return p.key(); });
    checkUnique(out, c.podGroups, "PodGroup", [](const PodGroup& g) { return g.key(); });
    checkUnique(out, c.hyperNodes, "HyperNode", [](const HyperNode& h) { return h.name; });
    checkUnique(out, c.resourceFlavors, "ResourceFlavor", [](const ResourceFlavor& f) { return f.name; });
    checkUnique(out, c.localQueues, "LocalQueue", [](const LocalQueue& l) { return l.ns + '/' + l.name; });

    std::unordered_map<std::string, const Queue*> queues; // by nameKey
    for (const auto& q : c.queues) queues.emplace(nameKey(q), &q);
    for (const auto& q : c.queues) {
        if (q.parent.empty() || q.parent == "root") continue;
        if (parentKey(queues, q) == nameKey(q)) {
            if (kueueKind(q))
                add(out, Severity::Warning, q.source,
                    "Cohort '" + q.name +
                        "' is its own parent; Kueue keeps the ClusterQueues below it inactive");
            else
                add(out, Severity::Error, q.source, "queue '" + q.name + "' is its own parent");
            continue;
        }
        if (!queues.count(parentKey(queues, q)))
            add(out, Severity::Error, q.source,
                "queue '" + q.name + "' names parent '" + q.parent + "', which does not exist");
    }
    // Cycle detection: walk up from every queue; a walk longer than the number of queues loops.
    std::set<std::string> reported;
    for (const auto& q : c.queues) {
        std::vector<std::string> path{q.name};
        std::unordered_set<std::string> onPath{nameKey(q)};
        const Queue* cur = &q;
        while (!cur->parent.empty() && cur->parent != "root" && parentKey(queues, *cur) != nameKey(*cur)) {
            auto it = queues.find(parentKey(queues, *cur));
            if (it == queues.end()) break;
            cur = it->second;
            if (onPath.count(nameKey(*cur))) {
                if (!reported.count(cur->name)) {
                    std::string cycle;
                    bool in = false;
                    for (const auto& n : path) {
                        if (n == cur->name) in = true;
                        if (in) cycle += n + " -> ", reported.insert(n);
                    }
                    if (kueueKind(*cur))
                        add(out, Severity::Warning, cur->source,
                            "cycle in the cohort tree: " + cycle + cur->name +
                                "; Kueue keeps the ClusterQueues below it inactive");
                    else
                        add(out, Severity::Error, cur->source,
                            "cycle in the queue tree: " + cycle + cur->name);
                }
                break;
            }
            path.push_back(cur->name);
            onPath.insert(nameKey(*cur));
        }
    }
    for (const auto& lq : c.localQueues) {
        // A queue designed in Gantry becomes a ClusterQueue when the tree is exported to Kueue.
        auto it = queues.find("ClusterQueue/" + lq.clusterQueue);
        if (it == queues.end()) it = queues.find("Queue/" + lq.clusterQueue);
        if (it == queues.end())
            add(out, Severity::Warning, lq.source,
                "LocalQueue '" + lq.ns + '/' + lq.name + "' names ClusterQueue '" + lq.clusterQueue +
                    "', which does not exist; Kueue admits nothing from it");
    }

    std::set<std::pair<std::string, std::string>> groups;
    for (const auto& g : c.podGroups) groups.emplace(g.ns, g.name);
    std::unordered_set<std::string> nodes;
    for (const auto& n : c.nodes) nodes.insert(n.name);
    for (const auto& p : c.pods) {
        if (!p.group.empty() && !groups.count({p.ns, p.group}))
            add(out, Severity::Warning, p.source,
                "pod '" + p.key() + "' names PodGroup '" + p.group +
                    "', which does not exist; the pod will stay pending");
        if (!p.nodeName.empty() && !nodes.count(p.nodeName))
            add(out, Severity::Warning, p.source,
                "pod '" + p.key() + "' is bound to node '" + p.nodeName + "', which is not in the snapshot");
    }
    // A gang's queue that does not exist is reported by the profile that looks it up, in its
    // scheduler's words: each scheduler reads its own queue label.
    return out;
}

} // namespace gantry
