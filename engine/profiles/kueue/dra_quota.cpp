#include "profiles/kueue/dra_quota.h"

#include "profiles/kueue/dra_devices.h"

#include <algorithm>
#include <map>
#include <set>

namespace gantry::engine::kueue {

namespace {

using Mapping = KueueConfig::DeviceClassMapping;

// The first mapping that lists the class (mapper.go: the first wins).
const Mapping* mappingOf(const KueueConfig& config, const std::string& cls) {
    for (const auto& m : config.deviceClassMappings)
        if (std::find(m.deviceClassNames.begin(), m.deviceClassNames.end(), cls) != m.deviceClassNames.end())
            return &m;
    return nullptr;
}

// The counter sources of every mapping that lists the class, in Configuration order, each with its
// mapping's resource (with KueueDRAIntegrationPartitionableDevices on).
std::vector<std::pair<const Mapping*, const Mapping::Source*>> countersOf(const KueueConfig& config,
                                                                          const std::string& cls) {
    std::vector<std::pair<const Mapping*, const Mapping::Source*>> out;
    if (!config.gate("KueueDRAIntegrationPartitionableDevices")) return out;
    for (const auto& m : config.deviceClassMappings)
        if (std::find(m.deviceClassNames.begin(), m.deviceClassNames.end(), cls) != m.deviceClassNames.end())
            for (const auto& s : m.sources)
                if (s.counter) out.emplace_back(&m, &s);
    return out;
}

// A quantity in milli-units, rounded up to a whole base unit (SafeValue).
Amount wholeUnits(int64_t milli) {
    return milli <= 0 ? 0 : (milli + 999) / 1000 * 1000;
}

} // namespace

DraQuota draQuota(const World& w, const std::string& ns, const std::string& podSet, size_t index,
                  const std::vector<PodResourceClaim>& claims) {
    DraQuota out;
    if (claims.empty() || !w.config.gate("KueueDRAIntegration")) return out;
    for (const auto& c : claims)
        if (!c.resourceClaimName.empty()) {
            out.misconfigured = "KueueDRAIntegration feature does not support use of resource claims";
            return out;
        }
    DraDevices devices(w.resourceSlices);
    auto classSelectors = [&](const std::string& cls) -> const std::vector<std::string>& {
        static const std::vector<std::string> none;
        auto it = w.deviceClassSelectors.find(cls);
        return it == w.deviceClassSelectors.end() ? none : it->second;
    };
    std::map<std::string, Amount> sum; // by quota resource, in the order Kueue merges them
    const std::string claimsPath = "spec.podSets[" + std::to_string(index) + "].template.spec.resourceClaims";
    // The count path over every claim first (GetResourceRequestsForResourceClaimTemplates), then the
    // counter path: the first error wins, as in handleDRA.
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
        const std::string what = "ResourceClaimTemplate " + c.resourceClaimTemplateName + ": ";
        // countDevicesPerClass: ExactCount requests only, summed per DeviceClass.
        std::map<std::string, Amount> perClass;
        std::vector<std::string> order;
        for (size_t k = 0; k < t->second.requests.size(); ++k) {
            const DeviceRequest& r = t->second.requests[k];
            const std::string req = at + ".devices.requests[" + std::to_string(k) + "]";
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
        // validateCELSelectorsAgainstDevices: a request with CEL selectors needs that many devices
        // in the cluster that pass its class's and its own selectors, none counted twice in the
        // claim. When every such request's class has counter sources, only their drivers' slices.
        std::vector<std::string> drivers;
        bool onlySources = true, anyCel = false;
        for (const auto& r : t->second.requests) {
            const DeviceSubRequest& sub = r.choices.front();
            if (sub.selectors.empty()) continue;
            anyCel = true;
            const auto counters = countersOf(w.config, sub.deviceClassName);
            if (counters.empty()) onlySources = false;
            for (const auto& [m, s] : counters) drivers.push_back(s->driver);
        }
        if (anyCel) {
            const auto candidates = devices.all(onlySources ? drivers : std::vector<std::string>{});
            std::set<const Device*> used;
            for (size_t k = 0; k < t->second.requests.size(); ++k) {
                const DeviceSubRequest& sub = t->second.requests[k].choices.front();
                if (sub.selectors.empty()) continue;
                const std::string at2 = at + ".devices.requests[" + std::to_string(k) + "].exactly.selectors";
                int64_t matched = 0;
                for (const auto& d : candidates) {
                    if (used.count(d.device)) continue;
                    std::string error;
                    const bool ok = devices.passes(d, classSelectors(sub.deviceClassName), &error) &&
                                    devices.passes(d, sub.selectors, &error);
                    if (!error.empty()) {
                        out.misconfigured = at2 + ": Invalid value: \"null\": " + what +
                                            "CEL evaluation failed for DeviceClass " + sub.deviceClassName +
                                            ": " + error;
                        return out;
                    }
                    if (!ok) continue;
                    ++matched;
                    if (matched <= sub.count) used.insert(d.device); // this request's devices
                }
                if (matched < sub.count) {
                    out.misconfigured = at2 + ": Internal error: " + what +
                                        "insufficient matching devices for CEL selector in DeviceClass " +
                                        sub.deviceClassName + ": " + std::to_string(matched) +
                                        " device(s) match in the cluster but " + std::to_string(sub.count) +
                                        " requested";
                    return out;
                }
            }
        }
        for (const auto& cls : order) {
            const Mapping* mapping = mappingOf(w.config, cls);
            if (!mapping) {
                out.misconfigured = at + ".resourceClaimTemplateName: Not found: \"DeviceClass " + cls +
                                    " is not mapped in DRA configuration for podset " + podSet + "\"";
                return out;
            }
            // A class with counter sources is charged by them, not by its device count.
            if (!countersOf(w.config, cls).empty()) continue;
            sum[mapping->name] += perClass[cls] * 1000; // devices, in the milli-units of extended resources
        }
    }
    // GetCounterResourcesForWorkload: each request of a class with counter sources is charged, per
    // source, the largest value of the counter that any device able to serve it consumes, times
    // its count.
    for (size_t j = 0; j < claims.size(); ++j) {
        const auto& spec = w.claimTemplates.at({ns, claims[j].resourceClaimTemplateName});
        for (size_t k = 0; k < spec.requests.size(); ++k) {
            const DeviceSubRequest& sub = spec.requests[k].choices.front();
            const std::string req =
                claimsPath + "[" + std::to_string(j) + "].devices.requests[" + std::to_string(k) + "]";
            for (const auto& [mapping, source] : countersOf(w.config, sub.deviceClassName)) {
                std::vector<const Device*> matched;
                for (const auto& d : devices.completePools(source->driver)) {
                    // The source's selector, the class's, the request's: a runtime error in any stops
                    // the charge, named by where it happened.
                    const std::pair<const char*, std::vector<std::string>> checks[] = {
                        {"deviceSelector", {source->deviceSelector}},
                        {"DeviceClass selector", classSelectors(sub.deviceClassName)},
                        {"request selector", sub.selectors}};
                    bool ok = true;
                    for (const auto& [where, selectors] : checks) {
                        std::string error;
                        ok = devices.passes(d, selectors, &error);
                        if (!error.empty()) {
                            out.misconfigured = req + ": Internal error: CEL evaluation error in " + where +
                                                " for device " + d.device->name + ": " + error;
                            return out;
                        }
                        if (!ok) break;
                    }
                    if (ok) matched.push_back(d.device);
                }
                if (int64_t(matched.size()) < sub.count) {
                    out.misconfigured =
                        req + ": Internal error: insufficient matching devices for counter driver: " +
                        std::to_string(matched.size()) + " device(s) match but " + std::to_string(sub.count) +
                        " requested";
                    return out;
                }
                int64_t most = -1;
                for (const Device* d : matched)
                    for (const auto& use : d->consumesCounters)
                        if (auto v = use.counters.find(source->name); v != use.counters.end())
                            most = std::max(most, v->second);
                if (most < 0) {
                    out.misconfigured =
                        req +
                        ": Internal error: matched devices have no consumesCounters entry for "
                        "counter \"" +
                        source->name + "\"";
                    return out;
                }
                sum[mapping->name] += wholeUnits(most) * std::max<int64_t>(1, sub.count);
            }
        }
    }
    for (const auto& [resource, amount] : sum) out.perPod.emplace_back(resource, amount);
    return out;
}

void checkSourceSelectors(const KueueConfig& config, Diagnostics* out) {
    if (!out) return;
    for (const auto& m : config.deviceClassMappings)
        for (const auto& source : m.sources) {
            if (source.deviceSelector.empty()) continue;
            std::string error;
            if (k8s::DeviceSelector::compile(source.deviceSelector, &error)) continue;
            out->push_back({Severity::Warning, config.source,
                            "resources.deviceClassMappings '" + m.name + "': the deviceSelector '" +
                                source.deviceSelector + "' of source '" + source.name +
                                "' is outside what Gantry evaluates (" + error +
                                "): no device passes it, so it charges nothing"});
        }
}

} // namespace gantry::engine::kueue
