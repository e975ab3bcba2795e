#pragma once
#include "model/diagnostic.h"
#include "model/resources.h"
#include "model/selectors.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gantry {

// The GPUs of a node. Nodes are homogeneous in practice (one model per node); shares are per device
// in milli-GPU (1000 = the whole device), as in the Alibaba trace and GPU-sharing schedulers.
struct GpuDevices {
    std::string model;       // e.g. "A100-SXM4-80GB", "H100", "T4"; empty when unknown
    int32_t count = 0;       // number of physical devices
    int64_t memoryBytes = 0; // per device; 0 when unknown
    std::string resourceName = std::string(res::NvidiaGpu); // extended resource that counts them
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
