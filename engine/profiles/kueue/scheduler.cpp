#include "profiles/kueue/scheduler.h"

#include "profiles/kueue/afs_ledger.h"
#include "profiles/kueue/flavor_assigner.h"
#include "profiles/kueue/preemption.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace gantry::engine::kueue {

namespace {

enum class Status { NotNominated, Skipped, Nominated, Assumed };

struct Entry {
    uint32_t wl = 0;
    int cq = -1;
    Assignment a;
    std::vector<Target> targets;
    Status status = Status::NotNominated;
    Requeue requeue = Requeue::Generic;
    std::string reason; // QuotaReserved=False reason
    std::string message;
    bool keepLastTried = true;
};

bool explicitTas(const KueueTopologyRequest& t) {
    return t.any() || !t.sliceRequired.empty();
}

// The workload's topology placements in an assignment: (pod set, placement), shapes and flavors.
struct TasUsage {
    std::vector<std::pair<int, KueueTopologyAssignment>> placements;
    std::vector<uint32_t> shapes;
    std::vector<int> flavors;
};

TasUsage tasUsageOf(const Workload& wl, const Assignment& a) {
    TasUsage u;
    for (size_t i = 0; i < a.podSets.size(); ++i)
        if (a.podSets[i].topology && a.podSets[i].topologyFlavor >= 0) {
            u.placements.emplace_back(int(i), *a.podSets[i].topology);
            u.shapes.push_back(wl.podSets[i].shape);
            u.flavors.push_back(a.podSets[i].topologyFlavor);
        }
    return u;
}

} // namespace

Scheduler::Scheduler(const Cluster& cluster, const gantry::kueue::PolicyObjects& objects,
                     const KueueConfig& config)
    : w_(buildWorld(cluster, objects, config)) {
    rebuildTree(w_);
    warnings_ = w_.warnings;
    queues_ = std::make_unique<Queues>(w_, wls_);
    generation_.assign(w_.cqs.size(), 0);
}

Diagnostics Scheduler::takeWarnings() {
    Diagnostics out;
    out.swap(warnings_);
    return out;
}

void Scheduler::hold(uint32_t wi, int sign) {
    Workload& wl = wls_[wi];
    if (sign > 0)
        addUsage(w_, wl.cq, wl.usage);
    else
        removeUsage(w_, wl.cq, wl.usage);
    if (tas_)
        for (size_t i = 0; i < wl.admission.size() && i < wl.podSets.size(); ++i)
            if (wl.admission[i].topology && wl.admission[i].topologyFlavor >= 0)
                tas_->addUsage(wl.admission[i].topologyFlavor, *wl.admission[i].topology, wl.podSets[i].shape,
                               sign);
}

void Scheduler::adopt(const ClusterState& st, uint32_t job, double now, bool arriving) {
    if (byJob_.size() <= job) byJob_.resize(job + 1, UINT32_MAX);
    byJob_[job] = uint32_t(wls_.size());
    const JobRec& j = st.jobs[job];
    if (!j.podsAdmittedApart) {
        adoptWorkload(makeWorkload(w_, st, job, nullptr), now, arriving);
        return;
    }
    // Kueue's pod integration: every pod is a Workload of its own (a Deployment's, plain pods).
    for (uint32_t t : j.tasks) adoptWorkload(makeWorkload(w_, st, job, nullptr, t), now, arriving);
    if (j.tasks.empty()) byJob_[job] = UINT32_MAX;
}

