// preempt: inside a queue, starving jobs evict lower-priority work. For each pending task of a
// starving job (job order, task order) the nodes that pass the predicates (unresolvable failures
// excluded) are tried best score first; on each, the preemptable victims are evicted in victim
// order until the task fits, and the task is pipelined there. The job's evictions are committed
// only if the job ends up pipelined. Afterwards tasks of a job may preempt lower-priority tasks of
// the same job. With enableTopologyAwarePreemption the kube-scheduler-style dry run picks the node
// whose minimal victim set hurts least.
#include "model/go_text.h"
#include "profiles/volcano/actions/actions.h"
#include "profiles/volcano/framework/node_search.h"
#include "profiles/volcano/framework/queue_util.h"
#include "profiles/volcano/framework/statement.h"

#include <algorithm>
#include <climits>
#include <map>

namespace gantry::engine::actions {

namespace {

class Preempt : public Action {
  public:
    void execute(Session& ssn) override {
        ssn_ = &ssn;
        search_ = std::make_unique<NodeSearch>(ssn);
        if (auto v = ssn.actionArgument("preempt", "predicateErrorCacheEnable"))
            if (auto b = parseGoBool(trim(*v))) search_->setErrorCache(*b);
        if (auto v = ssn.actionArgument("preempt", "enableTopologyAwarePreemption"))
            if (auto b = parseGoBool(trim(*v))) topologyAware_ = *b;
        auto readInt = [&](const char* key, int& out) {
            if (auto v = ssn.actionArgument("preempt", key))
                if (auto i = parseGoInt(trim(*v))) out = int(*i);
        };
        readInt("minCandidateNodesPercentage", minPercentage_);
        readInt("minCandidateNodesAbsolute", minAbsolute_);
        readInt("maxCandidateNodesAbsolute", maxAbsolute_);
        boundVictims_ = ssn.options.useNodeIndex && victimsBounded(ssn);

        auto queueLess = [&](uint32_t a, uint32_t b) { return ssn.queueOrderLess(a, b); };
        auto jobLess = [&](uint32_t a, uint32_t b) { return ssn.jobOrderLess(a, b); };
        auto taskLess = [&](uint32_t a, uint32_t b) { return ssn.taskOrderLess(a, b); };
        std::map<uint32_t, PriorityQueue<decltype(jobLess)>> preemptors;
        std::map<uint32_t, std::vector<uint32_t>> underRequest;
        std::vector<uint32_t> starving;
        for (uint32_t j : ssn.sessionJobs) {
            if (ssn.isPending(j)) continue;
            if (ssn.jobValid(j)) continue;
            if (!ssn.jobStarving(j)) continue;
            if (ssn.state.jobs[j].topology.mode != NetworkTopologyConstraint::Mode::None) continue;
            starving.push_back(j);
        }
        // When this action can evict nothing, resources only shrink while it runs: a parked job
        // that cannot start now cannot at its turn either, and is passed over then. Left out of
        // the job order, it changes no other job's turn: nothing a job's place in the order
        // depends on (priority, readiness, share) changes while it waits, so the order pops the
        // lowest each time whatever else it holds. Unless a bound may grow as pods are pipelined:
        // then a job's victims are asked at its turn.
        const bool evictsNothing = !boundsGrow(ssn) && cannotEvict(starving);
        for (uint32_t j : starving) {
            const uint32_t q = ssn.queueOf(j);
            auto& pq = preemptors.try_emplace(q, jobLess).first->second;
            underRequest[q].push_back(j);
            if (!evictsNothing || !ssn.cannotStart(j)) pq.push(j);
        }
        PriorityQueue<decltype(queueLess)> queues(queueLess);
        for (const auto& [q, pq] : preemptors) queues.push(q);

        while (!queues.empty()) {
            const uint32_t q = queues.pop();
            for (;;) {
                auto& pq = preemptors.at(q);
                if (pq.empty()) break;
                const uint32_t j = pq.pop();
                // Placed only where its pods fit as things are, too few of them for it to be
                // pipelined: its statement would be discarded.
                if (withoutVictims(j) && ssn.cannotStart(j)) continue;
                // Its pending pods are those it had when the action began (until its turn only
                // its running pods may go), and the task order is fixed.
                PriorityQueue<decltype(taskLess)> ts(taskLess);
                for (uint32_t t : ssn.state.jobs[j].tasks)
                    if (ssn.state.tasks[t].status == TaskStatus::Pending && ssn.state.tasks[t].ours &&
                        !ssn.state.schedulingGated(t))
                        ts.push(t);
                Statement stmt(ssn);
                for (;;) {
                    if (!ssn.jobStarving(j)) break;
                    if (ts.empty()) break;
                    const uint32_t preemptor = ts.pop();
                    preempt(
                        stmt, preemptor,
                        [&](uint32_t t) {
                            const auto& task = ssn.state.tasks[t];
                            if (!preemptableStatus(task.status)) return false;
                            if (ssn.state.shapeOf(preemptor).bestEffort && !ssn.state.shapeOf(t).bestEffort)
                                return false;
                            if (!task.preemptable) return false;
                            if (task.job == UINT32_MAX || !ssn.inSession(task.job)) return false;
                            return ssn.state.jobs[task.job].queue == ssn.state.jobs[j].queue && task.job != j;
                        },
                        false);
                }
                if (ssn.jobPipelined(j))
                    stmt.commit();
                else
                    stmt.discard();
            }
            // Preemption between tasks of one job.
            for (uint32_t j : underRequest[q]) {
                // Its first pod would find no node where it fits and no pod of its own to take.
                if (ssn.noneFits(j) &&
                    ssn.count(j, TaskStatus::Running) + ssn.count(j, TaskStatus::Bound) == 0)
                    continue;
                PriorityQueue<decltype(taskLess)> intra(taskLess);
                for (uint32_t t : ssn.state.jobs[j].tasks)
                    if (ssn.state.tasks[t].status == TaskStatus::Pending && ssn.state.tasks[t].ours &&
                        !ssn.state.schedulingGated(t))
                        intra.push(t);
                while (!intra.empty()) {
                    const uint32_t preemptor = intra.pop();
                    Statement stmt(ssn);
                    bool assigned = preempt(
                        stmt, preemptor,
                        [&](uint32_t t) {
                            const auto& task = ssn.state.tasks[t];
                            if (!preemptableStatus(task.status)) return false;
                            if (ssn.state.shapeOf(preemptor).bestEffort && !ssn.state.shapeOf(t).bestEffort)
                                return false;
                            if (!task.preemptable) return false;
                            return task.job == ssn.state.tasks[preemptor].job;
                        },
                        true);
                    if (!assigned) {
                        stmt.discard();
                        break;
                    }
                    stmt.commit();
                }
            }
        }
    }

