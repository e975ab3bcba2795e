#include "session/settled_jobs.h"

#include "session/job_resources.h"

#include <algorithm>
#include <cmath>

namespace gantry::engine {

void SettledJobs::Sum::add(const VResource& r, int sign) {
    const size_t dims = size_t(r.dims());
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
    return job.phase == "Running" && !job.tasks.empty() && placed == int32_t(job.tasks.size()) &&
           placed >= job.minAvailable;
}

void SettledJobs::evaluate(uint32_t j) {
    if (member_.size() < state_.jobs.size()) {
        member_.resize(state_.jobs.size(), 0);
        contribution_.resize(state_.jobs.size());
    }
    const bool inSession = state_.jobAlive(j) && state_.jobs[j].queue >= 0;
    if (member_[j]) {
        apply(contribution_[j], -1);
        contribution_[j] = Contribution{};
        member_[j] = 0;
        --settledCount_;
    }
    const bool settle = inSession && qualifies(j);
    auto it = std::lower_bound(unsettled_.begin(), unsettled_.end(), j);
    const bool listed = it != unsettled_.end() && *it == j;
    if (inSession && !settle && !listed) unsettled_.insert(it, j);
    if ((!inSession || settle) && listed) unsettled_.erase(it);
    if (!settle) return;
    // What proportion and overcommit would add for this job (allocated = every pod's request).
    Contribution c;
    c.queue = uint32_t(state_.jobs[j].queue);
    const int D = state_.D();
    c.allocated = VResource(D);
    for (uint32_t t : state_.jobs[j].tasks) c.allocated.add(state_.shapeOf(t).vres);
    c.elastic = elasticResource(state_, j);
    c.inqueueCounted = state_.jobs[j].hasMinResources;
    if (c.inqueueCounted) c.inqueue = inqueueResource(state_, j, jobAllocated(state_, j));
    apply(c, +1);
    contribution_[j] = std::move(c);
    member_[j] = 1;
    ++settledCount_;
}

void SettledJobs::apply(const Contribution& c, int sign) {
    const uint32_t q = c.queue;
    if (queues_.size() <= q) queues_.resize(q + 1);
    auto& totals = queues_[q];
    totals.jobs += sign;
    totals.allocated.add(c.allocated, sign);
    totals.elastic.add(c.elastic, sign);
    if (c.inqueueCounted) {
        totals.inqueue.add(c.inqueue, sign);
        inqueue_.add(c.inqueue, sign);
    }
}

} // namespace gantry::engine
