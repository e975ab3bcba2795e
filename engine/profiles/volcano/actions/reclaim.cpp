// reclaim: starving jobs of queues below their fair share take resources back from other,
// reclaimable queues: on the first node (by name) where the reclaimable victims (Running,
// preemptable, of another queue) free enough for the task, the victims are evicted and the task is
// pipelined there. A job's evictions are committed only if the job ends up pipelined.
#include "model/go_text.h"
#include "profiles/volcano/actions/actions.h"
#include "profiles/volcano/framework/node_search.h"
#include "profiles/volcano/framework/queue_util.h"
#include "profiles/volcano/framework/statement.h"

#include <algorithm>
#include <map>

namespace gantry::engine::actions {

namespace {

class Reclaim : public Action {
  public:
    void execute(Session& ssn) override {
        ssn_ = &ssn;
        search_ = std::make_unique<NodeSearch>(ssn);
        if (auto v = ssn.actionArgument("reclaim", "predicateErrorCacheEnable"))
            if (auto b = parseGoBool(trim(*v))) search_->setErrorCache(*b);
        findBounds(ssn);
        indexed_ = false;
        auto queueLess = [&](uint32_t a, uint32_t b) { return ssn.queueOrderLess(a, b); };
        auto jobLess = [&](uint32_t a, uint32_t b) { return ssn.jobOrderLess(a, b); };
        auto taskLess = [&](uint32_t a, uint32_t b) { return ssn.taskOrderLess(a, b); };
        PriorityQueue<decltype(queueLess)> queues(queueLess);
        // Each queue is pushed at its first job (by index) that is neither pending nor invalid.
        // Pushes follow that order exactly: victims' queues lose share while they wait in the
        // heap, so the order in which they went in can decide the order in which they come out.
        std::vector<uint32_t> first(ssn.state.queues.size(), UINT32_MAX);
        if (const SettledJobs* settled = ssn.settled())
            for (uint32_t q = 0; q < first.size(); ++q) first[q] = settled->firstSettled(q);
        std::vector<uint32_t> starving;
        for (uint32_t j : ssn.sessionJobs) {
            if (ssn.isPending(j)) continue;
            if (ssn.jobValid(j)) continue;
            const uint32_t q = ssn.queueOf(j);
            first[q] = std::min(first[q], j);
            if (ssn.jobStarving(j)) starving.push_back(j);
        }
        // Every starving job would be passed over at its turn (below) as long as nothing changes,
        // and passing over changes nothing: the action would only pop its orders.
        std::vector<int8_t> victims(ssn.state.queues.size(), -1); // victimsPossible, by queue
        auto passedOver = [&](uint32_t j) {
            if (perReclaimer_) return !victimsPossibleFor(j) && ssn.cannotStart(j);
            int8_t& v = victims[ssn.queueOf(j)];
            if (v < 0) v = victimsPossibleFor(j);
            return !v && ssn.cannotStart(j);
        };
        if (std::all_of(starving.begin(), starving.end(), passedOver)) return;
        std::map<uint32_t, PriorityQueue<decltype(jobLess)>> preemptors;
        for (uint32_t j : starving) preemptors.try_emplace(ssn.queueOf(j), jobLess).first->second.push(j);
        std::vector<std::pair<uint32_t, uint32_t>> order; // first job, queue
        for (uint32_t q = 0; q < first.size(); ++q)
            if (first[q] != UINT32_MAX) order.emplace_back(first[q], q);
        std::sort(order.begin(), order.end());
        for (const auto& [j, q] : order) queues.push(q);
        while (!queues.empty()) {
            const uint32_t q = queues.pop();
            if (ssn.overused(q)) continue;
            for (;;) {
                auto it = preemptors.find(q);
                if (it == preemptors.end() || it->second.empty()) break;
                auto& jobsQ = it->second;
                const uint32_t j = jobsQ.pop();
                // Placed only where its pods fit as things are, too few of them for it to be
                // pipelined: its statement would be discarded.
                if (!victimsPossibleFor(j) && ssn.cannotStart(j)) {
                    if (!jobsQ.empty()) queues.push(q);
                    continue;
                }
                // Its pending pods are those it had when the action began (until its turn only
                // its running pods may go), and the task order is fixed.
                PriorityQueue<decltype(taskLess)> ts(taskLess);
                for (uint32_t t : ssn.state.jobs[j].tasks)
                    if (ssn.state.tasks[t].status == TaskStatus::Pending && ssn.state.tasks[t].ours &&
                        !ssn.state.schedulingGated(t))
                        ts.push(t);
                Statement stmt(ssn);
                fruitless_.clear();
                for (;;) {
                    if (!ssn.jobStarving(j)) break;
                    if (ts.empty()) break;
                    const uint32_t t = ts.pop();
                    if (ssn.state.shapeOf(t).preemptNever) continue;
                    if (!ssn.preemptive(q, {t})) continue;
                    if (ssn.prePredicate(t)) continue;
                    if (knownFruitless(t, j)) continue;
                    if (reclaimForTask(stmt, t, j))
                        fruitless_.clear();
                    else if (ssn.options.useNodeIndex)
                        fruitless_.push_back(t);
                }
                if (ssn.jobPipelined(j))
                    stmt.commit();
                else
                    stmt.discard();
                if (!jobsQ.empty()) queues.push(q);
            }
        }
    }

