#include "profiles/kueue/preemption.h"

#include "profiles/kueue/flavor_assigner.h"
#include "profiles/kueue/tas.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace gantry::engine::kueue {

namespace {

enum class Variant { Never, WithinCQ, HierarchicalReclaim, ReclaimWithoutBorrowing, ReclaimWhileBorrowing };

const char* reasonOf(Variant v) {
    switch (v) {
    case Variant::WithinCQ:
        return "InClusterQueue";
    case Variant::HierarchicalReclaim:
    case Variant::ReclaimWithoutBorrowing:
        return "InCohortReclamation";
    case Variant::ReclaimWhileBorrowing:
        return "InCohortReclaimWhileBorrowing";
    case Variant::Never:
        break;
    }
    return "Unknown";
}

struct Candidate {
    uint32_t wl;
    int lca = -1; // cohort node
    Variant variant = Variant::Never;
};

struct Job {
    Context& ctx;
    uint32_t wl;
    int cq;
    std::vector<int> frs; // flavor-resources that need preemption
    Usage usage;          // what the workload would use
    std::vector<TasRequest> tas;
};

bool usesResources(const Workload& w, const std::vector<int>& frs) {
    for (const auto& [fr, v] : w.usage)
        if (std::find(frs.begin(), frs.end(), fr) != frs.end()) return true;
    return false;
}

bool satisfies(const Workload& preemptor, const Workload& cand, Policy p) {
    const bool lower = preemptor.priority > cand.priority;
    switch (p) {
    case Policy::LowerPriority:
        return lower;
    case Policy::LowerOrNewerEqualPriority:
        return lower || (preemptor.priority == cand.priority && preemptor.orderTime < cand.orderTime);
    case Policy::Any:
        return true;
    case Policy::Never:
        break;
    }
    return false;
}

int nodeOfCq(const Context& ctx, int cq) {
    return ctx.w.cqs[size_t(cq)].node;
}

Variant classify(const Job& j, uint32_t cand, bool advantage) {
    const Workload& c = j.ctx.wls[cand];
    if (!usesResources(c, j.frs)) return Variant::Never;
    const ClusterQueue& cq = j.ctx.w.cqs[size_t(j.cq)];
    const Policy policy = c.cq == j.cq ? cq.withinClusterQueue : cq.reclaimWithinCohort;
    if (!satisfies(j.ctx.wls[j.wl], c, policy)) return Variant::Never;
    if (c.cq == j.cq) return Variant::WithinCQ;
    if (advantage) return Variant::HierarchicalReclaim;
    if (!cq.borrowWithinCohort) return Variant::ReclaimWithoutBorrowing;
    const int64_t candP = c.priority, inP = j.ctx.wls[j.wl].priority;
    if (candP >= inP) return Variant::ReclaimWithoutBorrowing;
    if (cq.borrowMaxPriorityThreshold && candP > *cq.borrowMaxPriorityThreshold)
        return Variant::ReclaimWithoutBorrowing;
    return Variant::ReclaimWhileBorrowing;
}

void fromCq(const Job& j, int cq, int lca, bool advantage, std::vector<Candidate>& out) {
    for (uint32_t c : j.ctx.w.cqs[size_t(cq)].admitted) {
        if (!j.ctx.inSnapshot(c)) continue;
        Variant v = classify(j, c, advantage);
        if (v != Variant::Never) out.push_back(Candidate{c, lca, v});
    }
}

// Whether every one of the flavor-resources fits within the node's quota, and what remains.
bool fitInQuota(const World& w, int node, const Usage& req, Usage* remaining) {
    const QuotaNode& n = w.nodes[size_t(node)];
    bool fits = true;
    Usage rem;
    for (const auto& [fr, v] : req) {
        if (n.subtree[size_t(fr)] < addAmount(n.usage[size_t(fr)], v)) fits = false;
        rem.emplace_back(fr, std::max<Amount>(0, subAmount(v, localAvailable(n, fr))));
    }
    *remaining = std::move(rem);
    return fits;
}

void inSubtree(const Job& j, int current, int subtreeRoot, int skip, bool advantage,
               std::vector<Candidate>& out) {
    const World& w = j.ctx.w;
    for (int child : w.nodes[size_t(current)].childCohorts) {
        if (child == skip) continue;
        if (withinNominal(w.nodes[size_t(child)], j.frs)) continue;
        inSubtree(j, child, subtreeRoot, skip, advantage, out);
    }
    for (int child : w.nodes[size_t(current)].childCqs) {
        const int cq = w.nodes[size_t(child)].cq;
        if (cq == j.cq) continue;
        if (!withinNominal(w.nodes[size_t(child)], j.frs)) fromCq(j, cq, subtreeRoot, advantage, out);
    }
}

bool evictedOf(const Workload& w) {
    return w.evicted;
}

void sortCandidates(const Job& j, std::vector<Candidate>& c) {
    std::stable_sort(c.begin(), c.end(), [&](const Candidate& a, const Candidate& b) {
        return candidateBefore(j.ctx, a.wl, b.wl, j.cq,
                               j.ctx.w.config.admissionFairSharing && j.ctx.gate("AdmissionFairSharing"));
    });
}

bool workloadFits(const Job& j, bool allowBorrowing) {
    const World& w = j.ctx.w;
    const int node = nodeOfCq(j.ctx, j.cq);
    for (const auto& [fr, v] : j.usage) {
        if (!allowBorrowing && borrowingWith(w.nodes[size_t(node)], fr, v)) return false;
        if (v > std::max<Amount>(0, available(w, node, fr))) return false;
    }
    if (!j.tas.empty() && j.ctx.tas) return j.ctx.tas->find(j.tas, false).failure.empty();
    return true;
}

std::vector<Target> fillBack(const Job& j, std::vector<Target> targets, bool allowBorrowing) {
    for (int i = int(targets.size()) - 2; i >= 0; --i) {
        j.ctx.addWorkload(targets[size_t(i)].wl);
        if (workloadFits(j, allowBorrowing)) {
            targets[size_t(i)] = targets.back();
            targets.pop_back();
        } else {
            j.ctx.removeWorkload(targets[size_t(i)].wl);
        }
    }
    return targets;
}

void restore(const Job& j, const std::vector<Target>& targets) {
    for (const auto& t : targets) j.ctx.addWorkload(t.wl);
}

bool queueUnderNominal(const Job& j) {
    const QuotaNode& n = j.ctx.w.nodes[size_t(nodeOfCq(j.ctx, j.cq))];
    for (int fr : j.frs)
        if (n.nominal[size_t(fr)] <= n.usage[size_t(fr)]) return false;
    return true;
}

bool candidateValid(const Job& j, const Candidate& c, bool borrowing) {
    const Workload& cw = j.ctx.wls[c.wl];
    if (cw.cq == j.cq) return true;
    if (borrowing && c.variant == Variant::ReclaimWithoutBorrowing) return false;
    const World& w = j.ctx.w;
    const int node = nodeOfCq(j.ctx, cw.cq);
    if (withinNominal(w.nodes[size_t(node)], j.frs)) return false;
    for (int n = w.nodes[size_t(node)].parent; n >= 0; n = w.nodes[size_t(n)].parent) {
        if (n == c.lca) break;
        if (withinNominal(w.nodes[size_t(n)], j.frs)) return false;
    }
    return true;
}

std::vector<Target> classical(const Job& j) {
    const World& w = j.ctx.w;
    const ClusterQueue& cq = w.cqs[size_t(j.cq)];
    std::vector<Candidate> same, hierarchy, priority;
    if (cq.withinClusterQueue != Policy::Never) fromCq(j, j.cq, -1, false, same);
    const int node = cq.node;
    if (w.nodes[size_t(node)].parent >= 0 && cq.reclaimWithinCohort != Policy::Never) {
        Usage remaining;
        bool advantage = fitInQuota(w, node, j.usage, &remaining);
        int prev = -1;
        for (int cur = w.nodes[size_t(node)].parent; cur >= 0; cur = w.nodes[size_t(cur)].parent) {
            inSubtree(j, cur, cur, prev, advantage, advantage ? hierarchy : priority);
            Usage next;
            bool fits = fitInQuota(w, cur, remaining, &next);
            remaining = std::move(next);
            advantage = advantage || fits;
            prev = cur;
        }
    }
    sortCandidates(j, same);
    sortCandidates(j, priority);
    sortCandidates(j, hierarchy);
    std::vector<Candidate> all;
    auto split = [&](const std::vector<Candidate>& list, bool evicted) {
        for (const auto& c : list)
            if (evictedOf(j.ctx.wls[c.wl]) == evicted) all.push_back(c);
    };
    for (bool evicted : {true, false}) {
        split(hierarchy, evicted);
        split(priority, evicted);
        split(same, evicted);
    }
    const bool noOthers = hierarchy.empty() && priority.empty();
    const bool forbidden = !cq.borrowWithinCohort;
    std::vector<bool> attempts;
    if (noOthers || (forbidden && !queueUnderNominal(j)))
        attempts = {true};
    else if (forbidden && hierarchy.empty())
        attempts = {false, true};
    else
        attempts = {true, false};
    for (bool borrowing : attempts) {
        std::vector<Target> targets;
        for (const auto& c : all) {
            if (!candidateValid(j, c, borrowing)) continue;
            j.ctx.removeWorkload(c.wl);
            targets.push_back(Target{c.wl, reasonOf(c.variant)});
            if (workloadFits(j, borrowing)) {
                targets = fillBack(j, targets, borrowing);
                restore(j, targets);
                return targets;
            }
        }
        restore(j, targets);
    }
    return {};
}

// ------------------------------------------------------------------ fair sharing

bool cqBorrowing(const World& w, int cq, const std::vector<int>& frs) {
    const QuotaNode& n = w.nodes[size_t(w.cqs[size_t(cq)].node)];
    if (n.parent < 0) return false;
    for (int fr : frs)
        if (borrowingWith(n, fr, 0)) return true;
    return false;
}

std::vector<int> subtreeCqs(const World& w, int cohort) {
    std::vector<int> out;
    const QuotaNode& n = w.nodes[size_t(cohort)];
    for (int c : n.childCqs) out.push_back(w.nodes[size_t(c)].cq);
    for (int c : n.childCohorts) {
        auto sub = subtreeCqs(w, c);
        out.insert(out.end(), sub.begin(), sub.end());
    }
    return out;
}

class Ordering {
  public:
    Ordering(const Job& j, const std::vector<uint32_t>& candidates) : j_(j), w_(j.ctx.w) {
        const int node = nodeOfCq(j.ctx, j.cq);
        for (int a = w_.nodes[size_t(node)].parent; a >= 0; a = w_.nodes[size_t(a)].parent)
            ancestors_.insert(a);
        for (uint32_t c : candidates) byCq_[j.ctx.wls[c].cq].push_back(c);
    }

