#pragma once
// Consistency of an assembled cluster: duplicate names, dangling references, cycles in the queue
// tree. Importers run it after reading all inputs; errors point at the offending object's source.
#include "model/cluster.h"
#include "model/diagnostic.h"

namespace gantry {

// Errors: duplicate node / queue / priority-class names, duplicate pod or PodGroup in a namespace,
//         a queue whose parent does not exist, a cycle in the queue tree, a LocalQueue naming an
//         unknown ClusterQueue.
// Warnings: a pod naming an unknown PodGroup (it stays pending, as in Volcano), a pod bound to an
//         unknown node, a PodGroup naming an unknown queue.
Diagnostics checkCluster(const Cluster& cluster);

} // namespace gantry
