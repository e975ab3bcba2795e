// Pods that scheduling gates hold: what kube-scheduler says of them.
#include "state/cluster_state.h"

namespace gantry::engine {

// PreEnqueue of the SchedulingGates plugin (pkg/scheduler/framework/plugins/schedulinggates): the
// gate names as Go prints a []string.
std::string ClusterState::schedulingGatesReason(uint32_t t) const {
    std::string out = "waiting for scheduling gates: [";
    const auto& gates = shapes[tasks[t].shape].schedulingGates;
    for (size_t i = 0; i < gates.size(); ++i) {
        if (i) out += ' ';
        out += gates[i];
    }
    return out + ']';
}

} // namespace gantry::engine
