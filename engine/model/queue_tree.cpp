#include "model/queue_tree.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace gantry {

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

// A queue can be a parent only of its own tree's queues: Kueue's parents are cohorts (a ClusterQueue
// may share a cohort's name), the other schedulers' are their own queues.
bool parentKind(const Queue& q) {
    return q.kind != Queue::Kind::KueueClusterQueue;
}
std::string childrenKey(const Queue& parent) {
    return (parent.kind == Queue::Kind::KueueCohort ? "Cohort/" : "Queue/") + parent.name;
}
// A Kueue queue's parent is a cohort, or a queue designed in Gantry (a cohort once exported).
std::string parentKeyOf(const std::set<std::string>& parents, const Queue& q) {
    const bool kueue = q.kind == Queue::Kind::KueueClusterQueue || q.kind == Queue::Kind::KueueCohort;
    if (kueue && !parents.count("Cohort/" + q.parent) && parents.count("Queue/" + q.parent))
        return "Queue/" + q.parent;
    return (kueue ? "Cohort/" : "Queue/") + q.parent;
}

bool isRootQueue(const Queue& q) {
    if (!q.parent.empty() || lower(q.name) != "root") return false;
    // Kueue's cohort named root is the implicit top only when it holds no quota of its own.
    return q.kind != Queue::Kind::KueueCohort || q.resourceGroups.empty();
}

} // namespace

int QueueTree::find(const std::string& name) const {
    for (size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].name == name) return int(i);
    return -1;
}

QueueTree buildQueueTree(const Cluster& cluster) {
    QueueTree tree;
    std::string rootName;
    for (const auto& q : cluster.queues)
        if (isRootQueue(q)) {
            tree.root = &q;
            rootName = q.name;
            break;
        }
    std::map<std::string, std::vector<const Queue*>> childrenOf;
    std::vector<const Queue*> top;
    std::set<std::string> parents;
    for (const auto& q : cluster.queues)
        if (parentKind(q)) parents.insert(childrenKey(q));
    for (const auto& q : cluster.queues) {
        if (&q == tree.root) continue;
        bool topLevel = q.parent.empty() || q.parent == rootName || q.parent == "root" ||
                        !parents.count(parentKeyOf(parents, q));
        if (topLevel)
            top.push_back(&q);
        else
            childrenOf[parentKeyOf(parents, q)].push_back(&q);
    }
    std::set<const Queue*> seen;
    std::function<void(const Queue*, int)> add = [&](const Queue* q, int parent) {
        if (!seen.insert(q).second) return; // a cycle: the importer's checks reject it
        QueueNode n;
        n.queue = q;
        n.name = q->name;
        n.parent = parent;
        int index = int(tree.nodes.size());
        tree.nodes.push_back(n);
        if (parent >= 0)
            tree.nodes[size_t(parent)].children.push_back(index);
        else
            tree.topLevel.push_back(index);
        if (parentKind(*q))
            for (const Queue* c : childrenOf[childrenKey(*q)]) add(c, index);
    };
    for (const Queue* q : top) add(q, -1);
    return tree;
}

std::string fromYuniKornResource(const std::string& name) {
    return name == "vcore" ? "cpu" : name;
}
std::string toYuniKornResource(const std::string& name) {
    return name == "cpu" ? "vcore" : name;
}

