#include "k8s/node_unschedulable.h"

#include <algorithm>

namespace gantry::engine::k8s {

bool passesUnschedulable(const PodShape& pod, const NodeRec& node) {
    if (!node.unschedulable) return true;
    Taint t{"node.kubernetes.io/unschedulable", "", TaintEffect::NoSchedule};
    return std::any_of(pod.tolerations.begin(), pod.tolerations.end(),
                       [&](const Toleration& tol) { return tolerates(tol, t); });
}

} // namespace gantry::engine::k8s
