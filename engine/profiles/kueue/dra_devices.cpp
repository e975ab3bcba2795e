#include "profiles/kueue/dra_devices.h"

#include <algorithm>

namespace gantry::engine::kueue {

std::vector<PublishedDevice> DraDevices::completePools(const std::string& driver) const {
    // Pool name -> the slices of its highest generation.
    std::map<std::string, std::vector<const ResourceSlice*>> pools;
    for (const auto& s : slices_) {
        if (s.driver != driver) continue;
        auto& kept = pools[s.pool];
        if (!kept.empty() && kept.front()->poolGeneration > s.poolGeneration) continue;
        if (!kept.empty() && kept.front()->poolGeneration < s.poolGeneration) kept.clear();
        kept.push_back(&s);
    }
    std::vector<PublishedDevice> out;
    for (const auto& [name, kept] : pools) {
        if (int64_t(kept.size()) != kept.front()->resourceSliceCount) continue; // incomplete: skipped
        for (const ResourceSlice* s : kept)
            for (const auto& d : s->devices) out.push_back({&s->driver, &d});
    }
    return out;
}

std::vector<PublishedDevice> DraDevices::all(const std::vector<std::string>& drivers) const {
    std::vector<PublishedDevice> out;
    for (const auto& s : slices_) {
        if (!drivers.empty() && std::find(drivers.begin(), drivers.end(), s.driver) == drivers.end())
            continue;
        for (const auto& d : s.devices) out.push_back({&s.driver, &d});
    }
    return out;
}

bool DraDevices::passes(const PublishedDevice& d, const std::vector<std::string>& selectors,
                        std::string* error) {
    for (const auto& expression : selectors) {
        auto it = compiled_.find(expression);
        if (it == compiled_.end())
            it = compiled_.emplace(expression, k8s::DeviceSelector::compile(expression, nullptr)).first;
        if (!it->second) return false;
        std::string why;
        if (it->second->matches(*d.driver, *d.device, &why)) continue;
        if (!why.empty() && error) *error = why;
        return false;
    }
    return true;
}

} // namespace gantry::engine::kueue
