#pragma once
// How Kueue's job integrations read the workloads of a cluster (BuildOptions::readWorkload).
#include "model/kueue_config.h"
#include "state/cluster_state.h"

#include <set>
#include <string>

namespace gantry::engine::kueue {

// What the integrations depend on: which frameworks are managed, whether jobs without a queue name are,
// and the namespaces whose LocalQueue named "default" the webhook gives unlabelled jobs.
struct IntegrationContext {
    KueueConfig config;
    std::set<std::string> namespacesWithDefaultQueue;
    std::set<std::pair<std::string, std::string>> localQueues; // (namespace, name)
};

WorkloadReading readWorkload(const IntegrationContext& context, const PodGroup& group,
                             const std::vector<const Pod*>& pods);

} // namespace gantry::engine::kueue
