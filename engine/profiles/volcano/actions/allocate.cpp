// allocate: queue by queue (queue order, overused queues skipped), job by job (job order), task by
// task (task order), find the nodes that pass the predicates, prefer those with idle resources over
// those where resources are being released, and take the best-scoring one. A job's placements form
// one statement, committed only when the job is ready (gang), kept but not committed when it is only
// pipelined, and discarded otherwise. Jobs with a network-topology constraint are placed inside one
// HyperNode: every HyperNode of the lowest eligible tier is tried and the best-scoring fit wins.
#include "model/go_text.h"
#include "profiles/volcano/actions/actions.h"
#include "profiles/volcano/framework/node_search.h"
#include "profiles/volcano/framework/queue_util.h"
#include "profiles/volcano/framework/statement.h"

#include <algorithm>
#include <limits>
#include <map>

namespace gantry::engine::actions {

namespace {

class Allocate : public Action {
  public:
    void execute(Session& ssn) override {
        ssn_ = &ssn;
        search_ = std::make_unique<NodeSearch>(ssn);
        if (auto v = ssn.actionArgument("allocate", "predicateErrorCacheEnable"))
            if (auto b = parseGoBool(trim(*v))) errorCache_ = *b;
        search_->setErrorCache(errorCache_);
        run();
    }

  private:
    using TaskLess = std::function<bool(uint32_t, uint32_t)>;
    using TaskQueue = PriorityQueue<TaskLess>;

    void run() {
        Session& ssn = *ssn_;
        TaskLess taskLess = [this](uint32_t a, uint32_t b) { return ssn_->taskOrderLess(a, b); };
        auto queueLess = [this](uint32_t a, uint32_t b) { return ssn_->queueOrderLess(a, b); };
        auto jobLess = [this](uint32_t a, uint32_t b) { return ssn_->jobOrderLess(a, b); };
        PriorityQueue<decltype(queueLess)> queues(queueLess);
        std::map<uint32_t, PriorityQueue<decltype(jobLess)>> jobsByQueue;
        std::map<uint32_t, TaskQueue> worksheets; // built at a job's first turn (parked jobs never get one)
        const bool enqueueOn = ssn.enabledActions.count("enqueue") > 0;
        auto toPlace = [&](uint32_t t) {
            const auto& task = ssn.state.tasks[t];
            // Best-effort pods are backfill's job; gated pods wait for their gates (TaskInfo.SchGated).
            return task.status == TaskStatus::Pending && task.ours && !ssn.state.shapeOf(t).vres.isEmpty() &&
                   !ssn.state.schedulingGated(t);
        };

        for (uint32_t j : ssn.sessionJobs) {
            if (ssn.isPending(j)) {
                if (enqueueOn) continue;
                ssn.jobs[j].phase = PodGroupPhase::Inqueue;
            }
            if (auto vr = ssn.jobValid(j)) {
                ssn.jobs[j].jobFitError = vr->message;
                continue;
            }
            const auto& jobTasks = ssn.state.jobs[j].tasks;
            if (std::none_of(jobTasks.begin(), jobTasks.end(), toPlace)) continue;
            // Parked from the start, parked at its turn: allocate only takes resources, so no
            // more of its pods fit then. Left out of the job order, it changes no other job's
            // turn: a job's place in the order (priority, readiness, share) does not change while
            // it waits, so the order pops the lowest each time whatever else it holds.
            if (ssn.parkedNow(j)) continue;
            const uint32_t q = ssn.queueOf(j);
            auto [it, inserted] = jobsByQueue.try_emplace(q, jobLess);
            if (inserted) queues.push(q);
            it->second.push(j);
        }

        while (!queues.empty()) {
            const uint32_t q = queues.pop();
            if (ssn.overused(q)) {
                for (uint32_t j : jobsByQueue.at(q).items())
                    if (ssn.jobs[j].jobFitError.empty())
                        ssn.jobs[j].jobFitError = "queue " + ssn.state.queues[q].name + " is overused";
                continue;
            }
            auto& jobs = jobsByQueue.at(q);
            if (jobs.empty()) continue;
            const uint32_t j = jobs.pop();
            if (ssn.parkedNow(j)) { // it would fail: trying would only undo what it placed
                queues.push(q);
                continue;
            }
            auto sheet = worksheets.find(j);
            if (sheet == worksheets.end()) {
                TaskQueue pending(taskLess);
                for (uint32_t t : ssn.state.jobs[j].tasks)
                    if (toPlace(t)) pending.push(t);
                sheet = worksheets.emplace(j, std::move(pending)).first;
            }
            TaskQueue& tasks = sheet->second;
            if (ssn.jobs[j].hardTopology) {
                auto stmt = allocateForJob(j, tasks);
                if (stmt && ssn.jobReady(j)) {
                    stmt->commit();
                    updateDecisionToJob(j);
                    if (!tasks.empty()) jobs.push(j);
                }
            } else {
                auto stmt = allocateForTasks(j, tasks, ssn.clusterTopHyperNode());
                if (stmt && ssn.jobReady(j)) {
                    stmt->commit();
                    if (!tasks.empty()) jobs.push(j);
                }
            }
            queues.push(q);
        }
    }

