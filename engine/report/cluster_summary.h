#pragma once
// The facts `gantry inspect` prints and the studio shows for an opened project: nodes and GPUs by
// model, the topology, the queue tree with its quotas, pods bound and pending, workloads, policy.
#include "model/project.h"

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp> // the definitions that use it include json.hpp
#include <string>
#include <vector>

namespace gantry {

struct GpuModelSummary {
    std::string model; // "" = nodes without GPUs
    std::string resource;
    int nodes = 0;
    int gpusPerNode = 0; // largest seen
    int64_t gpus = 0;
    int64_t memoryBytes = 0; // per GPU, when known
};

struct TopologyLevelSummary {
    std::string name, nodeLabel;
    std::vector<std::pair<std::string, int>> domains; // value -> nodes, in name order
};

struct QueueLine {
    int depth = 0;
    const Queue* queue = nullptr;
};

struct ClusterSummary {
    std::string name, description;
    int nodes = 0, readyNodes = 0, unschedulableNodes = 0;
    ResourceList allocatable;                 // sum over nodes
    int64_t gpus = 0;                         // physical GPUs (a GPU split into MIG instances once)
    std::vector<GpuModelSummary> gpuModels;   // most GPUs first; the no-GPU row last
    std::map<std::string, int64_t> migSlices; // MIG instances offered, by profile
    int deviceClasses = 0, resourceSlices = 0, resourceClaims = 0, allocatedClaims = 0,
        resourceClaimTemplates = 0;
    int64_t draDevices = 0; // devices listed in the ResourceSlices
    std::vector<TopologyLevelSummary> topology;
    std::vector<std::pair<int, int>> hyperNodesByTier; // tier -> count
    std::vector<QueueLine> queueTree;                  // depth-first, children in file order
    int pods = 0, podsBound = 0, podsPending = 0, podsFinished = 0;
    int64_t gpusBound = 0; // whole-GPU equivalents requested by bound, unfinished pods (milli / 1000)
    int podGroups = 0;
    int workloadTemplates = 0;
    int64_t workloadJobs = 0, workloadPods = 0;
};

ClusterSummary summarize(const Project& project);

// Plain-text report (the body of `gantry inspect`); `origin` is the line under the title.
std::string formatSummary(const Project& project, const ClusterSummary& summary, const std::string& origin);

// `gantry inspect --json`: {"nodes": {"total", "ready"}, "gpus": {"total", "by_model", "mig"},
// "dra": {"device_classes", "resource_slices", "devices"}, "pods": {"total", "bound", "pending"},
// "warnings": n}, and more beside.
nlohmann::ordered_json summaryJson(const ClusterSummary& summary, size_t warnings);

// "cpu=2, nvidia.com/gpu=8" with GPUs first; "-" when empty.
std::string shortResources(const ResourceList& list);

} // namespace gantry
