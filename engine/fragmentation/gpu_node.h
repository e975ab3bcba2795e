#pragma once
// What GPU fragmentation and GPU-sharing placement see of a node and of a task: flat, fixed-size
// values so a cluster is one array and the placement loop never allocates.
#include <array>
#include <cstdint>
#include <string>

namespace gantry::frag {

inline constexpr int32_t kMilliPerGpu = 1000;
inline constexpr int kMaxGpusPerNode = 16;
inline constexpr int kMaxGpuModels = 64;

using ModelId = int16_t; // index into the cluster's model table; -1 = the node names no model

// The GPU models a task accepts. Empty spec = any model; a spec naming only models that no node has
// accepts no node at all (the task can only be placed if it needs no GPU).
struct ModelSet {
    bool any = true;
    uint64_t mask = 0;
    bool allows(ModelId model) const { return any || (model >= 0 && (mask >> model) & 1); }
    bool operator==(const ModelSet&) const = default;
};

// A task as placement sees it ("shape"): memory matters for fitting but not for fragmentation.
struct TaskShape {
    int64_t cpuMilli = 0;
    int32_t gpuMilli = 0; // per GPU; 0 = the task needs no GPU
    int32_t gpuCount = 0;
    ModelSet models;
    std::string gpuSpec; // the constraint as written ('|'-joined); part of the shape's identity
    // A MIG instance profile asked for as the device plugin's nvidia.com/mig-<profile> resource: the
    // cluster state's dimension (-1: none) and the amount in milli-units.
    int32_t migDim = -1;
    int64_t migAmount = 0;
    int64_t totalGpuMilli() const { return int64_t(gpuMilli) * gpuCount; }
    bool sharesGpu() const { return gpuCount == 1 && gpuMilli < kMilliPerGpu; }
    bool operator==(const TaskShape&) const = default;
};

// GPU-affinity classes of the GpuClustering policy: index 0 = GPU-sharing tasks, k = tasks of k
// whole GPUs.
inline constexpr int kAffinityClasses = kMaxGpusPerNode + 1;
inline int affinityClass(const TaskShape& t) {
    return t.gpuCount == 0 ? -1 : t.sharesGpu() ? 0 : t.gpuCount;
}

struct NodeState {
    int64_t cpuLeft = 0, cpuCapacity = 0;       // milli-CPU
    int64_t memoryLeft = 0, memoryCapacity = 0; // MiB
    int32_t podsLeft = INT32_MAX;
    int32_t gpuCount = 0;
    ModelId model = -1;
    std::array<int16_t, kMaxGpusPerNode> gpuLeft{};   // free milli of each device, by device index
    std::array<int16_t, kAffinityClasses> affinity{}; // tasks placed, per affinity class

    int64_t gpuLeftTotal() const {
        int64_t sum = 0;
        for (int g = 0; g < gpuCount; ++g) sum += gpuLeft[g];
        return sum;
    }
    int fullyFreeGpus() const {
        int n = 0;
        for (int g = 0; g < gpuCount; ++g) n += gpuLeft[g] == kMilliPerGpu;
        return n;
    }
    // Devices with at least `milli` free.
    int gpusWithAtLeast(int32_t milli) const {
        int n = 0;
        for (int g = 0; g < gpuCount; ++g) n += gpuLeft[g] >= milli;
        return n;
    }
    int affinityKinds() const {
        int n = 0;
        for (auto c : affinity) n += c > 0;
        return n;
    }
};

// A fresh node of the given size, all devices free.
NodeState makeNode(int64_t cpuMilli, int64_t memoryMiB, int32_t gpuCount, ModelId model);

} // namespace gantry::frag
