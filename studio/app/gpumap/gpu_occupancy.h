#pragma once
// Who holds which GPU: the flat per-GPU arrays the GPU map paints, built either from the pods bound
// in a snapshot or from the placements of a what-if run.
#include "fragmentation/idle_breakdown.h"
#include "model/cluster.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace gantry::studio {

// One pod's hold on GPU devices of one node.
struct GpuPlacement {
    int node = -1;
    GpuRequest gpu;                       // count and share per device
    std::vector<int32_t> indices;         // devices, when the source knows them
    int32_t job = -1;                     // index into GpuOccupancy::jobs
    int32_t queue = -1;                   // index into GpuOccupancy::queues
    int64_t cpuMilli = 0;                 // CPU the pod holds on the node (for fragmentation)
    std::vector<std::string> migProfiles; // MIG instances it holds, one entry each
};

// One MIG instance of a partitioned GPU, as the map draws it: a part of the GPU's width.
struct MigSlot {
    std::string profile;
    int8_t computeSlices = 1; // of the GPU's 7
    int8_t memorySlices = 1;  // of the GPU's 8
    int32_t job = -1;         // holder; -1 = free
    int32_t queue = -1;
    bool asked = false; // a pod of the job mix asks for its profile (set with the idle measure)
};

struct GpuOccupancy {
    std::vector<int32_t> gpuOffset;       // node -> first GPU; size nodes + 1
    std::vector<uint16_t> usedMilli;      // per GPU, 0..1000
    std::vector<int32_t> job;             // per GPU: the job holding most of it, -1 = free
    std::vector<int32_t> queue;           // per GPU: that job's queue, -1 = none
    std::vector<uint8_t> holders;         // per GPU: how many pods share it
    std::vector<float> fragmentation;     // per GPU, 0..1; NaN = not measured
    std::vector<frag::IdleClass> idleWhy; // per GPU: why its idle capacity is idle; empty = not measured
    std::vector<std::string> jobs;        // "ns/name"
    std::vector<std::string> queues;
    int64_t totalGpus = 0;
    int64_t allocatedMilli = 0;
    int64_t unplacedMilli = 0; // requests that did not fit their node's devices (inconsistent input)
    // MIG instances of each GPU: GPU g's are migSlots[migOffset[g] .. migOffset[g + 1]); none for a
    // GPU not in MIG mode. Empty when no node has MIG.
    std::vector<int32_t> migOffset;
    std::vector<MigSlot> migSlots;

    int gpuIndex(int node, int gpu) const { return gpuOffset[size_t(node)] + gpu; }
    int gpuCount(int node) const { return gpuOffset[size_t(node) + 1] - gpuOffset[size_t(node)]; }
    bool hasFragmentation() const { return !fragmentation.empty() && !std::isnan(fragmentation.front()); }
};

// GPUs of a node as the map shows them: its physical GPUs (a MIG-partitioned GPU once, DRA devices
// too), the device count, or the GPU resource's allocatable.
int gpuDeviceCount(const Node& node);

// A pod's GPU request as the map reads it: the request itself, or for a pod that only states a GPU
// resource, that many whole devices (a share of one device below 1000 milli).
GpuRequest podGpuRequest(const ResourceList& requests, const GpuRequest& gpu);

// The pods bound to nodes in the cluster (Pending-but-bound and Running; finished pods hold
// nothing). Jobs are PodGroups (or the owning workload, or the pod itself); queues come from the
// PodGroup.
std::vector<GpuPlacement> placementsFromCluster(const Cluster& cluster, std::vector<std::string>* jobs,
                                                std::vector<std::string>* queues);

// Assigns placements to devices: known indices first, then whole GPUs on the lowest free devices,
// then shares best-fit on the fullest device that still has room (as GPU-sharing schedulers do).
GpuOccupancy buildOccupancy(const Cluster& cluster, const std::vector<GpuPlacement>& placements,
                            std::vector<std::string> jobs, std::vector<std::string> queues);

} // namespace gantry::studio
