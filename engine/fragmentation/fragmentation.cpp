#include "fragmentation/fragmentation.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace gantry::frag {

NodeState makeNode(int64_t cpuMilli, int64_t memoryMiB, int32_t gpuCount, ModelId model) {
    NodeState n;
    n.cpuLeft = n.cpuCapacity = cpuMilli;
    n.memoryLeft = n.memoryCapacity = memoryMiB;
    n.gpuCount = std::min<int32_t>(gpuCount, kMaxGpusPerNode);
    n.model = model;
    for (int g = 0; g < n.gpuCount; ++g) n.gpuLeft[g] = kMilliPerGpu;
    return n;
}

TargetWorkload targetWorkload(std::span<const TaskShape> tasks, double threshold) {
    std::vector<WeightedShape> counted(tasks.size());
    for (size_t i = 0; i < tasks.size(); ++i) {
        counted[i].shape = tasks[i];
        counted[i].count = 1;
    }
    return targetWorkload(std::span<const WeightedShape>(counted), threshold);
}

TargetWorkload targetWorkload(std::span<const WeightedShape> counted, double threshold) {
    // Identity of a shape: what the authors' PodResource holds (memory is not part of it).
    using Key = std::tuple<int64_t, int32_t, int32_t, std::string, int32_t, int64_t>;
    std::map<Key, std::pair<int64_t, const TaskShape*>> counts;
    int64_t taskCount = 0;
    for (const auto& w : counted) {
        const auto& t = w.shape;
        auto& slot = counts[Key{t.cpuMilli, t.gpuMilli, t.gpuCount, t.gpuSpec, t.migDim, t.migAmount}];
        if (slot.first == 0) slot.second = &t;
        slot.first += w.count;
        taskCount += w.count;
    }
    std::vector<std::pair<Key, std::pair<int64_t, const TaskShape*>>> sorted(counts.begin(), counts.end());
    // Most popular first; equal counts: the larger shape first (CPU, GPU milli, devices, spec).
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
        if (a.second.first != b.second.first) return a.second.first > b.second.first;
        return a.first > b.first;
    });

    TargetWorkload out;
    out.tasks = taskCount;
    if (taskCount == 0) return out;
    const double total = double(taskCount);
    const double expected = threshold * 100.0 * total / 100.0;
    double cumulative = 0;
    size_t kept = 0;
    while (cumulative < expected && kept < sorted.size()) {
        cumulative += double(sorted[kept].second.first);
        ++kept;
    }
    for (size_t i = 0; i < kept; ++i) {
        WeightedShape ws;
        ws.shape = *sorted[i].second.second;
        ws.count = sorted[i].second.first;
        ws.weight = double(ws.count) / total;
        out.coveredTasks += ws.count;
        out.shapes.push_back(std::move(ws));
    }
    if (kept < sorted.size()) {
        for (auto& ws : out.shapes) ws.weight /= cumulative / total;
    }
    return out;
}

FragClass classify(const NodeState& node, const TaskShape& task) {
    const bool cpuFits = node.cpuLeft >= task.cpuMilli;
    if (task.gpuMilli == 0) return cpuFits ? FragClass::NoGpuNeededFits : FragClass::NoGpuNeededLacksCpu;
    if (!task.models.any && (node.model < 0 || !task.models.allows(node.model))) return FragClass::NoAccess;
    const bool gpuFits = task.gpuCount > 0 && node.gpusWithAtLeast(task.gpuMilli) >= task.gpuCount;
    if (gpuFits) return cpuFits ? FragClass::Fits : FragClass::LackCpu;
    return cpuFits ? FragClass::LackGpu : FragClass::LackBoth;
}

namespace {
int64_t tooSmallMilli(const NodeState& node, int32_t gpuMilli) {
    int64_t sum = 0;
    for (int g = 0; g < node.gpuCount; ++g)
        if (node.gpuLeft[g] < gpuMilli) sum += node.gpuLeft[g];
    return sum;
}
} // namespace

int64_t fragmentOf(const NodeState& node, const TaskShape& task) {
    if (classify(node, task) == FragClass::Fits) return tooSmallMilli(node, task.gpuMilli);
    return node.gpuLeftTotal();
}

FragBuckets nodeFragBuckets(const NodeState& node, const TargetWorkload& workload) {
    FragBuckets b;
    const double left = double(node.gpuLeftTotal());
    for (const auto& ws : workload.shapes) {
        FragClass c = classify(node, ws.shape);
        if (c == FragClass::Fits) {
            int64_t small = tooSmallMilli(node, ws.shape.gpuMilli);
            b.milli[int(FragClass::LackGpu)] += ws.weight * double(small);
            b.milli[int(FragClass::Fits)] += ws.weight * (left - double(small));
        } else {
            b.milli[int(c)] += ws.weight * left;
        }
    }
    return b;
}

double FragBuckets::fragmented() const {
    double out = 0;
    for (int i = 0; i < kFragClasses; ++i)
        if (i != int(FragClass::Fits)) out += milli[i];
    return out;
}

double FragBuckets::idle() const {
    double out = 0;
    for (double v : milli) out += v;
    return out;
}

FragBuckets& FragBuckets::operator+=(const FragBuckets& o) {
    for (int i = 0; i < kFragClasses; ++i) milli[i] += o.milli[i];
    return *this;
}

std::vector<double> gpuFragmentation(const NodeState& node, const TargetWorkload& workload) {
    std::vector<double> perGpu(size_t(node.gpuCount), 0.0);
    for (const auto& ws : workload.shapes) {
        const bool fits = classify(node, ws.shape) == FragClass::Fits;
        for (int g = 0; g < node.gpuCount; ++g)
            if (!fits || node.gpuLeft[g] < ws.shape.gpuMilli) perGpu[g] += ws.weight * node.gpuLeft[g];
    }
    return perGpu;
}

ClusterFragmentation clusterFragmentation(std::span<const NodeState> nodes, const TargetWorkload& workload) {
    ClusterFragmentation c;
    FragBuckets sum;
    for (const auto& n : nodes) {
        sum += nodeFragBuckets(n, workload);
        c.totalMilli += int64_t(n.gpuCount) * kMilliPerGpu;
    }
    c.fragMilli = sum.fragmented();
    c.idleMilli = sum.idle();
    return c;
}

} // namespace gantry::frag