  private:
    // For each tier whose plugins may name victims, the plugin that bounds what the tier decides:
    // a tier decides with victims its last voting plugin names (Session::tierVictims), and with
    // at most two voters, victims the first names too. Bounded only when each such plugin says
    // which pods it may take (reclaimsTask, else reclaimsFrom by queue; the plugins that do always
    // vote), and with the node index on (the reference session visits every node).
    void findBounds(const Session& ssn) {
        bounding_.clear();
        bounded_ = ssn.options.useNodeIndex;
        byQueue_ = true;
        perReclaimer_ = false;
        const auto& slots = ssn.pluginSlots;
        auto bounds = [](const PluginSlot* s) { return s->reclaimsFrom || s->reclaimsTask; };
        for (size_t i = 0; i < slots.size() && bounded_;) {
            std::vector<const PluginSlot*> voters;
            const int tier = slots[i].tier;
            for (; i < slots.size() && slots[i].tier == tier; ++i)
                if (slots[i].reclaimableOn && slots[i].reclaimable) voters.push_back(&slots[i]);
            if (voters.empty()) continue;
            if (bounds(voters.back()))
                bounding_.push_back(voters.back());
            else if (voters.size() <= 2 && bounds(voters.front()))
                bounding_.push_back(voters.front());
            else
                bounded_ = false;
            if (bounded_ && !bounding_.back()->reclaimsFrom) {
                if (bounding_.back()->reclaimsFromFor)
                    perReclaimer_ = true;
                else
                    byQueue_ = false;
            }
        }
    }

    // Whether some plugin that bounds a tier may take a pod of queue other for the task (byQueue_).
    bool mayFrom(uint32_t task, uint32_t other) const {
        for (const PluginSlot* b : bounding_)
            if (b->reclaimsFrom ? b->reclaimsFrom(other) : b->reclaimsFromFor(task, other)) return true;
        return false;
    }

    // Whether a task of queue q may find victims: some plugin that bounds a tier may take a pod of
    // another reclaimable queue. Without, every node's victims are none. (The task is read only
    // with perReclaimer_.)
    bool victimsPossible(uint32_t q, uint32_t task) const {
        if (!bounded_ || !byQueue_) return true;
        const ClusterState& st = ssn_->state;
        for (uint32_t other = 0; other < st.queues.size(); ++other) {
            if (other == q || !st.queues[other].reclaimable) continue;
            if (mayFrom(task, other)) return true;
        }
        return false;
    }
    // Whether some pending pod of job j may, asked for one pod per shape when the answer depends
    // on the reclaimer.
    bool victimsPossibleFor(uint32_t j) {
        const uint32_t q = ssn_->queueOf(j);
        if (!perReclaimer_) return victimsPossible(q, UINT32_MAX);
        for (uint32_t t : ssn_->pendingShapeTasks(j))
            if (victimsPossible(q, t)) return true;
        return false;
    }

