// Kueue Workload (kueue.x-k8s.io v1beta1 and v1beta2) with its status, AdmissionCheck, and the
// v1 LimitRange Kueue applies to workloads. A Workload becomes a PodGroup whose pods are its pod
// sets' replicas; its own fields (pod sets with their containers, priority, admission) ride along
// as the group's KueueWorkload.
#include "import_state.h"
#include "kubernetes/k8s_fields.h"

#include <cctype>
#include <ctime>
#include <memory>
#include <set>

namespace gantry::snapshot {

namespace {

// RFC 3339 ("2026-01-01T00:00:00Z", fractions and offsets allowed) -> seconds since the epoch.
std::optional<double> parseTimestamp(const std::string& text) {
    int y, mo, d, h, mi;
    double sec;
    int n = 0;
    if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%lf%n", &y, &mo, &d, &h, &mi, &sec, &n) != 6)
        return std::nullopt;
    std::string rest = text.substr(size_t(n));
    double offset = 0;
    if (rest == "Z" || rest == "z") {
    } else if (rest.size() == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':') {
        int oh = std::atoi(rest.substr(1, 2).c_str()), om = std::atoi(rest.substr(4, 2).c_str());
        offset = (rest[0] == '+' ? 1 : -1) * double(oh * 3600 + om * 60);
    } else {
        return std::nullopt;
    }
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec < 0 || sec >= 61)
        return std::nullopt;
    // Days from the civil date (proleptic Gregorian), as in Howard Hinnant's algorithm.
    const int yy = mo <= 2 ? y - 1 : y;
    const int era = (yy >= 0 ? yy : yy - 399) / 400;
    const int yoe = yy - era * 400;
    const int doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    const double days = double(era) * 146097 + double(doe) - 719468;
    return days * 86400 + h * 3600 + mi * 60 + sec - offset;
}

std::optional<double> timestampOf(const Y& node) {
    if (!node.present()) return std::nullopt;
    auto t = parseTimestamp(node.str());
    if (!t) node.fail("expected an RFC 3339 time such as 2026-01-01T00:00:00Z, got '" + node.str() + "'");
    return t;
}

KueueContainer readContainer(const Y& c) {
    KueueContainer k;
    auto res = c["resources"];
    k.requests = res["requests"].resources(true);
    k.limits = res["limits"].resources(true);
    k.sidecar = c["restartPolicy"].str() == "Always";
    return k;
}

KueueTopologyRequest readTopologyRequest(const Y& t) {
    KueueTopologyRequest r;
    if (!t.present()) return r;
    t.checkKeys(
        "topologyRequest",
        {"required", "preferred", "unconstrained", "podSetSliceRequiredTopology", "podSetSliceSize",
         "podSetGroupName"},
        {"podIndexLabel", "subGroupIndexLabel", "subGroupCount", "podsetSliceRequiredTopologyConstraints"});
    r.required = t["required"].str();
    r.preferred = t["preferred"].str();
    r.unconstrained = t["unconstrained"].boolean(false);
    int set = !r.required.empty() + !r.preferred.empty() + r.unconstrained;
    if (set > 1) t.fail("at most one of required, preferred and unconstrained may be set");
    r.sliceRequired = t["podSetSliceRequiredTopology"].str();
    r.sliceSize = t["podSetSliceSize"].i32(0);
    if (r.sliceSize < 0) t["podSetSliceSize"].fail("podSetSliceSize must be positive");
    if (!r.sliceRequired.empty() && r.sliceSize == 0)
        t["podSetSliceSize"].fail("podSetSliceSize is required with podSetSliceRequiredTopology");
    r.podSetGroup = t["podSetGroupName"].str();
    return r;
}

// The v1beta2 compact slices, or v1beta1 domains, decoded into one list of domains.
KueueTopologyAssignment readTopologyAssignment(const Y& t) {
    KueueTopologyAssignment a;
    t.checkKeys("topologyAssignment", {"levels", "slices", "domains"});
    a.levels = t["levels"].strings();
    if (a.levels.empty()) t.fail("a topologyAssignment needs levels");
    for (const auto& d : t["domains"].items()) {
        d.checkKeys("topology domain", {"values", "count"});
        KueueTopologyAssignment::Domain dom{d["values"].strings(), d["count"].i32(0)};
        if (dom.values.size() != a.levels.size()) d["values"].fail("expected one value per level");
        a.domains.push_back(std::move(dom));
    }
    for (const auto& s : t["slices"].items()) {
        s.checkKeys("topology slice", {"domainCount", "valuesPerLevel", "podCounts"});
        int32_t n = s["domainCount"].i32(0);
        if (n <= 0) s["domainCount"].fail("domainCount must be positive");
        auto levels = s["valuesPerLevel"].items();
        if (levels.size() != a.levels.size()) s["valuesPerLevel"].fail("expected one entry per level");
        size_t first = a.domains.size();
        a.domains.resize(first + size_t(n));
        for (const auto& lv : levels) {
            lv.checkKeys("valuesPerLevel", {"universal", "individual"});
            if (lv["universal"].present()) {
                for (int32_t i = 0; i < n; ++i)
                    a.domains[first + size_t(i)].values.push_back(lv["universal"].str());
                continue;
            }
            auto ind = lv["individual"];
            ind.checkKeys("individual", {"prefix", "suffix", "roots"});
            auto roots = ind["roots"].strings();
            if (int32_t(roots.size()) != n) ind["roots"].fail("expected domainCount roots");
            for (int32_t i = 0; i < n; ++i)
                a.domains[first + size_t(i)].values.push_back(ind["prefix"].str() + roots[size_t(i)] +
                                                              ind["suffix"].str());
        }
        auto pc = s["podCounts"];
        pc.checkKeys("podCounts", {"universal", "individual"});
        if (pc["universal"].present()) {
            for (int32_t i = 0; i < n; ++i) a.domains[first + size_t(i)].count = pc["universal"].i32(0);
        } else {
            auto counts = pc["individual"].items();
            if (int32_t(counts.size()) != n) pc["individual"].fail("expected domainCount counts");
            for (int32_t i = 0; i < n; ++i) a.domains[first + size_t(i)].count = counts[size_t(i)].i32(0);
        }
    }
    return a;
}

KueueAdmission readAdmission(const Y& adm) {
    KueueAdmission a;
    adm.checkKeys("admission", {"clusterQueue", "podSetAssignments"});
    a.clusterQueue = adm["clusterQueue"].str();
    if (a.clusterQueue.empty()) adm.fail("an admission needs clusterQueue");
    for (const auto& p : adm["podSetAssignments"].items()) {
        p.checkKeys("podSetAssignment", {"name", "flavors", "resourceUsage", "count", "topologyAssignment"},
                    {"delayedTopologyRequest"});
        KueuePodSetAssignment psa;
        psa.name = p["name"].str("main");
        for (const auto& [res, flavor] : p["flavors"].entries()) psa.flavors[res] = flavor.str();
        psa.resourceUsage = p["resourceUsage"].resources();
        psa.count = p["count"].optI32();
        if (p["topologyAssignment"].present()) psa.topology = readTopologyAssignment(p["topologyAssignment"]);
        a.podSets.push_back(std::move(psa));
    }
    return a;
}

} // namespace

