#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "model/diagnostic.h"
#include "model/resources.h"
#include "model/selectors.h"

namespace gantry {

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

// A gang: Volcano PodGroup (or Job), coscheduling PodGroup, YuniKorn task group, Kueue workload,
// or a plain Kubernetes workload imported for what-if runs.
struct PodGroup {
    std::string name;
    std::string ns;
    std::string queue; // queue name (Volcano Queue, Kueue LocalQueue's ClusterQueue, YuniKorn path)
    int32_t minMember = 0;
    std::map<std::string, int32_t> minTaskMember; // role -> minimum; key "" = pods without a role
    ResourceList minResources;
    std::string priorityClassName;
    std::string phase; // Pending | Inqueue | Running | Unknown | Completed | "" (not set)
    NetworkTopologyConstraint networkTopology;
    std::string origin; // "scheduling.volcano.sh/PodGroup", "batch.volcano.sh/Job", "batch/Job", ...
    Labels labels;
    Labels annotations;
    // What-if timing. Arrival and duration in simulated seconds; duration 0 = runs until the end.
    double arrivalSeconds = 0;
    double durationSeconds = 0;
    double checkpointSeconds = 0; // 0 = no checkpoints: an evicted job restarts from zero
    SourceRef source;

    std::string key() const { return ns + '/' + name; }
    bool operator==(const PodGroup& o) const {
        return name == o.name && ns == o.ns && queue == o.queue && minMember == o.minMember &&
               minTaskMember == o.minTaskMember && minResources == o.minResources &&
               priorityClassName == o.priorityClassName && phase == o.phase &&
               networkTopology == o.networkTopology && origin == o.origin && labels == o.labels &&
               annotations == o.annotations && arrivalSeconds == o.arrivalSeconds &&
               durationSeconds == o.durationSeconds && checkpointSeconds == o.checkpointSeconds;
    }
};

} // namespace gantry
