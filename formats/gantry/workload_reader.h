#pragma once
// Gantry's own YAML forms shared by the inventory and the project file: what-if workload templates
// and priority classes. Strict: unknown keys are errors (docs/inventory.md).
#include "model/cluster.h"
#include "model/priority.h"
#include "model/workload.h"
#include "yaml/yaml_reader.h"

#include <vector>

namespace gantry {

WorkloadTemplate readWorkloadTemplate(const Y& node);
PriorityClass readGantryPriorityClass(const Y& node);
ArrivalProcess readArrival(const Y& node);
DurationDistribution readDuration(const Y& node);
GpuRequest readGpuRequest(const Y& node);
NetworkTopologyConstraint readNetworkTopologyConstraint(const Y& node);

// Errors: duplicate workload names, a workload naming a queue (when the cluster has queues) or a
// priority class that does not exist. Located at the workload.
Diagnostics checkWorkloads(const Cluster& cluster, const std::vector<WorkloadTemplate>& workloads);

} // namespace gantry
