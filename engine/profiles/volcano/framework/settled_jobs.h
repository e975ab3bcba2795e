#pragma once
// Jobs a session does not need to walk, kept out of the simulator's sessions.
//
// A job is settled when its PodGroup is Running and every one of its pods is Bound or Running (at
// least minAvailable of them, and each role's minimum). Nothing in a session asks for such a job by
// walking the jobs: enqueue admits only Pending PodGroups, allocate and backfill find none of its
// pods pending, preempt and reclaim find it starving for nothing, and close finds the phase it
// already has (a pod evicted in the session still counts as scheduled). Preempt and reclaim may still take
// its pods: they find them on the nodes, and the plugins answer about the job from the state
// (Session::inSession). A cluster at steady state is mostly settled jobs, so a session that leaves them out
// costs what the waiting jobs cost, not what the cluster holds. The plugins that sum over every job
// (proportion per queue, overcommit over the cluster) add the settled jobs' totals kept here; the totals are
// exact integers, so it does not matter in which order anything was added.
//
// Parked jobs are the other kind a session may leave out: admitted (Inqueue) jobs whose pods are
// all pending and all of one shape. They are grouped by queue, shape and minAvailable; a session
// leaves a group out while fewer pods of its shape fit the cluster than minAvailable, counting the
// request alone (ClusterState::fitCount, an upper bound). Every placement only lowers that count,
// so however allocate went, none of them could be ready or pipelined: it would place some pods,
// find no node for the next and undo them all. Without sla (which may pipeline a job gang would
// not) that failure changes nothing but the reasons, which is why parking is for sessions whose
// caller keeps the last reason of a parked job (the simulator).
//
// The tracker follows ClusterState::changedJobs: refresh() re-evaluates exactly the jobs whose pods
// or phase changed since the last call.
#include "state/cluster_state.h"

