// Running the configured actions, and turning the session's end state into a CycleResult:
// podgroup phases as the JobUpdater computes them, pipelined tasks, and a reason for every pod
// left pending.
#include "profiles/volcano/framework/registry.h"
#include "profiles/volcano/framework/session.h"

#include <algorithm>

namespace gantry::engine {

namespace {

// framework.getPodGroupPhase, read before the gang plugin's session-close condition is set (this is
// the phase upstream's tests assert).
PodGroupPhase podGroupPhase(const Session& ssn, uint32_t j) {
    const auto& state = ssn.state;
    int32_t scheduled = ssn.scheduledTaskNum(j);
    int32_t completed = ssn.count(j, TaskStatus::Succeeded) + ssn.count(j, TaskStatus::Failed);
    for (uint32_t t : state.jobs[j].tasks)
        if (state.tasks[t].status == TaskStatus::Releasing && state.tasks[t].node >= 0) ++scheduled;
    if (scheduled >= state.jobs[j].minAvailable)
        return scheduled == completed ? PodGroupPhase::Completed : PodGroupPhase::Running;
    if (ssn.jobs[j].phase != PodGroupPhase::Inqueue) return PodGroupPhase::Pending;
    return ssn.jobs[j].phase;
}

std::string podKey(const ClusterState& s, uint32_t t) {
    return s.taskKey(t);
}

// Why a dependent task of job j has no pods yet (ClusterState::createReadyDependents).
std::string notCreatedReason(const ClusterState& s, uint32_t j, const DependentTask& d) {
    std::string names;
    for (size_t i = 0; i < d.after.size(); ++i)
        names += (i == 0                    ? ""
                  : i + 1 == d.after.size() ? (d.any ? " or " : " and ")
                                            : ", ") +
                 s.roles[d.after[i]];
    return "not created yet: Volcano's job controller creates the pods of task " + s.roles[d.role] + " of " +
           s.jobs[j].key + " once " + (d.after.size() > 1 ? (d.any ? "one of tasks " : "tasks ") : "task ") +
           names + (d.after.size() > 1 && !d.any ? " run" : " runs") +
           " (dependsOn: at least the task's minAvailable pods Running or Succeeded)";
}

} // namespace

CycleResult Session::run() {
    CycleResult scores;
    if (options.computeScores) {
        // Node-order scores of every pending pod on every node, on the initial state, no predicates.
        std::vector<uint32_t> all(state.nodes.size()), ones(state.nodes.size(), 1);
        for (uint32_t n = 0; n < all.size(); ++n) all[n] = state.nodeByRank[n];
        std::vector<double> batch(all.size());
        for (uint32_t t = 0; t < state.tasks.size(); ++t) {
            const auto& task = state.tasks[t];
            if (!(task.status == TaskStatus::Pending || task.status == TaskStatus::Bound)) continue;
            if (task.job == UINT32_MAX || !jobs[task.job].inSession) continue;
            std::fill(batch.begin(), batch.end(), 0.0);
            batchNodeOrder(t, all.data(), ones.data(), all.size(), batch.data());
            auto& row = scores.scores[state.taskKey(t)];
            for (size_t i = 0; i < all.size(); ++i)
                row[state.nodeName(all[i])] = nodeOrderScore(t, all[i]) + batch[i];
        }
    }
    for (const auto& action : plan_.actions) {
        if (!action.descriptor) {
            warnings.push_back("action '" + *action.name + "' is not modelled by Gantry; it is skipped");
            continue;
        }
        action.descriptor->build()->execute(*this);
    }
    CycleResult result = close();
    result.scores = std::move(scores.scores);
    return result;
}

CycleResult Session::close() {
    CycleResult r;
    if (closed_) return r;
    for (auto& slot : pluginSlots) slot.plugin->onSessionClose(*this);
    r.bindings = bindings;
    r.evicted = evictions;
    r.boundTasks = boundTasks;
    r.evictedTasks = evictedTasks;
    r.warnings = warnings;
    const bool compact = options.compactResult;

    // How far each job with pending pods got, by position in sessionJobs.
    std::vector<GangStatus> gangs(sessionJobs.size());
    std::vector<uint8_t> hasGang(sessionJobs.size(), 0);
    for (uint32_t i = 0; i < sessionJobs.size(); ++i) {
        const uint32_t j = sessionJobs[i];
        const auto& job = state.jobs[j];
        const PodGroupPhase phase = podGroupPhase(*this, j);
        if (compact) {
            if (phase != job.phase) r.phaseChanges.emplace_back(j, phase);
        } else {
            r.podGroupPhase[job.key] = phase;
            std::vector<std::string> pipelinedNodes;
            for (uint32_t t : job.tasks)
                if (state.tasks[t].status == TaskStatus::Pipelined && state.tasks[t].node >= 0)
                    pipelinedNodes.push_back(state.nodeName(uint32_t(state.tasks[t].node)));
            if (!pipelinedNodes.empty()) {
                std::sort(pipelinedNodes.begin(), pipelinedNodes.end());
                r.pipelined[job.key] = std::move(pipelinedNodes);
            }
        }
        if (count(j, TaskStatus::Pending) == 0 && count(j, TaskStatus::Pipelined) == 0) continue;
        if (compact && jobs[j].parked) continue; // untried: no reason to give
        GangStatus& g = gangs[i];
        hasGang[i] = 1;
        g.minMember = job.minAvailable;
        g.tasks = int(job.tasks.size());
        g.ready = isReady(j);
        int placeable = readyTaskNum(j);
        for (uint32_t t : job.tasks)
            if (state.tasks[t].status == TaskStatus::Pending && allocatedStatus(lastTx(t).status))
                ++placeable;
        g.placeable = placeable;
        if (!g.ready)
            g.reason =
                "minMember " + std::to_string(g.minMember) + ", " + std::to_string(placeable) + " placeable";
        if (!compact) r.gangs[job.key] = g;
    }

    if (!compact && settled_)
        for (uint32_t j = 0; j < state.jobs.size(); ++j)
            if (settled_->settled(j)) r.podGroupPhase[state.jobs[j].key] = podGroupPhase(*this, j);

    if (compact) {
        // The simulator's question: why does each job still wait. It asks about the first pod that
        // is pending once the session is undone and its bindings applied: one pending, pipelined
        // or allocated (in a statement kept but not committed, which has no reason) now.
        if (parking_) r.parkedJobs = settled_->leftOutParked();
        for (uint32_t i = 0; i < sessionJobs.size(); ++i) {
            const uint32_t j = sessionJobs[i];
            if (jobs[j].parked) {
                r.parkedJobs.push_back(j);
                continue;
            }
            bool reasoned = false;
            for (uint32_t t : state.jobs[j].tasks) {
                const TaskStatus st = state.tasks[t].status;
                if (st == TaskStatus::Allocated) {
                    reasoned = true; // kept, not committed: no reason to give
                    break;
                }
                if (st == TaskStatus::Pending || st == TaskStatus::Pipelined) {
                    r.jobReasons.emplace_back(j, pendingReason(t, hasGang[i] ? &gangs[i] : nullptr));
                    reasoned = true;
                    break;
                }
            }
            if (!reasoned && !isReady(j))
                for (const auto& d : state.jobs[j].dependents)
                    if (!d.created) {
                        r.jobReasons.emplace_back(j, notCreatedReason(state, j, d));
                        break;
                    }
        }
    } else {
        // A reason for every pod the session left pending: allocated in a statement that was neither
        // committed nor discarded (a pipelined gang, backfill's best-effort pods of a gang that is not
        // ready) is still a pending pod once the session closes.
        auto report = [&](uint32_t t, const GangStatus* gang) {
            const auto& task = state.tasks[t];
            if (task.status == TaskStatus::Pending || task.status == TaskStatus::Pipelined ||
                task.status == TaskStatus::Allocated)
                r.pending[podKey(state, t)] = pendingReason(t, gang);
        };
        for (uint32_t j = 0; j < state.jobs.size(); ++j)
            for (const auto& d : state.jobs[j].dependents)
                if (!d.created)
                    for (const Pod& p : d.pods) r.pending[p.key()] = notCreatedReason(state, j, d);
        if (settled_) {
            // Settled jobs have no pending pod.
            for (uint32_t i = 0; i < sessionJobs.size(); ++i)
                for (uint32_t t : state.jobs[sessionJobs[i]].tasks)
                    report(t, hasGang[i] ? &gangs[i] : nullptr);
            for (uint32_t t : settled_->looseTasks()) report(t, nullptr);
        } else {
            for (uint32_t t = 0; t < state.tasks.size(); ++t) {
                const uint32_t j = state.tasks[t].job;
                const bool inList = j != UINT32_MAX && jobs[j].inSession;
                const uint32_t i = inList ? slot_[j] : 0;
                report(t, inList && hasGang[i] ? &gangs[i] : nullptr);
            }
        }
    }

    rollback();
    releaseJobs();
    closed_ = true;
    return r;
}

std::string Session::pendingReason(uint32_t t, const GangStatus* gang) {
    const auto& task = state.tasks[t];
    const std::string key = podKey(state, t);
    if (!task.ours) return "not scheduled by Volcano (schedulerName is another scheduler's)";
    // Volcano leaves a gated pod the condition the API server gave it (cache.go skips SchGated tasks
    // when it records why pods are unschedulable).
    if (state.schedulingGated(t))
        return "SchedulingGated: Scheduling is blocked due to non-empty scheduling gates";
    if (task.job == UINT32_MAX) {
        std::string group = state.strings.str(task.group);
        std::string gk = state.strings.str(task.ns) + "/" + group;
        auto skipped = state.skippedGroups.find(gk);
        if (skipped != state.skippedGroups.end()) return skipped->second;
        if (group.empty()) return "pod names no PodGroup; Volcano schedules the pods of PodGroups only";
        return "PodGroup " + gk + " does not exist";
    }
    const uint32_t j = task.job;
    const auto& js = jobs[j];
    const auto& job = state.jobs[j];
    std::string reason;
    const TaskTx tx = lastTx(t);
    if (task.status == TaskStatus::Pipelined) {
        reason = "Pod " + key + " can possibly be assigned to " + state.nodeName(uint32_t(task.node)) +
                 ", once resource is released and minAvailable is satisfied";
    } else if (auto fe = js.nodesFitErrors.find(t); fe != js.nodesFitErrors.end()) {
        reason = fitErrorMessage(fe->second);
    } else if (allocatedStatus(tx.status) && tx.node >= 0) {
        reason = "Pod " + key + " can possibly be assigned to " + state.nodeName(uint32_t(tx.node)) +
                 ", once minAvailable is satisfied";
    } else if (!js.jobFitError.empty()) {
        reason = js.jobFitError;
    } else if (isPending(j)) {
        reason = "PodGroup " + job.key + " is " +
                 (js.phase == PodGroupPhase::None ? std::string("not yet admitted") : "Pending") +
                 ": its queue has not admitted it";
    } else {
        // Not tried: the job's allocation stopped at an earlier task (gang), or no action places pods.
        std::string origin;
        for (uint32_t o : job.tasks)
            if (auto ofe = js.nodesFitErrors.find(o); ofe != js.nodesFitErrors.end()) {
                origin = "Origin reason is " + state.strings.str(state.tasks[o].name) + ": " +
                         fitErrorMessage(ofe->second);
                break;
            }
        if (!origin.empty())
            reason = "not tried in this cycle. " + origin;
        else if (!enabledActions.count("allocate") && !enabledActions.count("backfill"))
            reason = "not tried: no allocate or backfill action in this configuration";
        else
            reason = "not tried in this cycle";
    }
    if (gang && !gang->ready && job.minAvailable > 1)
        reason += " (gang " + job.key + ": " + gang->reason + ")";
    return reason;
}

} // namespace gantry::engine