void Scheduler::adoptWorkload(Workload workload, double now, bool arriving) {
    const uint32_t wi = uint32_t(wls_.size());
    wls_.push_back(std::move(workload));
    Workload& wl = wls_.back();
    // A workload created during a simulation was created when it arrived, on the simulation's clock.
    if (arriving) wl.created = wl.orderTime = now;
    if (wl.spec) {
        for (double t : {wl.created, wl.reservedAt, wl.evictedAt})
            if (t != kZeroTime) inputClock_ = std::max(inputClock_, t);
        if (wl.spec->requeueAtSeconds) inputClock_ = std::max(inputClock_, *wl.spec->requeueAtSeconds);
    }
    if (!wl.blockedReason.empty() && wl.state == WlState::Pending && !wl.inactive) blocked_.push_back(wi);
    if (wl.untouched) return;
    if (wl.state == WlState::Admitted) {
        auto& list = w_.cqs[size_t(wl.cq)].admitted;
        wl.admittedSlot = list.size();
        list.push_back(wi);
        hold(wi, +1);
        return;
    }
    if (!wl.inactive) toPush_.push_back(wi);
}

void Scheduler::attach(ClusterState& st, std::optional<double> simulationStart) {
    if (attached_) return;
    attached_ = true;
    tas_ = std::make_unique<TasIndex>(w_, st);
    for (uint32_t j = 0; j < st.jobs.size(); ++j)
        if (st.jobAlive(j)) adopt(st, j, simulationStart.value_or(0), simulationStart.has_value());
    st.trackChanges = true;
    st.changedJobs.clear();
    for (auto& j : st.jobs) j.changed = false;
}

void Scheduler::release(uint32_t wi, double now, bool finished) {
    Workload& wl = wls_[wi];
    if (wl.state == WlState::Admitted) {
        hold(wi, -1);
        auto& list = w_.cqs[size_t(wl.cq)].admitted;
        const size_t slot = wl.admittedSlot;
        list[slot] = list.back();
        wls_[list[slot]].admittedSlot = slot;
        list.pop_back();
        ++generation_[size_t(wl.cq)];
        queues_->retryInadmissible(wl.cq, now);
    }
    wl.admission.clear();
    wl.usage.clear();
    wl.evicted = false;
    if (finished) {
        queues_->remove(wi);
        wl.state = WlState::Finished;
        return;
    }
    wl.state = WlState::Pending;
    wl.lastTried.clear();
    if (!wl.untouched && !wl.inactive) queues_->push(wi, now);
}

std::vector<uint32_t> Scheduler::sync(ClusterState& st, double now) {
    std::vector<uint32_t> gone;
    for (uint32_t j : st.changedJobs) {
        st.jobs[j].changed = false;
        const uint32_t old = workloadOf(j);
        const bool alive = st.jobAlive(j);
        if (old != UINT32_MAX && (!alive || wls_[old].jobOrder != st.jobs[j].order)) {
            const uint32_t order = wls_[old].jobOrder;
            for (uint32_t wi = old; wi < wls_.size() && wls_[wi].job == j && wls_[wi].jobOrder == order; ++wi)
                if (wls_[wi].state != WlState::Finished) {
                    release(wi, now, true);
                    gone.push_back(wi);
                }
            byJob_[j] = UINT32_MAX;
        }
        if (alive && workloadOf(j) == UINT32_MAX) adopt(st, j, now, true);
    }
    st.changedJobs.clear();
    return gone;
}

