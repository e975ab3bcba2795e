#include "profiles/kueue/workloads.h"

#include "profiles/kueue/dra_quota.h"
#include "profiles/kueue/resource_transformations.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace gantry::engine::kueue {

namespace {

void keepFirst(ResourceList& into, const ResourceList& from) {
    for (const auto& [name, amount] : from)
        if (!into.has(name)) into.set(name, amount);
}

// The LimitRange summary of a namespace for one type: the lowest max, the highest min, the first
// defaults (limitrange.Summarize).
struct RangeSummary {
    bool found = false;
    ResourceList max, min, defaultLimits, defaultRequests;
};

RangeSummary summarize(const std::vector<LimitRangeItem>& items, const std::string& type) {
    RangeSummary s;
    for (const auto& it : items) {
        if (it.type != type) continue;
        s.found = true;
        for (const auto& [n, a] : it.max)
            if (!s.max.has(n) || a < s.max.get(n)) s.max.set(n, a);
        for (const auto& [n, a] : it.min)
            if (!s.min.has(n) || a > s.min.get(n)) s.min.set(n, a);
        keepFirst(s.defaultLimits, it.defaultLimits);
        keepFirst(s.defaultRequests, it.defaultRequests);
    }
    return s;
}

// Resources whose request is above the bound (only resources the bound names).
std::vector<std::string> above(const ResourceList& values, const ResourceList& bound) {
    std::vector<std::string> out;
    for (const auto& [n, a] : values)
        if (bound.has(n) && a > bound.get(n)) out.push_back(n);
    return out;
}

std::vector<std::string> below(const ResourceList& values, const ResourceList& bound) {
    std::vector<std::string> out;
    for (const auto& [n, a] : bound)
        if (a > values.get(n)) out.push_back(n);
    return out;
}

std::string quoted(const std::vector<std::string>& names) {
    std::string out = "[";
    for (size_t i = 0; i < names.size(); ++i) {
        if (i) out += ',';
        out += '"';
        out += names[i];
        out += '"';
    }
    out += ']';
    return out;
}

// A pod's requests from its containers (resourcehelper.PodRequests): regular containers and sidecars
// run together, each plain init container runs next to the sidecars started before it.
ResourceList podRequests(const KueuePodSet& ps) {
    ResourceList sum, sidecars, initPeak;
    for (const auto& c : ps.containers) sum += c.requests;
    for (const auto& c : ps.initContainers) {
        ResourceList req = c.requests;
        if (c.sidecar) {
            sum += req;
            sidecars += req;
            req = sidecars;
        } else {
            req += sidecars;
        }
        initPeak = ResourceList::max(initPeak, req);
    }
    ResourceList r = ResourceList::max(sum, initPeak);
    if (ps.podRequests)
        for (const auto& [n, a] : *ps.podRequests) r.set(n, a);
    r += ps.overhead;
    return r;
}

// Applies the namespace's LimitRange defaults and "limits as missing requests" as Kueue does before
// computing requests, then checks requests against limits and the LimitRange bounds.
std::string adjustAndValidate(const World& w, const std::string& ns, std::vector<KueuePodSet>& podSets) {
    const std::vector<LimitRangeItem>* items = nullptr;
    if (auto it = w.limitRanges.find(ns); it != w.limitRanges.end()) items = &it->second;
    RangeSummary container, pod;
    if (items) {
        container = summarize(*items, "Container");
        pod = summarize(*items, "Pod");
    }
    for (auto& ps : podSets) {
        for (auto* list : {&ps.initContainers, &ps.containers})
            for (auto& c : *list) {
                if (container.found) {
                    keepFirst(c.limits, container.defaultLimits);
                    keepFirst(c.requests, container.defaultRequests);
                }
                keepFirst(c.requests, c.limits);
            }
        if (ps.podRequests && ps.podLimits) keepFirst(*ps.podRequests, *ps.podLimits);
    }
    std::string problems;
    auto add = [&](const std::string& what) { problems += (problems.empty() ? "" : "; ") + what; };
    std::string resourceErrors;
    for (size_t i = 0; i < podSets.size(); ++i) {
        const std::string path = "spec.podSets[" + std::to_string(i) + "].template.spec.";
        const auto& ps = podSets[i];
        auto check = [&](const std::vector<KueueContainer>& list, const char* field) {
            for (size_t c = 0; c < list.size(); ++c) {
                auto names = above(list[c].requests, list[c].limits);
                if (!names.empty())
                    resourceErrors += std::string(resourceErrors.empty() ? "" : ", ") + path + field + "[" +
                                      std::to_string(c) + "]: Invalid value: " + quoted(names) +
                                      ": requests must not exceed its limits";
            }
        };
        check(ps.initContainers, "initContainers");
        check(ps.containers, "containers");
    }
    if (!resourceErrors.empty()) add("resources validation failed: " + resourceErrors);
    if (!items || !problems.empty()) return problems;
    std::string rangeErrors;
    for (size_t i = 0; i < podSets.size(); ++i) {
        const std::string path = "spec.podSets[" + std::to_string(i) + "].template.spec";
        const auto& ps = podSets[i];
        auto err = [&](const std::string& where, const std::vector<std::string>& names, const char* msg) {
            rangeErrors += std::string(rangeErrors.empty() ? "" : ", ") + where +
                           ": Invalid value: " + quoted(names) + ": " + msg;
        };
        if (container.found) {
            auto check = [&](const std::vector<KueueContainer>& list, const char* field) {
                for (size_t c = 0; c < list.size(); ++c) {
                    ResourceList hi = ResourceList::max(list[c].requests, list[c].limits), lo;
                    for (const auto& [n, a] : list[c].requests)
                        lo.set(n, list[c].limits.has(n) ? std::min(a, list[c].limits.get(n)) : a);
                    for (const auto& [n, a] : list[c].limits)
                        if (!lo.has(n)) lo.set(n, a);
                    const std::string where = path + "." + field + "[" + std::to_string(c) + "]";
                    if (auto names = above(hi, container.max); !names.empty())
                        err(where, names, "requests must not be above the limitRange max");
                    if (auto names = below(lo, container.min); !names.empty())
                        err(where, names, "requests must not be below the limitRange min");
                }
            };
            check(ps.initContainers, "initContainers");
            check(ps.containers, "containers");
        }
        if (pod.found) {
            ResourceList total = podRequests(ps);
            if (auto names = above(total, pod.max); !names.empty())
                err(path, names, "requests must not be above the limitRange max");
            if (auto names = below(total, pod.min); !names.empty())
                err(path, names, "requests must not be below the limitRange min");
        }
    }
    if (!rangeErrors.empty()) add("resources didn't satisfy LimitRange constraints: " + rangeErrors);
    return problems;
}

std::string shapeKey(const PodShape& sh) {
    std::string k;
    for (const auto& [a, b] : sh.nodeSelector) k += a + "=" + b + ",";
    k += "|";
    for (const auto& t : sh.tolerations) k += t.key + (t.exists ? "?" : "=") + t.value + ",";
    k += sh.nodeAffinity ? "A" : "-";
    return k;
}

// DRA devices join a pod's requests (WithPreprocessedDRAResources), summed with a resource of the
// same name.
template <class List>
void addDevices(List& requests, const std::vector<std::pair<std::string, Amount>>& devices) {
    for (const auto& device : devices) {
        auto it = std::find_if(requests.begin(), requests.end(),
                               [&](const auto& r) { return r.first == device.first; });
        if (it == requests.end())
            requests.push_back(device);
        else
            it->second += device.second;
    }
}

} // namespace

