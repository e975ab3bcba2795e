// enqueue: admits Pending PodGroups to their queues (phase Inqueue), queue by queue in queue order,
// job by job in job order, when no plugin rejects them (or when they declare no minResources).
#include "profiles/volcano/actions/actions.h"
#include "profiles/volcano/framework/queue_util.h"

namespace gantry::engine::actions {

namespace {

class Enqueue : public Action {
  public:
    void execute(Session& ssn) override {
        auto queueLess = [&](uint32_t a, uint32_t b) { return ssn.queueOrderLess(a, b); };
        auto jobLess = [&](uint32_t a, uint32_t b) { return ssn.jobOrderLess(a, b); };
        PriorityQueue<decltype(queueLess)> queues(queueLess);
        std::vector<bool> queued(ssn.state.queues.size(), false);
        std::map<uint32_t, PriorityQueue<decltype(jobLess)>> jobsByQueue;
        for (uint32_t j : ssn.sessionJobs) {
            const uint32_t q = ssn.queueOf(j);
            if (!queued[q]) {
                queued[q] = true;
                queues.push(q);
            }
            if (ssn.isPending(j)) jobsByQueue.try_emplace(q, jobLess).first->second.push(j);
        }
        while (!queues.empty()) {
            const uint32_t q = queues.pop();
            auto it = jobsByQueue.find(q);
            if (it == jobsByQueue.end() || it->second.empty()) continue;
            const uint32_t j = it->second.pop();
            if (!ssn.state.jobs[j].hasMinResources || ssn.jobEnqueueable(j)) {
                ssn.jobEnqueued(j);
                ssn.jobs[j].phase = PodGroupPhase::Inqueue;
                ssn.jobs[j].jobFitError.clear();
            }
            queues.push(q);
        }
    }
};

} // namespace

ActionDescriptor enqueueAction() {
    return {"enqueue", [] { return std::make_unique<Enqueue>(); }, ActionTraits{}};
}

} // namespace gantry::engine::actions