    // Whether some plugin that bounds a tier may name reclaimee x a victim of task: the victims of
    // a node are among the reclaimees for which this holds. The answer depends on x's job and
    // shape only (PluginSlot::reclaimsTask), and nothing changes during one task's node walk (a
    // node's evictions are discarded or the walk ends), so it is kept by job for the walk (takeWalk_).
    bool mayTake(uint32_t task, uint32_t x) {
        const uint32_t j = ssn_->jobOf(x), shape = ssn_->state.tasks[x].shape;
        if (takeStamp_.size() < ssn_->state.jobs.size()) {
            takeStamp_.resize(ssn_->state.jobs.size(), 0);
            takeShape_.resize(ssn_->state.jobs.size(), 0);
            takeValue_.resize(ssn_->state.jobs.size(), 0);
        }
        if (takeStamp_[j] == takeWalk_ && takeShape_[j] == shape) return takeValue_[j] != 0;
        bool may = false;
        for (const PluginSlot* b : bounding_)
            if (b->reclaimsTask ? b->reclaimsTask(task, x) : b->reclaimsFrom(ssn_->queueOf(j))) {
                may = true;
                break;
            }
        takeStamp_[j] = takeWalk_;
        takeShape_[j] = shape;
        takeValue_[j] = may;
        return may;
    }

    // The nodes holding Running preemptable pods of each queue, as the first task's walk begins.
    // Pods only leave Running during the action (evictions; a discarded one comes back), so a
    // reclaimee's node is in its queue's list.
    void indexQueueNodes() {
        const ClusterState& st = ssn_->state;
        queueNodes_.assign(st.queues.size(), {});
        for (uint32_t n = 0; n < st.nodes.size(); ++n)
            for (uint32_t x : st.nodeTasks[n]) {
                const auto& xt = st.tasks[x];
                if (xt.status != TaskStatus::Running || !xt.preemptable || xt.job == UINT32_MAX) continue;
                const int32_t q = st.jobs[xt.job].queue;
                if (q < 0) continue;
                auto& list = queueNodes_[size_t(q)];
                if (list.empty() || list.back() != n) list.push_back(n);
            }
    }

    // The nodes where a task of queue q may be placed by reclaim, by rank: those holding pods of
    // another reclaimable queue that some bounding plugin may take from, and those
    // whose future idle resources hold the task (ClusterState::nodesFitting, the test the node
    // walk makes). On any other node the victims are none and the task does not fit: the walk
    // would pass it by, and neither its predicates nor the calls skipped there change anything
    // (the predicate errors are per call and dropped).
    void candidateNodes(uint32_t task, uint32_t q, const std::vector<bool>& excluded) {
        ClusterState& st = ssn_->state;
        if (!indexed_) {
            indexQueueNodes();
            indexed_ = true;
        }
        if (nodeStamp_.size() != st.nodes.size()) nodeStamp_.assign(st.nodes.size(), 0);
        ++nodeWalk_;
        cand_.clear();
        auto add = [&](uint32_t n) {
            if (nodeStamp_[n] == nodeWalk_ || excluded[n]) return;
            nodeStamp_[n] = nodeWalk_;
            cand_.push_back(n);
        };
        for (uint32_t other = 0; other < st.queues.size(); ++other) {
            if (other == q || !st.queues[other].reclaimable || queueNodes_[other].empty()) continue;
            if (byQueue_ && !mayFrom(task, other)) continue;
            for (uint32_t n : queueNodes_[other]) add(n);
        }
        st.trackFits(st.tasks[task].shape);
        for (uint32_t n : st.nodesFitting(st.tasks[task].shape)) add(n);
        // Many of the nodes: read them off in rank order rather than sort them.
        if (cand_.size() * 16 > st.nodes.size()) {
            cand_.clear();
            for (uint32_t n : st.nodeByRank)
                if (nodeStamp_[n] == nodeWalk_) cand_.push_back(n);
            return;
        }
        std::sort(cand_.begin(), cand_.end(),
                  [&](uint32_t a, uint32_t b) { return st.nodes[a].rank < st.nodes[b].rank; });
    }

