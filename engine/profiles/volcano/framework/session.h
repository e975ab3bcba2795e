#pragma once
// A scheduling session, built the way Volcano's framework.Session is: opened on a cluster state
// with a scheduler configuration, it instantiates the configured plugins tier by tier; each plugin
// registers callbacks on named extension points; actions then run against the session and the
// dispatchers below combine the callbacks with Volcano's tier rules. Every change to the cluster
// state is logged and undone when the session closes; what the session decided is returned as a
// CycleResult.
#include "model/scheduler_conf.h"
#include "profile/cycle_result.h"
#include "profiles/volcano/framework/plugin.h"
#include "profiles/volcano/framework/session_cache.h"
#include "profiles/volcano/framework/session_plan.h"
#include "state/cluster_state.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace gantry::engine {

namespace k8s {
class ClaimTasks;
}

struct SessionOptions {
    bool useNodeIndex = true; // false = evaluate every node (the reference the index must equal)
    double nowSeconds = 1e18; // for sla: objects without timestamps count as created long ago
    // The scheduler's period between sessions (schedulePeriod): what a plugin that accrues with time
    // (fairshare) makes of the sessions a simulation skipped while nothing changed.
    double periodSeconds = 1;
    // Kept from session to session (PluginMemory); null: this session's own, a fresh scheduler's.
    PluginMemory* memory = nullptr;
    bool computeScores = false; // fill CycleResult::scores for pending pods on the initial state
    // Carried from one session to the next on the same state (the simulator's): settled jobs stay
    // out of the session when the configuration allows it (SessionCache::covers); preempt and
    // reclaim still find them on the nodes as victims.
    SessionCache* cache = nullptr;
    // The result by index only (CycleResult::phaseChanges and jobReasons); the maps keyed by
    // name (podGroupPhase, pending, gangs, pipelined) stay empty.
    bool compactResult = false;
    // With a cache and a compact result: parked jobs that cannot start are not tried (no reason
    // for them; CycleResult::parkedJobs lists them), when SessionCache::parks allows it. With an
    // action that evicts they stay in the session and each action skips them only where trying
    // could change nothing.
    bool parkJobs = false;
    // The pods' DRA claims and the devices in use, kept across sessions (null: no pod uses a claim).
    // The predicates plugin schedules them, as upstream's runs kube-scheduler's DynamicResources.
    k8s::ClaimTasks* claims = nullptr;
};

struct TaskTx {
    TaskStatus status = TaskStatus::Pending;
    int32_t node = -1;
};

class Session {
  public:
    // Plans the configuration for this session alone (a copy: plugins keep pointers into it).
    Session(ClusterState& state, const SchedulerConf& conf, const SessionOptions& options = {});
    // On a plan made once for many sessions; the plan outlives the session.
    Session(ClusterState& state, const SessionPlan& plan, const SessionOptions& options = {});
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

  private:
    // own: the plan when the session made it (plan is then null).
    Session(ClusterState& state, const SessionPlan* plan, std::unique_ptr<const SessionPlan> own,
            const SessionOptions& options);
    std::unique_ptr<const SessionPlan> ownPlan_;
    const SessionPlan& plan_;
    SessionCache* cache_; // the caller's, when it covers the configuration
    std::vector<JobSession> ownJobs_;
    std::vector<uint32_t> ownSlot_;
    SettledJobs* settled_ = nullptr;
    bool parking_ = false;
    bool hyperNodeGradient_ = false; // some plugin's hyperNodeGradient is on
    bool startsShort(uint32_t job, int64_t fit);

  public:
    ClusterState& state;
    const SchedulerConf& conf; // the plan's: plugins keep pointers into it
    SessionOptions options;
    const std::set<std::string>& enabledActions; // conf.EnabledActionMap
    std::vector<PluginSlot> pluginSlots;         // tier order
    std::vector<JobSession>& jobs;               // parallel to state.jobs
    std::vector<uint32_t> sessionJobs;           // jobs in the session, by job order of the input
    PluginMemory& memory() { return options.memory ? *options.memory : ownMemory_; }
    VResource totalResource; // sum of allocatable of nodes
    // The settled jobs left out of this session (null when every job is in it).
    const SettledJobs* settled() const { return settled_; }
    // Asks the settled jobs' tracker to keep them by content too (SettledJobs::contentGroups).
    void keepSettledContents() {
        if (settled_) settled_->keepContentIndex();
    }
    // Whether the scheduler sees the job (a PodGroup in an existing queue): listed in sessionJobs,
    // or settled and left out, when it can only come up as a victim of preempt or reclaim.
    bool inSession(uint32_t job) const { return jobs[job].inSession || (settled_ && settled_->settled(job)); }
    // Whether the job is one of sessionJobs.
    bool listed(uint32_t job) const {
        return job < slot_.size() && slot_[job] < sessionJobs.size() && sessionJobs[slot_[job]] == job;
    }
    // Whether allocate should not try a parked job: too few of its pods fit for it to start
    // (for a hard-topology gang, in any one hypernode it may use); the job is marked as not tried.
    bool parkedNow(uint32_t job);
    // Whether a parked job cannot start by placements where its pods fit as things are: fewer of
    // them fit than it still needs. Preempt and reclaim pass such a job over while it can have no
    // victims.
    bool cannotStart(uint32_t job);
    // Whether not one pod of a parked job fits as things are (its pods are all of one shape).
    bool noneFits(uint32_t job) const;
    // Position of a listed job in sessionJobs, for plugins that keep per-job arrays.
    uint32_t sessionSlot(uint32_t job) const { return slot_[job]; }

