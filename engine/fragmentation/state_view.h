#pragma once
// What GPU fragmentation sees of the compiled cluster (state/cluster_state.h): the table of its
// nodes' GPU models, each pod shape as a task shape, and each node as a NodeState read from the
// state as it is now: Volcano's idle CPU and the free milli of every device, which the state updates
// on every placement (a session's tentative ones included, undone with them). The simulator's
// measure and the fgd node-order plugin both read nodes here, so there is one copy of the devices.
#include "fragmentation/task_shape.h"
#include "state/cluster_state.h"

#include <cstdint>
#include <vector>

namespace gantry::frag {

class StateView {
  public:
    explicit StateView(const engine::ClusterState& state);

    const GpuModelTable& models() const { return models_; }
    TaskShape shape(const engine::PodShape& pod) const;
    // The node now. A node that imported pods overcommit reads as full, not below zero; devices
    // beyond kMaxGpusPerNode are not seen.
    NodeState node(uint32_t n) const;
    int64_t totalGpuMilli() const { return totalGpuMilli_; }

  private:
    const engine::ClusterState& st_;
    GpuModelTable models_;
    std::vector<ModelId> nodeModel_;
    int64_t totalGpuMilli_ = 0;
};

} // namespace gantry::frag
