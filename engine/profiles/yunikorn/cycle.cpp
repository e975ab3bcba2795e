// One scheduling cycle of the core (ClusterContext.schedule for one partition): reserved
// allocations first, then placeholder replacement, then a walk of the sorted queue tree that
// allocates, reserves or preempts for the first ask it can. PartitionContext.allocate applies the
// result (reserve, unreserve, allocate).
#include "profiles/yunikorn/go_sort.h"
#include "profiles/yunikorn/partition.h"

#include <algorithm>

namespace gantry::engine::yunikorn {

namespace {

constexpr int kMaxPreemptionsPerQueue = 10;

void merge(CycleDecision& into, CycleDecision&& from) {
    into.preempted.insert(into.preempted.end(), from.preempted.begin(), from.preempted.end());
    into.released.insert(into.released.end(), from.released.begin(), from.released.end());
    into.unreserved.insert(into.unreserved.end(), from.unreserved.begin(), from.unreserved.end());
    if (from.type != ResultType::None && from.type != ResultType::Unreserved) {
        into.type = from.type;
        into.ask = from.ask;
        into.node = from.node;
        into.reservedNode = from.reservedNode;
        into.replaced = from.replaced;
        into.byPreemption = from.byPreemption;
    }
}

// Raises `largest` to hold `res` too.
void raiseTo(Res& largest, const Res& res) {
    for (uint64_t m = res.mask(); m; m &= m - 1) {
        const int k = __builtin_ctzll(m);
        if (!largest.has(k) || res.get(k) > largest.get(k)) largest.set(k, res.get(k));
    }
}

} // namespace

std::string allocationLog(const Ask& ask) {
    std::string out = ask.lastFailure;
    auto append = [&](const char* entry) {
        if (!out.empty()) out += "; ";
        out += entry;
    };
    if (ask.preemptionFailure) append(ask.preemptionFailure);
    if (ask.preemptionDidNotHelp) append(kPreemptionDoesNotHelp);
    return out;
}

// ---------------------------------------------------------------- visits that change nothing

bool Partition::stillQuiet(Phase phase, uint32_t app, const Res& headRoom, double now) {
    const Application& a = apps[app];
    if (!a.quiet) return false;
    const QuietVisit& visit = (*a.quiet).*phase;
    if (!visit.valid || visit.revision != a.revision || visit.growths != nodes.growths() || visit.now != now)
        return false;
    return headRoom.fitInMaxUndef(visit.largest) &&
           ugm.headroom(a.queuePath, app, a.user).fitInMaxUndef(visit.largest);
}

void Partition::forgetQuiet(Phase phase, uint32_t app) {
    if (apps[app].quiet) ((*apps[app].quiet).*phase).valid = false;
}

void Partition::markQuiet(Phase phase, uint32_t app, Res largest, double now) {
    Application& a = apps[app];
    if (!a.quiet) a.quiet = std::make_unique<QuietVisits>();
    (*a.quiet).*phase = QuietVisit{true, a.revision, nodes.growths(), now, std::move(largest)};
}

// ---------------------------------------------------------------- nodes

bool Partition::preAllocateCheck(uint32_t node, uint32_t ask) const {
    const Res& res = askRes[asks[ask].res];
    if (!strictlyGreaterThanZero(res)) return false;
    const Node& n = nodes[node];
    if (n.reserved() && !n.reservedFor(ask)) return false;
    return n.available.fitIn(res);
}

bool Partition::nodeConditions(uint32_t node, uint32_t ask, bool allocate) {
    if (!predicate) return true;
    std::string why;
    if (predicate(asks[ask], node, allocate, &why)) return true;
    asks[ask].lastFailure = why;
    revised(asks[ask].app);
    return false;
}

// Application.tryNode: the node's free resources, the shim's predicates, then the queue's max.
bool Partition::tryNode(uint32_t app, uint32_t node, uint32_t ask, double now, CycleDecision* out) {
    if (!preAllocateCheck(node, ask)) return false;
    if (!nodeConditions(node, ask, true)) return false;
    const Res& res = askRes[asks[ask].res];
    Node& n = nodes[node];
    if (!n.available.fitIn(res)) return false;
    if (!tryIncAllocated(apps[app].queue, res)) return false;
    n.allocated.addTo(res);
    nodes.updated(node);
    allocateAsk(ask);
    asks[ask].node = int32_t(node);
    asks[ask].bindTime = now;
    addAllocationToApp(app, ask, false);
    out->type = ResultType::Allocated;
    out->ask = ask;
    out->node = node;
    return true;
}

// ---------------------------------------------------------------- the cycle

CycleDecision Partition::schedule(double now) {
    CycleDecision out;
    if (queues[0].max.isNil()) return out;
    CycleDecision r = tryReservedAllocate(now);
    const bool done = r.type == ResultType::Allocated || r.type == ResultType::AllocatedReserved;
    merge(out, std::move(r));
    out.preempted.insert(out.preempted.end(), requiredNodeVictims.begin(), requiredNodeVictims.end());
    requiredNodeVictims.clear();
    if (done) return out;
    r = tryPlaceholderAllocate(now);
    const bool replaced = r.type == ResultType::Replaced;
    merge(out, std::move(r));
    if (replaced) return out;
    merge(out, tryAllocate(now));
    return out;
}

// PartitionContext.allocate: reservations and the bookkeeping of an allocation.
CycleDecision Partition::applyDecision(CycleDecision d, double now) {
    if (d.type == ResultType::None) return d;
    const uint32_t app = asks[d.ask].app;
    reservationCount -= d.cancelledReservations;
    if (d.type == ResultType::Reserved) {
        reserve(app, d.node, d.ask, now);
        return d;
    }
    if (d.type == ResultType::Unreserved || d.type == ResultType::AllocatedReserved) {
        const uint32_t reservedNode = d.reservedNode == kNone ? d.node : d.reservedNode;
        unReserve(app, reservedNode, d.ask);
        d.unreserved.emplace_back(d.ask, reservedNode);
        if (d.type == ResultType::Unreserved) {
            d.type = ResultType::None;
            return d;
        }
    }
    Ask& k = asks[d.ask];
    k.bindTime = now;
    k.node = int32_t(d.node);
    if (k.placeholder) ++placeholderAllocations;
    return d;
}

CycleDecision Partition::tryReservedAllocate(double now) {
    if (reservationCount <= 0 || !strictlyGreaterThanZero(queues[0].pending)) return {};
    return applyDecision(queueTryReservedAllocate(0, now), now);
}

CycleDecision Partition::tryPlaceholderAllocate(double now) {
    if (placeholderAllocations <= 0 || !strictlyGreaterThanZero(queues[0].pending)) return {};
    return queueTryPlaceholderAllocate(0, now);
}

CycleDecision Partition::tryAllocate(double now) {
    if (!strictlyGreaterThanZero(queues[0].pending)) return {};
    return applyDecision(queueTryAllocate(0, now), now);
}

// ---------------------------------------------------------------- queues

CycleDecision Partition::queueTryAllocate(uint32_t q, double now) {
    if (!queues[q].leaf) {
        for (uint32_t child : sortQueues(q)) {
            CycleDecision r = queueTryAllocate(child, now);
            if (r.type != ResultType::None || !r.preempted.empty()) return r;
        }
        return {};
    }
    const Res room = headRoom(q);
    const double preemptionDelay = queues[q].preemptionDelay;
    int attemptsLeft = kMaxPreemptionsPerQueue;
    for (uint32_t app : sortedApplications(q)) {
        Application& a = apps[app];
        const bool inQueue = canRunApp(q, app);
        const bool byUser = ugm.canRunApp(a.queuePath, app, a.user);
        a.runnableInQueue = inQueue;
        a.runnableByUserLimit = byUser;
        if (a.state == AppState::Accepted && (!inQueue || !byUser)) continue;
        if (a.backoffDeadline != kNever && now < a.backoffDeadline) continue;
        CycleDecision r = appTryAllocate(app, room, preemptionDelay, &attemptsLeft, now);
        if (r.type != ResultType::None) {
            if (apps[app].state == AppState::Accepted) setAllocatingAccepted(q, app);
            return r;
        }
    }
    return {};
}

CycleDecision Partition::queueTryReservedAllocate(uint32_t q, double now) {
    if (!queues[q].leaf) {
        for (uint32_t child : sortQueues(q)) {
            CycleDecision r = queueTryReservedAllocate(child, now);
            if (r.type != ResultType::None) return r;
        }
        return {};
    }
    const auto reserved = queues[q].reservedApps;
    if (reserved.empty()) return {};
    const Res room = headRoom(q);
    for (const auto& [app, count] : reserved) {
        Application& a = apps[app];
        if (a.state == AppState::Accepted && (!canRunApp(q, app) || !ugm.canRunApp(a.queuePath, app, a.user)))
            continue;
        CycleDecision r = appTryReservedAllocate(app, room, now);
        if (r.type != ResultType::None) {
            if (apps[app].state == AppState::Accepted) setAllocatingAccepted(q, app);
            return r;
        }
    }
    return {};
}

CycleDecision Partition::queueTryPlaceholderAllocate(uint32_t q, double now) {
    CycleDecision out;
    if (!queues[q].leaf) {
        for (uint32_t child : sortQueues(q)) {
            merge(out, queueTryPlaceholderAllocate(child, now));
            if (out.type != ResultType::None) return out;
        }
        return out;
    }
    for (uint32_t app : sortApplications(q, true)) {
        merge(out, appTryPlaceholderAllocate(app, now));
        if (out.type != ResultType::None) return out;
    }
    return out;
}

// ---------------------------------------------------------------- applications

CycleDecision Partition::appTryAllocate(uint32_t app, const Res& headRoom, double preemptionDelay,
                                        int* attemptsLeft, double now) {
    Application& a = apps[app];
    if (stillQuiet(&QuietVisits::allocate, app, headRoom, now)) return {};
    forgetQuiet(&QuietVisits::allocate, app);
    const Res userRoom = ugm.headroom(a.queuePath, app, a.user);
    const Queue& queue = queues[a.queue];
    uint64_t unschedulable = 0;
    bool quiet = true;
    Res tried = Res::empty();
    const std::vector<uint32_t> requests = a.sortedRequests;
    for (uint32_t ask : requests) {
        if (queue.unschedAskBackoff > 0 && unschedulable >= queue.unschedAskBackoff) {
            apps[app].backoffDeadline = now + queue.askBackoffDelay;
            watchClock(app);
            return {};
        }
        Ask& k = asks[ask];
        if (k.allocated || k.removed) continue;
        if (canReplace(apps[app], k)) continue;
        const Res& res = askRes[k.res];
        k.clearLog();
        if (!userRoom.fitInMaxUndef(res)) {
            k.lastFailure = kNotEnoughUserQuota;
            quiet = false;
            continue;
        }
        k.schedulingAttempted = true;
        if (!headRoom.fitInMaxUndef(res)) {
            quiet = false;
            if (preemptionEnabled) {
                CycleDecision r;
                if (tryPreemption(app, headRoom, preemptionDelay, attemptsLeft, ask, false, now, &r))
                    return r;
                asks[ask].preemptionDidNotHelp = true;
            }
            asks[ask].lastFailure = kNotEnoughQueueQuota;
            continue;
        }
        raiseTo(tried, res);
        if (k.hasRequiredNode()) {
            quiet = false;
            if (k.requiredNode < 0) continue; // the node is not registered (yet)
            CycleDecision r = tryRequiredNode(app, ask, now);
            if (r.type != ResultType::None) return r;
            continue;
        }
        CycleDecision r = tryNodes(app, ask, now, &quiet);
        if (r.type != ResultType::None) return r;
        if (asks[ask].lastFailure.empty()) asks[ask].lastFailure = "no node has room for it";
        if (preemptionEnabled) {
            quiet = quiet && preemptionWaits(asks[ask], preemptionDelay, now);
            CycleDecision p;
            if (tryPreemption(app, headRoom, preemptionDelay, attemptsLeft, ask, true, now, &p)) return p;
            asks[ask].preemptionDidNotHelp = true;
        }
        ++unschedulable;
    }
    if (quiet) markQuiet(&QuietVisits::allocate, app, std::move(tried), now);
    return {};
}

CycleDecision Partition::tryRequiredNode(uint32_t app, uint32_t ask, double now) {
    const uint32_t node = uint32_t(asks[ask].requiredNode);
    CycleDecision out;
    // Reservations of asks that do not need this node make room for it.
    const std::vector<uint32_t> others = nodes[node].reservations;
    for (uint32_t other : others) {
        if (asks[other].hasRequiredNode()) continue;
        const uint32_t otherApp = asks[other].app;
        int index = reservationIndex(apps[otherApp], other);
        int num = index >= 0 ? unReserveInternal(otherApp, index) : 0;
        queueUnReserve(apps[otherApp].queue, otherApp, num);
        out.cancelledReservations += num;
        out.unreserved.emplace_back(other, node);
    }
    const bool thisReserved = reservationIndex(apps[app], ask) >= 0;
    if (tryNode(app, node, ask, now, &out)) {
        if (thisReserved) out.type = ResultType::AllocatedReserved;
        return out;
    }
    if (thisReserved) {
        out.type = ResultType::None;
        reservationCount -= out.cancelledReservations;
        out.cancelledReservations = 0;
        return out;
    }
    out.type = ResultType::Reserved;
    out.ask = ask;
    out.node = node;
    return out;
}

// Application.tryNodes: the first node in order where tryNode succeeds; else, once the ask is old
// enough, a reservation on the node with the best FitInScore. Nodes the ask does not fit fail
// tryNode before any check with a side effect, so only the nodes it fits are tried; when one of them
// was tried, its score (0) is the best.
CycleDecision Partition::tryNodes(uint32_t app, uint32_t ask, double now, bool* quiet) {
    CycleDecision out;
    const Application& a = apps[app];
    const int r = reservationIndex(a, ask);
    const uint32_t reservedNode = r >= 0 ? a.reservations[size_t(r)].node : kNone;
    const Res& res = askRes[asks[ask].res];
    const bool mayReserve = r < 0 && now - asks[ask].createTime > timings.reservationDelay;
    uint32_t toReserve = kNone;
    bool allocated = false;
    nodes.forEachFitting(res, asks[ask].res, [&](uint32_t n) {
        *quiet = false;
        if (!nodes[n].total.fitIn(res)) return true;
        if (tryNode(app, n, ask, now, &out)) {
            if (reservedNode != kNone) {
                if (reservedNode != n) out.reservedNode = reservedNode;
                out.type = ResultType::AllocatedReserved;
            }
            allocated = true;
            return false;
        }
        if (toReserve == kNone) toReserve = n;
        return true;
    });
    if (allocated || !mayReserve) return out;
    if (toReserve == kNone) toReserve = nodes.closestFit(res, asks[ask].res);
    if (toReserve != kNone) {
        *quiet = false;
        if (!nodeConditions(toReserve, ask, false)) return {};
        out.type = ResultType::Reserved;
        out.ask = ask;
        out.node = toReserve;
    }
    return out;
}

CycleDecision Partition::tryNodesNoReserve(uint32_t app, uint32_t ask, uint32_t reservedNode, double now,
                                           bool* quiet) {
    CycleDecision out;
    const Res& res = askRes[asks[ask].res];
    bool allocated = false;
    nodes.forEachFitting(res, asks[ask].res, [&](uint32_t n) {
        *quiet = false;
        if (!nodes[n].total.fitIn(res) || n == reservedNode) return true;
        if (tryNode(app, n, ask, now, &out)) {
            out.type = ResultType::AllocatedReserved;
            out.reservedNode = reservedNode;
            allocated = true;
            return false;
        }
        return true;
    });
    return allocated ? out : CycleDecision{};
}

CycleDecision Partition::appTryReservedAllocate(uint32_t app, const Res& headRoom, double now) {
    Application& a = apps[app];
    if (stillQuiet(&QuietVisits::reserved, app, headRoom, now)) return {};
    forgetQuiet(&QuietVisits::reserved, app);
    const Res userRoom = ugm.headroom(a.queuePath, app, a.user);
    bool quiet = true;
    Res tried = Res::empty();
    auto fits = [&](uint32_t ask) {
        const Res& res = askRes[asks[ask].res];
        return userRoom.fitInMaxUndef(res) && headRoom.fitInMaxUndef(res);
    };
    const std::vector<Reservation> reservations = a.reservations;
    for (const Reservation& r : reservations) {
        const Ask& k = asks[r.ask];
        if (k.allocated || k.removed) {
            CycleDecision out;
            out.type = ResultType::Unreserved;
            out.ask = r.ask;
            out.node = r.node;
            return out;
        }
        if (!fits(r.ask)) {
            quiet = false;
            // The core cancels it once now - (created + wait) exceeds the wait timeout.
            if (now - (r.createTime + timings.reservationWaitTimeout) > timings.reservationWaitTimeout) {
                int index = reservationIndex(apps[app], r.ask);
                if (index >= 0) {
                    int num = unReserveInternal(app, index);
                    queueUnReserve(apps[app].queue, app, num);
                    reservationCount -= num;
                }
            }
            continue;
        }
        raiseTo(tried, askRes[k.res]);
        if (k.hasRequiredNode()) quiet = false;
        if (k.hasRequiredNode() && !nodes[r.node].available.fitIn(askRes[k.res]) && !k.triggeredPreemption) {
            requiredNodePreemption(app, r.ask, r.node);
            continue;
        }
        // tryNode fails here at once, changing nothing, until the node frees resources.
        if (!preAllocateCheck(r.node, r.ask)) continue;
        quiet = false;
        CycleDecision out;
        if (tryNode(app, r.node, r.ask, now, &out)) {
            out.type = ResultType::AllocatedReserved;
            return out;
        }
    }
    for (const Reservation& r : apps[app].reservations) {
        if (asks[r.ask].hasRequiredNode() || !fits(r.ask)) continue;
        CycleDecision out = tryNodesNoReserve(app, r.ask, r.node, now, &quiet);
        if (out.type != ResultType::None) return out;
    }
    if (quiet) markQuiet(&QuietVisits::reserved, app, std::move(tried), now);
    return {};
}

// Application.tryPlaceholderAllocate: a real ask of a task group takes the place of one of its
// allocated placeholders (on the placeholder's node when the shim's checks pass there, else on the
// first node it fits). Placeholders smaller than the real ask are released.
CycleDecision Partition::appTryPlaceholderAllocate(uint32_t app, double now) {
    CycleDecision out;
    Application& a = apps[app];
    if (isZero(a.allocatedPlaceholder)) return out;
    uint32_t phFit = kNone, reqFit = kNone;
    const std::vector<uint32_t> requests = a.sortedRequests;
    for (uint32_t request : requests) {
        Ask& req = asks[request];
        if (req.placeholder || req.taskGroup < 0 || req.allocated || req.removed) continue;
        const std::vector<uint32_t> allocations = apps[app].allocations;
        for (uint32_t ph : allocations) {
            Ask& p = asks[ph];
            if (!p.placeholder) continue;
            if (p.released || p.preempted || p.taskGroup != req.taskGroup) continue;
            if (sub(askRes[p.res], askRes[req.res]).hasNegativeValue()) {
                p.released = true;
                revised(app);
                out.released.push_back(ph);
                continue;
            }
            if (phFit == kNone && reqFit == kNone) {
                phFit = ph;
                reqFit = request;
            }
            const uint32_t node = uint32_t(p.node);
            if (nodeConditions(node, request, false)) {
                allocateAsk(request);
                req.release = ph;
                p.release = request;
                p.released = true;
                req.bindTime = now;
                req.node = int32_t(node);
                out.type = ResultType::Replaced;
                out.ask = request;
                out.node = node;
                out.replaced = ph;
                return out;
            }
        }
    }
    if (phFit == kNone) return out;
    const Res& res = askRes[asks[reqFit].res];
    nodes.forEach([&](uint32_t n) {
        Node& node = nodes[n];
        if (node.reserved()) return true;
        if (!node.schedulable) return true;
        if (!preAllocateCheck(n, reqFit)) return true;
        if (!nodeConditions(n, reqFit, true)) return true;
        if (!node.available.fitIn(res)) return false;
        node.allocated.addTo(res);
        nodes.updated(n);
        allocateAsk(reqFit);
        asks[reqFit].release = phFit;
        asks[phFit].release = reqFit;
        asks[phFit].released = true;
        asks[reqFit].bindTime = now;
        asks[reqFit].node = int32_t(n);
        out.type = ResultType::Replaced;
        out.ask = reqFit;
        out.node = n;
        out.replaced = phFit;
        return false;
    });
    return out;
}

// RequiredNodePreemptor: lower or equal priority allocations of the node make room for a DaemonSet
// pod, regular ones first, then opted-out ones, then originators; youngest first.
void Partition::requiredNodePreemption(uint32_t app, uint32_t ask, uint32_t node) {
    Ask& req = asks[ask];
    const Res& need = askRes[req.res];
    std::vector<uint32_t> candidates;
    for (uint32_t other = 0; other < asks.size(); ++other) {
        const Ask& o = asks[other];
        if (!o.allocated || o.node != int32_t(node) || o.removed) continue;
        if (o.hasRequiredNode() || o.priority > req.priority || o.preempted) continue;
        if (!need.matchAny(askRes[o.res]) || o.released) continue;
        candidates.push_back(other);
    }
    // In creation order (ask slots are reused), the order the sort below was given by index before.
    std::sort(candidates.begin(), candidates.end(),
              [&](uint32_t x, uint32_t y) { return asks[x].order < asks[y].order; });
    // SortAllocations (its last tie answers "less" both ways, so Go's sort decides).
    auto type = [&](const Ask& o) { return o.originator ? 3 : !o.allowPreemptSelf ? 2 : 1; };
    goStableSort(candidates, [&](int i, int j) {
        const Ask& l = asks[candidates[size_t(i)]];
        const Ask& r = asks[candidates[size_t(j)]];
        if (type(l) != type(r)) return type(l) < type(r);
        if (l.priority != r.priority) return l.priority < r.priority;
        if (l.createTime != r.createTime) return l.createTime > r.createTime;
        const Res& lr = askRes[l.res];
        const Res& rr = askRes[r.res];
        if (!equals(lr, rr)) return !strictlyGreaterThanZero(sub(lr, rr));
        return true;
    });
    Res current = Res::empty();
    std::vector<uint32_t> victims;
    for (uint32_t c : candidates) {
        if (strictlyGreaterThanOrEquals(current, need)) break;
        current.addTo(askRes[asks[c].res]);
        victims.push_back(c);
    }
    revised(req.app);
    if (victims.empty() || !strictlyGreaterThanOrEquals(add(current, nodes[node].available), need)) {
        req.lastFailure = kNoVictimForRequiredNode;
        return;
    }
    for (uint32_t v : victims) {
        asks[v].preempted = true;
        revised(asks[v].app);
        incPreempting(apps[asks[v].app].queue, askRes[asks[v].res]);
        requiredNodeVictims.push_back(v);
    }
    req.triggeredPreemption = true;
    (void)app;
}

} // namespace gantry::engine::yunikorn
