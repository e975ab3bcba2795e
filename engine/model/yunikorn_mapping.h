#pragma once
// The one mapping from a cluster's queue tree (queues designed in Gantry, Volcano's, Kueue's or
// YuniKorn's own) to YuniKorn's partition configuration. `gantry export --target yunikorn` writes
// it as queues.yaml and the yunikorn profile schedules with it, so a project runs under the profile
// with exactly the queue tree it would export.
//
// Queue names become valid YuniKorn names, quotas their neutral form (guaranteed = the queue's
// share, max = its cap, lowered to fit its ancestors), extended resources whole units; the
// partition's name, placement rules, node sorting, preemption and limits come from the cluster's
// YuniKorn settings when it has them, else YuniKorn's defaults (placement rules from the
// namespaces that map to a queue). Every lossy step is logged in order.
#include "model/cluster.h"
#include "model/loss_log.h"
#include "model/queue_tree.h"
#include "model/workload.h"
#include "model/yunikorn_partition.h"

#include <map>
#include <string>
#include <vector>

namespace gantry::yunikorn {

struct Mapping {
    PartitionConfig config;
    LossLog log;
    QueueTree tree;                 // the source tree, with the exported names
    std::vector<std::string> paths; // per tree node: its fully qualified YuniKorn path
    // The YuniKorn path of a queue of the source by name ("root.research.llm"), "" when unknown.
    std::string pathOf(const std::string& queueName) const;
};

// namespaceQueues: (namespace, queue name) pairs that want a placement rule (the exporter passes
// the project's LocalQueues and workloads). Resource amounts are rounded to what queues.yaml can
// hold (whole units for every resource but vcore and byte sizes).
Mapping mapToYuniKorn(const Cluster& cluster,
                      const std::vector<std::pair<std::string, std::string>>& namespaceQueues);

// The (namespace, queue) pairs the exporter derives placement rules from: the cluster's Kueue
// LocalQueues, then the workloads' namespaces.
std::vector<std::pair<std::string, std::string>>
namespaceQueues(const Cluster& cluster, const std::vector<WorkloadTemplate>& workloads);

// A YuniKorn queue name made of the characters YuniKorn allows ("_" for the others, 64 at most).
std::string yunikornQueueName(const std::string& name);

} // namespace gantry::yunikorn