    // Whether reclaim cannot place the task on any node, decided without visiting one: it can have
    // no victims and no node's future idle resources hold it (ClusterState::fitCount, the same
    // test as the one below on each node).
    bool hopeless(uint32_t task, uint32_t job) {
        if (victimsPossible(ssn_->queueOf(job), task)) return false;
        ClusterState& st = ssn_->state;
        st.trackFits(st.tasks[task].shape);
        return st.fitCount(st.tasks[task].shape) == 0;
    }

    // Allocate's unresolvable nodes for the task (the walk passes them by), null when none.
    const FitErrors* exclusions(uint32_t task, uint32_t job) const {
        const auto& errors = ssn_->jobs[job].nodesFitErrors;
        auto it = errors.find(task);
        if (it == errors.end() || (it->second.unresolvable.empty() && it->second.unresolvableClasses.empty()))
            return nullptr;
        return &it->second;
    }

    // Whether the task's walk would find nothing because a task of its job walked the same way
    // since the job's last placement and found nothing. A walk that places nothing changes nothing:
    // a node's evictions are made only where the victims make room, and then evicting them in turn
    // makes it, so they are pipelined with the task or never made; the predicates' error cache is
    // the walk's own. And a walk reads of its task only its job, its shape (request, predicates,
    // the plugins' verdicts and victim order) and allocate's unresolvable nodes for it. Kept for
    // indexed sessions only: reference sessions walk every task.
    bool knownFruitless(uint32_t task, uint32_t job) const {
        const auto& tasks = ssn_->state.tasks;
        const FitErrors* mine = exclusions(task, job);
        for (uint32_t f : fruitless_) {
            if (tasks[f].shape != tasks[task].shape) continue;
            const FitErrors* theirs = exclusions(f, job);
            if (mine == theirs) return true;
            if (mine && theirs && mine->unresolvable == theirs->unresolvable &&
                mine->unresolvableClasses == theirs->unresolvableClasses)
                return true;
        }
        return false;
    }

