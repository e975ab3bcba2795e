#pragma once
// The queue tree of a cluster seen from any scheduler, with its quotas in neutral terms
// (docs/quota-mapping.md). Exporters and the profiles that run a project's queues under another
// scheduler's rules (YuniKorn) translate from it.
#include "model/cluster.h"
#include "model/loss_log.h"

#include <string>
#include <vector>

namespace gantry {

// The root (a queue named "root" at the top, or Kueue's cohort "root") is implicit; top-level
// queues have no parent here.
struct QueueNode {
    const Queue* queue = nullptr;
    std::string name; // name in the target (made unique and valid by the translation)
    int parent = -1;  // index into QueueTree::nodes; -1 = top level
    std::vector<int> children;
    bool leaf() const { return children.empty(); }
};

struct QueueTree {
    std::vector<QueueNode> nodes; // parents before children (depth-first, source order)
    const Queue* root = nullptr;  // the explicit root queue, if the source had one
    std::vector<int> topLevel;
    int find(const std::string& name) const; // by target name; -1 if none
};

QueueTree buildQueueTree(const Cluster& cluster);

// Quotas in neutral terms, resource names as Kubernetes spells them (cpu):
//   reserved: never lent          Volcano guarantee | Kueue nominal - lendingLimit | (YuniKorn: none)
//   entitled: the queue's share   Volcano deserved  | Kueue nominal                | YuniKorn guaranteed
//   cap:      hard upper limit    Volcano capability| Kueue nominal + borrowingLimit | YuniKorn max
// For an inner queue the amounts are its subtree's.
struct NeutralQuota {
    ResourceList reserved, entitled, cap;
};

// The neutral quota of every node of the tree; lossy steps (flavors summed, limits that do not
// carry over) go to `losses`, naming the target.
std::vector<NeutralQuota> neutralQuotas(const QueueTree& tree, const Cluster& cluster, const char* target,
                                        LossLog& losses);

// Gives every queue of the tree its name in the target; a name that had to change is a loss.
void nameQueues(QueueTree& tree, std::string (*valid)(const std::string&), const std::string& rule,
                LossLog& losses);

// YuniKorn spells CPU "vcore"; everything else keeps its name.
std::string fromYuniKornResource(const std::string& name);
std::string toYuniKornResource(const std::string& name);

} // namespace gantry
