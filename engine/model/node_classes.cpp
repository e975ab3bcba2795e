#include "model/node_classes.h"

#include "model/kubernetes_names.h"

#include <algorithm>
#include <map>

namespace gantry {

std::vector<NodeClass> nodeClasses(const Cluster& cluster) {
    std::map<std::string, NodeClass> byModel;
    for (const auto& n : cluster.nodes) {
        std::string model = n.gpus.count > 0 ? (n.gpus.model.empty() ? "gpu" : n.gpus.model) : "";
        NodeClass& c = byModel[model];
        c.gpuModel = model;
        c.name = model.empty() ? "cpu" : model == "gpu" ? "gpu" : "gpu-" + dnsLabel(model);
        c.nodes.push_back(&n);
        c.capacity += n.allocatable;
    }
    std::vector<NodeClass> out;
    for (auto& entry : byModel) {
        NodeClass& c = entry.second; // named: clang before 16 cannot capture a structured binding
        // A label every node of the class has with one value, and no other node has with that value.
        for (const char* key :
             {"nvidia.com/gpu.product", "node.kubernetes.io/instance-type", kNodeClassLabel}) {
            auto first = c.nodes.front()->labels.find(key);
            if (first == c.nodes.front()->labels.end()) continue;
            bool same = std::all_of(c.nodes.begin(), c.nodes.end(), [&](const Node* n) {
                auto it = n->labels.find(key);
                return it != n->labels.end() && it->second == first->second;
            });
            bool exclusive = std::none_of(cluster.nodes.begin(), cluster.nodes.end(), [&](const Node& n) {
                auto it = n.labels.find(key);
                return std::find(c.nodes.begin(), c.nodes.end(), &n) == c.nodes.end() &&
                       it != n.labels.end() && it->second == first->second;
            });
            if (same && exclusive) {
                c.selector[key] = first->second;
                break;
            }
        }
        if (c.selector.empty()) {
            c.selector[kNodeClassLabel] = c.name;
            c.patchLabel = true;
        }
        for (const auto& t : c.nodes.front()->taints)
            if (std::all_of(c.nodes.begin(), c.nodes.end(), [&](const Node* n) {
                    return std::find(n->taints.begin(), n->taints.end(), t) != n->taints.end();
                }))
                c.commonTaints.push_back(t);
        out.push_back(std::move(c));
    }
    std::stable_sort(out.begin(), out.end(), [](const NodeClass& a, const NodeClass& b) {
        return !a.gpuModel.empty() && b.gpuModel.empty();
    });
    return out;
}

std::vector<TopologyLevel> usedTopologyLevels(const Cluster& cluster) {
    if (!cluster.topologyLevels.empty()) return cluster.topologyLevels;
    std::vector<TopologyLevel> out;
    for (const auto& level : defaultTopologyLevels())
        if (std::any_of(cluster.nodes.begin(), cluster.nodes.end(),
                        [&](const Node& n) { return n.labels.count(level.nodeLabel) > 0; }))
            out.push_back(level);
    return out;
}

} // namespace gantry
