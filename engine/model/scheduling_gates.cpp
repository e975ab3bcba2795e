// Which of a pod's scheduling gates hold it in a what-if.
#include "model/pod.h"

#include <algorithm>

namespace gantry {

namespace {

// Kueue's pod integration gates each pod until its workload is admitted (kueue.x-k8s.io/admission,
// pkg/controller/jobs/pod), and topology-aware scheduling until the pod's domain is assigned
// (kueue.x-k8s.io/topology, TopologySchedulingGate in apis/kueue/v1beta2/topology_types.go).
constexpr const char* kKueueAdmissionGate = "kueue.x-k8s.io/admission";
constexpr const char* kKueueTopologyGate = "kueue.x-k8s.io/topology";
// Volcano removes its gate once the queue has room, from a pod that opted in with the annotation
// of the same name set to "true" (HasQueueAllocationGateAnnotation, pkg/scheduler/api/helpers.go).
constexpr const char* kVolcanoQueueAllocationGate = "scheduling.volcano.sh/queue-allocation-gate";

} // namespace

std::vector<std::string> holdingSchedulingGates(const Pod& pod) {
    std::vector<std::string> out;
    if (pod.schedulingGates.empty()) return out;
    auto optIn = pod.annotations.find(kVolcanoQueueAllocationGate);
    const bool volcanoOptIn = optIn != pod.annotations.end() && optIn->second == "true";
    for (const std::string& gate : pod.schedulingGates) {
        if (gate == kKueueAdmissionGate || gate == kKueueTopologyGate) continue;
        if (gate == kVolcanoQueueAllocationGate && volcanoOptIn) continue;
        out.push_back(gate);
    }
    return out;
}

} // namespace gantry
