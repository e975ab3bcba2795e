#include "profiles/volcano/framework/settled_jobs.h"

#include "profiles/volcano/framework/job_resources.h"

#include <algorithm>
#include <cmath>

namespace gantry::engine {

void SettledJobs::Sum::add(const VResource& r, int sign) {
    const size_t dims = size_t(std::max(r.dims(), 2));
    if (value.size() < dims) {
        value.resize(dims, 0);
        named.resize(dims, 0);
    }
    value[kCpu] += sign * std::llround(r.cpu);
    value[kMemory] += sign * std::llround(r.mem);
    for (uint64_t m = r.mask(); m; m &= m - 1) {
        const int d = __builtin_ctzll(m);
        value[size_t(d)] += sign * std::llround(r.get(d));
        named[size_t(d)] += sign;
    }
}

void SettledJobs::Sum::add(const Sum& s) {
    if (value.size() < s.value.size()) {
        value.resize(s.value.size(), 0);
        named.resize(s.value.size(), 0);
    }
    for (size_t d = 0; d < s.value.size(); ++d) {
        value[d] += s.value[d];
        named[d] += s.named[d];
    }
}

void SettledJobs::QueueTotals::add(const QueueTotals& t) {
    jobs += t.jobs;
    emptyJobs += t.emptyJobs;
    allocated.add(t.allocated);
    request.add(t.request);
    inqueue.add(t.inqueue);
    elastic.add(t.elastic);
}

VResource SettledJobs::Sum::resource(int dims) const {
    VResource r(dims);
    if (value.empty()) return r;
    r.cpu = double(value[kCpu]);
    r.mem = double(value[kMemory]);
    for (size_t d = 2; d < value.size(); ++d)
        if (named[d] > 0) r.set(int(d), double(value[d]));
    return r;
}

SettledJobs::SettledJobs(ClusterState& state) : state_(state) {
    queues_.resize(state_.queues.size());
    for (uint32_t t = 0; t < state_.tasks.size(); ++t)
        if (state_.tasks[t].job == UINT32_MAX && (state_.tasks[t].status == TaskStatus::Pending ||
                                                  state_.tasks[t].status == TaskStatus::Pipelined))
            looseTasks_.push_back(t);
    for (uint32_t j = 0; j < state_.jobs.size(); ++j) evaluate(j);
    for (uint32_t j : state_.changedJobs) state_.jobs[j].changed = false;
    state_.changedJobs.clear();
    state_.trackChanges = true;
}

SettledJobs::~SettledJobs() {
    for (uint32_t j : state_.changedJobs) state_.jobs[j].changed = false;
    state_.changedJobs.clear();
    state_.trackChanges = false;
}

void SettledJobs::refresh() {
    // Index order keeps the sums' history the same whatever order the changes came in.
    auto& changed = state_.changedJobs;
    std::sort(changed.begin(), changed.end());
    changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
    for (uint32_t j : changed) {
        state_.jobs[j].changed = false;
        evaluate(j);
    }
    changed.clear();
}

bool SettledJobs::qualifies(uint32_t j) const {
    const auto& job = state_.jobs[j];
    const int32_t placed =
        job.statusCount[int(TaskStatus::Running)] + job.statusCount[int(TaskStatus::Bound)];
    if (job.phase != PodGroupPhase::Running || job.tasks.empty() || placed != int32_t(job.tasks.size()) ||
        placed < job.minAvailable)
        return false;
    // Valid as gang judges it (jobValid), so that preempt and reclaim would pass over it exactly as
    // the session left it out: every role has its minimum of pods.
    if (job.minAvailable < job.taskMinAvailableTotal) return true;
    for (const auto& [role, min] : job.minTaskMember) {
        int32_t n = 0;
        for (uint32_t t : job.tasks) n += state_.tasks[t].role == role;
        if (n < min) return false;
    }
    return true;
}

void SettledJobs::keepVictimIndexes() {
    if (victimIndexes_) return;
    victimIndexes_ = true;
    for (uint32_t j = 0; j < member_.size(); ++j)
        if (member_[j]) index(j, contribution_[j], +1);
}

void SettledJobs::index(uint32_t j, const Contribution& c, int sign) {
    if (byQueue_.size() <= c.queue) {
        byQueue_.resize(c.queue + 1);
        priorities_.resize(c.queue + 1);
        elastic_.resize(c.queue + 1, 0);
        held_.resize(c.queue + 1);
    }
    elastic_[c.queue] += sign * int32_t(c.beyondMin);
    auto& held = held_[c.queue];
    if (held.size() < size_t(state_.D())) held.resize(size_t(state_.D()));
    for (int d = 0; d < state_.D(); ++d) {
        const double amount = c.allocated.get(d);
        if (amount <= 0) continue;
        if (sign > 0) {
            ++held[size_t(d)][amount];
        } else if (auto it = held[size_t(d)].find(amount); it != held[size_t(d)].end() && --it->second == 0) {
            held[size_t(d)].erase(it);
        }
    }
    if (sign > 0) {
        byQueue_[c.queue].insert(j);
        ++priorities_[c.queue][c.priority];
        return;
    }
    byQueue_[c.queue].erase(j);
    if (auto it = priorities_[c.queue].find(c.priority); --it->second == 0) priorities_[c.queue].erase(it);
}

void SettledJobs::keepContentIndex() {
    if (contentIndex_) return;
    contentIndex_ = true;
    for (uint32_t j = 0; j < member_.size(); ++j)
        if (member_[j]) indexContent(j, contribution_[j].queue, +1);
}

void SettledJobs::indexContent(uint32_t j, uint32_t queue, int sign) {
    if (contentOf_.size() <= j) contentOf_.resize(state_.jobs.size(), -1);
    if (sign < 0) {
        contents_[size_t(contentOf_[j])].jobs.erase(j);
        contentOf_[j] = -1;
        return;
    }
    std::pair<uint32_t, std::vector<uint32_t>> key{queue, {}};
    for (uint32_t t : state_.jobs[j].tasks) key.second.push_back(state_.tasks[t].shape);
    std::sort(key.second.begin(), key.second.end());
    auto [it, added] = contentIds_.try_emplace(key, uint32_t(contents_.size()));
    if (added) {
        contents_.push_back(ContentGroup{queue, key.second, {}});
        if (contentsByQueue_.size() <= queue) contentsByQueue_.resize(queue + 1);
        contentsByQueue_[queue].push_back(it->second);
    }
    contents_[it->second].jobs.insert(j);
    contentOf_[j] = int32_t(it->second);
}

bool SettledJobs::parkable(uint32_t j) const {
    const auto& job = state_.jobs[j];
    if (job.phase != PodGroupPhase::Inqueue || job.tasks.empty() || job.minAvailable < 1) return false;
    // A hard-topology gang is parked when its highest tier resolves (Session::parkedNow says why
    // that is exact); an unknown tier name keeps it listed, so that its warning is printed.
    const auto& topology = job.topology;
    if (topology.mode == NetworkTopologyConstraint::Mode::Soft) return false;
    if (topology.mode == NetworkTopologyConstraint::Mode::Hard &&
        (state_.hyperNodes.size() < 2 ||
         (!topology.highestTierAllowed && !state_.hyperNodeTierByName.count(topology.highestTierName))))
        return false;
    if (job.statusCount[int(TaskStatus::Pending)] != int32_t(job.tasks.size())) return false;
    const uint32_t shape = state_.tasks[job.tasks[0]].shape;
    for (uint32_t t : job.tasks)
        if (state_.tasks[t].shape != shape || !state_.tasks[t].ours) return false;
    const auto& sh = state_.shapes[shape];
    return !sh.perNode && !sh.vres.isEmpty();
}

void SettledJobs::evaluate(uint32_t j) {
    if (member_.size() < state_.jobs.size()) {
        member_.resize(state_.jobs.size(), 0);
        contribution_.resize(state_.jobs.size());
        group_.resize(state_.jobs.size(), -1);
    }
    if (member_[j]) {
        const uint32_t q = contribution_[j].queue;
        apply(queues_[q], inqueue_, contribution_[j], -1);
        if (victimIndexes_) index(j, contribution_[j], -1);
        if (contentIndex_) indexContent(j, q, -1);
        member_[j] = 0;
        --settledCount_;
    }
    if (group_[j] >= 0) {
        auto& g = groups_[size_t(group_[j])];
        apply(g.totals, g.overcommit, contribution_[j], -1);
        group_[j] = -1;
    }
    contribution_[j] = Contribution{};
    const bool inSession = state_.jobAlive(j) && state_.jobs[j].queue >= 0;
    const bool settle = inSession && qualifies(j);
    auto it = std::lower_bound(unsettled_.begin(), unsettled_.end(), j);
    const bool listed = it != unsettled_.end() && *it == j;
    if (inSession && !settle && !listed) unsettled_.insert(it, j);
    if ((!inSession || settle) && listed) unsettled_.erase(it);
    const bool park = inSession && !settle && parkable(j);
    if (!settle && !park) return;
    // What proportion and overcommit would add for this job: a settled job's pods are all placed
    // (allocated = request), a parked job's all pending.
    const auto& job = state_.jobs[j];
    Contribution c;
    c.queue = uint32_t(job.queue);
    c.priority = job.priority;
    const int D = state_.D();
    c.allocated = VResource(D);
    c.request = VResource(D);
    for (uint32_t t : job.tasks) (settle ? c.allocated : c.request).add(state_.shapeOf(t).vres);
    if (settle) {
        c.request = c.allocated;
        int names[kMaxDims];
        c.empty = c.allocated.resourceNames(names) == 0;
    }
    c.elastic = elasticResource(state_, j);
    c.inqueueCounted = job.hasMinResources;
    if (c.inqueueCounted) {
        c.inqueue = inqueueResource(state_, j, jobAllocated(state_, j));
        c.overcommit = settle ? c.inqueue : deductSchedulingGated(state_, j, job.minResources);
    }
    if (settle) {
        if (queues_.size() <= c.queue) queues_.resize(c.queue + 1);
        apply(queues_[c.queue], inqueue_, c, +1);
        c.beyondMin = int32_t(job.tasks.size()) > job.minAvailable;
        if (victimIndexes_) index(j, c, +1);
        if (contentIndex_) indexContent(j, c.queue, +1);
        member_[j] = 1;
        ++settledCount_;
    } else {
        const uint32_t shape = state_.tasks[job.tasks[0]].shape;
        auto [g, added] =
            groupIndex_.try_emplace({c.queue, shape, job.minAvailable}, int32_t(groups_.size()));
        if (added) {
            groups_.push_back(ParkedGroup{c.queue, shape, job.minAvailable, {}, {}});
            state_.trackFits(shape);
        }
        group_[j] = g->second;
        auto& grp = groups_[size_t(g->second)];
        apply(grp.totals, grp.overcommit, c, +1);
    }
    contribution_[j] = std::move(c);
}

void SettledJobs::apply(QueueTotals& totals, Sum& overcommit, const Contribution& c, int sign) {
    totals.jobs += sign;
    totals.emptyJobs += sign * int32_t(c.empty);
    totals.allocated.add(c.allocated, sign);
    totals.request.add(c.request, sign);
    totals.elastic.add(c.elastic, sign);
    if (c.inqueueCounted) {
        totals.inqueue.add(c.inqueue, sign);
        overcommit.add(c.overcommit, sign);
    }
}

void SettledJobs::partition(Parked parked, std::vector<uint32_t>& sessionJobs) {
    outQueues_ = queues_;
    if (outQueues_.size() < state_.queues.size()) outQueues_.resize(state_.queues.size());
    outInqueue_ = inqueue_;
    outParked_.clear();
    groupOut_.assign(groups_.size(), 0);
    summing_ = parked == Parked::Summed;
    if (parked != Parked::In)
        for (size_t g = 0; g < groups_.size(); ++g) {
            const auto& grp = groups_[g];
            if (grp.totals.jobs == 0) continue;
            if (!summing_) {
                if (state_.fitCount(grp.shape) >= grp.minAvailable) continue;
                groupOut_[g] = 1;
            }
            if (outQueues_.size() <= grp.queue) outQueues_.resize(grp.queue + 1);
            outQueues_[grp.queue].add(grp.totals);
            outInqueue_.add(grp.overcommit);
        }
    sessionJobs.clear();
    for (uint32_t j : unsettled_) {
        if (group_[j] >= 0 && groupOut_[size_t(group_[j])])
            outParked_.push_back(j);
        else
            sessionJobs.push_back(j);
    }
}

} // namespace gantry::engine
