#include "sim/summary.h"

#include <functional>
#include <string>
#include <utility>

namespace gantry::sim {

namespace {

// The GPUs of a queue's quota (sum of its GPU resources), -1 when it sets none.
double gpusOf(const ResourceList& list) {
    int64_t milli = 0;
    bool any = false;
    for (const auto& [name, amount] : list)
        if (isGpuResource(name)) {
            milli += amount;
            any = true;
        }
    return any ? double(milli) / 1000.0 : -1.0;
}

// Each group's (queue's, priority's) wait and completion distributions, from its jobs' values in
// job order. One group's values are listed at a time (the jobs sorted by group first, stably):
// listing every group's at once held six values per job at the run's highest point.
template <class GroupOf>
void groupDistributions(const std::vector<JobOutcome>& outcomes, const SimWorkload& workload, size_t groups,
                        GroupOf groupOf, std::vector<Distribution>& waits, std::vector<Distribution>& jcts) {
    std::vector<uint32_t> start(groups + 1, 0);
    for (size_t j = 0; j < outcomes.size(); ++j)
        if (const int64_t g = groupOf(j); g >= 0) ++start[size_t(g) + 1];
    for (size_t g = 0; g < groups; ++g) start[g + 1] += start[g];
    std::vector<uint32_t> jobs(start.back()), at(start.begin(), start.end() - 1);
    for (size_t j = 0; j < outcomes.size(); ++j)
        if (const int64_t g = groupOf(j); g >= 0) jobs[at[size_t(g)]++] = uint32_t(j);
    waits.resize(groups);
    jcts.resize(groups);
    std::vector<double> w, c;
    for (size_t g = 0; g < groups; ++g) {
        w.clear();
        c.clear();
        for (uint32_t k = start[g]; k < start[g + 1]; ++k) {
            const auto& out = outcomes[jobs[k]];
            const double arrival = workload.jobs[jobs[k]].arrival;
            if (out.firstStart >= 0) w.push_back(out.firstStart - arrival);
            if (out.end >= 0) c.push_back(out.end - arrival);
        }
        waits[g] = distributionOf(w);
        jcts[g] = distributionOf(c);
    }
}

} // namespace

void summarizeJobs(const std::vector<JobOutcome>& outcomes, const SimWorkload& workload,
                   const engine::ClusterState& state, const std::vector<std::vector<int64_t>>& queueUsed,
                   const std::map<int32_t, std::vector<double>>& queueWaits, SimResult& r) {
    // Queues.
    std::vector<GroupSummary> byQueue(state.queues.size());
    std::map<int32_t, GroupSummary, std::greater<int32_t>> byPriority;
    std::map<std::string, GroupSummary> byNamespace; // tenants, as fair-share schedulers see them
    std::vector<double> waits, jcts, gangWaits;
    for (size_t j = 0; j < workload.jobs.size(); ++j) {
        const auto& out = outcomes[j];
        if (!out.arrived) continue;
        GroupSummary none; // a job of no queue counts for its priority and the totals
        auto& gq = out.queue >= 0 ? byQueue[size_t(out.queue)] : none;
        auto& gp = byPriority[out.priority];
        auto& gn = byNamespace[workload.kinds[workload.jobs[j].kind].group.ns];
        for (GroupSummary* g : {&gq, &gp, &gn}) {
            ++g->jobs;
            g->restarts += out.restarts;
            g->lostGpuHours += out.lostGpuSeconds / 3600.0;
        }
        r.lostGpuHours += out.lostGpuSeconds / 3600.0;
        const double arrival = workload.jobs[j].arrival;
        if (out.firstStart >= 0) {
            ++gq.started;
            ++gp.started;
            ++gn.started;
            waits.push_back(out.firstStart - arrival);
        }
        if (out.end >= 0) {
            ++gq.completed;
            ++gp.completed;
            ++gn.completed;
            jcts.push_back(out.end - arrival);
        }
        if (out.gangWait >= 0) gangWaits.push_back(out.gangWait);
        if (out.waitingAtEnd) {
            ++gq.pendingAtEnd;
            ++gp.pendingAtEnd;
            ++gn.pendingAtEnd;
        }
        const auto& kind = workload.kinds[workload.jobs[j].kind];
        if (kind.group.minMember > 1) ++r.gangJobs;
    }
    r.wait = distributionOf(std::move(waits));
    r.completion = distributionOf(std::move(jcts));
    r.gangWait = distributionOf(std::move(gangWaits));
    const size_t jobs = workload.jobs.size();
    std::vector<Distribution> waitQ, jctQ, waitP, jctP;
    groupDistributions(
        outcomes, workload, state.queues.size(),
        [&](size_t j) { return j < jobs ? int64_t(outcomes[j].queue) : int64_t(-1); }, waitQ, jctQ);
    std::map<int32_t, uint32_t> priorityGroup; // priority -> its place in byPriority
    for (const auto& [prio, g] : byPriority) priorityGroup.emplace(prio, uint32_t(priorityGroup.size()));
    groupDistributions(
        outcomes, workload, byPriority.size(),
        [&](size_t j) {
            if (j >= jobs || !outcomes[j].arrived) return int64_t(-1);
            return int64_t(priorityGroup.at(outcomes[j].priority));
        },
        waitP, jctP);
    std::map<std::string, uint32_t> namespaceGroup;
    for (const auto& [ns, g] : byNamespace) namespaceGroup.emplace(ns, uint32_t(namespaceGroup.size()));
    std::vector<uint32_t> namespaceOfKind(workload.kinds.size());
    for (size_t k = 0; k < workload.kinds.size(); ++k) {
        auto it = namespaceGroup.find(workload.kinds[k].group.ns);
        namespaceOfKind[k] = it == namespaceGroup.end() ? UINT32_MAX : it->second;
    }
    std::vector<Distribution> waitN, jctN;
    groupDistributions(
        outcomes, workload, byNamespace.size(),
        [&](size_t j) {
            if (j >= jobs || !outcomes[j].arrived) return int64_t(-1);
            const uint32_t g = namespaceOfKind[workload.jobs[j].kind];
            return g == UINT32_MAX ? int64_t(-1) : int64_t(g);
        },
        waitN, jctN);
    for (size_t q = 0; q < state.queues.size(); ++q) {
        const auto& rec = state.queues[q];
        // A queue the scheduler would create at start-up is shown once a job used it.
        if (rec.assumed && byQueue[q].jobs == 0) continue;
        QueueSeries s;
        s.name = rec.name;
        if (rec.parent >= 0 && !state.queues[size_t(rec.parent)].assumed)
            s.parent = state.queues[size_t(rec.parent)].name;
        if (double g = gpusOf(rec.guarantee); g >= 0) s.guaranteeGpus = g;
        if (double g = gpusOf(rec.deserved); g >= 0) s.deservedGpus = g;
        if (double g = gpusOf(rec.capability); g >= 0) s.capabilityGpus = g;
        s.usedGpus.reserve(queueUsed.size());
        for (const auto& row : queueUsed) s.usedGpus.push_back(double(row[q]) / 1000.0);
        auto it = queueWaits.find(int32_t(q));
        if (it != queueWaits.end()) s.waitSeconds = it->second;
        s.summary = byQueue[q];
        s.summary.key = rec.name;
        s.summary.wait = waitQ[q];
        s.summary.completion = jctQ[q];
        r.queues.push_back(std::move(s));
    }
    for (auto& [prio, g] : byPriority) {
        g.key = std::to_string(prio);
        g.wait = waitP[priorityGroup.at(prio)];
        g.completion = jctP[priorityGroup.at(prio)];
        r.byPriority.push_back(std::move(g));
    }
    for (auto& [ns, g] : byNamespace) {
        g.key = ns;
        g.wait = waitN[namespaceGroup.at(ns)];
        g.completion = jctN[namespaceGroup.at(ns)];
        r.byNamespace.push_back(std::move(g));
    }
}

void recordPlacements(const engine::ClusterState& state, std::vector<Placement>& placements,
                      std::vector<std::string>& jobNames) {
    placements.clear();
    jobNames.clear();
    std::map<uint32_t, int32_t> jobNameIndex;
    for (uint32_t t = 0; t < state.tasks.size(); ++t) {
        const auto& task = state.tasks[t];
        if (task.node < 0 || !engine::occupiesNode(task.status) ||
            task.status == engine::TaskStatus::Pipelined)
            continue;
        Placement p;
        p.node = uint32_t(task.node);
        p.gpu = state.shapeOf(t).gpu;
        p.gpu.models.clear();
        p.devices = task.gpuMask;
        p.queue = (task.job == UINT32_MAX ? -1 : state.jobs[task.job].queue);
        p.cpuMilli = state.shapeOf(t).request[engine::kCpu];
        if (task.job != UINT32_MAX) {
            auto [it, inserted] = jobNameIndex.emplace(task.job, int32_t(jobNames.size()));
            if (inserted) jobNames.push_back(state.jobs[task.job].key);
            p.job = it->second;
        }
        placements.push_back(std::move(p));
    }
}

void recordEndState(const engine::ClusterState& state, SimResult& r) {
    recordPlacements(state, r.placements, r.jobNames);
    r.podsPlacedAtEnd = int64_t(r.placements.size());
    for (uint32_t n = 0; n < state.nodes.size(); ++n) {
        r.nodeNames.push_back(state.nodeName(n));
        r.nodeGpus.push_back(state.gpuCount(n));
    }
}

} // namespace gantry::sim
