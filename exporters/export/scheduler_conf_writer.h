#pragma once
// The volcano-scheduler.conf Gantry writes: the project's chosen configuration, made consistent
// with the exported queues (capacity with hierarchy for a queue tree, never together with
// proportion), as YAML text.
#include "export/export_support.h"
#include "model/scheduler_conf.h"

#include <string>
#include <vector>

namespace gantry::exporting {

// Every change to the chosen configuration is a note in the bundle.
SchedulerConf deriveVolcanoConf(SchedulerConf chosen, const QueueTree& tree,
                                const std::vector<NeutralQuota>& quota, bool topologyAware, Losses& losses);

// The configuration in volcano-scheduler.conf's YAML form.
std::string schedulerConfText(const SchedulerConf& conf);

// Shared with the YuniKorn exporter (same Kubernetes kinds).
void addPriorityClasses(const Project& project, ExportBundle& bundle, Losses& losses);
void addNodeLabelPatches(const Project& project, const std::vector<NodeClass>& classes, bool useClassLabels,
                         ExportBundle& bundle);

} // namespace gantry::exporting
