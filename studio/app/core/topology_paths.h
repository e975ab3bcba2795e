#pragma once
// A node's place in the topology tree as the studio shows it: the values of the topology labels,
// top level first, and the tree those values make (the preview of HyperNodes / a Kueue Topology).
#include "gpumap/gpu_map_geometry.h"
#include "model/cluster.h"

#include <QStringView>
#include <string>
#include <vector>

namespace gantry::studio {

// The cluster's topology levels, or Gantry's defaults when none were given.
std::vector<TopologyLevel> effectiveLevels(const Cluster& cluster);
// Label values of the node for each level ("" where the node has no such label).
std::vector<std::string> nodePath(const Node& node, const std::vector<TopologyLevel>& levels);
// The node's pool: the inventory pool, else the cloud's node-pool label (Karpenter, GKE, EKS, AKS),
// else its instance type. "" when none is known.
std::string nodePool(const Node& node);
// "zone eu-1 › rack r07" for tooltips.
std::string topologyDescription(const Cluster& cluster, const Node& node);
// Orders "rack-2" before "rack-10".
bool naturalLess(const std::string& a, const std::string& b);
// The same, case-insensitive, on Qt strings (for sorting views without converting).
bool naturalLessCaseInsensitive(QStringView a, QStringView b);

// The levels some node actually carries a label for.
std::vector<int> usedLevels(const Cluster& cluster, const std::vector<TopologyLevel>& levels);

// Sections = the top used level (zones); groups = the full path below it (racks, NVLink domains).
// Without topology labels, nodes are grouped by pool, then by GPU model.
GpuMapLayout buildGpuMapLayout(const Cluster& cluster);

// The tree the labels make, for the Topology preview. Node 0 is the cluster root.
struct TopologyTree {
    struct Entry {
        std::string name; // label value ("" for the root)
        int level = -1;   // index into levels; -1 = root
        int parent = -1;
        std::vector<int> children;
        int nodes = 0; // cluster nodes below
        int gpus = 0;
    };
    std::vector<TopologyLevel> levels; // used levels only, top first
    std::vector<Entry> entries;
    int unplacedNodes = 0; // nodes missing a label of some used level
};
TopologyTree buildTopologyTree(const Cluster& cluster);

} // namespace gantry::studio
