#pragma once
// The one mapping from a cluster's queue tree (queues designed in Gantry, Volcano's, YuniKorn's or
// Kueue's own) to Kueue's policy objects. `gantry export --target kueue` writes it, and the Kueue
// profile schedules with it when its input holds no Kueue queues, so a project runs under the
// profile with exactly the queues it would export.
//
// Topology: the cluster's own, else one named "default" from the topology labels the nodes carry,
// hostname last. Flavors: the cluster's ResourceFlavors, else one per node class
// (model/node_classes.h) tolerating its nodes' common taints. Inner queues become Cohorts, leaves
// ClusterQueues; top-level queues of other schedulers share the Cohort "root". Queues whose quotas
// name no flavor (Volcano, YuniKorn) quote one: the single node class, else default-flavor (any
// node), with nominal = deserved (a Cohort keeps what its children do not take), borrowingLimit =
// capability - deserved, lendingLimit = deserved - guarantee. Such a ClusterQueue also covers every
// other resource its flavor's nodes offer, with their capacity as nominal quota: Kueue admits only
// workloads whose every request its ClusterQueue covers. Preemption: the queue's own Kueue
// preemption, else Kueue's defaults (Never); no other scheduler's policy is consulted. LocalQueues:
// the cluster's, then one per namespace and queue of the given workloads. Every lossy step is
// logged in order.
#include "model/cluster.h"
#include "model/loss_log.h"
#include "model/node_classes.h"
#include "model/workload.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace gantry::kueue {

// Kueue's policy objects as data, as a scheduler reads them.
struct PolicyObjects {
    std::vector<KueueTopology> topologies;
    std::vector<ResourceFlavor> flavors;
    std::vector<Queue> queues; // Cohorts and ClusterQueues, parents before children
    std::vector<LocalQueue> localQueues;
    // Mapped from a project's queues rather than read from Kueue objects: its jobs name their queue
    // by its name in the project (clusterQueueOf), and its namespaces exist (the exported
    // LocalQueues live in them).
    bool fromProject = false;
    std::map<std::string, std::string> clusterQueueOf; // project queue name -> ClusterQueue name
};

struct Mapping {
    PolicyObjects objects;
    LossLog log;
    std::vector<NodeClass> classes;          // of the cluster's nodes
    bool classLabels = false;                // a flavor selects the gantry.io/node-class label
    std::vector<std::string> topologyLevels; // of the first Topology, top first, with the hostname
    // (namespace, project queue name) -> the LocalQueue that namespace's workloads name
    std::map<std::pair<std::string, std::string>, std::string> localQueueOf;
};

Mapping mapToKueue(const Cluster& cluster, const std::vector<WorkloadTemplate>& workloads);

// The cluster's own Kueue objects: a scheduler of Kueue takes these when the cluster has Kueue
// queues (ClusterQueues or Cohorts), and the mapping of its queue tree otherwise.
bool hasKueueQueues(const Cluster& cluster);
PolicyObjects ownObjects(const Cluster& cluster);

} // namespace gantry::kueue