    // Places the task on the first node (by rank) where it fits with the victims evicted; false
    // when there is none.
    bool reclaimForTask(Statement& stmt, uint32_t task, uint32_t job) {
        Session& ssn = *ssn_;
        if (hopeless(task, job)) return false;
        const auto& st = ssn.state;
        std::vector<bool> excluded(st.nodes.size(), false);
        if (auto fe = ssn.jobs[job].nodesFitErrors.find(task); fe != ssn.jobs[job].nodesFitErrors.end()) {
            for (uint32_t n : fe->second.unresolvable) excluded[n] = true;
            for (uint32_t c : fe->second.unresolvableClasses)
                for (uint32_t n : ssn.state.classes[c].members) excluded[n] = true;
        }
        ++takeWalk_;
        search_->newScope();
        FitErrors fe;
        // Bounded, the predicates are asked of a candidate only once the resources could do
        // (below): the walk's answer is the same, as each node's predicates are asked once in the
        // walk either way and the failures are dropped.
        walk_.clear();
        if (bounded_) {
            candidateNodes(task, ssn.queueOf(job), excluded);
            walk_ = cand_;
        } else {
            search_->predicateNodes(task, ssn.clusterTopHyperNode(), PredicateMode::Preempt, passing_, fe,
                                    &excluded);
            for (const auto& c : passing_) walk_.push_back(c.node);
        }
        const auto& req = ssn.taskRes(task);
        auto& reclaimees = reclaimees_;
        for (const uint32_t n : walk_) {
            reclaimees.clear();
            for (uint32_t x : st.nodeTasks[n]) {
                const auto& xt = st.tasks[x];
                if (xt.status != TaskStatus::Running || !xt.preemptable) continue;
                if (xt.job == UINT32_MAX || !ssn.inSession(xt.job)) continue;
                if (st.jobs[xt.job].queue == st.jobs[job].queue) continue;
                if (!st.queues[size_t(st.jobs[xt.job].queue)].reclaimable) continue;
                reclaimees.push_back(x);
            }
            if (reclaimees.empty()) continue;
            const VResource available = futureIdle(n);
            // The victims are some of the reclaimees: when all of them leaving would not make room,
            // neither would the victims.
            VResource withVictims = available;
            for (uint32_t x : reclaimees) withVictims.add(ssn.taskRes(x));
            if (!req.lessEqual(withVictims, Missing::Zero)) continue;
            // Nor would the reclaimees some bounding plugin may take (the asking has no effect).
            if (bounded_) {
                withVictims = available;
                for (uint32_t x : reclaimees)
                    if (mayTake(task, x)) withVictims.add(ssn.taskRes(x));
                if (!req.lessEqual(withVictims, Missing::Zero)) continue;
            }
            if (bounded_) {
                one_.assign(1, n);
                search_->predicateNodes(task, one_, passing_, fe);
                if (passing_.empty()) continue;
            }
            // Upstream lists a node's pods in map order; Gantry hands them over in victim order.
            ssn.sortVictims(reclaimees, task);
            auto victims = ssn.reclaimableVictims(task, reclaimees);
            withVictims = available;
            for (uint32_t v : victims) withVictims.add(ssn.taskRes(v));
            if (!req.lessEqual(withVictims, Missing::Zero)) continue;
            ssn.sortVictims(victims, task);
            Statement nodeStmt(ssn);
            VResource freed = available;
            for (uint32_t v : victims) {
                if (req.lessEqual(freed, Missing::Zero)) break;
                nodeStmt.evict(v);
                freed.add(ssn.taskRes(v));
            }
            if (!req.lessEqual(freed, Missing::Zero)) {
                nodeStmt.discard();
                continue;
            }
            nodeStmt.pipeline(task, n);
            stmt.merge(nodeStmt);
            return true;
        }
        return false;
    }

    VResource futureIdle(uint32_t n) const {
        const auto& st = ssn_->state;
        VResource r(st.D());
        const int64_t* idl = st.nodeRow(st.idle, n);
        const int64_t* rel = st.nodeRow(st.releasing, n);
        const int64_t* pip = st.nodeRow(st.pipelined, n);
        r.cpu = double(idl[kCpu] + rel[kCpu] - pip[kCpu]);
        r.mem = double(idl[kMemory] + rel[kMemory] - pip[kMemory]);
        for (int d = 2; d < st.D(); ++d)
            if ((st.nodes[n].allocMask >> d) & 1u || idl[d] + rel[d] - pip[d] != 0)
                r.set(d, double(idl[d] + rel[d] - pip[d]));
        return r;
    }

    Session* ssn_ = nullptr;
    std::unique_ptr<NodeSearch> search_;
    std::vector<Candidate> passing_;
    std::vector<uint32_t> walk_, one_; // reclaimForTask: the nodes it walks, one to predicate
    std::vector<uint32_t> reclaimees_;
    // Tasks of the current job whose walk found nothing since the job's last placement.
    std::vector<uint32_t> fruitless_;
    std::vector<std::vector<uint32_t>> queueNodes_; // indexQueueNodes, by queue
    std::vector<uint32_t> cand_, nodeStamp_;        // candidateNodes
    uint32_t nodeWalk_ = 0;
    bool indexed_ = false;
    std::vector<uint32_t> takeStamp_, takeShape_; // mayTake, by job: the walk and shape answered
    std::vector<uint8_t> takeValue_;
    uint32_t takeWalk_ = 0;
    std::vector<const PluginSlot*> bounding_; // findBounds
    bool bounded_ = false;
    bool byQueue_ = true;       // every bounding plugin has reclaimsFrom or reclaimsFromFor
    bool perReclaimer_ = false; // some has reclaimsFromFor only
};

} // namespace

ActionDescriptor reclaimAction() {
    ActionTraits t;
    t.evicts = true;
    return {"reclaim", [] { return std::make_unique<Reclaim>(); }, t};
}

} // namespace gantry::engine::actions