  private:
    // Whether the plugins that may vote in each tier bound its victims: a tier names victims only
    // when each of its voting plugins names some (Session::tierVictims: one naming none passes the
    // decision to the next tier), so a tier with a plugin that says when it names none
    // (PluginSlot::preemptsFor) names none when that plugin says so.
    static bool victimsBounded(const Session& ssn) {
        const auto& slots = ssn.pluginSlots;
        for (size_t i = 0; i < slots.size();) {
            const int tier = slots[i].tier;
            bool voters = false, bounded = false;
            for (; i < slots.size() && slots[i].tier == tier; ++i) {
                if (!slots[i].preemptableOn || !slots[i].preemptable) continue;
                voters = true;
                bounded |= bool(slots[i].preemptsFor);
            }
            if (voters && !bounded) return false;
        }
        return true;
    }

    static bool boundsGrow(const Session& ssn) {
        for (const auto& s : ssn.pluginSlots)
            if (s.preemptableOn && s.preemptable && s.preemptsFor && s.preemptsForGrows) return true;
        return false;
    }

    // Whether some tier may name a victim of the preemptor (of another job of its queue, or with
    // sameJob of its own job): every plugin of the tier that may vote may name one.
    bool victimsPossible(uint32_t preemptor, bool sameJob) const {
        if (!boundVictims_) return true;
        const auto& slots = ssn_->pluginSlots;
        for (size_t i = 0; i < slots.size();) {
            const int tier = slots[i].tier;
            bool voters = false, may = true;
            for (; i < slots.size() && slots[i].tier == tier; ++i) {
                if (!slots[i].preemptableOn || !slots[i].preemptable) continue;
                voters = true;
                if (may && slots[i].preemptsFor && !slots[i].preemptsFor(preemptor, sameJob)) may = false;
            }
            if (voters && may) return true;
        }
        return false;
    }

