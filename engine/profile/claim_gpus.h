#pragma once
// The GPUs that DRA devices are (the NVIDIA DRA driver's whole GPUs and MIG devices), as a
// scheduler's ledger of claims sees them: no extended resource of the node counts them, so the
// simulator's GPU measures ask the profile. Milli-GPU, a MIG compute slice a seventh of a GPU.
#include <cstdint>

namespace gantry::engine {

struct ClaimGpus {
    int64_t held = 0; // devices of allocated claims
    // Free, by why (fragmentation/idle_breakdown.h's words): some pod's claim asks for such a device;
    // MIG compute no profile a pod asks for can use (a fixed MIG device nobody asks for, or the
    // counters left on a dynamically partitioned GPU where no partition a pod asks for fits); a
    // whole GPU no pod asks for.
    int64_t usable = 0, layout = 0, scattered = 0;
    bool mig = false; // some device is a MIG device or a partition
};

} // namespace gantry::engine
