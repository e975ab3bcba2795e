#pragma once
// One scheduling cycle of Kueue's scheduler (pkg/scheduler, Scheduler.schedule): the head of every
// active ClusterQueue, a flavor assignment for each against one snapshot of quota usage, the heads
// in Kueue's order (classical: no borrowing first, then priority, then age; with fair sharing, a
// tournament on dominant resource share up the cohort tree), then for each in turn: admit, issue
// preemptions, or skip; the heads not admitted go back to their queues.
#include "profiles/kueue/context.h"
#include "profiles/kueue/queues.h"
#include "profiles/kueue/tas.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gantry::engine::kueue {

struct CycleReport {
    std::vector<uint32_t> admitted;                          // in admission order
    std::vector<std::pair<uint32_t, std::string>> preempted; // victim, reason
    std::vector<std::pair<uint32_t, std::string>> pending;   // heads not admitted, with their reason
};

class Scheduler {
  public:
    Scheduler(const Cluster& cluster, const gantry::kueue::PolicyObjects& objects, const KueueConfig& config);

    World& world() { return w_; }
    const World& world() const { return w_; }
    std::vector<Workload>& workloads() { return wls_; }
    const std::vector<Workload>& workloads() const { return wls_; }
    Queues& queues() { return *queues_; }
    const Queues& queues() const { return *queues_; }

    // Takes the state's jobs as workloads: all of them the first time, then those the state
    // reports changed (new, finished). Returns the workloads that left (finished) since. In a
    // simulation (simulationStart given) every workload counts as created when the simulation
    // sees it first, on its clock.
    void attach(ClusterState& st, std::optional<double> simulationStart);
    std::vector<uint32_t> sync(ClusterState& st, double now);
    // The job's first workload (a job whose pods Kueue admits one by one has one per pod, after it).
    uint32_t workloadOf(uint32_t job) const { return job < byJob_.size() ? byJob_[job] : UINT32_MAX; }

    CycleReport cycle(ClusterState& st, double now);

    // Releases an admitted workload's quota (finished, or evicted and its pods gone); `finished`
    // takes it out for good, else it goes back to its queue.
    void release(uint32_t wl, double now, bool finished);
    int64_t cycles() const { return cycle_; }
    // The latest time written in the input's Kueue objects (the clock of a single cycle).
    double inputClock() const { return inputClock_; }
    Diagnostics takeWarnings();

  private:
    World w_;
    std::vector<Workload> wls_;
    std::unique_ptr<Queues> queues_;
    std::unique_ptr<TasIndex> tas_;
    std::vector<int64_t> generation_;
    std::vector<uint32_t> byJob_;
    std::vector<uint8_t> removed_, admittedThisCycle_; // per workload, for the cycle's Context
    std::vector<uint32_t> toPush_;  // adopted pending workloads, queued at the next cycle's clock
    std::vector<uint32_t> blocked_; // pending workloads whose queues cannot admit them (blockedReason)
    int64_t cycle_ = 0;
    double inputClock_ = 0;
    bool attached_ = false;
    Diagnostics warnings_;

    void adopt(const ClusterState& st, uint32_t job, double now, bool arriving);
    void adoptWorkload(Workload wl, double now, bool arriving);
    void hold(uint32_t wl, int sign); // add (+1) or remove (-1) an admitted workload's usage
};

} // namespace gantry::engine::kueue