    // Whether the job's pods could only be placed where they fit as things are: none of its pending
    // pods may have a victim of another job (asked once per shape: the answers depend on the pod's
    // job and request only).
    bool withoutVictims(uint32_t j) {
        if (!boundVictims_) return false;
        for (uint32_t t : ssn_->pendingShapeTasks(j))
            if (victimsPossible(t, false)) return false;
        return true;
    }

    // Whether no starving job can take a pod: each one's pods could only be placed where they fit
    // as things are, and none has a placed pod that a pod of its own could take.
    bool cannotEvict(const std::vector<uint32_t>& starving) {
        const Session& ssn = *ssn_;
        for (uint32_t j : starving)
            if (!withoutVictims(j) || ssn.count(j, TaskStatus::Running) + ssn.count(j, TaskStatus::Bound) > 0)
                return false;
        return true;
    }

    // Where preempt places a preemptor that can have no victims, found without walking every
    // node: its victims could only be pods of lower priority (of its queue, or of its own job when
    // sameJob) and there are none, so the walk ends at the first node, best score first, where it
    // fits as things are (fitsOnNode). Its queue's allocatable is asked first on each node, where
    // nothing changes between nodes; the nodes it may fit are those whose future idle resources
    // hold its request (ClusterState::nodesFitting; the same test as validVictims); of these, the
    // ones that pass the predicates are where it fits. None: it is placed nowhere. Just one: that
    // node comes first among them whatever the scores. Several: the best of them, when each
    // node's score is its own (else the walk's normalizing over all candidates decides). The
    // predicates are asked only of a task whose failures depend on the node alone (not perNode),
    // so the walk's error cache, which this skips, would not have excluded such a node nor change
    // later answers. Topology-aware preemption never places a preemptor without victims: it
    // walks whenever a node would take it.
    static constexpr int32_t kWalk = -2, kNowhere = -1;
    int32_t placementWithoutVictims(uint32_t preemptor, bool sameJob) {
        if (!boundVictims_) return kWalk;
        ClusterState& st = ssn_->state;
        const auto& task = st.tasks[preemptor];
        if (victimsPossible(preemptor, sameJob)) return kWalk;
        if (!ssn_->allocatable(ssn_->queueOf(task.job), preemptor)) return kNowhere;
        st.trackFits(task.shape);
        if (st.fitCount(task.shape) == 0) return kNowhere;
        if (search_->perNode(preemptor)) return kWalk;
        fitting_.clear();
        markUnresolvable(preemptor);
        // The predicates give the nodes of one bucket the same answer (the task's placement reads
        // no other pod: perNode), so each bucket is asked once.
        if (bucketStamp_.size() < st.buckets.size()) {
            bucketStamp_.resize(st.buckets.size(), 0);
            bucketPasses_.resize(st.buckets.size(), 0);
        }
        ++bucketMark_;
        for (uint32_t n : st.nodesFitting(task.shape)) {
            if (unresolvable(n)) continue;
            const uint32_t b = st.nodeBucket[n];
            if (bucketStamp_[b] != bucketMark_) {
                FitResult r;
                ssn_->predicate(preemptor, n, r);
                bucketPasses_[b] = r.ok();
                bucketStamp_[b] = bucketMark_;
            }
            if (bucketPasses_[b]) fitting_.push_back(Candidate{n, 1, UINT32_MAX});
        }
        if (fitting_.empty()) return kNowhere;
        if (topologyAware_) return kWalk;
        if (fitting_.size() == 1) return int32_t(fitting_.front().node);
        if (!ssn_->nodeScoresAlone(preemptor)) return kWalk;
        return search_->bestNode(preemptor, fitting_);
    }

