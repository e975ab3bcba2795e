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
            int8_t& v = victims[ssn.queueOf(j)];
            if (v < 0) v = victimsPossible(ssn.queueOf(j));
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
                if (!victimsPossible(q) && ssn.cannotStart(j)) {
                    if (!jobsQ.empty()) queues.push(q);
                    continue;
                }
                // Its pending pods are those it had when the action began (until its turn only
                // its running pods may go), and the task order is fixed.
                PriorityQueue<decltype(taskLess)> ts(taskLess);
                for (uint32_t t : ssn.state.jobs[j].tasks)
                    if (ssn.state.tasks[t].status == TaskStatus::Pending && ssn.state.tasks[t].volcano)
                        ts.push(t);
                Statement stmt(ssn);
                for (;;) {
                    if (!ssn.jobStarving(j)) break;
                    if (ts.empty()) break;
                    const uint32_t t = ts.pop();
                    if (ssn.state.shapeOf(t).preemptNever) continue;
                    if (!ssn.preemptive(q, {t})) continue;
                    if (ssn.prePredicate(t)) continue;
                    reclaimForTask(stmt, t, j);
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
    // which queues it may take from (reclaimsFrom; the plugins that do always vote), and with the
    // node index on (the reference session visits every node).
    void findBounds(const Session& ssn) {
        bounding_.clear();
        bounded_ = ssn.options.useNodeIndex;
        const auto& slots = ssn.pluginSlots;
        for (size_t i = 0; i < slots.size() && bounded_;) {
            std::vector<const PluginSlot*> voters;
            const int tier = slots[i].tier;
            for (; i < slots.size() && slots[i].tier == tier; ++i)
                if (slots[i].reclaimableOn && slots[i].reclaimable) voters.push_back(&slots[i]);
            if (voters.empty()) continue;
            if (voters.back()->reclaimsFrom)
                bounding_.push_back(voters.back());
            else if (voters.size() <= 2 && voters.front()->reclaimsFrom)
                bounding_.push_back(voters.front());
            else
                bounded_ = false;
        }
    }

    // Whether a task of queue q may find victims: some plugin that bounds a tier may take a pod of
    // another reclaimable queue. Without, every node's victims are none.
    bool victimsPossible(uint32_t q) const {
        if (!bounded_) return true;
        const ClusterState& st = ssn_->state;
        for (uint32_t other = 0; other < st.queues.size(); ++other) {
            if (other == q || !st.queues[other].reclaimable) continue;
            for (const PluginSlot* b : bounding_)
                if (b->reclaimsFrom(other)) return true;
        }
        return false;
    }

    // Whether reclaim cannot place the task on any node, decided without visiting one: it can have
    // no victims and no node's future idle resources hold it (ClusterState::fitCount, the same
    // test as the one below on each node).
    bool hopeless(uint32_t task, uint32_t job) {
        if (victimsPossible(ssn_->queueOf(job))) return false;
        ClusterState& st = ssn_->state;
        st.trackFits(st.tasks[task].shape);
        return st.fitCount(st.tasks[task].shape) == 0;
    }

    void reclaimForTask(Statement& stmt, uint32_t task, uint32_t job) {
        Session& ssn = *ssn_;
        if (hopeless(task, job)) return;
        const auto& st = ssn.state;
        std::vector<bool> excluded(st.nodes.size(), false);
        if (auto fe = ssn.jobs[job].nodesFitErrors.find(task); fe != ssn.jobs[job].nodesFitErrors.end()) {
            for (uint32_t n : fe->second.unresolvable) excluded[n] = true;
            for (uint32_t c : fe->second.unresolvableClasses)
                for (uint32_t n : ssn.state.classes[c].members) excluded[n] = true;
        }
        search_->newScope();
        FitErrors fe;
        search_->predicateNodes(task, ssn.clusterTopHyperNode(), PredicateMode::Preempt, passing_, fe,
                                &excluded);
        const auto& req = ssn.taskRes(task);
        for (const auto& c : passing_) {
            const uint32_t n = c.node;
            std::vector<uint32_t> reclaimees;
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
            break;
        }
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
    std::vector<const PluginSlot*> bounding_; // findBounds
    bool bounded_ = false;
};

} // namespace

ActionDescriptor reclaimAction() {
    ActionTraits t;
    t.evicts = true;
    return {"reclaim", [] { return std::make_unique<Reclaim>(); }, t};
}

} // namespace gantry::engine::actions
