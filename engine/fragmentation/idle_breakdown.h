#pragma once
// Why idle GPUs are idle, in words an operator can act on. Every free GPU milli of a node falls in
// exactly one class, checked in this order:
//   stranded    the node's CPU or memory left cannot take any GPU shape of the workload: nothing
//               can use its free GPUs until CPU or memory is freed (all its free milli)
//   fractional  left over on partly used devices (shared GPUs): only shares fit there
//   scattered   whole free devices on a node where no GPU shape of the workload fits (too few free
//               devices together, or the wrong model): free, yet not where a job could use it
//   usable      whole free devices some GPU shape of the workload can take on its node
// The workload's GPU shapes are the FGD target workload's (fragmentation.h) that need a GPU.
#include "fragmentation/fragmentation.h"
#include "fragmentation/gpu_node.h"

#include <cstdint>
#include <span>

namespace gantry::frag {

struct IdleBreakdown {
    int64_t stranded = 0, fractional = 0, scattered = 0, usable = 0; // GPU milli
    int64_t idle() const { return stranded + fractional + scattered + usable; }
    IdleBreakdown& operator+=(const IdleBreakdown& o);
    IdleBreakdown& operator-=(const IdleBreakdown& o);
};

// What a node's CPU and memory must have left for a GPU pod of the workload: the smallest CPU and
// memory any GPU shape asks for.
struct GpuPodFloor {
    int64_t cpuMilli = 0;
    int64_t memoryMiB = 0;
};

// Whether a node's CPU or memory left is below every GPU pod of the workload.
bool strandsGpus(const NodeState& node, const GpuPodFloor& floor);

IdleBreakdown idleBreakdown(const NodeState& node, const TargetWorkload& workload, const GpuPodFloor& floor);

// The same classes per device, for maps: out[g] for each of the node's devices (None when the device
// has nothing idle). idleBreakdown is their sum.
enum class IdleClass : uint8_t { None, Usable, Fractional, Scattered, Stranded };
void idleClasses(const NodeState& node, const TargetWorkload& workload, const GpuPodFloor& floor,
                 std::span<IdleClass> out);

} // namespace gantry::frag