    // Marks the nodes allocate found unresolvable for the task (the walk leaves such nodes out),
    // for unresolvable(node).
    void markUnresolvable(uint32_t task) {
        const auto& errors = ssn_->jobs[ssn_->jobOf(task)].nodesFitErrors;
        auto fe = errors.find(task);
        unresolvableClasses_ = nullptr;
        if (fe == errors.end()) return;
        if (unresolvableStamp_.size() != ssn_->state.nodes.size())
            unresolvableStamp_.assign(ssn_->state.nodes.size(), 0);
        ++unresolvableMark_;
        for (uint32_t n : fe->second.unresolvable) unresolvableStamp_[n] = unresolvableMark_;
        unresolvableClasses_ = &fe->second.unresolvableClasses;
    }
    bool unresolvable(uint32_t node) const {
        if (!unresolvableClasses_) return false;
        const auto& classes = *unresolvableClasses_;
        return unresolvableStamp_[node] == unresolvableMark_ ||
               std::find(classes.begin(), classes.end(), ssn_->state.nodes[node].cls) != classes.end();
    }

    template <class Filter> bool preempt(Statement& stmt, uint32_t preemptor, Filter filter, bool sameJob) {
        Session& ssn = *ssn_;
        if (ssn.state.shapeOf(preemptor).preemptNever) return false;
        if (ssn.prePredicate(preemptor)) return false;
        if (const int32_t node = placementWithoutVictims(preemptor, sameJob); node != kWalk) {
            if (node == kNowhere) return false;
            Statement nodeStmt(ssn);
            nodeStmt.pipeline(preemptor, uint32_t(node));
            stmt.merge(nodeStmt);
            return true;
        }
        const uint32_t job = ssn.jobOf(preemptor);
        std::vector<bool> excluded(ssn.state.nodes.size(), false);
        if (auto fe = ssn.jobs[job].nodesFitErrors.find(preemptor);
            fe != ssn.jobs[job].nodesFitErrors.end()) {
            for (uint32_t n : fe->second.unresolvable) excluded[n] = true;
            for (uint32_t c : fe->second.unresolvableClasses)
                for (uint32_t n : ssn.state.classes[c].members) excluded[n] = true;
        }
        FitErrors fe;
        search_->predicateNodes(preemptor, ssn.clusterTopHyperNode(), PredicateMode::Preempt, passing_, fe,
                                &excluded);
        if (topologyAware_) return topologyAwarePreempt(stmt, preemptor, filter);
        return normalPreempt(stmt, preemptor, filter);
    }

    // The node's pods that pass the filter, in victim order (upstream lists them in map order), or
    // none when even all of them leaving would not make room for the preemptor: the victims the
    // plugins choose are some of them, so the node would be passed over (validVictims).
    std::vector<uint32_t> preemptees(uint32_t node, uint32_t preemptor,
                                     const std::function<bool(uint32_t)>& filter) {
        std::vector<uint32_t> out;
        for (uint32_t t : ssn_->state.nodeTasks[node])
            if (filter(t)) out.push_back(t);
        if (!validVictims(preemptor, node, out)) return {};
        ssn_->sortVictims(out, preemptor);
        return out;
    }

    bool fitsOnNode(uint32_t preemptor, uint32_t node) {
        Session& ssn = *ssn_;
        if (!ssn.allocatable(ssn.queueOf(ssn.jobOf(preemptor)), preemptor)) return false;
        if (!search_->fitsFutureIdle(preemptor, node)) return false;
        FitResult r;
        ssn.predicate(preemptor, node, r);
        return r.ok();
    }

