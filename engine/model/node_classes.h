#pragma once
// Nodes grouped the way a scheduler's flavors or pools would group them: by GPU model ("cpu" for
// nodes without GPUs), each with a label selector that picks exactly its nodes. The exporters write
// them as ResourceFlavors or node labels; the Kueue mapping makes its flavors of them.
#include "model/cluster.h"

#include <string>
#include <vector>

namespace gantry {

// When no existing label picks a class's nodes, `patchLabel` is set: the selector is
// gantry.io/node-class, which the export's node label patches write.
struct NodeClass {
    std::string name;     // "gpu-h100-80gb", "cpu"
    std::string gpuModel; // "" for CPU nodes
    std::vector<const Node*> nodes;
    Labels selector;
    bool patchLabel = false;
    std::vector<Taint> commonTaints;
    ResourceList capacity; // allocatable summed
};
inline constexpr const char* kNodeClassLabel = "gantry.io/node-class";

// GPU classes by model name, CPU nodes last.
std::vector<NodeClass> nodeClasses(const Cluster& cluster);

// The topology levels the nodes carry (top first): the cluster's own, else the default labels that
// at least one node has.
std::vector<TopologyLevel> usedTopologyLevels(const Cluster& cluster);

} // namespace gantry
