#include "k8s/node_info.h"

namespace gantry::engine::k8s {

int64_t podRequest(const ClusterState& s, uint32_t task, int dim, bool useRequested) {
    const auto& sh = s.shapeOf(task);
    if (!useRequested) {
        if (dim == kCpu && !sh.cpuRequested) return 100;
        if (dim == kMemory && !sh.memRequested) return 200LL * 1024 * 1024;
    }
    return dim < int(sh.request.size()) ? sh.request[size_t(dim)] : 0;
}

int64_t nodeRequested(const ClusterState& s, uint32_t node, int dim, bool useRequested) {
    if (!useRequested) {
        if (dim == kCpu) return s.nonZeroCpu[node];
        if (dim == kMemory) return s.nonZeroMem[node];
    }
    return s.nodeRow(s.k8sRequested, node)[dim];
}

} // namespace gantry::engine::k8s