    // allocateResourcesForTasks
    std::unique_ptr<Statement> allocateForTasks(uint32_t j, TaskQueue& tasks, int32_t hyperNode) {
        Session& ssn = *ssn_;
        const uint32_t q = ssn.queueOf(j);
        if (ssn.state.hyperNodes[size_t(hyperNode)].nodes.empty()) return nullptr;
        auto stmt = std::make_unique<Statement>(ssn);
        search_->newScope();
        auto& js = ssn.jobs[j];
        const bool topology = ssn.state.jobs[j].topology.mode != NetworkTopologyConstraint::Mode::None;
        int32_t allocatedHyperNode = ssn.jobs[j].subJobAllocatedHyperNode;
        while (!tasks.empty()) {
            const uint32_t t = tasks.pop();
            if (!ssn.allocatable(q, t)) {
                if (js.jobFitError.empty())
                    js.jobFitError = "Queue " + ssn.state.queues[q].name +
                                     " is overused when considering task " + ssn.state.taskKey(t) +
                                     " (its share would be exceeded)";
                continue;
            }
            if (ssn.taskHasFitErrors(j, t)) {
                FitErrors fe;
                fe.error = "Task " + ssn.state.strings.str(ssn.state.tasks[t].name) + " with role spec " +
                           ssn.state.roles[ssn.state.tasks[t].role] + " has already predicated failed, skip";
                js.nodesFitErrors[t] = std::move(fe);
                continue;
            }
            if (auto err = ssn.prePredicate(t)) {
                FitErrors fe;
                const uint32_t count = uint32_t(ssn.state.hyperNodes[size_t(hyperNode)].nodes.size());
                fe.nodes = count;
                fe.reasons[ssn.reasonId(*err)] = count;
                js.nodesFitErrors[t] = std::move(fe);
                if (ssn.needContinueAllocating(j)) continue;
                break;
            }
            FitErrors fe;
            search_->predicateNodes(t, hyperNode, PredicateMode::Allocate, passing_, fe);
            if (passing_.empty()) {
                if (hyperNode != ssn.clusterTopHyperNode())
                    fe.hyperNode = ssn.state.hyperNodes[size_t(hyperNode)].name;
                js.nodesFitErrors[t] = std::move(fe);
                if (ssn.needContinueAllocating(j)) continue;
                break;
            }
            if (topology) ssn.taskJobHyperNode[t] = allocatedHyperNode;
            const int32_t best = search_->prioritizeNodes(t, passing_);
            if (best < 0) continue;
            search_->beforePlace(uint32_t(best));
            if (search_->fitsIdle(t, uint32_t(best)))
                stmt->allocate(t, uint32_t(best));
            else if (search_->fitsFutureIdle(t, uint32_t(best)))
                stmt->pipeline(t, uint32_t(best));
            if (topology) {
                const int32_t h = ssn.lowestHyperNodeOf(uint32_t(best));
                if (h >= 0)
                    allocatedHyperNode = allocatedHyperNode < 0 ? h : ssn.lcaHyperNode(h, allocatedHyperNode);
            }
            if (ssn.jobReady(j)) break;
        }
        if (ssn.jobReady(j) || ssn.jobPipelined(j)) return stmt;
        stmt->discard();
        return nullptr;
    }

    struct Solution {
        std::vector<Statement::Operation> ops;
        TaskQueue tasks;
        double score = 0;
    };