    // Runs the configured actions once each, in order, and closes the session.
    CycleResult run();
    // Computes the result (phases, pipelined, pending reasons) and undoes all changes.
    CycleResult close();

    // --- registration (valid while a plugin's onSessionOpen runs) ---
    PluginSlot& self() { return pluginSlots[size_t(current_)]; }
    void addEventHandler(TaskEventFn onAllocate, TaskEventFn onDeallocate);
    bool hierarchyEnabled(const std::string& plugin) const;
    std::optional<std::string> actionArgument(const std::string& action, const std::string& key) const;

    // --- dispatchers with Volcano's tier rules ---
    bool jobOrderLess(uint32_t l, uint32_t r);
    int jobOrderCompare(uint32_t l, uint32_t r);
    bool queueOrderLess(uint32_t l, uint32_t r);
    bool victimQueueOrderLess(uint32_t l, uint32_t r, uint32_t preemptorQueue);
    bool taskOrderLess(uint32_t l, uint32_t r);
    int taskCompare(uint32_t l, uint32_t r);
    std::vector<uint32_t> preemptableVictims(uint32_t preemptor, const std::vector<uint32_t>& preemptees);
    std::vector<uint32_t> reclaimableVictims(uint32_t reclaimer, const std::vector<uint32_t>& reclaimees);
    bool overused(uint32_t queue);
    bool preemptive(uint32_t queue, const std::vector<uint32_t>& tasks);
    bool allocatable(uint32_t queue, uint32_t task);
    bool jobReady(uint32_t job);
    bool jobPipelined(uint32_t job);
    bool jobStarving(uint32_t job);
    std::optional<ValidateResult> jobValid(uint32_t job);
    bool jobEnqueueable(uint32_t job);
    void jobEnqueued(uint32_t job);
    std::optional<std::string> prePredicate(uint32_t task);
    void predicate(uint32_t task, uint32_t node, FitResult& out);
    void simulateBegin(uint32_t preemptor);
    void simulateTask(uint32_t preemptor, uint32_t task, uint32_t node, int sign);
    bool simulateAllocatable(uint32_t queue, uint32_t task);
    void simulatePredicate(uint32_t task, uint32_t node, FitResult& out);
    double nodeOrderScore(uint32_t task, uint32_t node);
    void batchNodeOrder(uint32_t task, const uint32_t* nodes, const uint32_t* counts, size_t n,
                        double* scores);
    // Whether every node's score for the task is its own (PluginSlot::batchNodeOrderAlone).
    bool nodeScoresAlone(uint32_t task);
    std::map<int32_t, double> hyperNodeOrder(uint32_t job, const std::vector<int32_t>& candidates);
    std::vector<std::vector<int32_t>> hyperNodeGradient(uint32_t job, int32_t hn, Purpose purpose,
                                                        bool forSubJob);
    // Victim priority: the victim to pop first compares "less" (BuildVictimsPriorityQueue).
    bool victimLess(uint32_t l, uint32_t r, uint32_t preemptor);
    void sortVictims(std::vector<uint32_t>& victims, uint32_t preemptor);

    // --- primitives (statements call these; each is undone at close) ---
    void setStatus(uint32_t task, TaskStatus status, int32_t node = -1);
    // The k8s NodeInfo view (kept by the predicates plugin's event handlers, as upstream).
    void k8sAdd(uint32_t task, uint32_t node);
    void k8sRemove(uint32_t task, uint32_t node);
    void fireAllocate(uint32_t task);
    void fireDeallocate(uint32_t task);
    void bind(uint32_t task);  // dispatch: record the binding, status Binding
    void evict(uint32_t task); // record the eviction
    // Session.Allocate (backfill): allocate and dispatch the job when it is ready.
    void allocate(uint32_t task, uint32_t node);

