#pragma once
// v1 LimitRange: per-namespace bounds and defaults of container and pod resources. Kueue applies
// the defaults to a workload's pod sets and refuses (Misconfigured) requests outside the bounds.
#include "model/diagnostic.h"
#include "model/resources.h"

#include <string>
#include <vector>

namespace gantry {

struct LimitRangeItem {
    std::string type; // Container | Pod | PersistentVolumeClaim
    ResourceList max, min, defaultLimits, defaultRequests, maxLimitRequestRatio;
    bool operator==(const LimitRangeItem&) const = default;
};

struct LimitRange {
    std::string name;
    std::string ns;
    std::vector<LimitRangeItem> limits;
    SourceRef source;
    bool operator==(const LimitRange& o) const { return name == o.name && ns == o.ns && limits == o.limits; }
};

} // namespace gantry