    // The next ClusterQueue to take a candidate from, or -1 when done.
    int next() {
        const int node = nodeOfCq(j_.ctx, j_.cq);
        if (w_.nodes[size_t(node)].parent < 0) return !prunedCq_.count(j_.cq) && has(j_.cq) ? j_.cq : -1;
        const int root = w_.root(node);
        while (!prunedCohort_.count(root)) {
            int t = nextTarget(root);
            if (t >= 0) return t;
        }
        return -1;
    }
    bool has(int cq) const {
        auto it = byCq_.find(cq);
        return it != byCq_.end() && !it->second.empty();
    }
    uint32_t pop(int cq) {
        auto& list = byCq_[cq];
        uint32_t h = list.front();
        list.erase(list.begin());
        return h;
    }
    void drop(int cq) { prunedCq_.insert(cq); }
    bool onPath(int cohort) const { return ancestors_.count(cohort) > 0; }

  private:
    const Job& j_;
    const World& w_;
    std::set<int> ancestors_, prunedCq_, prunedCohort_;
    std::map<int, std::vector<uint32_t>> byCq_;

    int nextTarget(int cohort) {
        int bestCq = -1;
        Drs bestCqDrs = negativeDrs();
        for (int child : w_.nodes[size_t(cohort)].childCqs) {
            const int cq = w_.nodes[size_t(child)].cq;
            if (prunedCq_.count(cq)) continue;
            Drs d = dominantShare(w_, child);
            const int cmp = compareDrs(d, bestCqDrs);
            if ((!d.borrowing && cq != j_.cq) || !has(cq)) {
                prunedCq_.insert(cq);
            } else if (cmp == 0 && bestCq >= 0) {
                if (candidateBefore(j_.ctx, byCq_[cq].front(), byCq_[bestCq].front(), j_.cq)) bestCq = cq;
            } else if (cmp == 1) {
                bestCqDrs = d;
                bestCq = cq;
            }
        }
        int bestCohort = -1;
        Drs bestCohortDrs = negativeDrs();
        for (int child : w_.nodes[size_t(cohort)].childCohorts) {
            if (prunedCohort_.count(child)) continue;
            Drs d = dominantShare(w_, child);
            if (!d.borrowing && !onPath(child)) {
                prunedCohort_.insert(child);
            } else if (compareDrs(d, bestCohortDrs) >= 0) {
                bestCohortDrs = d;
                bestCohort = child;
            }
        }
        if (bestCohort < 0 && bestCq < 0) {
            prunedCohort_.insert(cohort);
            return -1;
        }
        if (compareDrs(bestCohortDrs, bestCqDrs) >= 0) return nextTarget(bestCohort);
        return bestCq;
    }
};

// The nodes just below the lowest common ancestor of the preemptor's and the target's queues.
std::pair<int, int> almostLcas(const Job& j, const Ordering& o, int targetCq) {
    const World& w = j.ctx.w;
    const int target = nodeOfCq(j.ctx, targetCq), preemptor = nodeOfCq(j.ctx, j.cq);
    int lca = -1;
    for (int a = w.nodes[size_t(target)].parent; a >= 0; a = w.nodes[size_t(a)].parent)
        if (o.onPath(a)) {
            lca = a;
            break;
        }
    auto below = [&](int from) {
        int n = from;
        for (int a = w.nodes[size_t(from)].parent; a >= 0; a = w.nodes[size_t(a)].parent) {
            if (a == lca) return n;
            n = a;
        }
        return n;
    };
    return {below(preemptor), below(target)};
}

bool fitsFairly(const Job& j) {
    removeUsage(j.ctx.w, j.cq, j.usage);
    const bool fits = workloadFits(j, true);
    addUsage(j.ctx.w, j.cq, j.usage);
    return fits;
}

bool preemptorWithinNominal(const Job& j) {
    const QuotaNode& n = j.ctx.w.nodes[size_t(nodeOfCq(j.ctx, j.cq))];
    for (int fr : j.frs)
        if (borrowingWith(n, fr, 0)) return false;
    return true;
}

std::vector<Target> fair(const Job& j) {
    const World& w = j.ctx.w;
    const ClusterQueue& cq = w.cqs[size_t(j.cq)];
    const Workload& pre = j.ctx.wls[j.wl];
    std::vector<uint32_t> candidates;
    if (cq.withinClusterQueue != Policy::Never)
        for (uint32_t c : cq.admitted)
            if (j.ctx.inSnapshot(c) && satisfies(pre, j.ctx.wls[c], cq.withinClusterQueue) &&
                usesResources(j.ctx.wls[c], j.frs))
                candidates.push_back(c);
    const int node = cq.node;
    if (w.nodes[size_t(node)].parent >= 0 && cq.reclaimWithinCohort != Policy::Never)
        for (int other : subtreeCqs(w, w.root(node))) {
            if (other == j.cq || !cqBorrowing(w, other, j.frs)) continue;
            for (uint32_t c : w.cqs[size_t(other)].admitted)
                if (j.ctx.inSnapshot(c) && satisfies(pre, j.ctx.wls[c], cq.reclaimWithinCohort) &&
                    usesResources(j.ctx.wls[c], j.frs))
                    candidates.push_back(c);
        }
    if (candidates.empty()) return {};
    std::stable_sort(candidates.begin(), candidates.end(),
                     [&](uint32_t a, uint32_t b) { return candidateBefore(j.ctx, a, b, j.cq); });
    addUsage(j.ctx.w, j.cq, j.usage);
    std::vector<Target> targets;
    std::vector<uint32_t> retry;
    bool fits = false;
    const int firstStrategy = j.ctx.strategies.empty() ? 0 : j.ctx.strategies.front();
    {
        Ordering o(j, candidates);
        const bool withinNominal = j.ctx.gate("FairSharingPreemptWithinNominal") && preemptorWithinNominal(j);
        for (int t = o.next(); t >= 0 && !fits; t = o.next()) {
            if (t == j.cq) {
                uint32_t c = o.pop(t);
                j.ctx.removeWorkload(c);
                targets.push_back(Target{c, "InClusterQueue"});
                fits = fitsFairly(j);
                continue;
            }
            if (withinNominal) {
                uint32_t c = o.pop(t);
                j.ctx.removeWorkload(c);
                targets.push_back(Target{c, "InCohortReclamation"});
                fits = fitsFairly(j);
                continue;
            }
            auto [pa, ta] = almostLcas(j, o, t);
            const Drs preemptorNew = dominantShare(w, pa), targetOld = dominantShare(w, ta);
            if (std::isinf(preemptorNew.weighted()) && !std::isinf(targetOld.weighted())) {
                while (o.has(t)) retry.push_back(o.pop(t));
                continue;
            }
            while (o.has(t)) {
                uint32_t c = o.pop(t);
                removeUsage(j.ctx.w, j.ctx.wls[c].cq, j.ctx.wls[c].usage);
                const Drs targetNew = dominantShare(w, almostLcas(j, o, t).second);
                addUsage(j.ctx.w, j.ctx.wls[c].cq, j.ctx.wls[c].usage);
                const bool passed = firstStrategy == 0 ? compareDrs(preemptorNew, targetNew) <= 0
                                                       : compareDrs(preemptorNew, targetOld) < 0;
                if (passed) {
                    j.ctx.removeWorkload(c);
                    targets.push_back(Target{c, "InCohortFairSharing"});
                    fits = fitsFairly(j);
                    break;
                }
                retry.push_back(c);
            }
        }
    }
    if (!fits && j.ctx.strategies.size() > 1) {
        Ordering o(j, retry);
        for (int t = o.next(); t >= 0 && !fits; t = o.next()) {
            auto [pa, ta] = almostLcas(j, o, t);
            const bool passed = compareDrs(dominantShare(w, pa), dominantShare(w, ta)) < 0;
            uint32_t c = o.pop(t);
            if (passed) {
                j.ctx.removeWorkload(c);
                targets.push_back(Target{c, "InCohortFairSharing"});
                fits = fitsFairly(j);
                if (fits) break;
            }
            o.drop(t);
        }
    }
    removeUsage(j.ctx.w, j.cq, j.usage);
    if (!fits) {
        restore(j, targets);
        return {};
    }
    targets = fillBack(j, targets, true);
    restore(j, targets);
    return targets;
}

std::vector<Target> run(const Job& j) {
    return j.ctx.fairSharing ? fair(j) : classical(j);
}

} // namespace

