#pragma once
// Growing or shrinking one type of node in a cluster, the way the operator would buy or retire them:
// a pool's new nodes copy its last node and continue its layout (zones kept even, racks, blocks and
// NVLink domains filled to the sizes the pool already has, new ones numbered after the cluster's
// highest), with names of their own; nodes leave from the zone that has the most of them.
#include "model/cluster.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gantry::plan {

// The pool a node belongs to as users name it: Node::pool (an inventory's or a project's pool),
// else the gantry.io/pool label, else a cloud provider's node-group label (Karpenter, GKE, EKS, AKS),
// else the instance type. Empty when none says.
std::string nodePoolOf(const Node& node);

struct PoolSummary {
    std::string name;
    int64_t nodes = 0;
    int64_t removable = 0;   // nodes no pod of the cluster is bound to
    int32_t gpusPerNode = 0; // physical GPUs (a GPU split into MIG instances once)
    std::string gpuModel;
};
// The cluster's pools in the order their first node appears.
std::vector<PoolSummary> nodePools(const Cluster& cluster);

// One type of node: a pool of the cluster, or a node given as a template (which can only be added).
struct NodeType {
    std::string name;                 // the pool's name, or the template's node name
    std::optional<Node> templateNode; // set: new nodes copy it, labels and all
    static NodeType pool(std::string name) { return {std::move(name), std::nullopt}; }
    static NodeType fromTemplate(Node node) {
        std::string n = node.name;
        return {std::move(n), std::move(node)};
    }
};

struct NodeChange {
    std::vector<std::string> added, removed; // node names
    // What the caller should know: HyperNodes the added nodes are not in, and the like.
    std::vector<std::string> notes;
};

// Adds `delta` nodes of the type (delta > 0) or removes -delta of them (delta < 0). The cluster's
// HyperNodes follow when they were made from the topology labels (an inventory's `hyperNodes: true`):
// they are made again from the changed nodes. Throws std::invalid_argument when the cluster has no
// such pool, when a template would be removed, or when fewer nodes than asked carry no pods.
NodeChange changeNodes(Cluster& cluster, const NodeType& type, int64_t delta);

// How many nodes of the type exist, and how many of them could be removed.
PoolSummary summaryOf(const Cluster& cluster, const NodeType& type);

} // namespace gantry::plan
