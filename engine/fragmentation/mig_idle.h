#pragma once
// Idle MIG instances, for nodes whose GPUs the NVIDIA device plugin's mixed strategy splits into
// nvidia.com/mig-<profile> resources. A free instance is usable when some pod of the workload asks
// for its profile and, with the node's CPU and memory left, fits; otherwise the MIG layout strands
// it: the slices are free, but no profile a pod asks for can use them until the GPU is partitioned
// again. Amounts are GPU milli, an instance counting its compute slices out of a GPU's seven.
#include "fragmentation/fragmentation.h"
#include "state/cluster_state.h"

#include <cstdint>
#include <vector>

namespace gantry::frag {

struct MigIdle {
    int64_t usable = 0, layout = 0; // GPU milli
    MigIdle& operator+=(const MigIdle& o) {
        usable += o.usable;
        layout += o.layout;
        return *this;
    }
    MigIdle& operator-=(const MigIdle& o) {
        usable -= o.usable;
        layout -= o.layout;
        return *this;
    }
};

// One MIG resource of the state, and one pod of the workload that asks for it.
struct MigDim {
    int dim = 0;
    int computeSlices = 0;
};
struct MigAsk {
    int dim = 0;
    int64_t amount = 0; // milli-units, as the state keeps extended resources
    int64_t cpuMilli = 0, memoryBytes = 0;
};

// The MIG resources among the state's dimensions (empty: no node is partitioned that way).
std::vector<MigDim> migDims(const engine::ClusterState& state);

MigIdle migIdle(const engine::ClusterState& state, uint32_t node, const std::vector<MigDim>& dims,
                const std::vector<MigAsk>& asks);

// A node's free MIG instances as the FGD measure sees them (fragmentation.h): their GPU milli, and
// F_n(M)'s share of them, sum_m p_m times the free instance milli shape m cannot use. That is all of
// it, unless m asks for a profile (TaskShape::migDim) and fits: as many of its instances free and
// the CPU left. Then it is every instance but that profile's, as a whole-GPU shape can use every
// device with enough free milli.
struct MigFragment {
    int64_t free = 0;
    double fragmented = 0;
};
MigFragment migFragment(const engine::ClusterState& state, uint32_t node, const std::vector<MigDim>& dims,
                        const TargetWorkload& workload);

// Under the device plugin's single MIG strategy the node's GPU devices are instances of one profile:
// its compute slices (of a GPU's seven); 0 for any other node.
int singleStrategySlices(const engine::ClusterState& state, uint32_t node);

// GPU milli of a node's GPUs in MIG mode under the device plugin's mixed strategy (the physical GPUs
// that nvidia.com/gpu does not count), 0 for any other node.
int64_t migModeGpuMilli(const engine::ClusterState& state, uint32_t node);

} // namespace gantry::frag