namespace {

ResourceList renamed(const ResourceList& r, std::string (*f)(const std::string&)) {
    ResourceList out;
    for (const auto& [name, amount] : r) out.set(f(name), amount);
    return out;
}

// One Kueue queue's own quota (its resource groups), summed over flavors.
NeutralQuota kueueOwnQuota(const Queue& q, bool inCohort, const Cluster& cluster, const char* target,
                           LossLog& losses) {
    NeutralQuota out;
    for (const auto& g : q.resourceGroups) {
        if (g.flavors.size() != 1) continue; // several flavors are reported below, per resource
        auto f = std::find_if(cluster.resourceFlavors.begin(), cluster.resourceFlavors.end(),
                              [&](const ResourceFlavor& rf) { return rf.name == g.flavors[0].flavor; });
        if (f != cluster.resourceFlavors.end() && !f->nodeLabels.empty()) {
            std::string labels;
            for (const auto& [k, v] : f->nodeLabels) labels += (labels.empty() ? "" : ",") + k + "=" + v;
            losses.queue(q, "spec.resourceGroups[" + g.flavors[0].flavor + "]",
                         "the quota is for nodes labelled " + labels + " only; " + target +
                             " queue quotas hold on any node");
        }
    }
    std::map<std::string, std::vector<std::string>> flavorsOf;
    std::map<std::string, int> limited, total;
    ResourceList borrowing;
    for (const auto& g : q.resourceGroups)
        for (const auto& f : g.flavors)
            for (const auto& r : f.resources) {
                flavorsOf[r.resource].push_back(f.flavor);
                // A zero quota is what Kueue's structure needs for a resource the queue may only
                // borrow; in the other schedulers it is "not set".
                if (r.nominal != 0) out.entitled.add(r.resource, r.nominal);
                ++total[r.resource];
                if (r.lendingLimit && r.nominal > *r.lendingLimit)
                    out.reserved.add(r.resource, r.nominal - *r.lendingLimit);
                if (r.borrowingLimit) {
                    ++limited[r.resource];
                    borrowing.add(r.resource, *r.borrowingLimit);
                }
            }
    for (const auto& [res, flavors] : flavorsOf) {
        if (flavors.size() > 1) {
            std::string list;
            for (const auto& f : flavors) list += (list.empty() ? "" : ", ") + f;
            losses.queue(q, "spec.resourceGroups[" + res + "]",
                         "the quotas of flavors " + list + " are summed into one " + res + " quota: " +
                             target + " queues have no flavors, so which node class a quota is for is lost");
        }
        if (!inCohort) {
            out.cap.set(res, out.entitled.get(res)); // no cohort: nothing to borrow
        } else if (limited[res] == total[res]) {
            out.cap.set(res, out.entitled.get(res) + borrowing.get(res));
        } else if (limited[res] > 0) {
            losses.queue(q, "spec.resourceGroups[" + res + "].borrowingLimit",
                         "set on some flavors only; the unlimited flavors leave " + std::string(target) +
                             " with no cap for " + res);
        }
    }
    return out;
}

} // namespace

std::vector<NeutralQuota> neutralQuotas(const QueueTree& tree, const Cluster& cluster, const char* target,
                                        LossLog& losses) {
    std::vector<NeutralQuota> out(tree.nodes.size());
    // Children come after their parent, so a reverse walk sees every subtree complete.
    for (size_t k = tree.nodes.size(); k-- > 0;) {
        const QueueNode& n = tree.nodes[k];
        const Queue& q = *n.queue;
        NeutralQuota& nq = out[k];
        switch (q.kind) {
        case Queue::Kind::Queue:
            nq.reserved = q.guarantee;
            nq.entitled = q.deserved;
            nq.cap = q.capability;
            break;
        case Queue::Kind::YuniKornQueue:
            nq.entitled = renamed(q.guaranteed, fromYuniKornResource);
            nq.cap = renamed(q.max, fromYuniKornResource);
            break;
        case Queue::Kind::KueueClusterQueue:
            nq = kueueOwnQuota(q, !q.parent.empty(), cluster, target, losses);
            break;
        case Queue::Kind::KueueCohort: {
            // A cohort's quota adds to its members': the subtree holds own + children. Its limits
            // apply to the subtree: borrowingLimit is what the subtree may borrow from the parent,
            // lendingLimit what of the subtree's quota the parent may use.
            NeutralQuota own = kueueOwnQuota(q, true, cluster, target, losses);
            nq.entitled = own.entitled;
            ResourceList childReserved;
            for (int c : n.children) {
                nq.entitled += out[size_t(c)].entitled;
                childReserved += out[size_t(c)].reserved;
            }
            nq.reserved = childReserved;
            for (const auto& g : q.resourceGroups)
                for (const auto& f : g.flavors)
                    for (const auto& r : f.resources)
                        if (r.lendingLimit && g.flavors.size() == 1)
                            nq.reserved.set(r.resource, std::max<int64_t>(0, nq.entitled.get(r.resource) -
                                                                                 *r.lendingLimit));
            for (const auto& [res, amount] : own.cap) // own.cap = own nominal + borrowingLimit
                nq.cap.set(res, nq.entitled.get(res) + (amount - own.entitled.get(res)));
            break;
        }
        }
    }
    return out;
}

void nameQueues(QueueTree& tree, std::string (*valid)(const std::string&), const std::string& rule,
                LossLog& losses) {
    for (auto& n : tree.nodes) {
        std::string name = valid(n.queue->name);
        if (name != n.queue->name)
            losses.queue(*n.queue, "name", "not a valid " + rule + "; exported as " + name);
        n.name = name;
    }
}

} // namespace gantry