    // --- job views (api.JobInfo helpers) ---
    int32_t count(uint32_t job, TaskStatus s) const { return state.jobs[job].statusCount[int(s)]; }
    int32_t readyTaskNum(uint32_t job) const;
    // One pending pod per shape of the job, of those the actions may place (Volcano's, not gated),
    // in task order: whom to ask what depends on a pod's job and shape alone. Valid until the next call.
    const std::vector<uint32_t>& pendingShapeTasks(uint32_t job);
    int32_t waitingTaskNum(uint32_t job) const { return count(job, TaskStatus::Pipelined); }
    int32_t pendingBestEffortTaskNum(uint32_t job) const { return state.jobs[job].pendingBestEffort; }
    int32_t validTaskNum(uint32_t job) const;
    int32_t scheduledTaskNum(uint32_t job) const;
    int32_t allocatedTaskNum(uint32_t job) const;
    int32_t taskCount(uint32_t job) const { return int32_t(state.jobs[job].tasks.size()); }
    bool isReady(uint32_t job) const;
    bool isPipelined(uint32_t job) const;
    bool isStarving(uint32_t job) const;
    bool isPending(uint32_t job) const;
    bool checkTaskValid(uint32_t job) const;
    bool checkTaskReady(uint32_t job) const;
    bool checkTaskPipelined(uint32_t job) const;
    bool needContinueAllocating(uint32_t job) const;
    bool taskHasFitErrors(uint32_t job, uint32_t task) const;
    VResource jobAllocated(uint32_t job) const;
    VResource jobMinResources(uint32_t job) const { return state.jobs[job].minResources; }
    VResource inqueueResource(uint32_t job, const VResource& allocated) const; // util.GetInqueueResource
    VResource elasticResource(uint32_t job) const;                             // JobInfo.GetElasticResources
    const VResource& taskRes(uint32_t task) const { return state.shapes[state.tasks[task].shape].vres; }
    uint32_t queueOf(uint32_t job) const { return uint32_t(state.jobs[job].queue); }
    uint32_t jobOf(uint32_t task) const { return state.tasks[task].job; }
    std::vector<uint32_t> tasksWithStatus(uint32_t job, TaskStatus s) const;

    // --- fit errors and reasons ---
    uint32_t reasonId(const std::string& text);
    const std::string& reasonText(uint32_t id) const { return reasons_.texts[id]; }
    std::string fitErrorMessage(const FitErrors& fe) const;
    TaskTx lastTx(uint32_t task) const;
    void recordLastTx(uint32_t task, TaskStatus status, int32_t node) {
        lastTx_[task] = TaskTx{status, node};
    }
    // The hypernode a task's job is being placed under (network-topology-aware scoring).
    std::unordered_map<uint32_t, int32_t> taskJobHyperNode;
    int32_t clusterTopHyperNode() const { return int32_t(state.hyperNodes.size()) - 1; }
    int32_t lcaHyperNode(int32_t a, int32_t b) const;
    int32_t lowestHyperNodeOf(uint32_t node) const; // tier-lowest hypernode containing it, -1 if only the top

    // --- output ---
    std::map<std::string, std::string> bindings;
    std::vector<std::string> evictions;
    std::vector<std::pair<uint32_t, uint32_t>> boundTasks;
    std::vector<uint32_t> evictedTasks;
    std::vector<std::string> warnings;

  private:
    PluginMemory ownMemory_;
    std::vector<uint32_t> shapeTasks_, shapesSeen_; // pendingShapeTasks
    void openPlugins();
    // warnEveryJob: warn about unknown tier names for every job a full session would list, not only
    // for the listed ones (the first session of a cache, whose settled jobs are left out).
    void adjustTopology(bool warnEveryJob);
    std::optional<int32_t> tierAllowed(uint32_t job, bool warn);
    std::vector<uint32_t> tierVictims(bool reclaim, uint32_t task, const std::vector<uint32_t>& candidates);
    struct Undo {
        uint32_t task;
        TaskStatus status;
        int32_t node;
        bool inK8s;
    };
    std::vector<Undo> undo_;
    std::vector<std::pair<TaskEventFn, TaskEventFn>> handlers_;
    int current_ = -1;
    bool closed_ = false;
    ReasonTable ownReasons_;
    ReasonTable& reasons_; // the cache's when there is one: reason texts recur session after session
    std::unordered_map<uint32_t, TaskTx> lastTx_;
    std::vector<std::pair<uint32_t, std::string>> bindOrder_;
    std::vector<uint32_t>& slot_;
    void rollback();
    void releaseJobs(); // resets the cache's per-job storage
    std::string pendingReason(uint32_t task, const GangStatus* gang);
};

} // namespace gantry::engine
