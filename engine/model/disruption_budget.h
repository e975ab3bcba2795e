#pragma once
// policy/v1 PodDisruptionBudget, as kube-scheduler's preemption reads it: victims whose eviction
// would take a budget below its allowed disruptions count as violations.
#include "model/diagnostic.h"
#include "model/selectors.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gantry {

struct PodDisruptionBudget {
    std::string name;
    std::string ns;
    std::optional<LabelSelector> selector; // absent or empty: the scheduler matches no pod with it
    // spec.minAvailable / spec.maxUnavailable as written: a count ("2") or a percentage ("50%").
    std::optional<std::string> minAvailable, maxUnavailable;
    std::optional<int32_t> disruptionsAllowed; // status.disruptionsAllowed
    std::vector<std::string> disruptedPods;    // status.disruptedPods: evictions being processed
    SourceRef source;
    bool operator==(const PodDisruptionBudget& o) const {
        return name == o.name && ns == o.ns && selector == o.selector && minAvailable == o.minAvailable &&
               maxUnavailable == o.maxUnavailable && disruptionsAllowed == o.disruptionsAllowed &&
               disruptedPods == o.disruptedPods;
    }
};

} // namespace gantry
