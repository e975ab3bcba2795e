#pragma once
// The FGD paper's fragmentation measure (fragmentation/fragmentation.h) kept up to date on a
// simulated cluster: each node's share is recomputed only when the simulator changed that node.
#include "fragmentation/fragmentation.h"
#include "fragmentation/state_view.h"
#include "sim/workload.h"
#include "state/cluster_state.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gantry::sim {

class FragTracker {
  public:
    // The target workload is the distribution of the workload's pod shapes (count-weighted).
    FragTracker(const engine::ClusterState& state, const SimWorkload& workload);

    bool measured() const { return !target_.shapes.empty() && view_.totalGpuMilli() > 0; }
    void touch(uint32_t node) {
        if (!dirty_[node]) {
            dirty_[node] = 1;
            dirtyList_.push_back(node);
        }
    }
    frag::ClusterFragmentation measure();
    std::vector<std::string> describeTarget() const;

  private:
    frag::StateView view_;
    frag::TargetWorkload target_;
    std::vector<frag::FragBuckets> cached_;
    std::vector<uint8_t> dirty_;
    std::vector<uint32_t> dirtyList_;
};

} // namespace gantry::sim
