#include "fragmentation/fgd_policies.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gantry::frag {

const char* toString(Policy policy) {
    switch (policy) {
    case Policy::Random:
        return "random";
    case Policy::DotProd:
        return "dotprod";
    case Policy::GpuClustering:
        return "gpuclustering";
    case Policy::GpuPacking:
        return "gpupacking";
    case Policy::BestFit:
        return "bestfit";
    case Policy::Fgd:
        return "fgd";
    }
    return "?";
}

const std::vector<Policy>& allPolicies() {
    static const std::vector<Policy> all{Policy::Random,     Policy::DotProd, Policy::GpuClustering,
                                         Policy::GpuPacking, Policy::BestFit, Policy::Fgd};
    return all;
}

std::optional<Policy> policyFromString(std::string_view name) {
    for (Policy p : allPolicies())
        if (name == toString(p)) return p;
    return std::nullopt;
}

bool fits(const NodeState& node, const TaskShape& task, int64_t memoryMiB) {
    if (node.podsLeft <= 0) return false;
    if (task.cpuMilli > node.cpuLeft || memoryMiB > node.memoryLeft) return false;
    if (task.gpuMilli <= 0) return true;
    if (node.gpuCount == 0) return false;
    if (!task.models.any && (node.model < 0 || !task.models.allows(node.model))) return false;
    return node.gpusWithAtLeast(task.gpuMilli) >= task.gpuCount;
}

int64_t dotProdScore(const NodeState& node, const TaskShape& task) {
    if (node.cpuLeft < task.cpuMilli) return 0;
    const double cpuSpec = double(kMaxSpecCpuMilli), gpuSpec = double(kMaxSpecGpuMilli);
    double dot = 0;
    dot += (double(node.cpuLeft) / cpuSpec) * (double(task.cpuMilli) / cpuSpec);
    dot += (double(node.gpuLeftTotal()) / gpuSpec) * (double(task.totalGpuMilli()) / gpuSpec);
    double score = 1 - dot / 2;
    return int64_t(double(kMaxNodeScore) * score);
}

int64_t gpuClusteringScore(const NodeState& node, const TaskShape& task) {
    int cls = affinityClass(task);
    if (cls < 0) return 0;
    const int64_t quarter = kMaxNodeScore / 4;
    const int64_t fill = quarter * (kMaxSpecGpuMilli - node.gpuLeftTotal()) / kMaxSpecGpuMilli;
    const int kinds = node.affinityKinds();
    if (node.affinity[cls] > 0) return fill + (kinds == 1 ? kMaxNodeScore * 3 / 4 : kMaxNodeScore * 2 / 4);
    return fill + (kinds == 0 ? kMaxNodeScore / 4 : 0);
}

int64_t gpuPackingScore(const NodeState& node, const TaskShape& task) {
    if (task.gpuMilli <= 0) return 0;
    const int fullyFree = node.fullyFreeGpus();
    if (fullyFree == node.gpuCount) return std::max<int64_t>(kMaxNodeScore / 3 - fullyFree, fullyFree);
    // Devices by free milli ascending (stable), the first that fit are the ones the task would use.
    std::array<int, kMaxGpusPerNode> order{};
    for (int g = 0; g < node.gpuCount; ++g) order[g] = g;
    std::stable_sort(order.begin(), order.begin() + node.gpuCount,
                     [&](int a, int b) { return node.gpuLeft[a] < node.gpuLeft[b]; });
    int needed = task.gpuCount, freeToUse = 0;
    int64_t freePctOnUsed = 0;
    for (int k = 0; k < node.gpuCount && needed > 0; ++k) {
        int g = order[k];
        if (task.gpuMilli <= node.gpuLeft[g]) {
            --needed;
            if (node.gpuLeft[g] == kMilliPerGpu) ++freeToUse;
            freePctOnUsed += int64_t(node.gpuLeft[g]) * 100 / kMilliPerGpu;
        }
    }
    if (needed != 0) return 0;
    if (freeToUse > 0) return std::max<int64_t>(kMaxNodeScore / 2 - freeToUse, kMaxNodeScore / 3);
    return std::max<int64_t>(kMaxNodeScore - freePctOnUsed / 10, kMaxNodeScore / 2);
}

