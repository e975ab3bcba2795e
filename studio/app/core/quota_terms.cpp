#include "core/quota_terms.h"

#include <QObject>
#include <algorithm>
#include <set>

namespace gantry::studio {

QuotaTerms quotaTerms(TargetScheduler target) {
    switch (target) {
    case TargetScheduler::Volcano:
        return {QObject::tr("Guarantee"), QObject::tr("Deserved"), QObject::tr("Capability"),
                QObject::tr("deserved vs parent")};
    case TargetScheduler::Kueue:
        return {QObject::tr("Lending limit"), QObject::tr("Nominal"), QObject::tr("Borrowing limit"),
                QObject::tr("nominal vs cohort")};
    case TargetScheduler::YuniKorn:
        return {QString(), QObject::tr("Guaranteed"), QObject::tr("Max"),
                QObject::tr("guaranteed vs parent")};
    }
    return {};
}

namespace {

std::optional<int64_t> fromList(const ResourceList& list, const std::string& resource) {
    if (!list.has(resource)) return std::nullopt;
    return list.get(resource);
}

void toList(ResourceList& list, const std::string& resource, std::optional<int64_t> value) {
    if (value)
        list.set(resource, *value);
    else
        list.erase(resource);
}

// Sum of a Kueue field over every flavor quota of a resource; nullopt when no flavor sets it.
std::optional<int64_t> kueueSum(const Queue& q, const std::string& resource, QuotaField field) {
    std::optional<int64_t> sum;
    bool unlimited = false;
    for (const auto& group : q.resourceGroups)
        for (const auto& flavor : group.flavors)
            for (const auto& rq : flavor.resources) {
                if (rq.resource != resource) continue;
                std::optional<int64_t> v;
                if (field == QuotaField::Share) v = rq.nominal;
                if (field == QuotaField::High) v = rq.borrowingLimit;
                if (field == QuotaField::Low) v = rq.lendingLimit;
                if (!v) {
                    unlimited = true;
                    continue;
                }
                sum = sum.value_or(0) + *v;
            }
    if (unlimited && field != QuotaField::Share) return std::nullopt;
    return sum;
}

ResourceQuota* kueueQuota(Queue& q, const std::string& resource) {
    for (auto& group : q.resourceGroups)
        for (auto& flavor : group.flavors)
            for (auto& rq : flavor.resources)
                if (rq.resource == resource) return &rq;
    return nullptr;
}

} // namespace

std::optional<int64_t> quotaValue(const Queue& q, TargetScheduler target, QuotaField field,
                                  const std::string& resource) {
    switch (target) {
    case TargetScheduler::Volcano:
        return fromList(field == QuotaField::Low     ? q.guarantee
                        : field == QuotaField::Share ? q.deserved
                                                     : q.capability,
                        resource);
    case TargetScheduler::Kueue:
        return kueueSum(q, resource, field);
    case TargetScheduler::YuniKorn:
        if (field == QuotaField::Low) return std::nullopt;
        return fromList(field == QuotaField::Share ? q.guaranteed : q.max, resource);
    }
    return std::nullopt;
}

void setQuotaValue(Queue& q, TargetScheduler target, QuotaField field, const std::string& resource,
                   std::optional<int64_t> value) {
    switch (target) {
    case TargetScheduler::Volcano:
        toList(field == QuotaField::Low     ? q.guarantee
               : field == QuotaField::Share ? q.deserved
                                            : q.capability,
               resource, value);
        return;
    case TargetScheduler::YuniKorn:
        if (field != QuotaField::Low)
            toList(field == QuotaField::Share ? q.guaranteed : q.max, resource, value);
        return;
    case TargetScheduler::Kueue: {
        ResourceQuota* rq = kueueQuota(q, resource);
        if (!rq) {
            if (!value) return;
            // A new resource goes into its own group with a flavor named after the queue's first flavor
            // (or "default-flavor"), so every flavor stays in one resource group as Kueue requires.
            std::string flavorName = "default-flavor";
            if (!q.resourceGroups.empty() && !q.resourceGroups.front().flavors.empty())
                flavorName = q.resourceGroups.front().flavors.front().flavor;
            ResourceGroup* group = nullptr;
            for (auto& g : q.resourceGroups)
                for (auto& f : g.flavors)
                    if (f.flavor == flavorName) group = &g;
            if (!group) {
                q.resourceGroups.push_back(ResourceGroup{});
                group = &q.resourceGroups.back();
                group->flavors.push_back(FlavorQuotas{flavorName, {}});
            }
            group->coveredResources.push_back(resource);
            for (auto& f : group->flavors) f.resources.push_back(ResourceQuota{resource, 0, {}, {}});
            rq = kueueQuota(q, resource);
        }
        if (field == QuotaField::Share) rq->nominal = value.value_or(0);
        if (field == QuotaField::High) rq->borrowingLimit = value;
        if (field == QuotaField::Low) rq->lendingLimit = value;
        return;
    }
    }
}

std::optional<int64_t> entitlement(const Queue& q, TargetScheduler target, const std::string& resource) {
    return quotaValue(q, target, QuotaField::Share, resource);
}

std::string primaryGpuResource(const Cluster& cluster) {
    for (const auto& n : cluster.nodes)
        for (const auto& [name, amount] : n.allocatable)
            if (isGpuResource(name) && amount > 0) return name;
    return std::string(res::NvidiaGpu);
}

std::vector<std::string> quotaResources(const Project& project) {
    std::set<std::string> names;
    auto addAll = [&](const ResourceList& l) {
        for (const auto& [name, amount] : l) names.insert(name);
    };
    for (const auto& q : project.cluster.queues) {
        addAll(q.guarantee);
        addAll(q.deserved);
        addAll(q.capability);
        addAll(q.guaranteed);
        addAll(q.max);
        for (const auto& g : q.resourceGroups)
            for (const auto& r : g.coveredResources) names.insert(r);
    }
    std::vector<std::string> out;
    std::string gpu = primaryGpuResource(project.cluster);
    out.push_back(gpu);
    for (const auto& n : names)
        if (isGpuResource(n) && n != gpu) out.push_back(n);
    for (const char* base : {"cpu", "memory"}) out.push_back(base);
    for (const auto& n : names)
        if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
    return out;
}

int64_t clusterTotal(const Cluster& cluster, const std::string& resource) {
    int64_t total = 0;
    for (const auto& n : cluster.nodes) total += n.allocatable.get(resource);
    return total;
}

} // namespace gantry::studio