    // allocateForJob: try the HyperNodes of each gradient, keep the best solution.
    std::unique_ptr<Statement> allocateForJob(uint32_t j, TaskQueue& tasks) {
        Session& ssn = *ssn_;
        auto gradients = ssn.hyperNodeGradient(j, ssn.clusterTopHyperNode(), Purpose::Allocate, false);
        for (auto& gradient : gradients) {
            std::map<std::string, Solution> solutions;
            for (int32_t hn : gradient) {
                ssn.jobs[j].jobFitError.clear();
                ssn.jobs[j].nodesFitErrors.clear();
                TaskQueue copy = tasks;
                const int32_t savedSub = ssn.jobs[j].subJobAllocatedHyperNode;
                std::vector<std::unique_ptr<Statement>> stmts;
                double score = 0;
                bool again = true;
                while (again) {
                    again = false;
                    double s = 0;
                    auto stmt = allocateForSubJob(j, copy, hn, &s);
                    if (stmt && !stmt->empty()) {
                        stmts.push_back(std::move(stmt));
                        score += s;
                        if (!copy.empty()) again = true;
                        if (ssn.jobReady(j)) again = false;
                    }
                }
                ssn.jobs[j].subJobAllocatedHyperNode = savedSub;
                std::vector<Statement::Operation> merged;
                for (const auto& st : stmts)
                    merged.insert(merged.end(), st->operations().begin(), st->operations().end());
                if (!merged.empty() && (ssn.jobReady(j) || ssn.jobPipelined(j)))
                    solutions.emplace(ssn.state.hyperNodes[size_t(hn)].name, Solution{merged, copy, score});
                for (auto& st : stmts) st->discard();
            }
            if (solutions.empty()) continue;
            const Solution* best = nullptr;
            std::string bestName;
            for (const auto& [name, sol] : solutions)
                if (!best || sol.score > best->score) {
                    best = &sol;
                    bestName = name;
                }
            auto final = std::make_unique<Statement>(ssn);
            final->recover(best->ops);
            tasks = best->tasks;
            jobDecision_[j] = hyperNodeIndex(bestName);
            return final;
        }
        return nullptr;
    }

    std::unique_ptr<Statement> allocateForSubJob(uint32_t j, TaskQueue& tasks, int32_t hnForJob,
                                                 double* score) {
        Session& ssn = *ssn_;
        if (tasks.empty()) return nullptr;
        auto gradients = subJobGradient(j, tasks, hnForJob);
        for (auto& gradient : gradients) {
            std::map<int32_t, Solution> solutions;
            for (int32_t hn : gradient) {
                ssn.jobs[j].nodesFitErrors.clear();
                TaskQueue copy = tasks;
                auto stmt = allocateForTasks(j, copy, hn);
                if (stmt && !stmt->empty()) {
                    solutions.emplace(hn, Solution{stmt->operations(), copy, 0});
                    stmt->discard();
                }
            }
            if (solutions.empty()) continue;
            std::vector<int32_t> candidates;
            for (const auto& [hn, sol] : solutions) candidates.push_back(hn);
            auto scores = ssn.hyperNodeOrder(j, candidates);
            int32_t best = -1;
            double bestScore = -std::numeric_limits<double>::infinity();
            for (int32_t hn : candidates) {
                const double s = scores[hn];
                if (s > bestScore ||
                    (s == bestScore && best >= 0 &&
                     ssn.state.hyperNodes[size_t(hn)].name < ssn.state.hyperNodes[size_t(best)].name)) {
                    bestScore = s;
                    best = hn;
                }
            }
            auto final = std::make_unique<Statement>(ssn);
            final->recover(solutions.at(best).ops);
            ssn.jobs[j].subJobAllocatedHyperNode =
                ssn.lcaHyperNode(ssn.jobs[j].subJobAllocatedHyperNode, best);
            // Recorded per HyperNode the job was tried in (recorder.SaveSubJobDecision).
            subJobDecision_[{j, hnForJob}] = ssn.jobs[j].subJobAllocatedHyperNode;
            tasks = solutions.at(best).tasks;
            *score = bestScore;
            return final;
        }
        return nullptr;
    }

    std::vector<std::vector<int32_t>> subJobGradient(uint32_t j, const TaskQueue&, int32_t hn) {
        return ssn_->hyperNodeGradient(j, hn, Purpose::Allocate, true);
    }

    void updateDecisionToJob(uint32_t j) {
        auto it = jobDecision_.find(j);
        if (it == jobDecision_.end()) return;
        ssn_->jobs[j].allocatedHyperNode = ssn_->lcaHyperNode(ssn_->jobs[j].allocatedHyperNode, it->second);
        auto sub = subJobDecision_.find({j, it->second});
        if (sub != subJobDecision_.end())
            ssn_->jobs[j].subJobAllocatedHyperNode =
                ssn_->lcaHyperNode(ssn_->jobs[j].subJobAllocatedHyperNode, sub->second);
    }

    int32_t hyperNodeIndex(const std::string& name) const {
        for (size_t i = 0; i < ssn_->state.hyperNodes.size(); ++i)
            if (ssn_->state.hyperNodes[i].name == name) return int32_t(i);
        return -1;
    }

    Session* ssn_ = nullptr;
    std::unique_ptr<NodeSearch> search_;
    bool errorCache_ = true;
    std::vector<Candidate> passing_;
    std::map<uint32_t, int32_t> jobDecision_;
    std::map<std::pair<uint32_t, int32_t>, int32_t> subJobDecision_; // (job, HyperNode tried) -> sub-job's
};

} // namespace

ActionDescriptor allocateAction() {
    return {"allocate", [] { return std::make_unique<Allocate>(); }, ActionTraits{}};
}

} // namespace gantry::engine::actions