bool candidateBefore(const Context& ctx, uint32_t a, uint32_t b, int preemptorCq, bool afs) {
    const Workload& x = ctx.wls[a];
    const Workload& y = ctx.wls[b];
    if (x.evicted != y.evicted) return x.evicted;
    const bool xSame = x.cq == preemptorCq, ySame = y.cq == preemptorCq;
    if (xSame != ySame) return !xSame;
    // Two of one ClusterQueue from different LocalQueues: the busier LocalQueue's first
    // (resourceUsagePreemptionEnabled, pkg/scheduler/preemption/common/ordering.go).
    if (afs && x.cq == y.cq && x.queueName != y.queueName) {
        const auto ux = afsUsageOf(ctx.w, x.ns, x.queueName, x.cq),
                   uy = afsUsageOf(ctx.w, y.ns, y.queueName, y.cq);
        if (ux && uy && *ux != *uy) return *ux > *uy;
    }
    if (x.priority != y.priority) return x.priority < y.priority;
    const double tx = x.reservedAt == kZeroTime && x.state != WlState::Admitted ? ctx.now : x.reservedAt;
    const double ty = y.reservedAt == kZeroTime && y.state != WlState::Admitted ? ctx.now : y.reservedAt;
    if (tx != ty) return tx > ty;
    if (x.uid != y.uid) return x.uid < y.uid;
    if (x.jobOrder != y.jobOrder) return x.jobOrder < y.jobOrder;
    return x.task < y.task;
}

