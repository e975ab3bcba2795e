#pragma once
// Kueue's Configuration (config.kueue.x-k8s.io), the parts that change what its scheduler decides:
// fair sharing and its preemption strategies, waiting for pods to be ready (with its requeuing
// backoff), and the feature gates that switch decisions.
#include "model/diagnostic.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gantry {

struct KueueConfig {
    bool fairSharing = false; // fairSharing present (v1beta2), or enable: true (v1beta1)
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
    SourceRef source;

    // A feature gate's value: the written one, else Kueue's default at the emulated commit.
    bool gate(const std::string& name) const;
    bool operator==(const KueueConfig& o) const {
        return fairSharing == o.fairSharing && preemptionStrategies == o.preemptionStrategies &&
               waitForPodsReady == o.waitForPodsReady &&
               podsReadyTimeoutSeconds == o.podsReadyTimeoutSeconds && blockAdmission == o.blockAdmission &&
               requeuingTimestamp == o.requeuingTimestamp && backoffLimitCount == o.backoffLimitCount &&
               backoffBaseSeconds == o.backoffBaseSeconds && backoffMaxSeconds == o.backoffMaxSeconds &&
               featureGates == o.featureGates;
    }
};

} // namespace gantry
