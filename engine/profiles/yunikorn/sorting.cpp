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
    std::vector<uint32_t> out;
    const Queue& parent = queues[q];
    if (parent.leaf) return out;
    for (uint32_t c : parent.children)
        if (strictlyGreaterThanZero(queues[c].pending)) out.push_back(c);
    if (out.size() < 2) return out;
    std::vector<Res> fairMax; // by position before sorting
    for (uint32_t c : out) fairMax.push_back(fairMaxResource(c));
    auto fairness = [&](int i, int j) {
        const Queue& l = queues[out[size_t(i)]];
        const Queue& r = queues[out[size_t(j)]];
        return compUsageRatioSeparately(l.allocated, l.guaranteed, fairMax[size_t(i)], r.allocated,
                                        r.guaranteed, fairMax[size_t(j)]);
    };
    auto morePending = [&](int i, int j) {
        return strictlyGreaterThan(sub(queues[out[size_t(i)]].pending, queues[out[size_t(j)]].pending),
                                   Res::empty());
    };
    auto priority = [&](int i) { return currentPriority(queues[out[size_t(i)]]); };
    if (parent.prioritySortEnabled) {
        goStableSort(out, [&](int i, int j) {
            const int32_t lp = priority(i), rp = priority(j);
            if (lp != rp) return lp > rp;
            const int comp = fairness(i, j);
            return comp == 0 ? morePending(i, j) : comp < 0;
        });
    } else {
        goStableSort(out, [&](int i, int j) {
            const int comp = fairness(i, j);
            if (comp != 0) return comp < 0;
            const int32_t lp = priority(i), rp = priority(j);
            if (lp != rp) return lp > rp;
            return morePending(i, j);
        });
    }
    return out;
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
