#include "model/kueue_config.h"

namespace gantry {

bool KueueConfig::gate(const std::string& name) const {
    if (auto it = featureGates.find(name); it != featureGates.end()) return it->second;
    // Kueue's defaults at the emulated commit (ff69552e, v0.20 development).
    static const char* const off[] = {"PrioritizePreemptorWorkloads", "ConcurrentAdmission", "PriorityBoost",
                                      "TASBalancedPlacement", "QuotaCheckStrategyIgnoreUndeclared"};
    for (const char* g : off)
        if (name == g) return false;
    return true;
}

} // namespace gantry