#include <cstdint>
#include <map>
#include <set>
#include <tuple>
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
        void add(const Sum& s);
        VResource resource(int dims) const;
    };
    // What proportion and hierarchical drf read of a queue's jobs left out. emptyJobs: the settled
    // ones that hold nothing (no resource of at least 0.1, pods included).
    struct QueueTotals {
        int32_t jobs = 0, emptyJobs = 0;
        Sum allocated, request, inqueue, elastic;
        void add(const QueueTotals& t);
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
    // What a settled job holds, as when it settled: every pod's request (Volcano's Resreq).
    const VResource& allocated(uint32_t job) const { return contribution_[job].allocated; }
    // Keep, from now on, what preempt and reclaim ask about the settled jobs (firstSettled,
    // elasticSettled, lowestSettledPriority); sessions without them never pay for it.
    void keepVictimIndexes();
    // The settled job of queue q with the lowest index (UINT32_MAX when none): reclaim pushes the
    // queues in the order of their first job, settled or not.
    uint32_t firstSettled(uint32_t q) const {
        return q < byQueue_.size() && !byQueue_[q].empty() ? *byQueue_[q].begin() : UINT32_MAX;
    }
    // How many settled jobs of queue q have more pods than minAvailable (gang may take the others).
    int32_t elasticSettled(uint32_t q) const { return q < elastic_.size() ? elastic_[q] : 0; }
    // The lowest priority of a settled job of queue q (INT32_MAX when none): preempt looks for
    // victims of lower priority than the preemptor's.
    int32_t lowestSettledPriority(uint32_t q) const {
        return q < priorities_.size() && !priorities_[q].empty() ? priorities_[q].begin()->first : INT32_MAX;
    }
    // The most of resource dim a settled job of queue q holds (0 when none): no settled job of the
    // queue has a drf share larger than these over the cluster's totals allow (preempt's bound).
    double mostSettledHeld(uint32_t q, int dim) const {
        if (q >= held_.size() || size_t(dim) >= held_[q].size() || held_[q][size_t(dim)].empty()) return 0;
        return held_[q][size_t(dim)].rbegin()->first;
    }
    bool keepsVictimIndexes() const { return victimIndexes_; }
    // Settled jobs of one queue whose pods have the same shapes: each holds and asks what they add
    // up to, so a plugin that judges a victim by its queue, its shape and what its job holds and
    // asks judges the pods of one shape alike in all of them (hierarchical drf).
    struct ContentGroup {
        uint32_t queue = 0;
        std::vector<uint32_t> shapes; // its jobs' pods' shapes, ascending
        std::set<uint32_t> jobs;      // the group's settled jobs, ascending (may be none)
    };
    // Keep, from now on, the settled jobs by content (contentGroups); only hierarchical drf pays.
    void keepContentIndex();
    // The content groups of queue q, in the order they were made.
    const std::vector<uint32_t>& contentGroups(uint32_t q) const {
        static const std::vector<uint32_t> none;
        return q < contentsByQueue_.size() ? contentsByQueue_[q] : none;
    }
    const ContentGroup& contentGroup(uint32_t g) const { return contents_[g]; }
    const Sum& inqueue() const { return inqueue_; } // over every queue
    size_t settledCount() const { return settledCount_; }

    // What a session does with the parked jobs: keeps them as any other job (In), leaves the
    // groups that cannot start out (Out), or keeps every one in but counts them through the
    // totals (Summed: sessions whose actions evict, which still try them).
    enum class Parked { In, Out, Summed };
    // The jobs of one session: the unsettled ones, less the parked groups left out. Then leftOut
    // and leftOutInqueue give what proportion and overcommit add for the settled jobs and the
    // parked ones left out or summed (summed tells which jobs of the session those are), and
    // leftOutParked lists the parked ones left out.
    void partition(Parked parked, std::vector<uint32_t>& sessionJobs);
    const QueueTotals& leftOut(uint32_t q) const { return outQueues_[q]; }
    const Sum& leftOutInqueue() const { return outInqueue_; }
    const std::vector<uint32_t>& leftOutParked() const { return outParked_; }
    bool summed(uint32_t job) const { return summing_ && parked(job); }
    // Parked: how many more of its pods a job needs placed is compared with fitCount(shape).
    bool parked(uint32_t job) const { return job < group_.size() && group_[job] >= 0; }

  private:
    struct Contribution {
        uint32_t queue = 0;     // the job's, kept: a removed job no longer names it
        int32_t priority = 0;   // likewise
        bool beyondMin = false; // more pods than minAvailable (elasticSettled)
        bool empty = false;     // settled, holding nothing (QueueTotals::emptyJobs)
        VResource allocated, request, inqueue, elastic;
        VResource overcommit; // what overcommit adds: inqueue when settled, minResources when parked
        bool inqueueCounted = false;
    };
    struct ParkedGroup {
        uint32_t queue = 0, shape = 0;
        int32_t minAvailable = 0;
        QueueTotals totals;
        Sum overcommit;
    };
    bool qualifies(uint32_t job) const;
    bool parkable(uint32_t job) const;
    void evaluate(uint32_t job);
    void apply(QueueTotals& totals, Sum& overcommit, const Contribution& c, int sign);
    void index(uint32_t job, const Contribution& c, int sign); // the victim indexes
    void indexContent(uint32_t job, uint32_t queue, int sign);

    ClusterState& state_;
    std::vector<uint8_t> member_;
    std::vector<Contribution> contribution_;
    std::vector<uint32_t> unsettled_;
    std::vector<uint32_t> looseTasks_;
    std::vector<QueueTotals> queues_;
    bool victimIndexes_ = false;
    std::vector<std::set<uint32_t>> byQueue_;                  // settled jobs of each queue
    std::vector<std::map<int32_t, int32_t>> priorities_;       // settled jobs of each queue by priority
    std::vector<int32_t> elastic_;                             // elasticSettled, by queue
    std::vector<std::vector<std::map<double, int32_t>>> held_; // by queue and dimension: amounts held
    bool contentIndex_ = false;
    std::vector<ContentGroup> contents_;
    std::vector<std::vector<uint32_t>> contentsByQueue_;
    std::map<std::pair<uint32_t, std::vector<uint32_t>>, uint32_t> contentIds_; // queue, shapes
    std::vector<int32_t> contentOf_; // settled job -> its content group, -1
    Sum inqueue_;
    size_t settledCount_ = 0;
    std::vector<int32_t> group_; // parked job -> its group, -1
    std::vector<ParkedGroup> groups_;
    std::map<std::tuple<uint32_t, uint32_t, int32_t>, int32_t> groupIndex_; // queue, shape, minAvailable
    std::vector<QueueTotals> outQueues_;
    Sum outInqueue_;
    std::vector<uint32_t> outParked_;
    std::vector<uint8_t> groupOut_;
    bool summing_ = false;
};

} // namespace gantry::engine
