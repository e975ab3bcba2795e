#pragma once
// Jobs a session cannot change when it evicts nothing, kept out of the simulator's sessions.
//
// A job is settled when its PodGroup is Running and every one of its pods is Bound or Running (at
// least minAvailable of them). Without a preempt or reclaim action nothing in a session touches
// such a job: enqueue admits only Pending PodGroups, allocate and backfill find none of its pods
// pending, and close finds the phase it already has. A cluster at steady state is mostly settled
// jobs, so a session that leaves them out costs what the waiting jobs cost, not what the cluster
// holds. The plugins that sum over every job (proportion per queue, overcommit over the cluster)
// add the settled jobs' totals kept here; the totals are exact integers, so it does not matter in
// which order anything was added.
//
// The tracker follows ClusterState::changedJobs: refresh() re-evaluates exactly the jobs whose pods
// or phase changed since the last call.
#include "session/cluster_state.h"

#include <cstdint>
#include <vector>

namespace gantry::engine {

class SettledJobs {
  public:
    // A sum of VResources, exact: values per dimension and, for the scalar dimensions, how many of
    // the summed resources name each (a name is present in the sum while one of them names it).
    struct Sum {
        std::vector<int64_t> value;
        std::vector<int32_t> named;
        void add(const VResource& r, int sign);
        VResource resource(int dims) const;
    };
    // What proportion reads of a queue's settled jobs.
    struct QueueTotals {
        int32_t jobs = 0;
        Sum allocated, inqueue, elastic; // allocated = request: a settled job has nothing pending
    };

    explicit SettledJobs(ClusterState& state);
    ~SettledJobs();
    SettledJobs(const SettledJobs&) = delete;
    SettledJobs& operator=(const SettledJobs&) = delete;

    void refresh();
    bool settled(uint32_t job) const { return job < member_.size() && member_[job]; }
    // Live jobs with a queue that are not settled, ascending.
    const std::vector<uint32_t>& unsettled() const { return unsettled_; }
    // Pending pods without a PodGroup (the builder's; jobs added later always have one).
    const std::vector<uint32_t>& looseTasks() const { return looseTasks_; }
    const QueueTotals& queue(uint32_t q) const { return queues_[q]; }
    const Sum& inqueue() const { return inqueue_; } // over every queue
    size_t settledCount() const { return settledCount_; }

  private:
    struct Contribution {
        uint32_t queue = 0; // the job's, kept: a removed job no longer names it
        VResource allocated, inqueue, elastic;
        bool inqueueCounted = false;
    };
    bool qualifies(uint32_t job) const;
    void evaluate(uint32_t job);
    void apply(const Contribution& c, int sign);

    ClusterState& state_;
    std::vector<uint8_t> member_;
    std::vector<Contribution> contribution_;
    std::vector<uint32_t> unsettled_;
    std::vector<uint32_t> looseTasks_;
    std::vector<QueueTotals> queues_;
    Sum inqueue_;
    size_t settledCount_ = 0;
};

} // namespace gantry::engine
