#include "k8s/dra_allocator.h"

#include "model/gpu_exposure.h"

#include <algorithm>
#include <string_view>
#include <tuple>

namespace gantry::engine::k8s {

namespace {

std::string key(const std::string& ns, const std::string& name) {
    return ns + "/" + name;
}

// The request a constraint names covers its subrequests ("gpu" covers "gpu/large").
bool covers(const DeviceConstraint& c, const std::string& request) {
    if (c.requests.empty()) return true;
    const std::string parent = request.substr(0, request.find('/'));
    for (const auto& r : c.requests)
        if (r == request || r == parent) return true;
    return false;
}

} // namespace

struct DraAllocator::Choice {
    struct Pick {
        uint32_t device = 0;
        size_t claim = 0;
        std::string request; // "req" or "req/sub"
        DeviceAmounts capacity;
    };
    std::vector<const PodClaim*> claims; // the pod's claims that need an allocation
    std::vector<uint32_t> pools;         // the node's, in order
    std::vector<Pick> picks;
    std::map<uint32_t, int32_t> taken;               // device -> picks holding it whole
    std::map<uint32_t, DeviceAmounts> capacityTaken; // consumable capacity picked
    std::map<std::pair<uint32_t, std::string>, DeviceAmounts> countersTaken; // (pool, set) -> picked
    std::string error; // a CEL runtime error stopped the search
};

DraAllocator::DraAllocator(const Cluster& cluster, std::vector<Diagnostic>* warnings) : dra_(cluster.dra) {
    const auto& dra = dra_;
    for (const auto& c : dra.deviceClasses) {
        classes_[c.name] = &c;
        // Two classes naming one resource: the first by name serves it.
        if (!c.extendedResourceName.empty()) extendedClasses_.try_emplace(c.extendedResourceName, c.name);
    }
    auto compile = [&](const std::string& expr, const SourceRef& where) {
        if (selectors_.count(expr)) return;
        std::string error;
        auto s = DeviceSelector::compile(expr, &error);
        if (!s && warnings)
            warnings->push_back(Diagnostic{Severity::Warning, where,
                                           "CEL selector '" + expr + "' is outside what Gantry evaluates (" +
                                               error + "): no device passes it"});
        selectors_.emplace(expr, std::move(s));
    };
    for (const auto& c : dra.deviceClasses)
        for (const auto& e : c.selectors) compile(e, c.source);
    auto compileSpec = [&](const DeviceClaimSpec& spec, const SourceRef& where) {
        for (const auto& r : spec.requests)
            for (const auto& choice : r.choices)
                for (const auto& e : choice.selectors) compile(e, where);
    };
    for (const auto& c : dra.resourceClaims) compileSpec(c.spec, c.source);
    for (const auto& t : dra.resourceClaimTemplates) compileSpec(t.spec, t.source);

    // Pools: the slices of the highest generation of each (driver, pool); complete when every
    // slice it announces is there. Pools in driver then name order, slices by name, devices as listed.
    std::map<std::pair<std::string, std::string>, std::vector<uint32_t>> slicesOf;
    for (uint32_t i = 0; i < dra.resourceSlices.size(); ++i) {
        const auto& s = dra.resourceSlices[i];
        slicesOf[{s.driver, s.pool}].push_back(i);
    }
    for (auto& [id, slices] : slicesOf) {
        int64_t generation = 0;
        for (uint32_t i : slices) generation = std::max(generation, dra.resourceSlices[i].poolGeneration);
        std::erase_if(slices, [&](uint32_t i) { return dra.resourceSlices[i].poolGeneration != generation; });
        std::sort(slices.begin(), slices.end(), [&](uint32_t a, uint32_t b) {
            return dra.resourceSlices[a].name < dra.resourceSlices[b].name;
        });
        Pool pool;
        pool.driver = id.first;
        pool.name = id.second;
        const auto& first = dra.resourceSlices[slices.front()];
        pool.complete = int64_t(slices.size()) >= first.resourceSliceCount;
        pool.nodeName = first.nodeName;
        pool.allNodes = first.allNodes;
        pool.nodeSelector = first.nodeSelector;
        const uint32_t p = uint32_t(pools_.size());
        std::map<std::string, std::string> deviceSlice; // device name -> the slice that lists it
        for (uint32_t si : slices) {
            const auto& s = dra.resourceSlices[si];
            if (pool.nodeName.empty()) pool.nodeName = s.nodeName;
            for (const auto& set : s.sharedCounters) pool.counterSets[set.name] = set.counters;
            for (uint32_t d = 0; d < s.devices.size(); ++d) {
                // A device name twice in a pool makes upstream's allocator treat the pool as invalid
                // (GatherPools): nothing is allocated from it.
                if (auto [at, fresh] = deviceSlice.emplace(s.devices[d].name, s.name);
                    !fresh && pool.complete) {
                    pool.complete = false;
                    if (warnings)
                        warnings->push_back({Severity::Warning, s.source,
                                             "pool " + s.pool + " of driver " + s.driver + " lists device '" +
                                                 s.devices[d].name + "' twice (slices " + at->second +
                                                 " and " + s.name +
                                                 "): the pool is invalid and no device of it is allocated"});
                }
                byName_[{s.driver, s.pool, s.devices[d].name}] = uint32_t(devices_.size());
                pool.devices.push_back(uint32_t(devices_.size()));
                devices_.push_back(DeviceRef{p, si, d});
            }
        }
        // A device that consumes a counter set the pool does not publish: nothing limits it.
        if (warnings && pool.complete)
            for (uint32_t si : slices)
                for (const auto& device : dra.resourceSlices[si].devices)
                    for (const auto& use : device.consumesCounters)
                        if (!pool.counterSets.count(use.counterSet)) {
                            warnings->push_back({Severity::Warning, dra.resourceSlices[si].source,
                                                 "device '" + device.name + "' of pool " + pool.name +
                                                     " consumes counter set '" + use.counterSet +
                                                     "', which no slice of the pool publishes: nothing "
                                                     "limits how often its partitions are allocated"});
                            break;
                        }
        pools_.push_back(std::move(pool));
    }
    for (uint32_t p = 0; p < pools_.size(); ++p) {
        if (pools_[p].allNodes || !pools_[p].nodeSelector.empty()) sharedPools_.push_back(p);
        if (!pools_[p].nodeName.empty()) poolsOfNode_[pools_[p].nodeName].push_back(p);
    }
    for (const auto& [name, cls] : classes_) classIndex_.emplace(name, uint32_t(classIndex_.size()));
    classMatch_.assign(devices_.size() * classIndex_.size(), -1);
    exclusiveUses_.assign(devices_.size(), 0);
    capacityUsed_.assign(devices_.size(), {});
    indexGpus();
    counterUsed_.assign(pools_.size(), {});

    // Claims allocated before: their devices are in use, reserved for the pods status.reservedFor
    // names (none: held for good).
    std::map<std::string, const ResourceClaim*> claims;
    for (const auto& c : dra.resourceClaims) {
        const std::string claimKey = key(c.ns, c.name);
        claims[claimKey] = &c;
        if (!c.allocation) continue;
        Allocation& held = allocations_[claimKey];
        for (const auto& pod : c.reservedFor) {
            held.reservedFor.insert(key(c.ns, pod));
            claimsOf_[key(c.ns, pod)].push_back(claimKey);
        }
        for (const auto& a : c.allocation->devices) {
            auto it = byName_.find({a.driver, a.pool, a.device});
            if (it == byName_.end()) continue; // a device no slice lists any more
            Use use{it->second, a.consumedCapacity};
            take(use, +1);
            held.uses.push_back(std::move(use));
        }
    }
    std::map<std::string, const ResourceClaimTemplate*> templates;
    for (const auto& t : dra.resourceClaimTemplates) templates[key(t.ns, t.name)] = &t;

    // Each pod's claims, as the ResourceClaim controller and PreFilter see them.
    for (const auto& pod : cluster.pods) {
        if (pod.resourceClaims.empty()) continue;
        PodClaims pc;
        for (const auto& ref : pod.resourceClaims) {
            PodClaim claim;
            if (!ref.resourceClaimName.empty()) {
                claim.key = key(pod.ns, ref.resourceClaimName);
                auto it = claims.find(claim.key);
                if (it == claims.end()) {
                    pc.unusable = "could not find ResourceClaim \"" + claim.key + "\"";
                    break;
                }
                claim.spec = &it->second->spec;
                if (it->second->allocation) claim.allocated = &*it->second->allocation;
            } else if (auto made = claims.find(key(pod.ns, ref.generatedClaimName));
                       !ref.generatedClaimName.empty() && made != claims.end()) {
                claim.key = made->first;
                claim.spec = &made->second->spec;
                if (made->second->allocation) claim.allocated = &*made->second->allocation;
            } else {
                auto t = templates.find(key(pod.ns, ref.resourceClaimTemplateName));
                if (t == templates.end()) {
                    // The ResourceClaim controller makes nothing without the template.
                    pc.unusable = "pod \"" + key(pod.ns, pod.name) + "\": ResourceClaim not created yet";
                    break;
                }
                claim.key = key(pod.ns, pod.name + "-" + ref.name);
                claim.spec = &t->second->spec;
            }
            if (!claim.allocated)
                for (const auto& r : claim.spec->requests)
                    for (const auto& choice : r.choices)
                        if (!classes_.count(choice.deviceClassName) && pc.unusable.empty())
                            pc.unusable = "request " + r.name + ": device class " + choice.deviceClassName +
                                          " does not exist";
            pc.claims.push_back(claim);
        }
        pods_[key(pod.ns, pod.name)] = std::move(pc);
    }
}

const Device& DraAllocator::device(uint32_t d) const {
    return dra_.resourceSlices[devices_[d].slice].devices[devices_[d].device];
}

const std::string& DraAllocator::driverOf(uint32_t d) const {
    return pools_[devices_[d].pool].driver;
}

const std::string* DraAllocator::extendedClass(const std::string& resource) const {
    if (auto it = extendedClasses_.find(resource); it != extendedClasses_.end()) return &it->second;
    static constexpr std::string_view kImplicit = "deviceclass.resource.kubernetes.io/";
    if (resource.size() > kImplicit.size() && resource.compare(0, kImplicit.size(), kImplicit) == 0)
        if (auto it = classes_.find(resource.substr(kImplicit.size())); it != classes_.end())
            return &it->first;
    return nullptr;
}

const std::string& DraAllocator::preFilter(const std::string& pod) const {
    static const std::string none;
    auto it = pods_.find(pod);
    return it == pods_.end() ? none : it->second.unusable;
}

std::vector<uint32_t> DraAllocator::poolsFor(const std::string& node, const Labels& labels) const {
    std::vector<uint32_t> out;
    if (auto it = poolsOfNode_.find(node); it != poolsOfNode_.end()) out = it->second;
    for (uint32_t p : sharedPools_) {
        const Pool& pool = pools_[p];
        bool serves = pool.allNodes;
        for (const auto& term : pool.nodeSelector) serves = serves || matches(term, labels, node);
        if (serves && std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
    }
    std::sort(out.begin(), out.end()); // pools in driver, then name order
    return out;
}

const DeviceSelector* DraAllocator::selector(const std::string& expression) const {
    auto it = selectors_.find(expression);
    return it == selectors_.end() || !it->second ? nullptr : &*it->second;
}

bool DraAllocator::selectable(uint32_t d, const DeviceSubRequest& req, const std::string& claim,
                              std::string* error) const {
    auto cls = classes_.find(req.deviceClassName);
    if (cls == classes_.end()) return false;
    const Device& dev = device(d);
    const std::string& driver = driverOf(d);
    auto deviceId = [&]() { return driver + "/" + pools_[devices_[d].pool].name + "/" + dev.name; };
    // Selectors in order, each until one says no; an error stops the evaluation.
    auto check = [&](const std::vector<std::string>& selectors, const std::string& owner) {
        for (size_t i = 0; i < selectors.size(); ++i) {
            const auto* s = selector(selectors[i]);
            if (!s) return int8_t(0); // outside the CEL Gantry reads: warned about, matches nothing
            std::string why;
            if (s->matches(driver, dev, &why)) continue;
            if (why.empty()) return int8_t(0);
            *error = owner + ": selector #" + std::to_string(i) + " on device " + deviceId() +
                     ": CEL runtime error: " + why;
            return int8_t(2);
        }
        return int8_t(1);
    };
    int8_t& known = classMatch_[size_t(d) * classIndex_.size() + classIndex_.at(cls->first)];
    if (known == 2 || known < 0) known = check(cls->second->selectors, "class " + cls->first);
    if (known != 1) return false;
    return check(req.selectors, "claim " + claim) == 1;
}

bool DraAllocator::constraintsHold(const Choice& c, uint32_t d, size_t claim,
                                   const std::string& request) const {
    const DeviceClaimSpec& spec = *c.claims[claim]->spec;
    for (const auto& k : spec.constraints) {
        if (k.matchAttribute.empty() || !covers(k, request)) continue;
        const auto slash = k.matchAttribute.find('/');
        const std::string domain =
            slash == std::string::npos ? std::string() : k.matchAttribute.substr(0, slash);
        const std::string name = k.matchAttribute.substr(slash == std::string::npos ? 0 : slash + 1);
        auto value = [&](uint32_t dev) -> const DeviceAttribute* {
            const auto& attrs = device(dev).attributes;
            auto it = attrs.find(k.matchAttribute);
            if (it == attrs.end() && domain == driverOf(dev)) it = attrs.find(name);
            return it == attrs.end() ? nullptr : &it->second;
        };
        const DeviceAttribute* mine = value(d);
        if (!mine) return false;
        for (const auto& p : c.picks) {
            if (p.claim != claim || !covers(k, p.request)) continue;
            const DeviceAttribute* theirs = value(p.device);
            if (!theirs || !(*theirs == *mine)) return false;
        }
    }
    return true;
}

bool DraAllocator::fits(const Choice& c, uint32_t d, const DeviceSubRequest& req, size_t claim,
                        const std::string& requestName, DeviceAmounts* capacity) const {
    const Device& dev = device(d);
    auto taken = c.taken.find(d);
    if (exclusiveUses_[d] > 0 || (taken != c.taken.end() && taken->second > 0)) return false;
    capacity->clear();
    if (dev.allowMultipleAllocations) {
        // Consumable capacity: what the request asks for, else the whole of it.
        auto picked = c.capacityTaken.find(d);
        for (const auto& [name, total] : dev.capacity) {
            auto want = req.capacity.find(name);
            const int64_t need = want == req.capacity.end() ? total : want->second;
            int64_t used = 0;
            if (auto u = capacityUsed_[d].find(name); u != capacityUsed_[d].end()) used += u->second;
            if (picked != c.capacityTaken.end())
                if (auto u = picked->second.find(name); u != picked->second.end()) used += u->second;
            if (used + need > total) return false;
            (*capacity)[name] = need;
        }
    } else if (!capacityUsed_[d].empty() || c.capacityTaken.count(d)) {
        return false; // shared already
    }
    // Partitions consume the counters of their pool's counter sets. Only the counters a set
    // publishes limit anything: upstream compares the consumption with the available counters
    // alone (checkAvailableCounters), so a set or a counter nobody publishes limits nothing.
    const uint32_t p = devices_[d].pool;
    for (const auto& use : dev.consumesCounters) {
        auto set = pools_[p].counterSets.find(use.counterSet);
        if (set == pools_[p].counterSets.end()) continue;
        const DeviceAmounts* usedBefore = nullptr;
        if (auto u = counterUsed_[p].find(use.counterSet); u != counterUsed_[p].end())
            usedBefore = &u->second;
        const DeviceAmounts* picked = nullptr;
        if (auto u = c.countersTaken.find({p, use.counterSet}); u != c.countersTaken.end())
            picked = &u->second;
        for (const auto& [name, need] : use.counters) {
            auto have = set->second.find(name);
            if (have == set->second.end()) continue;
            int64_t used = 0;
            if (usedBefore)
                if (auto u = usedBefore->find(name); u != usedBefore->end()) used += u->second;
            if (picked)
                if (auto u = picked->find(name); u != picked->end()) used += u->second;
            if (used + need > have->second) return false;
        }
    }
    // Without a claim (available() asks of the device alone) there is no constraint to hold.
    return claim >= c.claims.size() || constraintsHold(c, d, claim, requestName);
}

bool DraAllocator::search(Choice& c, size_t claim, size_t request) const {
    if (claim == c.claims.size()) return true;
    const DeviceClaimSpec& spec = *c.claims[claim]->spec;
    if (request == spec.requests.size()) return search(c, claim + 1, 0);
    const DeviceRequest& r = spec.requests[request];
    for (size_t k = 0; k < r.choices.size(); ++k) {
        if (fill(c, claim, request, k, 0, 0)) return true;
        if (!c.error.empty()) return false;
    }
    return false;
}

bool DraAllocator::fill(Choice& c, size_t claim, size_t request, size_t choice, int64_t have,
                        size_t from) const {
    const DeviceClaimSpec& spec = *c.claims[claim]->spec;
    const DeviceRequest& r = spec.requests[request];
    const DeviceSubRequest& req = r.choices[choice];
    const std::string name = r.prioritized ? r.name + "/" + req.name : r.name;
    // The node's devices in pool, slice, device order.
    std::vector<uint32_t> order;
    for (uint32_t p : c.pools)
        if (pools_[p].complete) order.insert(order.end(), pools_[p].devices.begin(), pools_[p].devices.end());
    auto pick = [&](uint32_t d, DeviceAmounts capacity) {
        c.picks.push_back(Choice::Pick{d, claim, name, capacity});
        const Device& dev = device(d);
        if (dev.allowMultipleAllocations) {
            for (const auto& [n, v] : capacity) c.capacityTaken[d][n] += v;
        } else {
            ++c.taken[d];
        }
        for (const auto& use : dev.consumesCounters)
            for (const auto& [n, v] : use.counters)
                c.countersTaken[{devices_[d].pool, use.counterSet}][n] += v;
    };
    auto unpick = [&]() {
        const auto p = c.picks.back();
        const Device& dev = device(p.device);
        if (dev.allowMultipleAllocations) {
            for (const auto& [n, v] : p.capacity) c.capacityTaken[p.device][n] -= v;
        } else {
            --c.taken[p.device];
        }
        for (const auto& use : dev.consumesCounters)
            for (const auto& [n, v] : use.counters)
                c.countersTaken[{devices_[p.device].pool, use.counterSet}][n] -= v;
        c.picks.pop_back();
    };
    if (req.allocateAll) {
        // Every device the request selects, each of them free; a pool of the node being updated
        // cannot say what "all" is (upstream: an error, whatever the pool holds).
        for (uint32_t p : c.pools)
            if (!pools_[p].complete) return false;
        const size_t before = c.picks.size();
        bool ok = true;
        for (uint32_t d : order) {
            if (!selectable(d, req, c.claims[claim]->key, &c.error)) {
                if (!c.error.empty()) break;
                continue;
            }
            DeviceAmounts capacity;
            if (!fits(c, d, req, claim, name, &capacity)) {
                ok = false;
                break;
            }
            pick(d, capacity);
        }
        if (!c.error.empty()) ok = false;
        if (ok && c.picks.size() > before && search(c, claim, request + 1)) return true;
        while (c.picks.size() > before) unpick();
        return false;
    }
    if (have == req.count) return search(c, claim, request + 1);
    // The devices of one request are a set: trying them in order from the last one picked covers
    // every set once.
    for (size_t i = from; i < order.size(); ++i) {
        const uint32_t d = order[i];
        if (!selectable(d, req, c.claims[claim]->key, &c.error)) {
            if (!c.error.empty()) return false;
            continue;
        }
        DeviceAmounts capacity;
        if (!fits(c, d, req, claim, name, &capacity)) continue;
        pick(d, capacity);
        if (fill(c, claim, request, choice, have + 1, device(d).allowMultipleAllocations ? i : i + 1))
            return true;
        unpick();
        if (!c.error.empty()) return false;
    }
    return false;
}

std::optional<std::vector<ClaimResult>>
DraAllocator::run(const std::string& pod, const std::string& node, const Labels& labels,
                  const std::vector<ExtendedDevices>& extended) const {
    auto it = pods_.find(pod);
    if (it == pods_.end() && extended.empty()) return std::vector<ClaimResult>{};
    Choice c;
    // The scheduler's own claim for the extended resources: one request per resource.
    DeviceClaimSpec extendedSpec;
    for (size_t i = 0; i < extended.size(); ++i) {
        DeviceSubRequest sub;
        sub.name = "container-0-request-" + std::to_string(i);
        sub.deviceClassName = extended[i].deviceClass;
        sub.count = extended[i].count;
        extendedSpec.requests.push_back(DeviceRequest{sub.name, false, {sub}});
    }
    const PodClaim extendedClaim{pod + "-extended-resources", &extendedSpec, nullptr};
    static const std::vector<PodClaim> none;
    for (const auto& claim : it == pods_.end() ? none : it->second.claims) {
        bool allocated = false;
        if (!usableOn(claim, node, labels, &allocated)) return std::nullopt;
        if (!allocated) c.claims.push_back(&claim);
    }
    if (!extended.empty()) c.claims.push_back(&extendedClaim);
    c.pools = poolsFor(node, labels);
    if (!search(c, 0, 0)) {
        lastError_ = std::move(c.error);
        return std::nullopt;
    }
    std::vector<ClaimResult> out(c.claims.size());
    for (size_t i = 0; i < c.claims.size(); ++i) {
        out[i].claim = c.claims[i]->key;
        out[i].node = node;
    }
    for (const auto& p : c.picks) {
        const Pool& pool = pools_[devices_[p.device].pool];
        AllocatedDevice a{p.request, pool.driver, pool.name, device(p.device).name, {}};
        if (device(p.device).allowMultipleAllocations) a.consumedCapacity = p.capacity;
        out[p.claim].devices.push_back(std::move(a));
    }
    return out;
}

const char* DraAllocator::filter(const std::string& pod, const std::string& node, const Labels& labels,
                                 const std::vector<ExtendedDevices>& extended) {
    auto it = pods_.find(pod);
    if (it == pods_.end() && extended.empty()) return nullptr;
    bool allocated = false;
    if (it != pods_.end())
        for (const auto& claim : it->second.claims)
            if (!usableOn(claim, node, labels, &allocated)) return kClaimNotAvailableOnNode;
    lastError_.clear();
    if (run(pod, node, labels, extended)) return nullptr;
    return lastError_.empty() ? kCannotAllocateAllClaims : lastError_.c_str();
}

bool DraAllocator::usableOn(const PodClaim& claim, const std::string& node, const Labels& labels,
                            bool* allocated) const {
    if (claim.allocated) {
        *allocated = true;
        bool here = claim.allocated->nodeSelector.empty();
        for (const auto& term : claim.allocated->nodeSelector) here = here || matches(term, labels, node);
        return here;
    }
    auto mine = allocations_.find(claim.key);
    *allocated = mine != allocations_.end();
    return !*allocated || mine->second.node == node;
}

std::vector<ClaimResult> DraAllocator::allocate(const std::string& pod, const std::string& node,
                                                const Labels& labels,
                                                const std::vector<ExtendedDevices>& extended) {
    auto result = run(pod, node, labels, extended);
    if (!result) return {};
    auto& mine = claimsOf_[pod];
    auto reserve = [&](const std::string& claim) {
        if (allocations_[claim].reservedFor.insert(pod).second) mine.push_back(claim);
    };
    for (const auto& claim : *result) {
        Allocation& held = allocations_[claim.claim];
        held.node = node;
        for (const auto& a : claim.devices) {
            Use use{byName_.at({a.driver, a.pool, a.device}), a.consumedCapacity};
            take(use, +1);
            held.uses.push_back(std::move(use));
        }
        reserve(claim.claim);
    }
    // The pod's claims allocated before (for another pod, or in the snapshot) are its too now.
    if (auto it = pods_.find(pod); it != pods_.end())
        for (const auto& claim : it->second.claims)
            if (allocations_.count(claim.key)) reserve(claim.key);
    return *result;
}

void DraAllocator::take(const Use& use, int sign) {
    const Device& dev = device(use.device);
    if (dev.allowMultipleAllocations) {
        gpuMilliInUse_ -= sharedGpuMilli(use.device);
        const DeviceAmounts& amounts = use.capacity.empty() ? dev.capacity : use.capacity;
        for (const auto& [n, v] : amounts) capacityUsed_[use.device][n] += sign * v;
        std::erase_if(capacityUsed_[use.device], [](const auto& e) { return e.second == 0; });
        gpuMilliInUse_ += sharedGpuMilli(use.device);
    } else {
        // A device held twice (two claims of the snapshot) is still one device.
        if ((exclusiveUses_[use.device] > 0) != (exclusiveUses_[use.device] + sign > 0))
            gpuMilliInUse_ += sign * gpuMilli(use.device);
        exclusiveUses_[use.device] += sign;
    }
    const uint32_t p = devices_[use.device].pool;
    for (const auto& c : dev.consumesCounters)
        for (const auto& [n, v] : c.counters) counterUsed_[p][c.counterSet][n] += sign * v;
}

// Whether a claim could be given the device now: its pool is valid, and neither a claim nor the
// counters its partitions consume stand in the way (k8s/dra_gpu_idle.cpp).
bool DraAllocator::available(uint32_t d) const {
    if (!pools_[devices_[d].pool].complete) return false;
    Choice none;
    DeviceSubRequest whole;
    DeviceAmounts capacity;
    return fits(none, d, whole, 0, std::string(), &capacity);
}

int64_t DraAllocator::sharedGpuMilli(uint32_t d) const {
    // A device shared by consumable capacity is in use by its most used capacity's share.
    double share = 0;
    const Device& dev = device(d);
    for (const auto& [name, used] : capacityUsed_[d])
        if (auto total = dev.capacity.find(name); total != dev.capacity.end() && total->second > 0)
            share = std::max(share, std::min(1.0, double(used) / double(total->second)));
    return int64_t(double(gpuMilli(d)) * share);
}

void DraAllocator::releasePod(const std::string& pod) {
    auto it = claimsOf_.find(pod);
    if (it == claimsOf_.end()) return;
    for (const auto& claim : it->second) {
        auto held = allocations_.find(claim);
        if (held == allocations_.end()) continue;
        held->second.reservedFor.erase(pod);
        if (!held->second.reservedFor.empty()) continue; // other pods still use it
        for (const auto& use : held->second.uses) release(use);
        allocations_.erase(held);
    }
    claimsOf_.erase(it);
}

} // namespace gantry::engine::k8s
