// backfill: best-effort tasks (no requests) of admitted jobs, pending or pipelined, are placed on the
// best node that passes the predicates, without a resource check; a job whose tasks make it ready is
// dispatched.
#include "profiles/volcano/actions/actions.h"
#include "profiles/volcano/framework/node_search.h"
#include "profiles/volcano/framework/queue_util.h"
#include "profiles/volcano/framework/statement.h"

#include <map>

namespace gantry::engine::actions {

namespace {

class Backfill : public Action {
  public:
    void execute(Session& ssn) override {
        NodeSearch search(ssn);
        std::vector<Candidate> passing;
        for (uint32_t t : pickUpPendingTasks(ssn)) {
            const uint32_t j = ssn.jobOf(t);
            search.newScope();
            if (auto err = ssn.prePredicate(t)) {
                FitErrors fe;
                fe.nodes = uint32_t(ssn.state.nodes.size());
                fe.reasons[ssn.reasonId(*err)] = fe.nodes;
                ssn.jobs[j].nodesFitErrors[t] = std::move(fe);
                continue;
            }
            FitErrors fe;
            search.predicateNodes(t, ssn.clusterTopHyperNode(), PredicateMode::Backfill, passing, fe);
            if (passing.empty()) {
                ssn.jobs[j].nodesFitErrors[t] = std::move(fe);
                continue;
            }
            const int32_t node = search.bestNode(t, passing);
            if (node < 0) continue;
            ssn.allocate(t, uint32_t(node));
        }
    }

  private:
    std::vector<uint32_t> pickUpPendingTasks(Session& ssn) {
        auto taskLess = [&](uint32_t a, uint32_t b) { return ssn.taskOrderLess(a, b); };
        auto jobLess = [&](uint32_t a, uint32_t b) { return ssn.jobOrderLess(a, b); };
        auto queueLess = [&](uint32_t a, uint32_t b) { return ssn.queueOrderLess(a, b); };
        PriorityQueue<decltype(queueLess)> queues(queueLess);
        std::map<uint32_t, PriorityQueue<decltype(jobLess)>> jobs;
        std::map<uint32_t, PriorityQueue<decltype(taskLess)>> tasks;
        for (uint32_t j : ssn.sessionJobs) {
            if (ssn.isPending(j)) continue;
            if (ssn.jobValid(j)) continue;
            for (uint32_t t : ssn.state.jobs[j].tasks) {
                const auto& task = ssn.state.tasks[t];
                if (!task.ours || !ssn.state.shapeOf(t).bestEffort) continue;
                if (task.status == TaskStatus::Pending) {
                    if (ssn.state.schedulingGated(t)) continue;
                    tasks.try_emplace(j, taskLess).first->second.push(t);
                } else if (task.status == TaskStatus::Pipelined) {
                    Statement(ssn).unpipeline(t);
                    tasks.try_emplace(j, taskLess).first->second.push(t);
                }
            }
            if (!tasks.count(j)) continue;
            const uint32_t q = ssn.queueOf(j);
            auto [it, inserted] = jobs.try_emplace(q, jobLess);
            if (inserted) queues.push(q);
            it->second.push(j);
        }
        std::vector<uint32_t> out;
        while (!queues.empty()) {
            const uint32_t q = queues.pop();
            auto& js = jobs.at(q);
            while (!js.empty()) {
                auto& ts = tasks.at(js.pop());
                while (!ts.empty()) out.push_back(ts.pop());
            }
        }
        return out;
    }
};

} // namespace

ActionDescriptor backfillAction() {
    return {"backfill", [] { return std::make_unique<Backfill>(); }, ActionTraits{}};
}

} // namespace gantry::engine::actions
