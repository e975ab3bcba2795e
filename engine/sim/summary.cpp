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

} // namespace

void summarizeJobs(const std::vector<JobOutcome>& outcomes, const SimWorkload& workload,
                   const engine::ClusterState& state, const std::vector<std::vector<int64_t>>& queueUsed,
                   const std::map<int32_t, std::vector<double>>& queueWaits, SimResult& r) {
    // Queues.
    std::vector<GroupSummary> byQueue(state.queues.size());
    std::map<int32_t, GroupSummary, std::greater<int32_t>> byPriority;
    std::vector<std::vector<double>> waitsQ(state.queues.size()), jctQ(state.queues.size());
    std::map<int32_t, std::vector<double>, std::greater<int32_t>> waitsP, jctP;
    std::vector<double> waits, jcts, gangWaits;
    for (size_t j = 0; j < workload.jobs.size(); ++j) {
        const auto& out = outcomes[j];
        if (out.queue < 0) continue; // not arrived (or its queue does not exist)
        auto& gq = byQueue[size_t(out.queue)];
        auto& gp = byPriority[out.priority];
        for (GroupSummary* g : {&gq, &gp}) {
            ++g->jobs;
            g->restarts += out.restarts;
            g->lostGpuHours += out.lostGpuSeconds / 3600.0;
        }
        r.lostGpuHours += out.lostGpuSeconds / 3600.0;
        const double arrival = workload.jobs[j].arrival;
        if (out.firstStart >= 0) {
            ++gq.started;
            ++gp.started;
            waits.push_back(out.firstStart - arrival);
            waitsQ[size_t(out.queue)].push_back(out.firstStart - arrival);
            waitsP[out.priority].push_back(out.firstStart - arrival);
        }
        if (out.end >= 0) {
            ++gq.completed;
            ++gp.completed;
            jcts.push_back(out.end - arrival);
            jctQ[size_t(out.queue)].push_back(out.end - arrival);
            jctP[out.priority].push_back(out.end - arrival);
        }
        if (out.gangWait >= 0) gangWaits.push_back(out.gangWait);
        if (out.waitingAtEnd) {
            ++gq.pendingAtEnd;
            ++gp.pendingAtEnd;
        }
        const auto& kind = workload.kinds[workload.jobs[j].kind];
        if (kind.group.minMember > 1) ++r.gangJobs;
    }
    r.wait = distributionOf(std::move(waits));
    r.completion = distributionOf(std::move(jcts));
    r.gangWait = distributionOf(std::move(gangWaits));
    for (size_t q = 0; q < state.queues.size(); ++q) {
        const auto& rec = state.queues[q];
        QueueSeries s;
        s.name = rec.name;
        if (rec.parent >= 0) s.parent = state.queues[size_t(rec.parent)].name;
        if (double g = gpusOf(rec.guarantee); g >= 0) s.guaranteeGpus = g;
        if (double g = gpusOf(rec.deserved); g >= 0) s.deservedGpus = g;
        if (double g = gpusOf(rec.capability); g >= 0) s.capabilityGpus = g;
        s.usedGpus.reserve(queueUsed.size());
        for (const auto& row : queueUsed) s.usedGpus.push_back(double(row[q]) / 1000.0);
        auto it = queueWaits.find(int32_t(q));
        if (it != queueWaits.end()) s.waitSeconds = it->second;
        s.summary = byQueue[q];
        s.summary.key = rec.name;
        s.summary.wait = distributionOf(std::move(waitsQ[q]));
        s.summary.completion = distributionOf(std::move(jctQ[q]));
        r.queues.push_back(std::move(s));
    }
    for (auto& [prio, g] : byPriority) {
        g.key = std::to_string(prio);
        g.wait = distributionOf(std::move(waitsP[prio]));
        g.completion = distributionOf(std::move(jctP[prio]));
        r.byPriority.push_back(std::move(g));
    }
}

void recordEndState(const engine::ClusterState& state, SimResult& r) {
    std::map<uint32_t, int32_t> jobNameIndex;
    for (uint32_t t = 0; t < state.tasks.size(); ++t) {
        const auto& task = state.tasks[t];
        if (task.node < 0 || !engine::occupiesNode(task.status) ||
            task.status == engine::TaskStatus::Pipelined)
            continue;
        ++r.podsPlacedAtEnd;
        Placement p;
        p.node = uint32_t(task.node);
        p.gpu = state.shapeOf(t).gpu;
        p.gpu.models.clear();
        p.devices = task.gpuMask;
        p.queue = (task.job == UINT32_MAX ? -1 : state.jobs[task.job].queue);
        p.cpuMilli = state.shapeOf(t).request[engine::kCpu];
        if (task.job != UINT32_MAX) {
            auto [it, inserted] = jobNameIndex.emplace(task.job, int32_t(r.jobNames.size()));
            if (inserted) r.jobNames.push_back(state.jobs[task.job].key);
            p.job = it->second;
        }
        r.placements.push_back(std::move(p));
    }
    for (uint32_t n = 0; n < state.nodes.size(); ++n) {
        r.nodeNames.push_back(state.nodeName(n));
        r.nodeGpus.push_back(state.gpuCount(n));
    }
}

} // namespace gantry::sim