void readKueueWorkload(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("Workload", {"apiVersion", "kind", "metadata", "spec", "status"});
    auto meta = r["metadata"];
    auto spec = r["spec"];
    spec.checkKeys("Workload",
                   {"queueName", "podSets", "priority", "priorityClassRef", "priorityClassName",
                    "priorityClassSource", "active"},
                   {"maximumExecutionTimeSeconds", "preemptionGates"});
    auto w = std::make_shared<KueueWorkload>();
    w->queueName = spec["queueName"].str();
    w->uid = meta["uid"].str();
    w->creationSeconds = timestampOf(meta["creationTimestamp"]);
    w->priority = spec["priority"].optI32();
    if (spec["priorityClassRef"].present()) {
        auto ref = spec["priorityClassRef"];
        ref.checkKeys("priorityClassRef", {"group", "kind", "name"});
        w->priorityClassName = ref["name"].str();
    } else {
        w->priorityClassName = spec["priorityClassName"].str();
    }
    w->active = spec["active"].boolean(true);

    PodGroup g = podGroupOf(o, "kueue.x-k8s.io/Workload");
    // A what-if Workload's timing for gantry simulate, as on PodGroups.
    g.arrivalSeconds = r["metadata"]["annotations"][key::Arrival].durationSeconds(0);
    g.durationSeconds = r["metadata"]["annotations"][key::Duration].durationSeconds(0);
    g.checkpointSeconds = r["metadata"]["annotations"][key::Checkpoint].durationSeconds(0);
    g.priorityClassName = w->priorityClassName;
    std::set<std::string> names;
    auto podSets = spec["podSets"].items();
    if (podSets.empty()) spec["podSets"].fail("a Workload needs at least one pod set");
    std::vector<Pod> pods;
    for (const auto& ps : podSets) {
        ps.checkKeys("podSet", {"name", "count", "minCount", "template", "topologyRequest"});
        KueuePodSet k;
        k.name = ps["name"].str("main");
        if (!names.insert(k.name).second) ps["name"].fail("pod set '" + k.name + "' appears twice");
        k.count = ps["count"].i32(1);
        if (k.count < 0) ps["count"].fail("count must not be negative");
        k.minCount = ps["minCount"].optI32();
        if (k.minCount && (*k.minCount < 0 || *k.minCount > k.count))
            ps["minCount"].fail("minCount must be between 0 and count");
        auto tspec = ps["template"]["spec"];
        for (const auto& c : tspec["containers"].items()) k.containers.push_back(readContainer(c));
        for (const auto& c : tspec["initContainers"].items()) k.initContainers.push_back(readContainer(c));
        k.overhead = tspec["overhead"].resources();
        if (tspec["resources"].present()) {
            k.podRequests = tspec["resources"]["requests"].resources();
            k.podLimits = tspec["resources"]["limits"].resources();
        }
        k.topology = readTopologyRequest(ps["topologyRequest"]);
        // The pods the pod set runs once admitted (Kueue's job integrations create them then).
        s.requestsAboveLimitsAllowed = true;
        PodTemplate t = readPodTemplate(s, ps["template"], "Workload");
        s.requestsAboveLimitsAllowed = false;
        k.resourceClaims = t.pod.resourceClaims;
        for (int32_t i = 0; i < k.count; ++i) {
            Pod p = t.pod;
            p.name = o.name + "-" + k.name + "-" + std::to_string(i);
            p.ns = o.ns;
            p.group = o.name;
            p.role = k.name;
            p.phase = PodPhase::Pending;
            p.nodeName.clear();
            p.ownerKind = "Workload";
            p.ownerName = o.name;
            p.source = o.source;
            applyPodConventions(ps, p);
            p.group = o.name;
            p.role = k.name;
            pods.push_back(std::move(p));
        }
        g.minMember += k.count;
        w->podSets.push_back(std::move(k));
    }

    auto status = r["status"];
    status.checkKeys("Workload", {"admission", "conditions", "admissionChecks", "requeueState"},
                     {"reclaimablePods", "resourceRequests", "accumulatedPastExecutionTimeSeconds",
                      "clusterName", "nominatedClusterNames", "preemptionGates", "schedulingStats",
                      "unhealthyNodes"});
    if (status["admission"].present()) w->admission = readAdmission(status["admission"]);
    for (const auto& c : status["conditions"].items()) {
        std::string type = c["type"].str(), st = c["status"].str();
        if (st != "True" && st != "False" && st != "Unknown")
            c["status"].fail("expected True, False or Unknown");
        auto when = timestampOf(c["lastTransitionTime"]);
        if (type == "QuotaReserved" && st == "True") {
            w->quotaReserved = true;
            w->quotaReservedSeconds = when;
        } else if (type == "Admitted" && st == "True") {
            w->admittedCondition = true;
        } else if (type == "Evicted" && st == "True") {
            w->evictedReason = c["reason"].str();
            w->evictedSeconds = when;
        } else if (type == "Requeued" && st == "False") {
            w->requeuedFalse = true;
        }
    }
    for (const auto& ac : status["admissionChecks"].items()) {
        std::string name = ac["name"].str();
        w->admissionChecks[name] = ac["state"].choice("Pending", {"Pending", "Ready", "Retry", "Rejected"});
    }
    if (status["requeueState"].present()) {
        w->requeueAtSeconds = timestampOf(status["requeueState"]["requeueAt"]);
        w->requeueCount = status["requeueState"]["count"].i32(0);
    }
    if (w->quotaReserved && !w->admission)
        status.warn(
            "QuotaReserved is True but the Workload has no status.admission; Kueue counts no quota for it");

    g.queue = w->admission ? w->admission->clusterQueue : w->queueName;
    g.phase = w->admission && w->quotaReserved ? PodGroupPhase::Inqueue : PodGroupPhase::Pending;
    if (!w->admission || !w->quotaReserved)
        if (!w->queueName.empty()) s.kueueGroupQueues.emplace_back(g.key(), w->queueName);
    g.kueue = std::move(w);
    if (s.hasPodGroup(g.ns, g.name))
        o.root.fail("Workload '" + g.key() + "' has the name of another gang in its namespace");
    s.cluster.podGroups.push_back(std::move(g));
    for (auto& p : pods) s.cluster.pods.push_back(std::move(p));
}

void readAdmissionCheck(State& s, const Object& o) {
    o.root.checkKeys("AdmissionCheck", {"apiVersion", "kind", "metadata", "spec"}, {"status"});
    s.cluster.admissionChecks.push_back(o.name);
}

void readLimitRange(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("LimitRange", {"apiVersion", "kind", "metadata", "spec"});
    LimitRange lr;
    lr.name = o.name;
    lr.ns = o.ns;
    lr.source = o.source;
    for (const auto& item : r["spec"]["limits"].items()) {
        item.checkKeys("LimitRange item",
                       {"type", "max", "min", "default", "defaultRequest", "maxLimitRequestRatio"});
        LimitRangeItem it;
        it.type = item["type"].choice("", {"Container", "Pod", "PersistentVolumeClaim"});
        if (it.type.empty()) item.fail("a LimitRange item needs a type");
        it.max = item["max"].resources();
        it.min = item["min"].resources();
        it.defaultLimits = item["default"].resources();
        it.defaultRequests = item["defaultRequest"].resources();
        it.maxLimitRequestRatio = item["maxLimitRequestRatio"].resources();
        lr.limits.push_back(std::move(it));
    }
    s.cluster.limitRanges.push_back(std::move(lr));
}

} // namespace gantry::snapshot