int64_t bestFitRawScore(const NodeState& node, const TaskShape& task) {
    const double free[2] = {double(node.cpuLeft), double(node.gpuLeftTotal())};
    const double request[2] = {double(task.cpuMilli), double(task.totalGpuMilli())};
    const double spec[2] = {double(kMaxSpecCpuMilli), double(kMaxSpecGpuMilli)};
    double score = 0;
    for (int i = 0; i < 2; ++i) {
        if (free[i] < request[i]) return 0;
        score += (free[i] - request[i]) / spec[i] * 0.5;
    }
    return int64_t((1.0 - score) * double(kMaxNodeScore));
}

void normaliseScores(std::vector<int64_t>& scores) {
    if (scores.empty()) return;
    auto [lo, hi] = std::minmax_element(scores.begin(), scores.end());
    const int64_t lowest = *lo, range = *hi - *lo;
    for (auto& s : scores) s = range == 0 ? 0 : (s - lowest) * kMaxNodeScore / range;
}

namespace {
int64_t sigmoidScore(double before, double after) {
    double x = (before - after) / 1000;
    return int64_t(1.0 / (1.0 + std::exp(-x)) * double(kMaxNodeScore));
}
} // namespace

GpuSet lowestFreeGpus(const NodeState& node, int count) {
    GpuSet set = 0;
    for (int g = 0; g < node.gpuCount && count > 0; ++g) {
        if (node.gpuLeft[g] == kMilliPerGpu) {
            set |= GpuSet(1) << g;
            --count;
        }
    }
    return count > 0 ? 0 : set;
}

FgdChoice fgdScore(const NodeState& node, const TaskShape& task, FragMemo& memo) {
    const double before = memo.get(node).fragmented;
    if (task.sharesGpu()) {
        FgdChoice best{0, 0};
        bool found = false;
        for (int g = 0; g < node.gpuCount; ++g) {
            if (node.gpuLeft[g] < task.gpuMilli) continue;
            NodeState after = node;
            after.cpuLeft -= task.cpuMilli;
            after.gpuLeft[g] = int16_t(after.gpuLeft[g] - task.gpuMilli);
            int64_t s = sigmoidScore(before, memo.get(after).fragmented);
            if (!found || s > best.score) {
                best = {s, GpuSet(1) << g};
                found = true;
            }
        }
        return best;
    }
    NodeState after = node;
    after.cpuLeft -= task.cpuMilli;
    GpuSet gpus = task.gpuCount > 0 ? lowestFreeGpus(node, task.gpuCount) : 0;
    for (int g = 0; g < node.gpuCount; ++g)
        if (gpus >> g & 1) after.gpuLeft[g] = int16_t(after.gpuLeft[g] - task.gpuMilli);
    return {sigmoidScore(before, memo.get(after).fragmented), gpus};
}

GpuSet pickTightestGpus(const NodeState& node, const TaskShape& task) {
    if (task.gpuMilli <= 0) return 0;
    if (task.gpuMilli < kMilliPerGpu) {
        int best = -1;
        for (int g = 0; g < node.gpuCount; ++g)
            if (node.gpuLeft[g] >= task.gpuMilli && (best < 0 || node.gpuLeft[g] < node.gpuLeft[best]))
                best = g;
        return best < 0 ? 0 : GpuSet(1) << best;
    }
    return lowestFreeGpus(node, task.gpuCount);
}

GpuSet pickRandomGpus(const NodeState& node, const TaskShape& task, GoRand& rng) {
    if (task.gpuMilli <= 0) return 0;
    if (task.gpuMilli < kMilliPerGpu) {
        int chosen = -1, candidates = 0;
        for (int g = 0; g < node.gpuCount; ++g) {
            if (node.gpuLeft[g] >= task.gpuMilli) {
                ++candidates;
                if (rng.intn(candidates) == 0) chosen = g;
            }
        }
        return chosen < 0 ? 0 : GpuSet(1) << chosen;
    }
    return lowestFreeGpus(node, task.gpuCount);
}

void place(NodeState& node, const TaskShape& task, int64_t memoryMiB, GpuSet gpus) {
    node.cpuLeft -= task.cpuMilli;
    node.memoryLeft -= memoryMiB;
    if (node.podsLeft != std::numeric_limits<int32_t>::max()) --node.podsLeft;
    if (task.gpuMilli <= 0) return;
    for (int g = 0; g < node.gpuCount; ++g)
        if (gpus >> g & 1) node.gpuLeft[g] = int16_t(node.gpuLeft[g] - task.gpuMilli);
    int cls = affinityClass(task);
    if (cls >= 0 && cls < kAffinityClasses) ++node.affinity[cls];
}

} // namespace gantry::frag
