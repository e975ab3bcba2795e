#pragma once
// kube-scheduler's search for feasible nodes (findNodesThatFitPod, findNodesThatPassFilters in
// pkg/scheduler/schedule_one.go): on a large cluster it stops once numFeasibleNodesToFind nodes
// passed the filters, and the next pod's search starts where this one stopped, in the node tree's
// zone-interleaved order, so every node gets its turn. Only the nodes found are scored.
//
// Upstream filters the nodes in parallel (16 workers), so which nodes past the first ones it
// checks before it stops varies from run to run; here the search is the sequential one its code
// describes: the first K nodes that pass, from the start index on.
#include "model/selectors.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gantry::engine::k8s {

// minFeasibleNodesToFind and minFeasibleNodesPercentageToFind in schedule_one.go.
inline constexpr int32_t kMinFeasibleNodesToFind = 100;
inline constexpr int32_t kMinFeasibleNodesPercentageToFind = 5;

// How many feasible nodes end the search: every node below 100; otherwise the percentage (the
// profile's, else the configuration's; 0 or unset: 50 - nodes/125, at least 5) of the nodes, at
// least 100.
int32_t numFeasibleNodesToFind(std::optional<int32_t> percentageOfNodesToScore, int32_t numAllNodes);

// The node tree's zone key (GetZoneKey in k8s.io/component-helpers/node/topology): region and zone
// from failure-domain.beta.kubernetes.io/{region,zone} where the node has that key, else from
// topology.kubernetes.io/{region,zone}; empty when both are.
std::string zoneKey(const Labels& labels);

// nodeTree.list(): the zones in the order their first node was added, then one node of each zone
// in turn, each zone's nodes in the order they were added. `zoneOfAdded[i]` is the zone key of the
// i-th node added; the result lists those indexes.
std::vector<uint32_t> nodeTreeOrder(const std::vector<std::string>& zoneOfAdded);

// The search state a scheduler keeps from pod to pod and cycle to cycle (nextStartNodeIndex).
class NodeSearch {
  public:
    // The scheduler's node list (nodeTreeOrder over the nodes as they were added). Resets the
    // start index when the list changes.
    void setOrder(std::vector<uint32_t> order);
    const std::vector<uint32_t>& order() const { return order_; }
    bool hasOrder() const { return !order_.empty(); }
    uint32_t next() const { return next_; }

    // From the start index on, the first `toFind` nodes `passes` accepts go to `found`; the start
    // index moves past the nodes checked (the ones that passed and the ones that failed), modulo the
    // number of nodes. `passes(node)` is called once per node checked.
    template <class Passes> void find(uint32_t toFind, Passes&& passes, std::vector<uint32_t>& found) {
        found.clear();
        const auto n = uint32_t(order_.size());
        uint32_t checked = 0;
        while (checked < n && found.size() < toFind) {
            const uint32_t node = order_[(next_ + checked) % n];
            ++checked;
            if (passes(node)) found.push_back(node);
        }
        if (n > 0) next_ = (next_ + checked) % n;
    }

  private:
    std::vector<uint32_t> order_;
    uint32_t next_ = 0;
};

} // namespace gantry::engine::k8s
