#pragma once
// The placement policies compared in the FGD paper, scoring nodes and choosing devices exactly as the
// authors' kube-scheduler plugins do (hkust-adsl/kubernetes-scheduler-simulator, pkg/simulator/plugin):
//
//   random         a feasible node drawn uniformly; a random device for GPU-sharing tasks
//   dotprod        Tetris: 100 (1 - <free, request> / 2), both normalised by the largest node spec
//                  (128 CPU, 8 GPUs); tightest device for sharing tasks
//   gpuclustering  prefer nodes already running tasks of the same GPU class (shared, 1-GPU, 2-GPU..)
//   gpupacking     prefer sharing a used device, then free devices of a used node, then empty nodes
//   bestfit        least free CPU+GPU left after placement, min-max normalised over feasible nodes
//   fgd            Fragmentation Gradient Descent: the least growth of F_n(M); for a sharing task
//                  the device is chosen the same way
//
// Scores are the plugins' integers; ties go to the node whose (randomly prefixed) name sorts first.
#include "fragmentation/frag_memo.h"
#include "fragmentation/gpu_node.h"
#include "trace/go_rand.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace gantry::frag {

enum class Policy { Random, DotProd, GpuClustering, GpuPacking, BestFit, Fgd };
const char* toString(Policy policy);
std::optional<Policy> policyFromString(std::string_view name);
const std::vector<Policy>& allPolicies();

using GpuSet = uint32_t; // bit g = device g

inline constexpr int64_t kMaxNodeScore = 100;
inline constexpr int64_t kMaxSpecCpuMilli = 128000; // normalisation spec of the authors' plugins
inline constexpr int64_t kMaxSpecGpuMilli = 8000;

// The filters a task must pass on a node: kube-scheduler's NodeResourcesFit (CPU, memory, pod
// count) and, for tasks that need a GPU, Open-Gpu-Share (a device model the task accepts and enough
// devices with enough free milli).
bool fits(const NodeState& node, const TaskShape& task, int64_t memoryMiB);

int64_t dotProdScore(const NodeState& node, const TaskShape& task);
int64_t gpuClusteringScore(const NodeState& node, const TaskShape& task);
int64_t gpuPackingScore(const NodeState& node, const TaskShape& task);
// BestFit's score before the min-max normalisation over the feasible nodes (normaliseScores).
int64_t bestFitRawScore(const NodeState& node, const TaskShape& task);
// kube-scheduler's NormalizeScore as the BestFit plugin applies it: maps [lowest, highest] to [0, 100].
void normaliseScores(std::vector<int64_t>& scores);

struct FgdChoice {
    int64_t score = 0; // trunc(100 sigmoid(-(F_after - F_before) / 1000))
    GpuSet gpus = 0;
};
FgdChoice fgdScore(const NodeState& node, const TaskShape& task, FragMemo& memo);

// Device choice of Open-Gpu-Share's "best" method: the tightest device that fits a sharing task
// (lowest index on ties), the lowest-indexed free devices for whole-GPU tasks.
GpuSet pickTightestGpus(const NodeState& node, const TaskShape& task);
// "random": a uniformly drawn fitting device for sharing tasks (reservoir, as the plugin draws).
GpuSet pickRandomGpus(const NodeState& node, const TaskShape& task, GoRand& rng);
// The lowest-indexed fully free devices, `count` of them (0 if there are not enough).
GpuSet lowestFreeGpus(const NodeState& node, int count);

void place(NodeState& node, const TaskShape& task, int64_t memoryMiB, GpuSet gpus);

} // namespace gantry::frag
