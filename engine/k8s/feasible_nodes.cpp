#include "k8s/feasible_nodes.h"

#include <map>

namespace gantry::engine::k8s {

int32_t numFeasibleNodesToFind(std::optional<int32_t> percentageOfNodesToScore, int32_t numAllNodes) {
    if (numAllNodes < kMinFeasibleNodesToFind) return numAllNodes;
    int32_t percentage = percentageOfNodesToScore.value_or(0);
    if (percentage == 0) {
        percentage = 50 - numAllNodes / 125;
        if (percentage < kMinFeasibleNodesPercentageToFind) percentage = kMinFeasibleNodesPercentageToFind;
    }
    // Go's int32 arithmetic: the product stays below 2^31 for any cluster Gantry can hold.
    const int64_t numNodes = int64_t(numAllNodes) * percentage / 100;
    if (numNodes < kMinFeasibleNodesToFind) return kMinFeasibleNodesToFind;
    return int32_t(numNodes);
}

std::string zoneKey(const Labels& labels) {
    // The deprecated beta label wins whenever it is there, even empty (upstream tests the key).
    auto value = [&](const char* key, const char* beta) {
        if (auto it = labels.find(beta); it != labels.end()) return it->second;
        if (auto it = labels.find(key); it != labels.end()) return it->second;
        return std::string();
    };
    const std::string zone = value("topology.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/zone");
    const std::string region =
        value("topology.kubernetes.io/region", "failure-domain.beta.kubernetes.io/region");
    if (region.empty() && zone.empty()) return {};
    // The NUL keeps "a:b" + "c" apart from "a" + "b:c", as upstream's key does.
    return region + std::string(":\0:", 3) + zone;
}

std::vector<uint32_t> nodeTreeOrder(const std::vector<std::string>& zoneOfAdded) {
    std::map<std::string, size_t> zoneIndex;
    std::vector<std::vector<uint32_t>> zones; // in the order their first node was added
    for (uint32_t i = 0; i < zoneOfAdded.size(); ++i) {
        auto [it, added] = zoneIndex.emplace(zoneOfAdded[i], zones.size());
        if (added) zones.emplace_back();
        zones[it->second].push_back(i);
    }
    std::vector<uint32_t> order;
    order.reserve(zoneOfAdded.size());
    for (size_t round = 0; order.size() < zoneOfAdded.size(); ++round)
        for (const auto& zone : zones)
            if (round < zone.size()) order.push_back(zone[round]);
    return order;
}

void NodeSearch::setOrder(std::vector<uint32_t> order) {
    if (order != order_) next_ = 0;
    order_ = std::move(order);
}

} // namespace gantry::engine::k8s
