#include "profiles/kueue/dra_quota.h"

#include <map>

namespace gantry::engine::kueue {

DraQuota draQuota(const World& w, const std::string& ns, const std::string& podSet, size_t index,
                  const std::vector<PodResourceClaim>& claims) {
    DraQuota out;
    if (claims.empty() || !w.config.gate("KueueDRAIntegration")) return out;
    for (const auto& c : claims)
        if (!c.resourceClaimName.empty()) {
            out.misconfigured = "KueueDRAIntegration feature does not support use of resource claims";
            return out;
        }
    std::map<std::string, Amount> sum; // by quota resource, in the order Kueue merges them
    const std::string claimsPath = "spec.podSets[" + std::to_string(index) + "].template.spec.resourceClaims";
    for (size_t j = 0; j < claims.size(); ++j) {
        const PodResourceClaim& c = claims[j];
        const std::string at = claimsPath + "[" + std::to_string(j) + "]";
        auto t = w.claimTemplates.find({ns, c.resourceClaimTemplateName});
        if (t == w.claimTemplates.end()) {
            out.misconfigured = at + ": Internal error: failed to get claim spec for ResourceClaimTemplate " +
                                c.resourceClaimTemplateName + " in podset " + podSet +
                                ": resourceclaimtemplates.resource.k8s.io \"" + c.resourceClaimTemplateName +
                                "\" not found";
            return out;
        }
        // countDevicesPerClass: ExactCount requests only, summed per DeviceClass.
        std::map<std::string, Amount> perClass;
        std::vector<std::string> order;
        for (size_t k = 0; k < t->second.requests.size(); ++k) {
            const DeviceRequest& r = t->second.requests[k];
            const std::string req = at + ".devices.requests[" + std::to_string(k) + "]";
            const std::string what = "ResourceClaimTemplate " + c.resourceClaimTemplateName + ": ";
            if (r.prioritized) {
                out.misconfigured = req + ": Invalid value: null: " + what +
                                    "FirstAvailable device selection is not supported";
                return out;
            }
            const DeviceSubRequest& sub = r.choices.front();
            if (sub.allocateAll) {
                out.misconfigured = req + ".exactly.allocationMode: Invalid value: \"All\": " + what +
                                    "AllocationMode 'All' is not supported";
                return out;
            }
            if (!perClass.count(sub.deviceClassName)) order.push_back(sub.deviceClassName);
            perClass[sub.deviceClassName] += sub.count;
        }
        for (const auto& cls : order) {
            const KueueConfig::DeviceClassMapping* mapping = nullptr;
            for (const auto& m : w.config.deviceClassMappings)
                for (const auto& name : m.deviceClassNames)
                    if (name == cls) mapping = &m;
            if (!mapping) {
                out.misconfigured = at + ".resourceClaimTemplateName: Not found: \"DeviceClass " + cls +
                                    " is not mapped in DRA configuration for podset " + podSet + "\"";
                return out;
            }
            sum[mapping->name] += perClass[cls];
        }
    }
    // Devices are counted, not milli-units: the model keeps extended resources in milli.
    for (const auto& [resource, devices] : sum) out.perPod.emplace_back(resource, devices * 1000);
    return out;
}

} // namespace gantry::engine::kueue
