#pragma once
// Topology-aware scheduling (Kueue's TAS): each topology-aware flavor sees its nodes (matching the
// flavor's node labels, carrying every level label, schedulable and Ready) as a tree of domains, one
// level per Topology level. A pod set's request is placed by counting how many pods fit each leaf
// (its free capacity: allocatable minus the pods running there and minus other workloads' topology
// assignments), rolling the counts up the tree, choosing the level and domains (best fit, or least
// free capacity for unconstrained requests) and descending level by level to the leaves.
#include "model/kueue_workload.h"
#include "profiles/kueue/world.h"
#include "state/cluster_state.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gantry::engine::kueue {

struct TasRequest {
    int podSet = -1;
    int flavor = -1;
    int32_t count = 0;
    uint32_t shape = UINT32_MAX; // a pod of the pod set: requests (by dimension), selector, tolerations
    KueueTopologyRequest topology;
    bool implied = false; // no request of its own in a ClusterQueue of topology-aware flavors only
};

struct TasResult {
    std::string failure; // empty = every request placed
    int failedPodSet = -1;
    int failedFlavor = -1;
    std::vector<std::pair<int, KueueTopologyAssignment>> assignments; // pod set -> placement
};

class TasIndex {
  public:
    TasIndex(const World& w, const ClusterState& st);

    // Whether the flavor's topology has the levels the request names.
    bool hasLevel(int flavor, const KueueTopologyRequest& r) const;
    // Places the requests (grouped by flavor, in flavor name order). simulateEmpty: as if no
    // workload held topology usage.
    TasResult find(const std::vector<TasRequest>& requests, bool simulateEmpty) const;
    // Topology usage of an admitted pod set (+1) or its release (-1).
    void addUsage(int flavor, const KueueTopologyAssignment& a, uint32_t shape, int sign);
    // Whether the placements still fit the free capacity (admission against one snapshot).
    bool fits(const std::vector<std::pair<int, KueueTopologyAssignment>>& placements,
              const std::vector<uint32_t>& shapes, const std::vector<int>& flavors) const;
    // Recomputes the capacity the pods on each node take (pods of topology-assigned workloads
    // excepted: `tasTasks` marks them).
    void refreshNodeUsage(const std::vector<uint8_t>& tasTasks);

  private:
    struct Domain {
        std::vector<std::string> values; // level values from the top
        int parent = -1;
        std::vector<int> children;
        int node = -1;          // leaves: the cluster state node (lowest level hostname), else -1
        std::vector<int> nodes; // leaves: nodes of the leaf domain
    };
    struct FlavorTree {
        int topology = -1;
        std::vector<std::string> levels;
        bool lowestIsNode = false;
        std::vector<Domain> domains;
        std::vector<std::vector<int>> perLevel; // level -> domain indices
        std::vector<int> leaves;
        std::map<std::vector<std::string>, int> leafByValues; // by the values of the lowest level domain path
        std::vector<std::vector<int64_t>> tasUsage;           // leaf -> usage by dimension
    };
    const World& w_;
    const ClusterState& st_;
    std::vector<FlavorTree> trees_; // by flavor; empty tree for flavors without topology
    std::vector<int64_t> nodeUsed_; // per node, by dimension: pods not placed by topology

    std::string place(const FlavorTree& t, const TasRequest& r, bool simulateEmpty,
                      const std::map<int, std::vector<int64_t>>& assumed, KueueTopologyAssignment* out) const;
    // Nodes do not change during a run: which leaves a pod shape may use on a flavor (taints with
    // the flavor's tolerations, node selector and affinity) is worked out once.
    mutable std::map<std::pair<int, uint32_t>, std::vector<uint8_t>>
        eligible_;                         // (flavor, shape) -> per domain
    mutable std::vector<int64_t> scratch_; // free capacity of one leaf
    const std::vector<uint8_t>& eligibleLeaves(const FlavorTree& t, int flavor, uint32_t shape) const;
    void leafFree(const FlavorTree& t, int leaf, bool simulateEmpty, std::vector<int64_t>& free) const;
    int leafOf(const FlavorTree& t, const std::vector<std::string>& values) const;
};

} // namespace gantry::engine::kueue