std::vector<Target> getTargets(Context& ctx, uint32_t wl, const Assignment& a) {
    Job j{ctx, wl, ctx.wls[wl].cq, {}, totalRequests(ctx, a), {}};
    std::set<int> frs;
    for (const auto& ps : a.podSets)
        for (int r = 0; r < ctx.w.R(); ++r)
            if (ps.flavors[size_t(r)].flavor >= 0 && ps.flavors[size_t(r)].mode == Mode::Preempt)
                frs.insert(ctx.w.fr(ps.flavors[size_t(r)].flavor, r));
    j.frs.assign(frs.begin(), frs.end());
    if (ctx.tas) {
        const Workload& w = ctx.wls[wl];
        const ClusterQueue& cq = ctx.w.cqs[size_t(w.cq)];
        for (size_t i = 0; i < a.podSets.size() && i < w.podSets.size(); ++i) {
            const PodSet& ps = w.podSets[i];
            const bool explicitRequest = ps.topology.any() || !ps.topology.sliceRequired.empty();
            if (!explicitRequest && !cq.tasOnly) continue;
            const PodSetAssignment& psa = a.podSets[i];
            if (!psa.error.empty() || psa.count == 0) continue;
            int flavor = -1;
            for (const auto& c : psa.flavors)
                if (c.flavor >= 0 && !ctx.w.flavors[size_t(c.flavor)].topologyName.empty()) flavor = c.flavor;
            if (flavor < 0) continue;
            j.tas.push_back(TasRequest{int(i), flavor, psa.count, ps.shape, ps.topology, !explicitRequest});
        }
    }
    return run(j);
}

std::pair<PMode, int> simulatePreemption(Context& ctx, uint32_t wl, int fr, Amount quantity) {
    Job j{ctx, wl, ctx.wls[wl].cq, {fr}, {{fr, quantity}}, {}};
    std::vector<Target> targets = run(j);
    if (targets.empty()) return {PMode::NoCandidates, lowestSubtreeThatFits(ctx.w, j.cq, fr, quantity).first};
    for (const auto& t : targets) removeUsage(ctx.w, ctx.wls[t.wl].cq, ctx.wls[t.wl].usage);
    const int after = lowestSubtreeThatFits(ctx.w, j.cq, fr, quantity).first;
    for (const auto& t : targets) addUsage(ctx.w, ctx.wls[t.wl].cq, ctx.wls[t.wl].usage);
    for (const auto& t : targets)
        if (ctx.wls[t.wl].cq == j.cq) return {PMode::Preempt, after};
    return {PMode::Reclaim, after};
}

} // namespace gantry::engine::kueue
