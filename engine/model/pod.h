#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/diagnostic.h"
#include "model/resources.h"
#include "model/selectors.h"

namespace gantry {

enum class PodPhase { Pending, Running, Succeeded, Failed, Unknown };
const char* toString(PodPhase phase);
std::optional<PodPhase> podPhaseFromString(const std::string& text);

// What a pod needs from GPU devices. Whole-GPU pods (nvidia.com/gpu: N) have milliPerGpu 1000;
// GPU-sharing pods (the Alibaba trace's gpu_milli) ask for a share of one device.
struct GpuRequest {
    int32_t count = 0;          // devices
    int32_t milliPerGpu = 1000; // share of each device, 1..1000
    std::vector<std::string> models; // allowed GPU models; empty = any
    bool operator==(const GpuRequest&) const = default;
    int64_t totalMilli() const { return int64_t(count) * milliPerGpu; }
};

struct Pod {
    std::string name;
    std::string ns; // namespace
    std::string uid;
    Labels labels;
    Labels annotations;
    ResourceList requests; // effective request: max(sum of containers, largest init container) + overhead
    GpuRequest gpu;
    Labels nodeSelector;
    std::optional<NodeAffinity> nodeAffinity;
    PodAffinity podAffinity;
    PodAffinity podAntiAffinity;
    std::vector<Toleration> tolerations;
    std::vector<TopologySpreadConstraint> topologySpread;
    std::optional<int32_t> priority; // spec.priority as admission resolved it; absent = not resolved
    std::string priorityClassName;
    std::string preemptionPolicy; // "PreemptLowerPriority" (default) or "Never"
    std::string schedulerName;
    PodPhase phase = PodPhase::Pending;
    std::string nodeName; // bound node; empty = not bound
    std::vector<int32_t> gpuIndices; // devices it holds on its node, when known
    std::string group;    // PodGroup / gang name in the same namespace; empty = none
    std::string role;     // task role (volcano.sh/task-spec)
    std::optional<bool> preemptable; // volcano.sh/preemptable
    std::string ownerKind; // workload kind that created it (Job, PyTorchJob, ...)
    std::string ownerName;
    std::string ownerUid;                      // of that owner
    std::optional<int64_t> creationTimestamp; // metadata.creationTimestamp, Unix seconds
    SourceRef source;

    std::string key() const { return ns + '/' + name; }
    bool operator==(const Pod& o) const {
        return name == o.name && ns == o.ns && uid == o.uid && labels == o.labels && annotations == o.annotations &&
               requests == o.requests && gpu == o.gpu && nodeSelector == o.nodeSelector &&
               nodeAffinity == o.nodeAffinity && podAffinity == o.podAffinity &&
               podAntiAffinity == o.podAntiAffinity && tolerations == o.tolerations &&
               topologySpread == o.topologySpread && priority == o.priority &&
               priorityClassName == o.priorityClassName && preemptionPolicy == o.preemptionPolicy &&
               schedulerName == o.schedulerName && phase == o.phase && nodeName == o.nodeName &&
               gpuIndices == o.gpuIndices && group == o.group && role == o.role && preemptable == o.preemptable &&
               ownerKind == o.ownerKind && ownerName == o.ownerName && ownerUid == o.ownerUid &&
               creationTimestamp == o.creationTimestamp;
    }
};

} // namespace gantry