bool namespaceMatches(const World& w, const ClusterQueue& cq, const std::string& ns) {
    if (!w.namespaceExists(ns) || !cq.namespaceSelector) return false;
    auto it = w.namespaces.find(ns);
    return matches(*cq.namespaceSelector, it == w.namespaces.end() ? Labels{} : it->second);
}

bool checksReady(const World& w, const Workload& wl) {
    std::set<int> usedFlavors;
    for (const auto& a : wl.admission)
        for (int f : a.flavorOf)
            if (f >= 0) usedFlavors.insert(f);
    for (const auto& [check, onFlavors] : w.cqs[size_t(wl.cq)].checks) {
        bool applies = onFlavors.empty();
        for (int f : onFlavors)
            if (usedFlavors.count(f)) applies = true;
        if (applies && (!wl.spec || !wl.spec->admissionChecks.count(check))) return false;
    }
    if (wl.spec)
        for (const auto& [name, state] : wl.spec->admissionChecks)
            if (state != "Ready") return false;
    return true;
}

Usage usageOf(const World& w, const Workload& wl, const std::vector<PodSetAdmission>& admission) {
    std::map<int, Amount> sum;
    for (size_t i = 0; i < wl.podSets.size() && i < admission.size(); ++i) {
        const auto& ps = wl.podSets[i];
        const auto& a = admission[i];
        for (const auto& [r, amount] : ps.perPod) {
            if (r < 0 || amount == 0 || a.flavorOf[size_t(r)] < 0) continue;
            const int fr = w.fr(a.flavorOf[size_t(r)], r);
            sum[fr] = addAmount(sum[fr], mulAmount(amount, a.count));
        }
    }
    return Usage(sum.begin(), sum.end());
}

