#include "profiles/kueue/world.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <set>

namespace gantry::engine::kueue {

namespace {

Policy policyOf(const std::string& text) {
    if (text == "LowerPriority") return Policy::LowerPriority;
    if (text == "LowerOrNewerEqualPriority") return Policy::LowerOrNewerEqualPriority;
    if (text == "Any") return Policy::Any;
    return Policy::Never;
}

void warn(World& w, const SourceRef& where, std::string message) {
    w.warnings.push_back(Diagnostic{Severity::Warning, where, std::move(message)});
}

int internResource(World& w, const std::string& name) {
    auto [it, inserted] = w.resourceIndex.emplace(name, int(w.resources.size()));
    if (inserted) w.resources.push_back(name);
    return it->second;
}

// Quota of a queue or cohort, by flavor-resource, from its resource groups.
void fillQuotas(World& w, QuotaNode& n, const Queue& q) {
    const size_t size = size_t(w.F()) * size_t(w.R());
    n.nominal.assign(size, 0);
    n.borrowLimit.assign(size, kNoLimit);
    n.lendLimit.assign(size, kNoLimit);
    n.subtree.assign(size, 0);
    n.usage.assign(size, 0);
    for (const auto& g : q.resourceGroups)
        for (const auto& fq : g.flavors) {
            int f = w.flavor(fq.flavor);
            if (f < 0) continue; // a missing flavor provides nothing (the queue is inactive)
            for (const auto& rq : fq.resources) {
                const int fr = w.fr(f, w.resource(rq.resource));
                n.nominal[size_t(fr)] = rq.nominal;
                if (rq.borrowingLimit) n.borrowLimit[size_t(fr)] = *rq.borrowingLimit;
                if (rq.lendingLimit) n.lendLimit[size_t(fr)] = *rq.lendingLimit;
            }
        }
    if (q.fairSharingWeight) n.weight = *q.fairSharingWeight;
}

} // namespace

std::optional<double> afsUsageOf(const World& w, const std::string& ns, const std::string& queueName,
                                 int cq) {
    if (cq < 0 || !w.cqs[size_t(cq)].admissionFairSharing) return std::nullopt;
    auto it = w.localQueues.find({ns, queueName});
    return it == w.localQueues.end() ? 0.0 : it->second.afsUsage;
}

World buildWorld(const Cluster& c, const gantry::kueue::PolicyObjects& objects, const KueueConfig& config) {
    World w;
    w.config = config;
    for (const auto& t : c.dra.resourceClaimTemplates) w.claimTemplates[{t.ns, t.name}] = t.spec;
    if (!c.dra.resourceClaimTemplates.empty()) {
        for (const auto& cls : c.dra.deviceClasses) w.deviceClassSelectors[cls.name] = cls.selectors;
        w.resourceSlices = c.dra.resourceSlices;
    }
    for (const auto& p : c.pods)
        if (!p.resourceClaims.empty()) w.podClaims[p.key()] = p.resourceClaims;
    for (const auto& t : objects.topologies) w.topologies.push_back(Topology{t.name, t.levels});
    for (const auto& f : objects.flavors) {
        Flavor fl;
        fl.name = f.name;
        fl.nodeLabels = f.nodeLabels;
        fl.taints = f.nodeTaints;
        fl.tolerations = f.tolerations;
        fl.topologyName = f.topologyName;
        for (size_t t = 0; t < w.topologies.size(); ++t)
            if (w.topologies[t].name == f.topologyName) fl.topology = int(t);
        w.flavorIndex.emplace(f.name, int(w.flavors.size()));
        w.flavors.push_back(std::move(fl));
    }
    // Resources: every covered resource of every queue (the flat arrays' second index).
    for (const auto& q : objects.queues) {
        if (q.kind != Queue::Kind::KueueClusterQueue && q.kind != Queue::Kind::KueueCohort) continue;
        for (const auto& g : q.resourceGroups)
            for (const auto& r : g.coveredResources) internResource(w, r);
    }
    // Nodes: cohorts first (so their indices are known), then ClusterQueues.
    for (const auto& q : objects.queues) {
        if (q.kind != Queue::Kind::KueueCohort) continue;
        QuotaNode n;
        n.name = q.name;
        n.source = q.source;
        n.declared =
            !q.resourceGroups.empty() || q.fairSharingWeight || !q.parent.empty() || q.source.line > 0;
        fillQuotas(w, n, q);
        w.cohortIndex.emplace(q.name, int(w.nodes.size()));
        w.nodes.push_back(std::move(n));
    }
    for (const auto& q : objects.queues) {
        if (q.kind != Queue::Kind::KueueClusterQueue) continue;
        QuotaNode n;
        n.name = q.name;
        n.clusterQueue = true;
        n.source = q.source;
        fillQuotas(w, n, q);
        ClusterQueue cq;
        cq.node = int(w.nodes.size());
        cq.name = q.name;
        cq.groupOf.assign(size_t(w.R()), -1);
        std::vector<std::string> missing;
        for (const auto& g : q.resourceGroups) {
            Group grp;
            for (const auto& r : g.coveredResources) {
                int id = w.resource(r);
                grp.resources.push_back(id);
                // A resource listed in two groups (which the webhook refuses) belongs to the first.
                if (cq.groupOf[size_t(id)] < 0) cq.groupOf[size_t(id)] = int(cq.groups.size());
            }
            for (const auto& fq : g.flavors) {
                int f = w.flavor(fq.flavor);
                if (f < 0) {
                    missing.push_back(fq.flavor);
                    continue;
                }
                grp.flavors.push_back(f);
            }
            cq.groups.push_back(std::move(grp));
        }
        cq.namespaceSelector = q.namespaceSelector;
        cq.strategy = q.queueingStrategy == "StrictFIFO" ? Strategy::StrictFIFO : Strategy::BestEffortFIFO;
        // afs.Enabled(config) and the ClusterQueue's admissionScope (pkg/cache/queue/cluster_queue.go).
        cq.admissionFairSharing = config.admissionFairSharing && config.gate("AdmissionFairSharing") &&
                                  q.admissionMode == "UsageBasedAdmissionFairSharing";
        cq.withinClusterQueue = policyOf(q.preemption.withinClusterQueue);
        cq.reclaimWithinCohort = policyOf(q.preemption.reclaimWithinCohort);
        cq.borrowWithinCohort = q.preemption.borrowWithinCohort == "LowerPriority";
        cq.borrowMaxPriorityThreshold = q.preemption.borrowMaxPriorityThreshold;
        cq.whenCanBorrowTryNext = q.whenCanBorrow == "TryNextFlavor";
        cq.whenCanPreemptTryNext = q.whenCanPreempt.empty() || q.whenCanPreempt == "TryNextFlavor";
        cq.preference = q.fungibilityPreference == "BorrowingOverPreemption"   ? 1
                        : q.fungibilityPreference == "PreemptionOverBorrowing" ? 2
                                                                               : 0;
        cq.stopped = !q.stopPolicy.empty() && q.stopPolicy != "None";
        std::vector<std::string> missingChecks;
        for (const auto& [check, onFlavors] : q.admissionChecks) {
            std::vector<int> fl;
            for (const auto& f : onFlavors)
                if (int id = w.flavor(f); id >= 0) fl.push_back(id);
            cq.checks.emplace_back(check, fl);
            if (std::find(c.admissionChecks.begin(), c.admissionChecks.end(), check) ==
                c.admissionChecks.end())
                missingChecks.push_back(check);
        }
        bool tas = false, allTas = !cq.groups.empty(), brokenTopology = false;
        for (const auto& g : cq.groups)
            for (int f : g.flavors) {
                if (w.flavors[size_t(f)].topologyName.empty()) {
                    allTas = false;
                    continue;
                }
                tas = true;
                if (w.flavors[size_t(f)].topology < 0) brokenTopology = true;
            }
        cq.tasOnly = tas && allTas;
        auto join = [](const std::vector<std::string>& v) {
            std::string out;
            for (const auto& s : v) out += (out.empty() ? "" : ",") + s;
            return out;
        };
        if (cq.stopped) cq.inactiveReason = "is stopped";
        if (!missing.empty()) {
            cq.inactiveReason += std::string(cq.inactiveReason.empty() ? "" : ", ") +
                                 "references missing ResourceFlavor(s): " + join(missing);
            warn(w, q.source,
                 "ClusterQueue '" + q.name + "' names ResourceFlavor(s) " + join(missing) +
                     " that do not exist; Kueue keeps it inactive and admits nothing to it");
        }
        if (!missingChecks.empty()) {
            cq.inactiveReason += std::string(cq.inactiveReason.empty() ? "" : ", ") +
                                 "references missing AdmissionCheck(s): " + join(missingChecks);
            warn(w, q.source,
                 "ClusterQueue '" + q.name + "' names AdmissionCheck(s) " + join(missingChecks) +
                     " that do not exist; Kueue keeps it inactive");
        }
        if (brokenTopology) {
            cq.inactiveReason += std::string(cq.inactiveReason.empty() ? "" : ", ") +
                                 "a topology-aware flavor names a missing Topology";
            warn(w, q.source,
                 "ClusterQueue '" + q.name +
                     "' uses a ResourceFlavor whose Topology does not exist; inactive");
        }
        cq.active = cq.inactiveReason.empty();
        n.cq = int(w.cqs.size());
        w.cqIndex.emplace(q.name, int(w.cqs.size()));
        w.cqs.push_back(std::move(cq));
        w.nodes.push_back(std::move(n));
    }
    // Edges: a ClusterQueue's cohortName, a Cohort's parentName.
    for (const auto& q : objects.queues) {
        if ((q.kind != Queue::Kind::KueueClusterQueue && q.kind != Queue::Kind::KueueCohort) ||
            q.parent.empty())
            continue;
        int self = q.kind == Queue::Kind::KueueCohort ? w.cohortIndex.at(q.name)
                                                      : w.cqs[size_t(w.cqIndex.at(q.name))].node;
        auto it = w.cohortIndex.find(q.parent);
        if (it == w.cohortIndex.end()) continue; // the importer adds implicit cohorts; none here
        w.nodes[size_t(self)].parent = it->second;
        if (w.nodes[size_t(self)].clusterQueue)
            w.nodes[size_t(it->second)].childCqs.push_back(self);
        else
            w.nodes[size_t(it->second)].childCohorts.push_back(self);
    }
    // Cohort cycles: Kueue leaves every ClusterQueue below a cycle out of its snapshot.
    std::vector<int> state(w.nodes.size(), 0); // 0 unknown, 1 on a cycle path, 2 fine
    for (size_t i = 0; i < w.nodes.size(); ++i) {
        std::set<int> seen;
        int n = int(i);
        bool cycle = false;
        while (n >= 0) {
            if (!seen.insert(n).second) {
                cycle = true;
                break;
            }
            n = w.nodes[size_t(n)].parent;
        }
        state[i] = cycle ? 1 : 2;
    }
    for (auto& cq : w.cqs)
        if (state[size_t(cq.node)] == 1) {
            cq.inCycle = true;
            warn(w, w.nodes[size_t(cq.node)].source,
                 "ClusterQueue '" + cq.name +
                     "' is in a cohort tree with a cycle; Kueue admits nothing to it");
        }
    std::set<int> reported;
    for (size_t i = 0; i < w.nodes.size(); ++i)
        if (state[i] == 1 && !w.nodes[i].clusterQueue && reported.insert(int(i)).second)
            warn(w, w.nodes[i].source, "Cohort '" + w.nodes[i].name + "' is part of a cycle of parents");
    // Break the cycles so that walks up the tree end (the ClusterQueues below stay out).
    for (size_t i = 0; i < w.nodes.size(); ++i)
        if (state[i] == 1 && !w.nodes[i].clusterQueue) w.nodes[i].parent = -1;

    for (const auto& lq : objects.localQueues) {
        LocalQueue l;
        l.ns = lq.ns;
        l.name = lq.name;
        l.clusterQueue = lq.clusterQueue;
        l.stopped = !lq.stopPolicy.empty() && lq.stopPolicy != "None";
        if (auto it = w.cqIndex.find(lq.clusterQueue); it != w.cqIndex.end()) l.cq = it->second;
        for (const auto& [name, amount] : lq.consumed) l.consumed[name] = plainAmount(name, amount);
        l.weight = lq.fairSharingWeight.value_or(1);
        l.afsUsage = afsUsage(l, config);
        w.localQueues[{lq.ns, lq.name}] = l;
    }
    for (const auto& [queue, cq] : objects.clusterQueueOf)
        if (auto it = w.cqIndex.find(cq); it != w.cqIndex.end()) w.cqIndex.emplace(queue, it->second);
    w.anyNamespace = objects.fromProject;
    for (const auto& ns : c.namespaces) w.namespaces[ns.name] = ns.labels;
    for (const auto& pc : c.priorityClasses) {
        // A WorkloadPriorityClass wins over a PriorityClass of the same name (Kueue reads the
        // workload's own class first).
        if (pc.workload || !w.priorityClasses.count(pc.name)) w.priorityClasses[pc.name] = pc.value;
    }
    for (const auto& lr : c.limitRanges)
        for (const auto& item : lr.limits) w.limitRanges[lr.ns].push_back(item);
    return w;
}

} // namespace gantry::engine::kueue
