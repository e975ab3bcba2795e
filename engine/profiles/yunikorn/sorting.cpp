// The order the core visits queues and applications in (yunikorn-core objects/sorters.go): child
// queues by priority and fair share (usage over guaranteed, else over the fair max), applications
// fifo (submission time) or fair (usage over the queue's guaranteed), each with or without
// priority first. The comparisons are not always a strict weak order (the pending tie-break), so
// the sort is Go's own stable sort, step for step, with a less(i, j) over positions: upstream's
// queue comparison reads each queue's fair max by position in a list the sort does not swap, and
// that is kept.
#include "profiles/yunikorn/go_sort.h"
#include "profiles/yunikorn/partition.h"

namespace gantry::engine::yunikorn {

std::vector<uint32_t> Partition::sortQueues(uint32_t q) const {
    std::vector<uint32_t> children;
    const Queue& parent = queues[q];
    if (parent.leaf) return children;
    for (uint32_t c : parent.children)
        if (strictlyGreaterThanZero(queues[c].pending)) children.push_back(c);
    if (children.size() < 2) return children;
    std::vector<Res> fairMax; // by position before sorting
    for (uint32_t c : children) fairMax.push_back(fairMaxResource(c));
    // Where the children share one fair max, which position reads which does not matter: each
    // child's share is worked out once.
    bool oneFairMax = true;
    for (const Res& max : fairMax) oneFairMax = oneFairMax && equals(max, fairMax.front());
    std::vector<double> share; // by child, with one fair max
    if (oneFairMax)
        for (uint32_t c : children)
            share.push_back(fairShare(queues[c].allocated, queues[c].guaranteed, fairMax[0]));
    // The sort moves the children's positions before sorting.
    std::vector<uint32_t> order(children.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    auto child = [&](int i) -> const Queue& { return queues[children[order[size_t(i)]]]; };
    auto fairness = [&](int i, int j) { // compUsageRatioSeparately
        const double l = oneFairMax ? share[order[size_t(i)]]
                                    : fairShare(child(i).allocated, child(i).guaranteed, fairMax[size_t(i)]);
        const double r = oneFairMax ? share[order[size_t(j)]]
                                    : fairShare(child(j).allocated, child(j).guaranteed, fairMax[size_t(j)]);
        return l > r ? 1 : l < r ? -1 : 0;
    };
    auto morePending = [&](int i, int j) {
        return strictlyGreaterThan(sub(child(i).pending, child(j).pending), Res::empty());
    };
    auto priority = [&](int i) { return currentPriority(child(i)); };
    if (parent.prioritySortEnabled) {
        goStableSort(order, [&](int i, int j) {
            const int32_t lp = priority(i), rp = priority(j);
            if (lp != rp) return lp > rp;
            const int comp = fairness(i, j);
            return comp == 0 ? morePending(i, j) : comp < 0;
        });
    } else {
        goStableSort(order, [&](int i, int j) {
            const int comp = fairness(i, j);
            if (comp != 0) return comp < 0;
            const int32_t lp = priority(i), rp = priority(j);
            if (lp != rp) return lp > rp;
            return morePending(i, j);
        });
    }
    for (uint32_t& i : order) i = children[i];
    return order;
}

const std::vector<uint32_t>& Partition::sortedApplications(uint32_t q) {
    Queue& queue = queues[q];
    if (queue.sortedAt != queue.appsRevision) {
        queue.sortedApps = sortApplications(q, false);
        queue.sortedAt = queue.appsRevision;
    }
    return queue.sortedApps;
}

std::vector<uint32_t> Partition::sortApplications(uint32_t q, bool withPlaceholdersOnly) const {
    std::vector<uint32_t> out;
    const Queue& queue = queues[q];
    if (!queue.leaf) return out;
    for (uint32_t a : queue.apps) {
        if (withPlaceholdersOnly && !apps[a].hasPlaceholderAlloc) continue;
        if (strictlyGreaterThanZero(apps[a].pending)) out.push_back(a);
    }
    if (out.size() < 2) return out;
    const Res& total = queue.guaranteed;
    auto app = [&](int i) -> const Application& { return apps[out[size_t(i)]]; };
    if (queue.sortType == SortPolicy::Fair) {
        if (queue.prioritySortEnabled)
            goStableSort(out, [&](int i, int j) {
                if (app(i).askMaxPriority != app(j).askMaxPriority)
                    return app(i).askMaxPriority > app(j).askMaxPriority;
                return compUsageRatio(app(i).allocated, app(j).allocated, total) < 0;
            });
        else
            goStableSort(out, [&](int i, int j) {
                if (int comp = compUsageRatio(app(i).allocated, app(j).allocated, total); comp != 0)
                    return comp < 0;
                return app(i).askMaxPriority > app(j).askMaxPriority;
            });
    } else {
        if (queue.prioritySortEnabled)
            goStableSort(out, [&](int i, int j) {
                if (app(i).askMaxPriority != app(j).askMaxPriority)
                    return app(i).askMaxPriority > app(j).askMaxPriority;
                return app(i).submissionTime < app(j).submissionTime;
            });
        else
            goStableSort(out, [&](int i, int j) {
                if (app(i).submissionTime != app(j).submissionTime)
                    return app(i).submissionTime < app(j).submissionTime;
                return app(i).askMaxPriority > app(j).askMaxPriority;
            });
    }
    return out;
}

} // namespace gantry::engine::yunikorn
