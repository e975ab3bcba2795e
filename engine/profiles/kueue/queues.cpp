#include "profiles/kueue/queues.h"

#include <algorithm>

namespace gantry::engine::kueue {

bool Queues::Order::operator()(uint32_t a, uint32_t b) const {
    const Workload& x = (*wls)[a];
    const Workload& y = (*wls)[b];
    // queueOrderingFunc (pkg/cache/queue/cluster_queue.go): usage first, then the base order.
    if (byUsage && x.afsUsage != y.afsUsage) return x.afsUsage < y.afsUsage;
    if (x.priority != y.priority) return x.priority > y.priority;
    if (x.orderTime != y.orderTime) return x.orderTime < y.orderTime;
    if (x.uid != y.uid) return x.uid < y.uid;
    if (x.jobOrder != y.jobOrder) return x.jobOrder < y.jobOrder;
    return x.task < y.task; // the pods of a job Kueue admits one by one, in the job's order
}

Queues::Queues(const World& w, std::vector<Workload>& wls) : w_(w), wls_(wls) {
    for (size_t i = 0; i < w.cqs.size(); ++i)
        queues_.push_back(
            Queue{std::set<uint32_t, Order>(Order{&wls, w.cqs[i].admissionFairSharing}), {}, -1, 0, -1, {}});
}

bool Queues::backoffExpired(const Workload& wl, double now) const {
    if (wl.spec && wl.spec->requeuedFalse && wl.requeueCount == 0 && wl.requeueAt == kZeroTime) return false;
    return wl.requeueAt == kZeroTime || now >= wl.requeueAt;
}

void Queues::toInadmissible(Queue& q, uint32_t wl) {
    q.inadmissible.insert(wl);
    wls_[wl].queued = true;
    wls_[wl].inadmissible = true;
    if (wls_[wl].requeueAt != kZeroTime) backoff_.insert({wls_[wl].requeueAt, wl});
}

void Queues::push(uint32_t wl, double now) {
    Workload& w = wls_[wl];
    Queue& q = queues_[size_t(w.cq)];
    if (w.queued) return;
    if (!backoffExpired(w, now)) {
        toInadmissible(q, wl);
        return;
    }
    if (w_.cqs[size_t(w.cq)].strategy == Strategy::BestEffortFIFO && q.bulkMoved.count(w.hash)) {
        toInadmissible(q, wl);
        return;
    }
    w.afsUsage = afsUsageOf(w_, w.ns, w.queueName, w.cq).value_or(0);
    q.active.insert(wl);
    w.queued = true;
    w.inadmissible = false;
}

uint32_t Queues::pop(int cq) {
    Queue& q = queues_[size_t(cq)];
    ++q.popCycle;
    if (q.active.empty()) return UINT32_MAX;
    uint32_t head = *q.active.begin();
    if (q.sticky >= 0 && q.active.count(uint32_t(q.sticky))) head = uint32_t(q.sticky);
    q.active.erase(head);
    wls_[head].queued = false;
    return head;
}

void Queues::requeue(uint32_t wl, Requeue reason, double now, bool pendingFlavors,
                     const std::string& pendingReason) {
    Workload& w = wls_[wl];
    Queue& q = queues_[size_t(w.cq)];
    const bool strict = w_.cqs[size_t(w.cq)].strategy == Strategy::StrictFIFO;
    bool immediate;
    if (strict)
        immediate = reason != Requeue::NamespaceMismatch;
    else
        immediate = reason == Requeue::FailedAfterNomination || reason == Requeue::PendingPreemption;
    if (reason == Requeue::PendingPreemption) q.sticky = strict ? -1 : int64_t(wl);
    if (w.queued) return;
    if (backoffExpired(w, now) && (immediate || q.inadmissibleCycle >= q.popCycle || pendingFlavors)) {
        w.afsUsage = afsUsageOf(w_, w.ns, w.queueName, w.cq).value_or(0);
        q.active.insert(wl);
        w.queued = true;
        w.inadmissible = false;
        return;
    }
    toInadmissible(q, wl);
    if (!strict && (reason == Requeue::NoFit || reason == Requeue::PreemptionNoCandidates)) {
        // Scheduling equivalence: workloads shaped like this head cannot be admitted either.
        q.bulkMoved[w.hash] = pendingReason;
        for (auto it = q.active.begin(); it != q.active.end();) {
            const uint32_t other = *it;
            if (wls_[other].hash == w.hash) {
                it = q.active.erase(it);
                wls_[other].queued = false;
                toInadmissible(q, other);
            } else {
                ++it;
            }
        }
    }
}

void Queues::remove(uint32_t wl) {
    Workload& w = wls_[wl];
    if (w.cq < 0) return;
    Queue& q = queues_[size_t(w.cq)];
    q.active.erase(wl);
    q.inadmissible.erase(wl);
    if (w.requeueAt != kZeroTime) backoff_.erase({w.requeueAt, wl});
    if (q.sticky == int64_t(wl)) q.sticky = -1;
    w.queued = false;
    w.inadmissible = false;
}

void Queues::retryInadmissible(int cq, double now) {
    std::vector<int> cqs;
    const int node = w_.cqs[size_t(cq)].node;
    if (w_.nodes[size_t(node)].parent < 0) {
        cqs.push_back(cq);
    } else {
        std::vector<int> stack{w_.root(node)};
        while (!stack.empty()) {
            const int n = stack.back();
            stack.pop_back();
            for (int c : w_.nodes[size_t(n)].childCqs) cqs.push_back(w_.nodes[size_t(c)].cq);
            for (int c : w_.nodes[size_t(n)].childCohorts) stack.push_back(c);
        }
    }
    for (int c : cqs) {
        Queue& q = queues_[size_t(c)];
        q.inadmissibleCycle = q.popCycle;
        q.bulkMoved.clear();
        for (auto it = q.inadmissible.begin(); it != q.inadmissible.end();) {
            Workload& w = wls_[*it];
            if (!namespaceMatches(w_, w_.cqs[size_t(c)], w.ns) || !backoffExpired(w, now)) {
                ++it;
                continue;
            }
            w.afsUsage = afsUsageOf(w_, w.ns, w.queueName, w.cq).value_or(0);
            q.active.insert(*it);
            w.inadmissible = false;
            it = q.inadmissible.erase(it);
        }
    }
}

void Queues::expireBackoff(double now) {
    while (!backoff_.empty() && backoff_.begin()->first <= now) {
        const uint32_t wl = backoff_.begin()->second;
        backoff_.erase(backoff_.begin());
        Workload& w = wls_[wl];
        if (!w.inadmissible || w.cq < 0) continue;
        Queue& q = queues_[size_t(w.cq)];
        q.inadmissible.erase(wl);
        w.afsUsage = afsUsageOf(w_, w.ns, w.queueName, w.cq).value_or(0);
        q.active.insert(wl);
        w.inadmissible = false;
    }
}

void Queues::reorder(int cq) {
    if (cq < 0 || !w_.cqs[size_t(cq)].admissionFairSharing) return;
    Queue& q = queues_[size_t(cq)];
    // The keys change: out of the set first, then back in.
    std::vector<uint32_t> active(q.active.begin(), q.active.end());
    q.active.clear();
    for (uint32_t wl : active) {
        Workload& w = wls_[wl];
        w.afsUsage = afsUsageOf(w_, w.ns, w.queueName, w.cq).value_or(0);
    }
    q.active.insert(active.begin(), active.end());
}

double Queues::nextBackoff() const {
    return backoff_.empty() ? std::numeric_limits<double>::infinity() : backoff_.begin()->first;
}

std::vector<uint32_t> Queues::active(int cq) const {
    const Queue& q = queues_[size_t(cq)];
    return std::vector<uint32_t>(q.active.begin(), q.active.end());
}

std::vector<uint32_t> Queues::inadmissible(int cq) const {
    const Queue& q = queues_[size_t(cq)];
    return std::vector<uint32_t>(q.inadmissible.begin(), q.inadmissible.end());
}

size_t Queues::pending(int cq) const {
    return queues_[size_t(cq)].active.size() + queues_[size_t(cq)].inadmissible.size();
}

} // namespace gantry::engine::kueue
