#include "fragmentation/state_view.h"

#include <algorithm>

namespace gantry::frag {

using engine::kCpu;
using engine::kMemory;

StateView::StateView(const engine::ClusterState& state) : st_(state) {
    nodeModel_.reserve(st_.nodes.size());
    for (uint32_t n = 0; n < st_.nodes.size(); ++n) {
        nodeModel_.push_back(models_.add(st_.nodes[n].gpus.model));
        totalGpuMilli_ += int64_t(std::min(st_.gpuCount(n), kMaxGpusPerNode)) * kMilliPerGpu;
    }
}

TaskShape StateView::shape(const engine::PodShape& pod) const {
    const int64_t cpu = pod.request.empty() ? 0 : pod.request[size_t(kCpu)];
    return taskShape(cpu, pod.gpu, models_);
}

NodeState StateView::node(uint32_t n) const {
    const int64_t* idle = st_.nodeRow(st_.idle, n);
    const int64_t* alloc = st_.nodeRow(st_.allocatable, n);
    NodeState s = makeNode(alloc[kCpu], alloc[kMemory] >> 20, st_.gpuCount(n), nodeModel_[n]);
    s.cpuLeft = std::max<int64_t>(idle[kCpu], 0);
    s.memoryLeft = std::max<int64_t>(idle[kMemory], 0) >> 20;
    const int32_t* row = st_.gpuRow(n);
    for (int g = 0; g < s.gpuCount; ++g) s.gpuLeft[size_t(g)] = int16_t(std::clamp(row[g], 0, kMilliPerGpu));
    return s;
}

} // namespace gantry::frag
