#include "model/kueue_config.h"

#include <algorithm>

namespace gantry {

const std::vector<std::string>& kueueInstallFrameworks() {
    static const std::vector<std::string> list = {"batch/job",
                                                  "kubeflow.org/mpijob",
                                                  "ray.io/rayjob",
                                                  "ray.io/raycluster",
                                                  "ray.io/rayservice",
                                                  "jobset.x-k8s.io/jobset",
                                                  "workload.codeflare.dev/appwrapper",
                                                  "trainer.kubeflow.org/trainjob",
                                                  "pod",
                                                  "deployment",
                                                  "statefulset",
                                                  "leaderworkerset.x-k8s.io/leaderworkerset"};
    return list;
}

bool KueueConfig::manages(const std::string& framework) const {
    const auto& list = frameworks ? *frameworks : kueueInstallFrameworks();
    return std::find(list.begin(), list.end(), framework) != list.end();
}

bool KueueConfig::managesNamespace(const Labels& namespaceLabels) const {
    if (managedJobsNamespaceSelector) return matches(*managedJobsNamespaceSelector, namespaceLabels);
    // The default of apis/config/v1beta2/defaults.go.
    LabelSelector byDefault;
    byDefault.matchExpressions.push_back(SelectorRequirement{
        "kubernetes.io/metadata.name", SelectorOp::NotIn, {"kube-system", kueueNamespace}});
    return matches(byDefault, namespaceLabels);
}

bool KueueConfig::gate(const std::string& name) const {
    if (auto it = featureGates.find(name); it != featureGates.end()) return it->second;
    // Kueue's defaults at the emulated commit (ff69552e, v0.20 development).
    static const char* const off[] = {"PrioritizePreemptorWorkloads",
                                      "ConcurrentAdmission",
                                      "PriorityBoost",
                                      "TASBalancedPlacement",
                                      "QuotaCheckStrategyIgnoreUndeclared",
                                      "KueueDRAIntegrationConsumableCapacity"};
    for (const char* g : off)
        if (name == g) return false;
    return true;
}

} // namespace gantry
