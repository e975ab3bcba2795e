#pragma once
#include "model/diagnostic.h"
#include "model/dra.h"
#include "model/resources.h"
#include "model/selectors.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gantry {

enum class PodPhase { Pending, Running, Succeeded, Failed, Unknown };
const char* toString(PodPhase phase);
std::optional<PodPhase> podPhaseFromString(const std::string& text);

// What a pod needs from GPU devices. Whole-GPU pods (nvidia.com/gpu: N) have milliPerGpu 1000;
// GPU-sharing pods (the Alibaba trace's gpu_milli) ask for a share of one device.
struct GpuRequest {
    int32_t count = 0;               // devices
    int32_t milliPerGpu = 1000;      // share of each device, 1..1000
    std::vector<std::string> models; // allowed GPU models; empty = any
    bool operator==(const GpuRequest&) const = default;
    int64_t totalMilli() const { return int64_t(count) * milliPerGpu; }
};

// A condition a pod's controller waits for before it creates the pod: a JobSet creates a replicated
// job only once those it depends on are ready or complete (startupPolicy InOrder, dependsOn), and
// an exclusive-placement follower only once its leader is scheduled. Until every condition of a pod
// holds, the pod does not exist and no scheduler sees it.
struct CreationCondition {
    enum class Kind : uint8_t { RoleReady, RoleComplete, PodScheduled };
    Kind kind = Kind::RoleReady;
    std::string name;        // RoleReady, RoleComplete: a role of the pod's gang; PodScheduled: a pod of it
    std::string topologyKey; // PodScheduled: the pod gets a nodeSelector for that pod's node's value of it
    SourceRef source;        // where the condition is written
    bool operator==(const CreationCondition& o) const {
        return kind == o.kind && name == o.name && topologyKey == o.topologyKey;
    }
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
    std::string nodeName;            // bound node; empty = not bound
    std::vector<int32_t> gpuIndices; // devices it holds on its node, when known
    std::string group;               // PodGroup / gang name in the same namespace; empty = none
    std::string role;                // task role (volcano.sh/task-spec)
    std::optional<bool> preemptable; // volcano.sh/preemptable
    std::string ownerKind;           // workload kind that created it (Job, PyTorchJob, ...)
    std::string ownerName;
    std::string ownerUid;                        // of that owner
    std::optional<int64_t> creationTimestamp;    // metadata.creationTimestamp, Unix seconds
    std::optional<int64_t> startTime;            // status.startTime, Unix seconds
    std::string nominatedNodeName;               // status.nominatedNodeName: where preemption made room
    std::vector<CreationCondition> createdAfter; // empty: the pod exists
    // spec.schedulingGates, in order: while one is left no scheduler places the pod
    // (holdingSchedulingGates says which of them a what-if keeps).
    std::vector<std::string> schedulingGates;
    // What-if: the pod succeeds this long after it starts running (a JobSet's initializer); none: it
    // runs as long as its job.
    std::optional<double> runSeconds;
    // spec.resourceClaims (DRA): the claims the pod's containers use, by the pod's name for them.
    std::vector<PodResourceClaim> resourceClaims;
    SourceRef source;

    std::string key() const { return ns + '/' + name; }
    bool operator==(const Pod& o) const {
        return name == o.name && ns == o.ns && uid == o.uid && labels == o.labels &&
               annotations == o.annotations && requests == o.requests && gpu == o.gpu &&
               nodeSelector == o.nodeSelector && nodeAffinity == o.nodeAffinity &&
               podAffinity == o.podAffinity && podAntiAffinity == o.podAntiAffinity &&
               tolerations == o.tolerations && topologySpread == o.topologySpread && priority == o.priority &&
               priorityClassName == o.priorityClassName && preemptionPolicy == o.preemptionPolicy &&
               schedulerName == o.schedulerName && phase == o.phase && nodeName == o.nodeName &&
               gpuIndices == o.gpuIndices && group == o.group && role == o.role &&
               preemptable == o.preemptable && ownerKind == o.ownerKind && ownerName == o.ownerName &&
               ownerUid == o.ownerUid && creationTimestamp == o.creationTimestamp &&
               startTime == o.startTime && nominatedNodeName == o.nominatedNodeName &&
               createdAfter == o.createdAfter && schedulingGates == o.schedulingGates &&
               runSeconds == o.runSeconds && resourceClaims == o.resourceClaims;
    }
};

// The pod's scheduling gates that hold it in a what-if, in order. A scheduler's own admission gate
// is not among them: the scheduler under test stands in for the one that set it (Kueue's admission
// and topology gates, removed when Kueue admits the workload; Volcano's queue-allocation gate on a
// pod that opted in with its annotation). Any other gate holds the pod under every profile, as
// nothing in the what-if removes it.
std::vector<std::string> holdingSchedulingGates(const Pod& pod);

} // namespace gantry
