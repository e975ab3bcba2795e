#pragma once
// Kueue's DRA preprocessing (KueueDRAIntegration; handleDRA in pkg/controller/core and
// pkg/dra/claims.go): the devices a pod set's ResourceClaimTemplates ask for become requests of the
// quota resource that deviceClassMappings names for their DeviceClass, per pod. A direct
// ResourceClaim, a prioritized list, allocationMode All, an unmapped class or a missing template
// make the workload inadmissible (Misconfigured), with Kueue's words.
#include "profiles/kueue/amount.h"
#include "profiles/kueue/world.h"

#include <string>
#include <utility>
#include <vector>

namespace gantry::engine::kueue {

struct DraQuota {
    std::vector<std::pair<std::string, Amount>> perPod; // quota resource -> devices, per pod
    std::string misconfigured;                          // why the workload cannot be admitted
};

// One pod set's: `index` is its place among the workload's pod sets (for the field paths).
DraQuota draQuota(const World& w, const std::string& ns, const std::string& podSet, size_t index,
                  const std::vector<PodResourceClaim>& claims);

// A located warning for each counter or capacity source whose deviceSelector lies outside the CEL
// Gantry evaluates: no device passes it, so the source charges nothing.
void checkSourceSelectors(const KueueConfig& config, Diagnostics* out);

} // namespace gantry::engine::kueue
