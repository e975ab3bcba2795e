#pragma once
#include "model/diagnostic.h"

#include <cstdint>
#include <string>

namespace gantry {

// scheduling.k8s.io PriorityClass, or a Kueue WorkloadPriorityClass (workload = true).
struct PriorityClass {
    std::string name;
    int32_t value = 0;
    bool globalDefault = false;
    std::string preemptionPolicy; // PreemptLowerPriority | Never | ""
    std::string description;
    bool workload = false;
    SourceRef source;
    bool operator==(const PriorityClass& o) const {
        return name == o.name && value == o.value && globalDefault == o.globalDefault &&
               preemptionPolicy == o.preemptionPolicy && description == o.description &&
               workload == o.workload;
    }
};

} // namespace gantry
