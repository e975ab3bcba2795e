#pragma once
#include "model/diagnostic.h"
#include "model/resources.h"
#include "model/selectors.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gantry {

// MIG instances of one profile a node offers ("1g.10gb": 7), through the device plugin's
// nvidia.com/mig-<profile> resources or as DRA devices of type mig.
struct MigSlices {
    std::string profile;
    int32_t count = 0;
    bool operator==(const MigSlices&) const = default;
};

// The GPUs of a node. Nodes are homogeneous in practice (one model per node); shares are per device
// in milli-GPU (1000 = the whole device), as in the Alibaba trace and GPU-sharing schedulers.
struct GpuDevices {
    std::string model;       // e.g. "A100-SXM4-80GB", "H100", "T4"; empty when unknown
    int32_t count = 0;       // devices a pod can ask for by resourceName (whole GPUs, or MIG
                             // instances under the single strategy)
    int64_t memoryBytes = 0; // per device; 0 when unknown
    std::string resourceName = std::string(res::NvidiaGpu); // extended resource that counts them
    // Physical GPUs when they differ from count: a GPU split into MIG instances counts once, and
    // GPUs published only as DRA devices are here with count 0. 0: as count.
    int32_t physical = 0;
    std::vector<MigSlices> mig; // MIG instances offered, by profile name
    // "" the device plugin; "mig-single" its single MIG strategy (count counts MIG instances);
    // "dra" DRA devices.
    std::string exposure;
    int32_t physicalGpus() const { return physical > 0 ? physical : count; }
    bool operator==(const GpuDevices&) const = default;
};

struct Node {
    std::string name;
    Labels labels;
    Labels annotations;
    ResourceList capacity;
    ResourceList allocatable;
    std::vector<Taint> taints;
    bool unschedulable = false;
    bool ready = true;
    GpuDevices gpus;
    std::string pool; // inventory pool that produced it; empty for imported nodes
    SourceRef source;
    bool operator==(const Node& o) const {
        return name == o.name && labels == o.labels && annotations == o.annotations &&
               capacity == o.capacity && allocatable == o.allocatable && taints == o.taints &&
               unschedulable == o.unschedulable && ready == o.ready && gpus == o.gpus && pool == o.pool;
    }
};

} // namespace gantry