CycleReport Scheduler::cycle(ClusterState& st, double now) {
    attach(st, std::nullopt);
    ++cycle_;
    CycleReport report;
    // Admission Fair Sharing: the LocalQueue controller's sampling since the last cycle.
    afsSeed(w_, now);
    for (int c : afsSample(w_, wls_, now)) queues_->reorder(c);
    for (uint32_t wi : toPush_)
        if (wls_[wi].state == WlState::Pending) queues_->push(wi, now);
    toPush_.clear();
    removed_.resize(wls_.size(), 0);
    admittedThisCycle_.resize(wls_.size(), 0);
    Context ctx{w_, wls_,        st,       tas_.get(),        cycle_, now, w_.config.fairSharing,
                {}, generation_, removed_, admittedThisCycle_};
    for (const auto& s : w_.config.preemptionStrategies)
        ctx.strategies.push_back(s == "LessThanInitialShare" ? 1 : 0);
    if (ctx.strategies.empty()) ctx.strategies = {0, 1};
    queues_->expireBackoff(now);

    // 1. The heads.
    std::vector<uint32_t> heads;
    for (size_t c = 0; c < w_.cqs.size(); ++c) {
        if (!w_.cqs[c].active) continue;
        const uint32_t h = queues_->pop(int(c));
        if (h != UINT32_MAX) heads.push_back(h);
    }

    // 2. Nomination: a flavor assignment for each (or why it cannot have one).
    auto outdated = [&](const Workload& wl) {
        if (cycle_ - wl.lastCycle <= 1) return false;
        return generation_[size_t(wl.cq)] > wl.lastGeneration;
    };
    auto tasRequests = [&](uint32_t wi, const Assignment& a) {
        std::vector<TasRequest> out;
        const Workload& wl = wls_[wi];
        const ClusterQueue& cq = w_.cqs[size_t(wl.cq)];
        for (size_t i = 0; i < a.podSets.size(); ++i) {
            const PodSet& ps = wl.podSets[i];
            const bool ex = explicitTas(ps.topology);
            if (!ex && !cq.tasOnly) continue;
            const auto& psa = a.podSets[i];
            if (!psa.error.empty() || psa.count == 0 || psa.topology) continue;
            int f = -1;
            for (const auto& c : psa.flavors)
                if (c.flavor >= 0 && !w_.flavors[size_t(c.flavor)].topologyName.empty()) f = c.flavor;
            if (f >= 0) out.push_back(TasRequest{int(i), f, psa.count, ps.shape, ps.topology, !ex});
        }
        return out;
    };
    auto getAssignments = [&](uint32_t wi, std::vector<Target>* targets) {
        Workload& wl = wls_[wi];
        if (!wl.lastTried.empty() && outdated(wl)) wl.lastTried.clear();
        targets->clear();
        Assignment full = assignFlavors(ctx, wi, {});
        Assignment chosen = full;
        bool done = false;
        if (full.mode() == Mode::Fit) {
            done = true;
        } else if (full.mode() == Mode::Preempt) {
            *targets = getTargets(ctx, wi, full);
            done = !targets->empty();
        }
        bool partial = false;
        for (const auto& ps : wl.podSets)
            if (ps.count > ps.minCount) partial = true;
        if (!done && w_.config.gate("PartialAdmission") && partial) {
            const size_t n = wl.podSets.size();
            std::vector<int32_t> fullCounts(n), deltas(n), current(n);
            int32_t total = 0;
            for (size_t i = 0; i < n; ++i) {
                fullCounts[i] = wl.podSets[i].count;
                deltas[i] = wl.podSets[i].count - wl.podSets[i].minCount;
                total += deltas[i];
            }
            int lastGood = 0;
            bool anyGood = false;
            Assignment good;
            std::vector<Target> goodTargets;
            auto fitsAt = [&](int idx) {
                for (size_t i = 0; i < n; ++i)
                    current[i] = fullCounts[i] - int32_t(int64_t(deltas[i]) * idx / total);
                Assignment a = assignFlavors(ctx, wi, current);
                std::vector<Target> t;
                bool ok = a.mode() == Mode::Fit;
                if (!ok && a.mode() == Mode::Preempt) {
                    t = getTargets(ctx, wi, a);
                    ok = !t.empty();
                }
                if (ok) {
                    lastGood = idx;
                    anyGood = true;
                    good = a;
                    goodTargets = t;
                }
                return ok;
            };
            int lo = 0, hi = total + 1;
            while (lo < hi) {
                const int h = (lo + hi) / 2;
                if (!fitsAt(h))
                    lo = h + 1;
                else
                    hi = h;
            }
            if (anyGood && lo == lastGood) {
                chosen = good;
                *targets = goodTargets;
                done = true;
            }
        }
        if (!done) targets->clear();
        // A topology placement that needs preemptions: reserve one assuming the victims gone (or,
        // with none, an empty cluster), so no lower workload takes the place meanwhile.
        if (tas_ && chosen.mode() == Mode::Preempt) {
            auto reqs = tasRequests(wi, chosen);
            if (!reqs.empty()) {
                for (const auto& t : *targets) hold(t.wl, -1);
                TasResult r = tas_->find(reqs, targets->empty());
                for (const auto& t : *targets) hold(t.wl, +1);
                for (auto& [ps, ta] : r.assignments) {
                    chosen.podSets[size_t(ps)].topology = ta;
                    for (const auto& q : reqs)
                        if (q.podSet == ps) chosen.podSets[size_t(ps)].topologyFlavor = q.flavor;
                }
            }
        }
        return chosen;
    };
    auto record = [&](Entry& e) {
        Workload& wl = wls_[e.wl];
        wl.lastTried = e.a.lastTried;
        wl.lastCycle = cycle_;
        wl.lastGeneration = generation_[size_t(wl.cq)];
        e.message = e.a.message();
    };
    std::vector<Entry> entries, inadmissible;
    for (uint32_t h : heads) {
        Entry e;
        e.wl = h;
        e.cq = wls_[h].cq;
        Workload& wl = wls_[h];
        const ClusterQueue& cq = w_.cqs[size_t(e.cq)];
        bool failedChecks = false;
        if (wl.spec)
            for (const auto& [name, state] : wl.spec->admissionChecks)
                if (state == "Retry" || state == "Rejected") failedChecks = true;
        if (failedChecks) {
            e.message = "The workload has failed admission checks";
            e.reason = "PendingEvaluation";
        } else if (cq.inCycle) {
            e.message = "ClusterQueue " + cq.name + " is inactive";
            e.reason = "Suspended";
        } else if (!w_.namespaceExists(wl.ns)) {
            e.message = "workload namespace \"" + wl.ns + "\" does not exist";
            e.reason = "Misconfigured";
        } else if (!namespaceMatches(w_, cq, wl.ns)) {
            e.message = "workload namespace doesn't match ClusterQueue selector";
            e.reason = "Misconfigured";
            e.requeue = Requeue::NamespaceMismatch;
        } else if (!wl.misconfigured.empty()) {
            e.message = wl.misconfigured;
            e.reason = "Misconfigured";
        } else {
            e.a = getAssignments(h, &e.targets);
            record(e);
            entries.push_back(std::move(e));
            continue;
        }
        inadmissible.push_back(std::move(e));
    }

    // 3. The order of the heads.
    std::vector<size_t> order;
    const bool prioritySort = w_.config.gate("PrioritySortingWithinCohort");
    if (!ctx.fairSharing) {
        for (size_t i = 0; i < entries.size(); ++i) order.push_back(i);
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            const Entry &x = entries[a], &y = entries[b];
            if (x.a.borrowing != y.a.borrowing) return x.a.borrowing < y.a.borrowing;
            const Workload &wx = wls_[x.wl], &wy = wls_[y.wl];
            if (prioritySort && wx.priority != wy.priority) return wx.priority > wy.priority;
            return wx.orderTime < wy.orderTime;
        });
    }
    std::vector<uint8_t> taken(entries.size(), 0);
    auto nextFair = [&]() -> int {
        int first = -1;
        for (size_t i = 0; i < entries.size(); ++i)
            if (!taken[i]) {
                first = int(i);
                break;
            }
        if (first < 0) return -1;
        const int cqNode = w_.cqs[size_t(entries[size_t(first)].cq)].node;
        if (w_.nodes[size_t(cqNode)].parent < 0) return first;
        const int root = w_.root(cqNode);
        // DRS of each candidate at each level, with its workload admitted.
        std::map<std::pair<int, size_t>, Drs> drs;
        std::map<size_t, Usage> requested;
        for (size_t i = 0; i < entries.size(); ++i) {
            if (taken[i]) continue;
            const int node = w_.cqs[size_t(entries[i].cq)].node;
            if (w_.root(node) != root) continue;
            const Usage& u = entries[i].a.usage;
            addUsage(w_, entries[i].cq, u);
            requested[i] = u;
            Drs d = dominantShare(w_, node);
            for (int a = w_.nodes[size_t(node)].parent; a >= 0; a = w_.nodes[size_t(a)].parent) {
                drs[{a, i}] = d;
                d = dominantShare(w_, a);
            }
            removeUsage(w_, entries[i].cq, u);
        }
        auto less = [&](size_t a, size_t b, int parent) {
            const Drs& da = drs[{parent, a}];
            const Drs& db = drs[{parent, b}];
            if (w_.config.gate("FairSharingPrioritizeNonBorrowing")) {
                const bool ba = da.borrowingOn(requested[a]), bb = db.borrowingOn(requested[b]);
                if (ba != bb) return !ba;
            }
            if (int c = compareDrs(da, db); c != 0) return c == -1;
            const Workload &wa = wls_[entries[a].wl], &wb = wls_[entries[b].wl];
            if (prioritySort && wa.priority != wb.priority) return wa.priority > wb.priority;
            return wa.orderTime < wb.orderTime;
        };
        std::function<int(int)> tournament = [&](int cohort) -> int {
            std::vector<size_t> candidates;
            for (int c : w_.nodes[size_t(cohort)].childCohorts)
                if (int t = tournament(c); t >= 0) candidates.push_back(size_t(t));
            for (int c : w_.nodes[size_t(cohort)].childCqs)
                for (size_t i = 0; i < entries.size(); ++i)
                    if (!taken[i] && w_.cqs[size_t(entries[i].cq)].node == c) candidates.push_back(i);
            if (candidates.empty()) return -1;
            size_t best = candidates[0];
            for (size_t k = 1; k < candidates.size(); ++k)
                if (less(candidates[k], best, cohort)) best = candidates[k];
            return int(best);
        };
        return tournament(root);
    };

    // 4. Admit, preempt or skip, in that order, against one snapshot.
    std::vector<std::pair<int, Usage>> snapshotOnly; // usage the cycle reserved without admitting
    std::set<uint32_t> preempted;
    auto victimsRemoved = [&](const std::vector<Target>& targets, int sign) {
        std::set<uint32_t> merged = preempted;
        for (const auto& t : targets) merged.insert(t.wl);
        for (uint32_t v : merged) {
            if (sign < 0)
                removeUsage(w_, wls_[v].cq, wls_[v].usage);
            else
                addUsage(w_, wls_[v].cq, wls_[v].usage);
            if (tas_)
                for (size_t i = 0; i < wls_[v].admission.size(); ++i)
                    if (wls_[v].admission[i].topology)
                        tas_->addUsage(wls_[v].admission[i].topologyFlavor, *wls_[v].admission[i].topology,
                                       wls_[v].podSets[i].shape, sign);
        }
    };
    auto fitsNow = [&](const Entry& e, bool* tasOnly) {
        victimsRemoved(e.targets, -1);
        bool ok = fits(w_, e.cq, e.a.usage);
        *tasOnly = false;
        if (ok && tas_) {
            TasUsage u = tasUsageOf(wls_[e.wl], e.a);
            if (!u.placements.empty() && !tas_->fits(u.placements, u.shapes, u.flavors)) {
                ok = false;
                *tasOnly = true;
            }
        }
        victimsRemoved(e.targets, +1);
        return ok;
    };
    auto process = [&](Entry& e) {
        Workload& wl = wls_[e.wl];
        bool tasOnly = false;
        bool ok = fitsNow(e, &tasOnly);
        bool overlap = false;
        for (const auto& t : e.targets)
            if (preempted.count(t.wl)) overlap = true;
        const bool overlapRecompute =
            overlap && w_.config.gate("RecomputeAssignmentUponPreemptionTargetsOverlap");
        const bool tasRecompute =
            !ok && tasOnly && w_.config.gate("TASRecomputeAssignmentWithinSchedulingCycle");
        if (overlapRecompute || tasRecompute) {
            std::vector<uint32_t> others(preempted.begin(), preempted.end());
            if (overlapRecompute)
                for (uint32_t v : others) ctx.removeWorkload(v);
            wl.lastTried.clear();
            e.a = getAssignments(e.wl, &e.targets);
            record(e);
            if (overlapRecompute) {
                for (uint32_t v : others) ctx.addWorkload(v);
                if (e.a.mode() == Mode::Fit) e.a.setMode(Mode::DeferredFit);
            }
            ok = fitsNow(e, &tasOnly);
        }
        const Mode mode = e.a.mode();
        if (mode == Mode::NoFit) {
            e.requeue = Requeue::NoFit;
            e.reason = e.a.noFitReason;
            return;
        }
        if (mode == Mode::Preempt && e.targets.empty()) {
            e.requeue = Requeue::PreemptionNoCandidates;
            e.reason = "WaitingForQuota";
            if (w_.cqs[size_t(e.cq)].reclaimWithinCohort != Policy::Any) {
                // Reserve what the workload could take without preempting, up to its limits.
                Usage reserve;
                const QuotaNode& n = w_.nodes[size_t(w_.cqs[size_t(e.cq)].node)];
                for (const auto& [fr, v] : e.a.usage) {
                    Amount r;
                    if (e.a.borrowing > 0) {
                        const Amount limit = n.borrowLimit[size_t(fr)];
                        r = limit == kNoLimit ? v
                                              : std::min(v, subAmount(addAmount(n.nominal[size_t(fr)], limit),
                                                                      n.usage[size_t(fr)]));
                    } else {
                        r = std::max<Amount>(
                            0, std::min(v, subAmount(n.nominal[size_t(fr)], n.usage[size_t(fr)])));
                    }
                    reserve.emplace_back(fr, r);
                }
                addUsage(w_, e.cq, reserve);
                snapshotOnly.emplace_back(e.cq, reserve);
            }
            return;
        }
        if (mode == Mode::DeferredFit) {
            e.message =
                "Workload has overlapping preemption targets with another workload, but will fit after "
                "these preemptions complete";
            e.reason = "WaitingForPreemptedWorkloads";
            e.requeue = Requeue::PendingPreemption;
            e.keepLastTried = false;
            addUsage(w_, e.cq, e.a.usage);
            snapshotOnly.emplace_back(e.cq, e.a.usage);
            return;
        }
        if (overlap) {
            e.status = Status::Skipped;
            e.message = "Workload has overlapping preemption targets with another workload";
            e.reason = "WaitingForQuota";
            return;
        }
        if (!ok) {
            e.status = Status::Skipped;
            e.message = "Workload no longer fits after processing another workload";
            e.reason = "WaitingForQuota";
            return;
        }
        for (const auto& t : e.targets) preempted.insert(t.wl);
        addUsage(w_, e.cq, e.a.usage);
        if (mode == Mode::Preempt) {
            snapshotOnly.emplace_back(e.cq, e.a.usage);
            e.reason = "WaitingForPreemptedWorkloads";
            e.keepLastTried = false;
            for (const auto& t : e.targets) {
                Workload& v = wls_[t.wl];
                if (!v.evicted) {
                    v.evicted = true;
                    v.evictedReason = "Preempted";
                    v.preemptionReason = t.reason;
                    v.evictedAt = now;
                    report.preempted.emplace_back(t.wl, t.reason);
                }
            }
            if (!e.targets.empty()) {
                e.message +=
                    ". Pending the preemption of " + std::to_string(e.targets.size()) + " workload(s)";
                e.requeue = Requeue::PendingPreemption;
            }
            return;
        }
        // Admission: the quota is reserved now (the usage added above stays).
        e.status = Status::Assumed;
        wl.state = WlState::Admitted;
        wl.everAdmitted = true;
        if (wl.firstAdmitted < 0) wl.firstAdmitted = now;
        wl.reservedAt = now;
        wl.evicted = false;
        wl.evictedReason.clear();
        wl.usage = e.a.usage;
        wl.admission.assign(e.a.podSets.size(), PodSetAdmission{});
        for (size_t i = 0; i < e.a.podSets.size(); ++i) {
            auto& adm = wl.admission[i];
            adm.flavorOf.assign(size_t(w_.R()), -1);
            for (int r = 0; r < w_.R(); ++r)
                adm.flavorOf[size_t(r)] = e.a.podSets[i].flavors[size_t(r)].flavor;
            adm.count = e.a.podSets[i].count;
            adm.topology = e.a.podSets[i].topology;
            adm.topologyFlavor = e.a.podSets[i].topologyFlavor;
        }
        if (tas_)
            for (size_t i = 0; i < wl.admission.size(); ++i)
                if (wl.admission[i].topology)
                    tas_->addUsage(wl.admission[i].topologyFlavor, *wl.admission[i].topology,
                                   wl.podSets[i].shape, +1);
        wl.admittedCondition = checksReady(w_, wl);
        auto& list = w_.cqs[size_t(e.cq)].admitted;
        wl.admittedSlot = list.size();
        list.push_back(e.wl);
        ctx.admittedThisCycle[e.wl] = 1;
        queues_->reorder(afsAdmitted(w_, wls_, e.wl, now));
        report.admitted.push_back(e.wl);
    };
    if (!ctx.fairSharing) {
        for (size_t i : order) process(entries[i]);
    } else {
        for (int i = nextFair(); i >= 0; i = nextFair()) {
            taken[size_t(i)] = 1;
            process(entries[size_t(i)]);
        }
    }
    for (auto it = snapshotOnly.rbegin(); it != snapshotOnly.rend(); ++it)
        removeUsage(w_, it->first, it->second);

    // 5. The heads not admitted go back to their queues.
    auto requeue = [&](Entry& e, bool nominated) {
        Workload& wl = wls_[e.wl];
        Requeue reason = e.requeue;
        if (nominated && e.status != Status::NotNominated && reason == Requeue::Generic)
            reason = Requeue::FailedAfterNomination;
        if (!e.keepLastTried) wl.lastTried.clear();
        bool pendingFlavors = false;
        for (const auto& ps : wl.lastTried)
            for (int idx : ps)
                if (idx != -1 && idx != -2) pendingFlavors = true;
        queues_->requeue(e.wl, reason, now, pendingFlavors, e.reason);
        wl.pendingReason = e.reason;
        wl.pendingMessage = e.message;
        report.pending.emplace_back(e.wl, e.reason);
    };
    for (auto& e : entries)
        if (e.status != Status::Assumed) requeue(e, true);
    for (auto& e : inadmissible) requeue(e, false);
    // The workload controller's reason for those whose queues cannot admit them (getQueueBlocker):
    // the scheduler never sees them, the condition says why.
    size_t kept = 0;
    for (uint32_t wi : blocked_) {
        Workload& wl = wls_[wi];
        if (wl.state != WlState::Pending) continue; // finished
        blocked_[kept++] = wi;
        wl.pendingReason = wl.blockedReason;
        wl.pendingMessage = wl.blockedMessage;
        report.pending.emplace_back(wi, wl.blockedReason);
    }
    blocked_.resize(kept);
    for (uint32_t wi : report.admitted) admittedThisCycle_[wi] = 0;
    return report;
}

} // namespace gantry::engine::kueue
