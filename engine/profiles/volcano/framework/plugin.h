#pragma once
// What a plugin and an action are to the framework: the interfaces, the extension points a plugin
// registers callbacks on (Volcano's framework.Session Add*Fn), and the slot holding one plugin's
// callbacks with its switches resolved.
#include "k8s/status.h"
#include "model/scheduler_conf.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gantry::engine {

class Session;
class Statement;

// What plugins keep from one session to the next in one scheduler process (upstream: package
// variables, such as fairshare's usage history). The profile owns it; a session given none has a
// fresh one, as a scheduler that has just started.
class PluginMemory {
  public:
    // The plugin's store, made on first use.
    template <class T> T& of(const std::string& plugin) {
        auto& slot = stores_[plugin];
        if (!slot) slot = std::make_shared<T>();
        return *static_cast<T*>(slot.get());
    }
    // The plugin's store, or null when no session made it.
    template <class T> const T* find(const std::string& plugin) const {
        auto it = stores_.find(plugin);
        return it == stores_.end() ? nullptr : static_cast<const T*>(it->second.get());
    }

  private:
    std::map<std::string, std::shared_ptr<void>> stores_;
};

class Plugin {
  public:
    virtual ~Plugin() = default;
    virtual void onSessionOpen(Session& ssn) = 0;
    virtual void onSessionClose(Session&) {}
};

class Action {
  public:
    virtual ~Action() = default;
    virtual void execute(Session& ssn) = 0;
};

enum class Purpose { Allocate, Evict };

struct ValidateResult {
    bool pass = true;
    std::string reason;
    std::string message;
};

using CompareFn = std::function<int(uint32_t, uint32_t)>;
using VictimCompareFn = std::function<int(uint32_t, uint32_t, uint32_t)>;
// Returns the victims and sets *vote: 0 abstains, otherwise the plugin decided.
using EvictableFn = std::function<std::vector<uint32_t>(uint32_t, const std::vector<uint32_t>&, int*)>;
using JobPredicate = std::function<bool(uint32_t)>;
using VoteFn = std::function<int(uint32_t)>;
using ValidateExFn = std::function<std::optional<ValidateResult>(uint32_t)>;
using JobEnqueuedFn = std::function<void(uint32_t)>;
using QueuePredicate = std::function<bool(uint32_t)>;
using AllocatableFn = std::function<bool(uint32_t queue, uint32_t task)>;
using PreemptiveFn = std::function<bool(uint32_t queue, const std::vector<uint32_t>& tasks)>;
using PredicateFn = std::function<void(uint32_t task, uint32_t node, FitResult&)>;
using PrePredicateFn = std::function<std::optional<std::string>(uint32_t task)>;
using NodeOrderFn = std::function<double(uint32_t task, uint32_t node)>;
// Scores candidate nodes: nodes[i] stands for counts[i] identical nodes; adds into scores[i].
using BatchNodeOrderFn = std::function<void(uint32_t task, const uint32_t* nodes, const uint32_t* counts,
                                            size_t n, double* scores)>;
using HyperNodeOrderFn =
    std::function<std::map<int32_t, double>(uint32_t job, const std::vector<int32_t>& hns)>;
// forSubJob: the job's default sub-job (its min resources are its pending tasks' requests).
using HyperNodeGradientFn =
    std::function<std::vector<std::vector<int32_t>>(uint32_t job, int32_t hn, Purpose, bool forSubJob)>;
using TaskEventFn = std::function<void(uint32_t task)>;

// A plugin entry's extension-point switches (enableJobOrder, ...; on unless turned off).
struct PluginSwitches {
    bool jobOrderOn = true, jobReadyOn = true, jobPipelinedOn = true, taskOrderOn = true,
         preemptableOn = true, reclaimableOn = true, preemptiveOn = true, queueOrderOn = true,
         predicateOn = true, nodeOrderOn = true, jobEnqueuedOn = true, jobStarvingOn = true,
         overusedOn = true, allocatableOn = true, hyperNodeOrderOn = true, hyperNodeGradientOn = true;
};

// One plugin entry of one tier, with its switches resolved and the callbacks it registered.
struct PluginSlot : PluginSwitches {
    std::string name;
    const PluginOption* option = nullptr;
    int tier = 0;
    std::unique_ptr<Plugin> plugin;

    CompareFn jobOrder, queueOrder, taskOrder;
    VictimCompareFn victimQueueOrder;
    EvictableFn preemptable, reclaimable;
    JobPredicate jobReady, jobStarving;
    VoteFn jobPipelined, jobEnqueueable;
    ValidateExFn jobValid;
    JobEnqueuedFn jobEnqueued;
    QueuePredicate overused;
    // Whether reclaimable may still name a pod of this queue a victim in this session's reclaim
    // (false: none of its pods, whatever the reclaimees). Absent: any.
    QueuePredicate reclaimsFrom;
    // Whether reclaimable may name this running pod a victim of this reclaimer in this session's
    // reclaim, as things are now (false: it will not, whatever the other reclaimees). The answer
    // must be the same for pods of one job with one shape (reclaim asks once per job and shape
    // while nothing changes). Absent: ask reclaimsFrom of the pod's queue.
    std::function<bool(uint32_t reclaimer, uint32_t task)> reclaimsTask;
    // For a plugin whose verdicts depend on the reclaimer (no reclaimsFrom): whether reclaimsTask
    // may hold for this reclaimer and some running pod of this queue, as things are now (false:
    // for none of them). Absent: any.
    std::function<bool(uint32_t reclaimer, uint32_t queue)> reclaimsFromFor;
    // Whether preemptable may name any pod a victim of this preemptor in this session's preempt, as
    // things are now: a pod of another job of its queue, or with sameJob one of its own job (false:
    // it names none, whatever the node). Evictions and pipelines during the action may leave it
    // true where it would now be false, never the other way. Absent: it may.
    std::function<bool(uint32_t preemptor, bool sameJob)> preemptsFor;
    // preemptsFor may turn true for a preemptor as other pods are pipelined during the action (drf:
    // a pipelined pod raises its job's share), not only as pods are allocated before it.
    bool preemptsForGrows = false;
    AllocatableFn allocatable;
    PreemptiveFn preemptive;
    PredicateFn predicate;
    // Topology-aware preemption's dry run (upstream Simulate*Fn). A plugin keeps what it checks for
    // the preemptor as of its prePredicate; simulateBegin resets that copy for the next node,
    // simulateTask removes (sign -1) or re-adds (+1) a task on the node in the copy (called only
    // when the plugin has enablePreemptable or enabledAllocatable on), and simulateAllocatable /
    // simulatePredicate answer from the copy.
    std::function<void(uint32_t preemptor)> simulateBegin;
    std::function<void(uint32_t preemptor, uint32_t task, uint32_t node, int sign)> simulateTask;
    std::function<bool(uint32_t queue, uint32_t task)> simulateAllocatable;
    PredicateFn simulatePredicate;
    PrePredicateFn prePredicate;
    NodeOrderFn nodeOrder;
    BatchNodeOrderFn batchNodeOrder;
    // Whether batchNodeOrder scores every node of the task on its own (nothing normalized over the
    // candidates), so a node's score is the same whichever other nodes are scored with it.
    std::function<bool(uint32_t task)> batchNodeOrderAlone;
    HyperNodeOrderFn hyperNodeOrder;
    HyperNodeGradientFn hyperNodeGradient;
};

} // namespace gantry::engine