    bool validVictims(uint32_t preemptor, uint32_t node, const std::vector<uint32_t>& victims) const {
        const auto& st = ssn_->state;
        const auto& sh = st.shapeOf(preemptor);
        const int64_t* idl = st.nodeRow(st.idle, node);
        const int64_t* rel = st.nodeRow(st.releasing, node);
        const int64_t* pip = st.nodeRow(st.pipelined, node);
        std::vector<int64_t> future(size_t(st.D()));
        for (int d = 0; d < st.D(); ++d) future[size_t(d)] = idl[d] + rel[d] - pip[d];
        for (uint32_t v : victims) {
            const auto& req = st.shapeOf(v).request;
            for (size_t d = 0; d < req.size(); ++d) future[d] += req[d];
        }
        for (int d = 0; d < 2; ++d)
            if (sh.request[size_t(d)] > future[size_t(d)]) return false;
        for (uint64_t m = sh.presentMask; m; m &= m - 1) {
            const int d = __builtin_ctzll(m);
            if (sh.request[size_t(d)] > future[size_t(d)]) return false;
        }
        return true;
    }

    bool normalPreempt(Statement& stmt, uint32_t preemptor, const std::function<bool(uint32_t)>& filter) {
        Session& ssn = *ssn_;
        for (uint32_t node : search_->sortedNodes(preemptor, passing_)) {
            auto victims = ssn.preemptableVictims(preemptor, preemptees(node, preemptor, filter));
            if (!validVictims(preemptor, node, victims)) continue;
            ssn.sortVictims(victims, preemptor);
            Statement nodeStmt(ssn);
            bool fits = fitsOnNode(preemptor, node);
            for (uint32_t v : victims) {
                if (fits) break;
                nodeStmt.evict(v);
                fits = fitsOnNode(preemptor, node);
            }
            if (fits) {
                nodeStmt.pipeline(preemptor, node);
                stmt.merge(nodeStmt);
                return true;
            }
            nodeStmt.discard();
        }
        return false;
    }

    // --- topology-aware preemption (kube-scheduler's dry run) ---
    //
    // The dry run changes nothing in the session: victims leave and re-enter a copy of the node's
    // future-idle resources, and the plugins' simulate hooks (queue allocation, InterPodAffinity
    // state) follow them, as upstream's cloned NodeInfo and CycleState do.

    struct DryRun {
        std::vector<int64_t> future; // the node's future-idle resources in the dry run
    };

    void simRemove(DryRun& dr, uint32_t preemptor, uint32_t v, uint32_t node, int sign) {
        Session& ssn = *ssn_;
        ssn.simulateTask(preemptor, v, node, sign);
        const auto& req = ssn.state.shapeOf(v).request;
        for (size_t d = 0; d < req.size(); ++d) dr.future[d] += sign < 0 ? req[d] : -req[d];
    }

    bool simulatedFit(const DryRun& dr, uint32_t preemptor, uint32_t node) {
        Session& ssn = *ssn_;
        if (!ssn.simulateAllocatable(ssn.queueOf(ssn.jobOf(preemptor)), preemptor)) return false;
        const auto& sh = ssn.state.shapeOf(preemptor);
        for (int d = 0; d < 2; ++d)
            if (sh.request[size_t(d)] > dr.future[size_t(d)]) return false;
        for (uint64_t m = sh.presentMask; m; m &= m - 1) {
            const int d = __builtin_ctzll(m);
            if (sh.request[size_t(d)] > dr.future[size_t(d)]) return false;
        }
        FitResult r;
        ssn.simulatePredicate(preemptor, node, r);
        return r.ok();
    }

    // SelectVictimsOnNode: take victims off lowest first until the preemptor fits, then put them
    // back highest first, keeping off only those without which it does not fit. Empty = this node
    // is no candidate.
    std::vector<uint32_t> selectVictims(uint32_t preemptor, uint32_t node,
                                        const std::function<bool(uint32_t)>& filter) {
        Session& ssn = *ssn_;
        auto all = ssn.preemptableVictims(preemptor, preemptees(node, preemptor, filter));
        if (!validVictims(preemptor, node, all)) return {};
        ssn.sortVictims(all, preemptor);
        const auto& st = ssn.state;
        DryRun dr;
        dr.future.resize(size_t(st.D()));
        const int64_t* idl = st.nodeRow(st.idle, node);
        const int64_t* rel = st.nodeRow(st.releasing, node);
        const int64_t* pip = st.nodeRow(st.pipelined, node);
        for (int d = 0; d < st.D(); ++d) dr.future[size_t(d)] = idl[d] + rel[d] - pip[d];
        ssn.simulateBegin(preemptor);
        std::vector<uint32_t> potential;
        for (uint32_t v : all) {
            potential.push_back(v);
            simRemove(dr, preemptor, v, node, -1);
            if (simulatedFit(dr, preemptor, node)) break;
        }
        if (potential.empty()) return {};
        FitResult r;
        ssn.simulatePredicate(preemptor, node, r);
        if (!r.ok()) return {};
        std::vector<uint32_t> victims;
        for (auto it = potential.rbegin(); it != potential.rend(); ++it) {
            simRemove(dr, preemptor, *it, node, +1);
            if (!simulatedFit(dr, preemptor, node)) {
                simRemove(dr, preemptor, *it, node, -1);
                victims.push_back(*it);
            }
        }
        return victims;
    }

