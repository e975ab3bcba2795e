#pragma once
#include "model/diagnostic.h"
#include "model/kueue_workload.h"
#include "model/resources.h"
#include "model/selectors.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gantry {

// Volcano's PodGroup status phase. None: not set yet (no scheduler has looked at the group), which
// Volcano treats as Pending.
enum class PodGroupPhase : uint8_t { None, Pending, Inqueue, Running, Unknown, Completed };
const char* toString(PodGroupPhase phase);                                     // "" for None
std::optional<PodGroupPhase> podGroupPhaseFromString(const std::string& text); // "" is None

// Volcano's networkTopology constraint on a job: hard mode must fit under one HyperNode of at most
// highestTierAllowed; soft mode prefers the lowest tier.
struct NetworkTopologyConstraint {
    enum class Mode { None, Hard, Soft };
    Mode mode = Mode::None;
    std::optional<int32_t> highestTierAllowed;
    std::string highestTierName;
    bool operator==(const NetworkTopologyConstraint&) const = default;
};
const char* toString(NetworkTopologyConstraint::Mode mode);

// A Volcano Job task whose pods the job controller creates only once the tasks it names run
// (spec.tasks[].dependsOn): each of them, or any one with iteration "any".
struct TaskDependency {
    std::string task;
    std::vector<std::string> after;
    bool any = false;
    bool operator==(const TaskDependency&) const = default;
};

// A gang: Volcano PodGroup (or Job), coscheduling PodGroup, YuniKorn task group, Kueue workload,
// or a plain Kubernetes workload imported for what-if runs.
struct PodGroup {
    std::string name;
    std::string ns;
    std::string queue; // queue name (Volcano Queue, Kueue LocalQueue's ClusterQueue, YuniKorn path)
    // The queue the workload's own spec names (Volcano Job or PodGroup spec.queue, a Kubeflow job's
    // runPolicy.schedulingPolicy.queue), as opposed to one read from a scheduler's label.
    std::string specQueue;
    int32_t minMember = 0;
    std::map<std::string, int32_t> minTaskMember; // role -> minimum; key "" = pods without a role
    ResourceList minResources;
    std::string priorityClassName;
    PodGroupPhase phase = PodGroupPhase::None;
    NetworkTopologyConstraint networkTopology;
    std::vector<TaskDependency> dependsOn; // tasks whose pods wait for others to run
    std::string origin; // "scheduling.volcano.sh/PodGroup", "batch.volcano.sh/Job", "batch/Job", ...
    Labels labels;
    Labels annotations;
    // What-if timing. Arrival and duration in simulated seconds; duration 0 = runs until the end.
    double arrivalSeconds = 0;
    double durationSeconds = 0;
    double checkpointSeconds = 0; // 0 = no checkpoints: an evicted job restarts from zero
    // metadata.creationTimestamp (Unix seconds) of an object the snapshot holds: Volcano orders
    // jobs of equal rank by it, before their names.
    std::optional<int64_t> creationTimestamp;
    // A Kueue Workload object's own fields (pod sets, priority, its status), when the group is one.
    std::shared_ptr<const KueueWorkload> kueue;
    SourceRef source;

    std::string key() const { return ns + '/' + name; }
    bool operator==(const PodGroup& o) const {
        return name == o.name && ns == o.ns && queue == o.queue && specQueue == o.specQueue &&
               minMember == o.minMember && minTaskMember == o.minTaskMember &&
               minResources == o.minResources && priorityClassName == o.priorityClassName &&
               phase == o.phase && networkTopology == o.networkTopology && dependsOn == o.dependsOn &&
               origin == o.origin && labels == o.labels && annotations == o.annotations &&
               arrivalSeconds == o.arrivalSeconds && durationSeconds == o.durationSeconds &&
               checkpointSeconds == o.checkpointSeconds && creationTimestamp == o.creationTimestamp &&
               (kueue == o.kueue || (kueue && o.kueue && *kueue == *o.kueue));
    }
};

} // namespace gantry
