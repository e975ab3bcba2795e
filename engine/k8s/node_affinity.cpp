#include "k8s/node_affinity.h"

namespace gantry::engine::k8s {

bool passesNodeAffinity(const PodShape& pod, const NodeRec& node, const std::string& nodeName) {
    return matchesNodeSelectorAndAffinity(pod.nodeSelector, pod.nodeAffinity, node.labels, nodeName);
}

int64_t nodeAffinityScore(const PodShape& pod, const NodeRec& node, const std::string& nodeName) {
    if (!pod.nodeAffinity) return 0;
    int64_t count = 0;
    for (const auto& p : pod.nodeAffinity->preferred) {
        if (p.weight == 0) continue;
        if (matches(p.preference, node.labels, nodeName)) count += p.weight;
    }
    return count;
}

} // namespace gantry::engine::k8s