Workload makeWorkload(const World& w, const ClusterState& st, uint32_t job, Diagnostics* warnings,
                      uint32_t task) {
    const JobRec& j = st.jobs[job];
    Workload wl;
    wl.job = job;
    wl.jobOrder = j.order;
    wl.task = task;
    wl.ns = st.strings.str(j.ns);
    wl.name = task == UINT32_MAX ? std::string(st.strings.str(j.name))
                                 : std::string(st.strings.str(st.tasks[task].name));
    wl.key = task == UINT32_MAX ? j.key : wl.ns + "/" + wl.name;
    wl.spec = j.kueue;
    wl.priority = j.priority;
    wl.created = j.creationSeconds;
    auto warn = [&](const std::string& msg) {
        if (warnings) warnings->push_back(Diagnostic{Severity::Warning, SourceRef{}, msg});
    };
    // Tasks by role, in job order: the pod sets' pods.
    std::map<std::string, std::vector<uint32_t>> byRole;
    std::vector<std::string> roleOrder;
    for (uint32_t t : tasksOf(st, wl)) {
        const std::string& role = st.roles[st.tasks[t].role];
        auto [it, inserted] = byRole.try_emplace(role);
        if (inserted) roleOrder.push_back(role);
        it->second.push_back(t);
    }
    if (j.kueue) {
        const KueueWorkload& k = *j.kueue;
        wl.uid = k.uid;
        wl.queueName = k.queueName;
        wl.created = k.creationSeconds ? *k.creationSeconds : kZeroTime;
        if (k.priority) {
            wl.priority = *k.priority;
        } else if (!k.priorityClassName.empty()) {
            auto pc = w.priorityClasses.find(k.priorityClassName);
            wl.priority = pc == w.priorityClasses.end() ? 0 : pc->second;
        } else {
            wl.priority = 0;
        }
        wl.inactive = !k.active;
        std::vector<KueuePodSet> podSets = k.podSets;
        wl.misconfigured = adjustAndValidate(w, wl.ns, podSets);
        for (size_t i = 0; i < podSets.size(); ++i) {
            const KueuePodSet& ps = podSets[i];
            PodSet p;
            p.name = ps.name;
            p.count = ps.count;
            p.minCount = ps.minCount.value_or(ps.count);
            p.topology = ps.topology;
            std::vector<std::pair<std::string, Amount>> requests;
            for (const auto& [name, amount] : podRequests(ps)) requests.emplace_back(name, amount);
            auto counted = countedRequests(w.config, std::move(requests));
            DraQuota dra = draQuota(w, wl.ns, ps.name, i, ps.resourceClaims);
            if (wl.misconfigured.empty()) wl.misconfigured = dra.misconfigured;
            addDevices(counted, dra.perPod);
            for (const auto& [name, amount] : counted) {
                const int r = w.resource(name);
                if (r < 0) {
                    p.uncovered.push_back(name);
                    p.uncoveredAmounts.push_back(std::max<Amount>(0, amount));
                    continue;
                }
                p.perPod.emplace_back(r, std::max<Amount>(0, amount));
            }
            if (auto it = byRole.find(ps.name); it != byRole.end() && !it->second.empty())
                p.shape = st.tasks[it->second.front()].shape;
            wl.podSets.push_back(std::move(p));
        }
    } else {
        // A job Kueue manages through its queue-name label: one pod set per role; its priority is
        // the one Kueue's integration gave it (controllers.cpp).
        for (const auto& role : roleOrder) {
            const auto& tasks = byRole[role];
            PodSet p;
            p.name = role.empty() ? "main" : role;
            p.count = int32_t(tasks.size());
            p.minCount =
                roleOrder.size() == 1 && j.admitAtLeast > 0 ? std::min(j.admitAtLeast, p.count) : p.count;
            p.shape = st.tasks[tasks.front()].shape;
            const PodShape& sh = st.shapes[p.shape];
            std::vector<std::pair<std::string, Amount>> requests;
            for (int d = 0; d < st.D(); ++d) {
                if (d == kPods) continue;
                const Amount a = sh.request[size_t(d)];
                const bool named = d == kCpu      ? sh.cpuRequested
                                   : d == kMemory ? sh.memRequested
                                                  : ((sh.presentMask >> d) & 1u);
                if (!named && a == 0) continue;
                requests.emplace_back(st.dims.name(d), a);
            }
            auto counted = countedRequests(w.config, std::move(requests));
            // The pod set's claims are its pods'; the first pod of the role speaks for them.
            if (auto claims = w.podClaims.find(st.taskKey(tasks.front())); claims != w.podClaims.end()) {
                DraQuota dra = draQuota(w, wl.ns, p.name, wl.podSets.size(), claims->second);
                if (wl.misconfigured.empty()) wl.misconfigured = dra.misconfigured;
                addDevices(counted, dra.perPod);
            }
            for (const auto& [name, a] : counted) {
                const int r = w.resource(name);
                if (r < 0) {
                    if (a > 0) {
                        p.uncovered.push_back(name);
                        p.uncoveredAmounts.push_back(a);
                    }
                    continue;
                }
                p.perPod.emplace_back(r, a);
            }
            wl.podSets.push_back(std::move(p));
        }
    }
    // The scheduling hash: what makes two workloads equivalent for admission.
    std::string& h = wl.hash;
    h = std::to_string(wl.priority);
    for (const auto& p : wl.podSets) {
        h.append("|").append(p.name).append(":").append(std::to_string(p.count)).append(":");
        h.append(std::to_string(p.minCount));
        for (const auto& [r, a] : p.perPod)
            h.append(",").append(std::to_string(r)).append("=").append(std::to_string(a));
        for (size_t i = 0; i < p.uncovered.size(); ++i)
            h.append(",").append(p.uncovered[i]).append("=").append(std::to_string(p.uncoveredAmounts[i]));
        if (p.shape != UINT32_MAX) h.append("#").append(shapeKey(st.shapes[p.shape]));
        h.append("@").append(p.topology.required).append("/").append(p.topology.preferred).append("/");
        h.append(p.topology.unconstrained ? "u" : "").append(p.topology.sliceRequired).append("/");
        h.append(std::to_string(p.topology.sliceSize)).append("/").append(p.topology.podSetGroup);
    }
    wl.orderTime = wl.created;
    if (!j.managed) {
        wl.unmanaged = true;
        wl.untouched = true;
        return wl;
    }

    // The ClusterQueue: its admission's, else the LocalQueue's; a name that is a ClusterQueue
    // itself (a project's queue) is taken as is.
    const bool reserved = j.kueue && j.kueue->quotaReserved && j.kueue->admission;
    auto block = [&](const char* reason, std::string message) {
        wl.blockedReason = reason;
        wl.blockedMessage = std::move(message);
    };
    if (reserved) {
        auto it = w.cqIndex.find(j.kueue->admission->clusterQueue);
        if (it == w.cqIndex.end()) {
            warn("Workload " + wl.key + " is admitted to ClusterQueue '" + j.kueue->admission->clusterQueue +
                 "', which does not exist; its quota is not counted");
            wl.untouched = true;
            return wl;
        }
        wl.cq = it->second;
    } else {
        const std::string queueName = j.kueue ? wl.queueName : std::string(st.strings.str(j.queueName));
        wl.queueName = queueName; // a job's Workload names the job's queue-name label
        auto cq = j.kueue ? w.cqIndex.end() : w.cqIndex.find(queueName);
        auto lq = w.localQueues.find({wl.ns, queueName});
        if (cq != w.cqIndex.end()) {
            wl.cq = cq->second;
        } else if (lq == w.localQueues.end()) {
            // A job's controller makes no Workload without a queue name; one naming a missing
            // LocalQueue gets one, which the workload controller marks.
            if (j.kueue || !queueName.empty())
                block("Misconfigured", "LocalQueue " + queueName + " doesn't exist");
            if (j.kueue || !j.readingNoted) // else the integration said so where the job is
                warn(j.kueue
                         ? "Workload " + wl.key + " names LocalQueue '" + queueName +
                               "', which does not exist in namespace '" + wl.ns + "'; Kueue leaves it pending"
                         : "job " + wl.key + " names queue '" + queueName +
                               "', which is neither a ClusterQueue nor a LocalQueue of its namespace; Kueue "
                               "does not admit it");
            wl.untouched = true;
            return wl;
        } else if (lq->second.stopped) {
            block("Suspended", "LocalQueue " + queueName + " is inactive");
            wl.untouched = true;
            return wl;
        } else if (lq->second.cq < 0) {
            block("Misconfigured", "ClusterQueue " + lq->second.clusterQueue + " doesn't exist");
            warn("Workload " + wl.key + ": LocalQueue " + wl.ns + "/" + queueName +
                 " points to ClusterQueue '" + lq->second.clusterQueue +
                 "', which does not exist; Kueue leaves it pending");
            wl.untouched = true;
            return wl;
        } else {
            wl.cq = lq->second.cq;
        }
        // Queued, but an inactive ClusterQueue gives the scheduler no head (a stopPolicy, a missing
        // flavor or admission check).
        if (!w.cqs[size_t(wl.cq)].active)
            block("Suspended", "ClusterQueue " + w.cqs[size_t(wl.cq)].name + " is inactive");
    }
    if (reserved) {
        const KueueWorkload& k = *j.kueue;
        wl.state = WlState::Admitted;
        wl.everAdmitted = true;
        wl.reservedAt = k.quotaReservedSeconds.value_or(kZeroTime);
        wl.evicted = !k.evictedReason.empty();
        wl.evictedReason = k.evictedReason;
        wl.evictedAt = k.evictedSeconds.value_or(kZeroTime);
        std::map<int, Amount> sum;
        for (const auto& psa : k.admission->podSets) {
            PodSetAdmission a;
            a.flavorOf.assign(size_t(w.R()), -1);
            auto ps = std::find_if(wl.podSets.begin(), wl.podSets.end(),
                                   [&](const PodSet& p) { return p.name == psa.name; });
            a.count = psa.count.value_or(ps == wl.podSets.end() ? 0 : ps->count);
            for (const auto& [res, fl] : psa.flavors) {
                const int r = w.resource(res), f = w.flavor(fl);
                if (r >= 0 && f >= 0) a.flavorOf[size_t(r)] = f;
            }
            for (const auto& [res, amount] : psa.resourceUsage) {
                auto fl = psa.flavors.find(res);
                const int r = w.resource(res);
                if (fl == psa.flavors.end() || r < 0) continue;
                const int f = w.flavor(fl->second);
                if (f < 0) continue;
                sum[w.fr(f, r)] = addAmount(sum[w.fr(f, r)], amount);
            }
            a.topology = psa.topology;
            if (a.topology)
                for (int f : a.flavorOf)
                    if (f >= 0 && !w.flavors[size_t(f)].topologyName.empty()) a.topologyFlavor = f;
            // Pod sets are matched by name; keep the spec's order.
            if (ps != wl.podSets.end()) {
                const size_t idx = size_t(ps - wl.podSets.begin());
                if (wl.admission.size() <= idx) wl.admission.resize(wl.podSets.size());
                wl.admission[idx] = std::move(a);
            }
        }
        for (auto& a : wl.admission)
            if (a.flavorOf.empty()) a.flavorOf.assign(size_t(w.R()), -1);
        wl.usage.assign(sum.begin(), sum.end());
        // The workload controller sets Admitted as soon as the checks allow (a snapshot may predate it).
        wl.admittedCondition = k.admittedCondition || checksReady(w, wl);
    } else if (j.kueue) {
        wl.requeueAt = j.kueue->requeueAtSeconds.value_or(kZeroTime);
        wl.requeueCount = j.kueue->requeueCount;
        if (!j.kueue->evictedReason.empty()) {
            wl.evictedReason = j.kueue->evictedReason;
            wl.evictedAt = j.kueue->evictedSeconds.value_or(kZeroTime);
            // Evicted by an admission check (or, with the Eviction timestamp, by the pods-ready
            // timeout): queued by the time of the eviction.
            const bool podsReady =
                wl.evictedReason == "PodsReadyTimeout" && w.config.requeuingTimestamp == "Eviction";
            if ((wl.evictedReason == "AdmissionCheck" || podsReady) && j.kueue->evictedSeconds)
                wl.orderTime = *j.kueue->evictedSeconds;
        }
    }
    return wl;
}

} // namespace gantry::engine::kueue
