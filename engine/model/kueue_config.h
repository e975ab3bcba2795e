#pragma once
// Kueue's Configuration (config.kueue.x-k8s.io), the parts that change what its scheduler decides:
// fair sharing and its preemption strategies, waiting for pods to be ready (with its requeuing
// backoff), and the feature gates that switch decisions.
#include "model/diagnostic.h"
#include "model/selectors.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gantry {

// The integrations Kueue's install enables (config/components/manager/controller_manager_config.yaml
// at kubernetes-sigs/kueue ff69552e; the Kubeflow v1 jobs other than MPIJob are commented out there).
const std::vector<std::string>& kueueInstallFrameworks();

// The Configuration's admissionFairSharing section. At namespace scope: clang 14 takes a nested
// struct with member initializers for not default-constructible inside its enclosing class, which
// std::optional's emplace() then inherits.
struct KueueAdmissionFairSharing {
    double usageHalfLifeSeconds = 0;
    double usageSamplingIntervalSeconds = 300;
    std::map<std::string, double> resourceWeights; // resource -> weight; absent: 1
    bool operator==(const KueueAdmissionFairSharing&) const = default;
};

struct KueueConfig {
    bool fairSharing = false; // fairSharing present (v1beta2), or enable: true (v1beta1)
    // admissionFairSharing: present turns Admission Fair Sharing on for the ClusterQueues whose
    // admission mode asks for it (with the AdmissionFairSharing gate, on by default).
    using AdmissionFairSharing = KueueAdmissionFairSharing;
    std::optional<AdmissionFairSharing> admissionFairSharing;
    // LessThanOrEqualToFinalShare, LessThanInitialShare; empty = both, in that order
    std::vector<std::string> preemptionStrategies;
    bool waitForPodsReady = false;
    double podsReadyTimeoutSeconds = 1800;
    bool blockAdmission = false;
    std::string requeuingTimestamp = "Eviction"; // Eviction | Creation
    std::optional<int32_t> backoffLimitCount;    // absent = requeue without limit
    double backoffBaseSeconds = 60;
    double backoffMaxSeconds = 3600;
    // Gates written in the configuration's featureGates (or a comment-free map): name -> on.
    std::map<std::string, bool> featureGates;
    // integrations.frameworks: the job kinds Kueue manages ("batch/job", "pod", ...). Absent (no
    // Configuration given): the list of the install's controller_manager_config.yaml
    // (kueueInstallFrameworks()); a Configuration that lists none manages batch/job alone.
    std::optional<std::vector<std::string>> frameworks;
    bool manageJobsWithoutQueueName = false;
    // managedJobsNamespaceSelector: the namespaces where Kueue manages jobs without a queue name, gives
    // jobs the LocalQueue "default", and takes plain pods at all. Absent: every namespace but
    // kube-system and Kueue's own (`kueueNamespace`).
    std::optional<LabelSelector> managedJobsNamespaceSelector;
    std::string kueueNamespace = "kueue-system"; // Configuration.namespace
    // resources.transformations: requests of `input` also count as `outputs` (per unit of the
    // input, times the amount of `multiplyBy` when the pod requests it); Replace drops the input
    // itself. Output quantities are the model's canonical integers (model/resources.h) per unit.
    struct Transformation {
        std::string input;
        bool replace = false;
        std::string multiplyBy;
        std::vector<std::pair<std::string, int64_t>> outputs; // name -> quantity per unit of input
        bool operator==(const Transformation&) const = default;
    };
    std::vector<Transformation> transformations;
    std::vector<std::string> excludeResourcePrefixes; // resources.excludeResourcePrefixes
    // resources.deviceClassMappings: the quota resource that counts devices of these DeviceClasses
    // (KueueDRAIntegration), in the order written.
    struct DeviceClassMapping {
        std::string name;
        std::vector<std::string> deviceClassNames;
        // sources (v1beta2): charge a counter the devices consume (partitionable devices) or a
        // capacity they offer, instead of the device count.
        struct Source {
            bool counter = true; // counter, else capacity
            std::string name;    // the counter in consumesCounters, or the capacity dimension
            std::string driver;
            std::string deviceSelector; // CEL
            bool operator==(const Source&) const = default;
        };
        std::vector<Source> sources;
        bool operator==(const DeviceClassMapping&) const = default;
    };
    std::vector<DeviceClassMapping> deviceClassMappings;
    // The Configuration as it was read, as JSON text: what Gantry does not model (health, metrics,
    // webhook, leaderElection, controller, clientConnection ...) goes back out with an export, under
    // the fields above. Empty: none was read.
    std::string document;
    SourceRef source;

    // Whether Kueue manages jobs of this integration ("batch/job", "jobset.x-k8s.io/jobset", "pod").
    bool manages(const std::string& framework) const;
    // Whether managedJobsNamespaceSelector selects a namespace with these labels.
    bool managesNamespace(const Labels& namespaceLabels) const;

    // A feature gate's value: the written one, else Kueue's default at the emulated commit.
    bool gate(const std::string& name) const;
    bool operator==(const KueueConfig& o) const {
        return fairSharing == o.fairSharing && preemptionStrategies == o.preemptionStrategies &&
               waitForPodsReady == o.waitForPodsReady &&
               podsReadyTimeoutSeconds == o.podsReadyTimeoutSeconds && blockAdmission == o.blockAdmission &&
               requeuingTimestamp == o.requeuingTimestamp && backoffLimitCount == o.backoffLimitCount &&
               backoffBaseSeconds == o.backoffBaseSeconds && backoffMaxSeconds == o.backoffMaxSeconds &&
               featureGates == o.featureGates && frameworks == o.frameworks &&
               manageJobsWithoutQueueName == o.manageJobsWithoutQueueName &&
               managedJobsNamespaceSelector == o.managedJobsNamespaceSelector &&
               kueueNamespace == o.kueueNamespace && transformations == o.transformations &&
               excludeResourcePrefixes == o.excludeResourcePrefixes &&
               deviceClassMappings == o.deviceClassMappings &&
               admissionFairSharing == o.admissionFairSharing && document == o.document;
    }
};

} // namespace gantry
