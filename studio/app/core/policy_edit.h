#pragma once
// The Policy tab's choices as edits of a volcano-scheduler.conf: which plugins are in which tier,
// the queue-sharing plugin (proportion or capacity, never both), binpack weights, the actions.
#include "model/scheduler_conf.h"

#include <optional>
#include <string>
#include <vector>

namespace gantry::studio {

bool hasPlugin(const SchedulerConf& conf, const std::string& name);
// Adds the plugin (to the tier where Volcano's default configuration has it; tier 2 otherwise) or
// removes it from every tier.
void setPlugin(SchedulerConf& conf, const std::string& name, bool on);
bool hasAction(const SchedulerConf& conf, const std::string& name);
// Adds or removes an action, keeping Volcano's canonical order (enqueue, allocate, preempt,
// reclaim, backfill).
void setAction(SchedulerConf& conf, const std::string& name, bool on);

enum class QueueSharing { None, Proportion, Capacity, CapacityHierarchy };
QueueSharing queueSharing(const SchedulerConf& conf);
void setQueueSharing(SchedulerConf& conf, QueueSharing sharing);

enum class Placement { Spread, Binpack, Fgd };
Placement placement(const SchedulerConf& conf);
void setPlacement(SchedulerConf& conf, Placement placement);

// binpack.weight, binpack.cpu, binpack.memory and binpack.resources.<gpu> (Volcano's defaults: 1).
struct BinpackWeights {
    int overall = 1, cpu = 1, memory = 1, gpu = 1;
    bool operator==(const BinpackWeights&) const = default;
};
BinpackWeights binpackWeights(const SchedulerConf& conf, const std::string& gpuResource);
void setBinpackWeights(SchedulerConf& conf, const std::string& gpuResource, const BinpackWeights& w);

// One line per tier: "priority, gang, conformance".
std::vector<std::string> describeTiers(const SchedulerConf& conf);

} // namespace gantry::studio
