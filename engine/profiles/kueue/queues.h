#pragma once
// The pending workloads of every ClusterQueue, as Kueue's queue manager keeps them: an active heap
// (higher priority first, then the older queue-order time, then UID; under Admission Fair Sharing
// the lower LocalQueue usage before all of them) whose head each cycle takes,
// and the inadmissible set that waits until something in the cohort changes. A BestEffortFIFO
// queue parks a head that cannot be admitted and moves on; a StrictFIFO queue keeps it at the head.
#include "profiles/kueue/workloads.h"
#include "profiles/kueue/world.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace gantry::engine::kueue {

enum class Requeue {
    Generic,
    FailedAfterNomination,
    NamespaceMismatch,
    NoFit,
    PreemptionNoCandidates,
    PendingPreemption
};

class Queues {
  public:
    Queues(const World& w, std::vector<Workload>& wls);

    // A new pending workload (PushOrUpdate): active unless its backoff is running.
    void push(uint32_t wl, double now);
    // Takes the head of a ClusterQueue; UINT32_MAX when its active heap is empty.
    uint32_t pop(int cq);
    // Puts a head back after a cycle that did not admit it.
    void requeue(uint32_t wl, Requeue reason, double now, bool pendingFlavors,
                 const std::string& pendingReason);
    // Removes a workload from its queue (admitted, finished, deactivated).
    void remove(uint32_t wl);
    // Something in the cohort tree of the ClusterQueue changed: its inadmissible workloads (and
    // those of every queue of the tree) go back to the heap.
    void retryInadmissible(int cq, double now);
    // Workloads whose backoff ended go back to the heap.
    void expireBackoff(double now);
    // The LocalQueue usages of an Admission Fair Sharing ClusterQueue changed: its heap is ordered
    // again by them (Kueue compares with the ledger's usage whenever it sorts).
    void reorder(int cq);
    double nextBackoff() const;

    std::vector<uint32_t> active(int cq) const;
    std::vector<uint32_t> inadmissible(int cq) const;
    size_t pending(int cq) const;

  private:
    struct Order {
        const std::vector<Workload>* wls;
        bool byUsage = false; // Admission Fair Sharing: lower LocalQueue usage first
        bool operator()(uint32_t a, uint32_t b) const;
    };
    struct Queue {
        std::set<uint32_t, Order> active;
        std::set<uint32_t> inadmissible;
        int64_t sticky = -1; // BestEffortFIFO: the workload waiting for its preemptions stays first
        int64_t popCycle = 0, inadmissibleCycle = -1;
        std::map<std::string, std::string> bulkMoved; // scheduling hash -> reason
    };
    const World& w_;
    std::vector<Workload>& wls_;
    std::vector<Queue> queues_;
    std::set<std::pair<double, uint32_t>> backoff_; // (requeueAt, wl) waiting in inadmissible

    bool backoffExpired(const Workload& wl, double now) const;
    void toInadmissible(Queue& q, uint32_t wl);
};

} // namespace gantry::engine::kueue
