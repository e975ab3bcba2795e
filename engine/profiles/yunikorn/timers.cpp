// What the clock does to the core: placeholder timeouts (Application.timeoutPlaceholderProcessing)
// and the ages and deadlines after which a cycle may decide differently.
#include "profiles/yunikorn/partition.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gantry::engine::yunikorn {

// Placeholders not replaced in time: a running application releases the rest; one still waiting
// for its gang resumes without it (Soft) or fails (Hard), releasing every placeholder and ask.
void Partition::timeoutPlaceholders(uint32_t app, std::vector<uint32_t>* released,
                                    std::vector<uint32_t>* failed) {
    Application& a = apps[app];
    a.placeholderTimer = kNever;
    revised(a);
    if ((a.state == AppState::Running || a.state == AppState::Completing) &&
        !isZero(a.allocatedPlaceholder)) {
        for (uint32_t ask : a.allocations) {
            Ask& k = asks[ask];
            if (!k.placeholder || k.released || k.preempted) continue;
            k.released = true;
            released->push_back(ask);
        }
        return;
    }
    if (a.hardGang) {
        failApplication(app);
        failed->push_back(app);
    } else if (a.state == AppState::New || a.state == AppState::Accepted) {
        transition(app, AppState::Resuming);
    }
    for (uint32_t ask : a.allocations) {
        Ask& k = asks[ask];
        if (k.preempted || k.released) continue;
        k.released = true;
        released->push_back(ask);
    }
    std::vector<uint32_t> pending;
    for (uint32_t r : a.requests)
        if (!asks[r].allocated) pending.push_back(r);
    for (uint32_t r : pending) {
        Ask& k = asks[r];
        if (k.taskGroup >= 0 && size_t(k.taskGroup) < a.placeholderData.size())
            ++apps[app].placeholderData[size_t(k.taskGroup)].timedOut;
        removeAsk(r);
    }
}

void Partition::watchClock(uint32_t app) {
    if (apps[app].clockWatched) return;
    apps[app].clockWatched = true;
    clockApps_.push_back(app);
}

void Partition::fireTimers(double now, std::vector<uint32_t>* released, std::vector<uint32_t>* failedApps) {
    // In application order (of creation: slots are reused), as the core's timers fire here.
    std::sort(clockApps_.begin(), clockApps_.end(),
              [&](uint32_t x, uint32_t y) { return apps[x].seq < apps[y].seq; });
    for (size_t i = 0, n = clockApps_.size(); i < n; ++i) {
        const uint32_t app = clockApps_[i]; // a timeout may watch more applications
        if (!apps[app].finished() && apps[app].placeholderTimer != kNever &&
            now >= apps[app].placeholderTimer)
            timeoutPlaceholders(app, released, failedApps);
    }
    // Nothing pending and no timer to come: the clock concerns the application again only once
    // one of those is added (watchClock).
    std::erase_if(clockApps_, [&](uint32_t app) {
        Application& a = apps[app];
        const bool watched =
            !a.finished() && (a.placeholderTimer != kNever || a.backoffDeadline > now || !isZero(a.pending));
        a.clockWatched = watched;
        return !watched;
    });
}

double Partition::nextClockChange(double from) const {
    double next = std::numeric_limits<double>::infinity();
    auto consider = [&](double t) {
        if (t > from && t < next) next = t;
    };
    for (uint32_t app : clockApps_) {
        const Application& a = apps[app];
        if (a.finished()) continue;
        if (a.placeholderTimer != kNever) consider(a.placeholderTimer);
        if (a.backoffDeadline != kNever) consider(a.backoffDeadline);
        if (isZero(a.pending)) continue;
        const Queue& q = queues[a.queue];
        for (uint32_t r : a.sortedRequests) {
            const Ask& k = asks[r];
            if (k.allocated || k.removed) continue;
            // askAge > reservationDelay: the first instant strictly after.
            consider(std::nextafter(k.createTime + timings.reservationDelay,
                                    std::numeric_limits<double>::infinity()));
            if (k.allowPreemptOther && !k.triggeredPreemption) {
                consider(k.createTime + q.preemptionDelay);
                if (k.preemptCheckTime != kNever)
                    consider(k.preemptCheckTime + timings.preemptAttemptFrequency);
            }
        }
        for (const Reservation& r : a.reservations)
            consider(std::nextafter(r.createTime + 2 * timings.reservationWaitTimeout,
                                    std::numeric_limits<double>::infinity()));
    }
    return next;
}

} // namespace gantry::engine::yunikorn