    bool topologyAwarePreempt(Statement& stmt, uint32_t preemptor,
                              const std::function<bool(uint32_t)>& filter) {
        Session& ssn = *ssn_;
        std::vector<uint32_t> nodes;
        for (const auto& c : passing_) nodes.push_back(c.node);
        if (nodes.empty()) return false;
        int n = int(nodes.size()) * minPercentage_ / 100;
        if (n < minAbsolute_) n = minAbsolute_;
        if (n > maxAbsolute_) n = maxAbsolute_;
        if (n > int(nodes.size())) n = int(nodes.size());
        struct Cand {
            uint32_t node;
            std::vector<uint32_t> victims;
        };
        std::vector<Cand> candidates;
        for (uint32_t node : nodes) {
            if (int(candidates.size()) >= n) break;
            auto victims = selectVictims(preemptor, node, filter);
            if (!victims.empty()) candidates.push_back(Cand{node, std::move(victims)});
        }
        if (candidates.empty()) return false;
        // pickOneNodeForPreemption: lowest highest-priority victim, then lowest priority sum, then
        // fewest victims; remaining ties go to the first candidate.
        auto prio = [&](uint32_t t) { return int64_t(ssn.state.tasks[t].podPriority); };
        std::vector<size_t> idx(candidates.size());
        for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
        auto narrow = [&](auto score) {
            int64_t best = LLONG_MIN;
            for (size_t i : idx) best = std::max(best, score(candidates[i]));
            std::vector<size_t> kept;
            for (size_t i : idx)
                if (score(candidates[i]) == best) kept.push_back(i);
            idx = kept;
        };
        narrow([&](const Cand& c) { return -prio(c.victims.front()); });
        if (idx.size() > 1)
            narrow([&](const Cand& c) {
                int64_t sum = 0;
                for (uint32_t v : c.victims) sum += prio(v) + int64_t(INT32_MAX) + 1;
                return -sum;
            });
        if (idx.size() > 1) narrow([&](const Cand& c) { return -int64_t(c.victims.size()); });
        const Cand& best = candidates[idx.front()];
        Statement tmp(ssn);
        for (uint32_t v : best.victims) tmp.evict(v);
        tmp.pipeline(preemptor, best.node);
        stmt.merge(tmp);
        return true;
    }

    Session* ssn_ = nullptr;
    std::unique_ptr<NodeSearch> search_;
    std::vector<Candidate> passing_;
    std::vector<Candidate> fitting_;          // placementWithoutVictims
    std::vector<uint32_t> unresolvableStamp_; // markUnresolvable: the nodes marked, by mark
    uint32_t unresolvableMark_ = 0;
    std::vector<uint32_t> bucketStamp_; // placementWithoutVictims: the buckets asked, by mark
    std::vector<uint8_t> bucketPasses_;
    uint32_t bucketMark_ = 0;
    const std::vector<uint32_t>* unresolvableClasses_ = nullptr; // null: nothing marked
    bool topologyAware_ = false;
    bool boundVictims_ = false; // victimsBounded, with the node index on
    int minPercentage_ = 10, minAbsolute_ = 1, maxAbsolute_ = 100;
};

} // namespace

ActionDescriptor preemptAction() {
    ActionTraits t;
    t.evicts = true;
    return {"preempt", [] { return std::make_unique<Preempt>(); }, t};
}

} // namespace gantry::engine::actions
