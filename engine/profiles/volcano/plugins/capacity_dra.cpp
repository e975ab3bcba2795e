#include "profiles/volcano/plugins/capacity_dra.h"

#include <algorithm>

namespace gantry::engine::plugins {

namespace {

constexpr std::string_view kDeviceClass = "deviceclass/";

void addTo(DraByClass& into, const DraByClass& amounts, int sign) {
    for (const auto& [cls, a] : amounts) {
        DraAmount& x = into[cls];
        x.count = std::max<int64_t>(0, x.count + sign * a.count);
        for (const auto& [dim, v] : a.capacity)
            x.capacity[dim] = std::max<int64_t>(0, x.capacity[dim] + sign * v);
    }
}

} // namespace

std::optional<QueueDra> parseQueueDra(const ResourceList& capability) {
    QueueDra q;
    bool any = false;
    for (const auto& [name, amount] : capability) {
        const size_t at = name.find(kDeviceClass);
        if (at == std::string::npos) continue;
        const std::string cls = name.substr(at + kDeviceClass.size());
        if (cls.empty()) continue;
        if (at == 0) {
            // A count, from the milli-units every extended resource is kept in (Quantity.Value
            // rounds up).
            q.capability[cls].count = (amount + 999) / 1000;
            any = true;
        } else if (name[at - 1] == '.') {
            q.capability[cls].capacity[name.substr(0, at - 1)] = amount;
            any = true;
        }
    }
    if (!any) return std::nullopt;
    return q;
}

const TaskDra& CapacityDra::of(const ClusterState& st, uint32_t t) {
    if (!claims_) return none_;
    const std::string key = st.taskKey(t);
    auto it = byPod_.find(key);
    if (it != byPod_.end()) return it->second;
    TaskDra dra;
    if (const auto* claims = claims_->allocator().claimsOf(key))
        for (const auto& claim : *claims) {
            if (!claim.spec) continue;
            if (std::any_of(dra.claims.begin(), dra.claims.end(),
                            [&](const auto& c) { return c.first == claim.key; }))
                continue;
            DraByClass asks;
            for (const auto& request : claim.spec->requests) {
                // firstAvailable and allocationMode All are not counted (upstream warns and skips).
                if (request.prioritized || request.choices.size() != 1) continue;
                const DeviceSubRequest& r = request.choices.front();
                if (r.allocateAll || r.deviceClassName.empty()) continue;
                const int64_t count = r.count > 0 ? r.count : 1;
                DraAmount& a = asks[r.deviceClassName];
                a.count += count;
                if (consumable_)
                    for (const auto& [dim, v] : r.capacity) a.capacity[dim] += v * count;
            }
            if (!asks.empty()) dra.claims.emplace_back(claim.key, std::move(asks));
        }
    std::sort(dra.claims.begin(), dra.claims.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    return byPod_.emplace(key, std::move(dra)).first->second;
}

bool CapacityDra::fits(const QueueDra& q, const TaskDra& task) const {
    DraByClass want;
    for (const auto& [claim, asks] : task.claims) {
        auto ref = q.claimRefs.find(claim);
        if (ref != q.claimRefs.end() && ref->second > 0) continue; // held already: charged once
        addTo(want, asks, +1);
    }
    for (const auto& [cls, ask] : want) {
        auto cap = q.capability.find(cls);
        if (cap == q.capability.end()) continue; // a class the quota does not name is not limited
        auto held = q.allocated.find(cls);
        const DraAmount none;
        const DraAmount& have = held == q.allocated.end() ? none : held->second;
        if (cap->second.count > 0 && have.count + ask.count > cap->second.count) return false;
        if (!consumable_) continue;
        for (const auto& [dim, v] : ask.capacity) {
            auto limit = cap->second.capacity.find(dim);
            if (limit == cap->second.capacity.end()) return false; // a dimension the quota does not name
            auto used = have.capacity.find(dim);
            if ((used == have.capacity.end() ? 0 : used->second) + v > limit->second) return false;
        }
    }
    return true;
}

void CapacityDra::hold(QueueDra& q, const TaskDra& task, int sign, DraByClass* charged) {
    for (const auto& [claim, asks] : task.claims) {
        int32_t& refs = q.claimRefs[claim];
        if (sign > 0) {
            if (refs++ == 0) {
                addTo(q.allocated, asks, +1);
                if (charged) addTo(*charged, asks, +1);
            }
        } else if (refs <= 1) {
            addTo(q.allocated, asks, -1);
            if (charged) addTo(*charged, asks, +1);
            q.claimRefs.erase(claim);
        } else {
            --refs;
        }
    }
}

void CapacityDra::addNamed(QueueDra& q, const DraByClass& amounts, int sign) {
    DraByClass named;
    for (const auto& [cls, a] : amounts)
        if (q.capability.count(cls)) named.emplace(cls, a);
    addTo(q.allocated, named, sign);
}

} // namespace gantry::engine::plugins
