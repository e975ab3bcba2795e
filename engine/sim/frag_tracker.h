#pragma once
// The FGD paper's fragmentation measure (fragmentation/fragmentation.h) and why idle GPUs are idle
// (fragmentation/idle_breakdown.h), with the idle MIG instances (fragmentation/mig_idle.h), kept up
// to date on a simulated cluster: each node's share is
// recomputed only when the simulator changed that node. Room for large jobs per topology level
// (fragmentation/topology_slots.h) on demand.
#include "fragmentation/fragmentation.h"
#include "fragmentation/idle_breakdown.h"
#include "fragmentation/mig_idle.h"
#include "fragmentation/state_view.h"
#include "fragmentation/topology_slots.h"
#include "model/topology.h"
#include "sim/workload.h"
#include "state/cluster_state.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gantry::sim {

class FragTracker {
  public:
    // The target workload is the distribution of the workload's pod shapes (count-weighted);
    // levels are the cluster's topology levels, top first (as the model lists them).
    FragTracker(const engine::ClusterState& state, const SimWorkload& workload,
                const std::vector<TopologyLevel>& levels);

    bool measured() const { return !target_.shapes.empty() && totalMilli_ + migTotalMilli_ > 0; }
    void touch(uint32_t node) {
        if (!dirty_[node]) {
            dirty_[node] = 1;
            dirtyList_.push_back(node);
        }
    }
    frag::ClusterFragmentation measure();                        // brings every touched node up to date
    const frag::IdleBreakdown& idle() const { return idleSum_; } // as of the last measure()
    // Whether some node offers MIG instances as resources; their idle ones as of the last measure().
    bool hasMig() const { return !migDims_.empty(); }
    const frag::MigIdle& migIdle() const { return migSum_; }
    std::vector<frag::LevelSlots> topologySlots();
    std::vector<std::string> describeTarget() const;

  private:
    frag::StateView view_;
    frag::TargetWorkload target_;
    std::vector<frag::FragBuckets> cached_;
    frag::GpuPodFloor floor_;
    std::vector<frag::IdleBreakdown> idle_;
    frag::IdleBreakdown idleSum_;
    const engine::ClusterState& state_;
    std::vector<frag::MigDim> migDims_;
    std::vector<frag::MigAsk> migAsks_; // the workload's pods that ask for a MIG profile
    std::vector<frag::MigIdle> mig_;
    frag::MigIdle migSum_;
    std::vector<frag::MigFragment> migFragment_;    // per node: its free instances in F(M)
    int64_t migTotalMilli_ = 0;                     // GPUs in MIG mode (frag::migModeGpuMilli)
    int64_t totalMilli_ = 0;                        // the other GPUs, physical ones
    std::vector<int8_t> singleSlices_;              // per node: frag::singleStrategySlices
    std::vector<std::string> levelNames_;           // "node", then the labelled levels, lowest first
    std::vector<std::vector<int32_t>> levelDomain_; // per level, per node: its domain, -1 = unlabelled
    std::vector<uint8_t> dirty_;
    std::vector<uint32_t> dirtyList_;
};

} // namespace gantry::sim
