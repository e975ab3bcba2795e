#pragma once
// How Kueue's job integrations read the workloads of a cluster (BuildOptions::readWorkload).
#include "model/kueue_config.h"
#include "model/priority.h"
#include "state/cluster_state.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gantry::engine::kueue {

// What the integrations depend on: which frameworks are managed, whether jobs without a queue name are,
// the namespaces whose LocalQueue named "default" the webhook gives unlabelled jobs, and the priority
// classes a workload's priority comes from.
struct IntegrationContext {
    KueueConfig config;
    std::set<std::string> namespacesWithDefaultQueue;
    std::map<std::string, int32_t> workloadPriorityClasses; // WorkloadPriorityClass name -> value
    std::map<std::string, int32_t> priorityClasses;         // PriorityClass name -> value
    std::optional<int32_t> globalDefaultPriority;           // the lowest globalDefault PriorityClass
    std::map<std::string, Labels> namespaceLabels;          // of the cluster's namespaces

    void addPriorityClasses(const std::vector<PriorityClass>& classes);
    // Whether the Configuration's managedJobsNamespaceSelector selects the namespace.
    bool managedNamespace(const std::string& ns) const;
    std::set<std::pair<std::string, std::string>> localQueues; // (namespace, name)
};

WorkloadReading readWorkload(const IntegrationContext& context, const PodGroup& group,
                             const std::vector<const Pod*>& pods);

} // namespace gantry::engine::kueue
