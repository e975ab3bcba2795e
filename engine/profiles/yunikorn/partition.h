#pragma once
// The scheduler core's partition (yunikorn-core pkg/scheduler: PartitionContext and the objects
// package): the queue tree, applications with their asks and allocations, nodes, reservations and
// the user/group limits, and one scheduling cycle as ClusterContext.schedule runs it
// (tryReservedAllocate, then tryPlaceholderAllocate, then tryAllocate; at most one decision).
//
// Where upstream iterates a Go map (children of a queue, applications of a queue, reservations,
// allocations) the order is random; here it is the order objects were added, so every run is the
// same. Times are seconds on the caller's clock.
#include "profiles/yunikorn/config.h"
#include "profiles/yunikorn/nodes.h"
#include "profiles/yunikorn/placement_rules.h"
#include "profiles/yunikorn/resource.h"
#include "profiles/yunikorn/ugm.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace gantry::engine::yunikorn {

inline constexpr int32_t kMinPriority = std::numeric_limits<int32_t>::min();
inline constexpr int32_t kMaxPriority = std::numeric_limits<int32_t>::max();
inline constexpr double kNever = -std::numeric_limits<double>::infinity();
inline constexpr uint32_t kNone = UINT32_MAX;
inline constexpr int32_t kUnknownNode = -2; // Ask::requiredNode: a node the partition does not have

enum class SortPolicy : uint8_t { Fifo, Fair };
enum class PriorityPolicy : uint8_t { Default, Fence };
enum class PreemptionPolicy : uint8_t { Default, Fence, Disabled };
enum class AppState : uint8_t {
    New,
    Accepted,
    Running,
    Rejected,
    Completing,
    Completed,
    Failing,
    Failed,
    Resuming
};
const char* toString(AppState s);

// The core's allocation log entries (pkg/common/errors.go, objects/application.go): constant
// messages, so that they can be counted.
inline constexpr const char* kNotEnoughUserQuota = "Not enough user quota";
inline constexpr const char* kNotEnoughQueueQuota = "Not enough queue quota";
inline constexpr const char* kPreemptionPreconditionsFailed = "Preemption preconditions failed";
inline constexpr const char* kPreemptionDoesNotGuarantee = "Preemption queue guarantees check failed";
inline constexpr const char* kPreemptionShortfall = "Preemption helped but short of resources";
inline constexpr const char* kPreemptionDoesNotHelp = "Preemption does not help";
inline constexpr const char* kNoVictimForRequiredNode = "No fit on required node, preemption does not help";
inline constexpr const char* kPreemptionMaxAttemptsExhausted = "Preemption max attempts exhausted";
inline constexpr const char* kPreemptionVictimsReleased =
    "Victims picked earlier were released at the final stage";

// Timings of the core (package variables upstream).
struct CoreTimings {
    double reservationDelay = 2; // an ask reserves a node only once it is this old
    double reservationWaitTimeout =
        3600; // with the core's arithmetic a reservation without headroom goes after twice this
    double preemptAttemptFrequency = 15;    // between preemption checks of one ask
    double defaultPlaceholderTimeout = 900; // 15 minutes
    double completingTimeout = 30;
};

// An Allocation object: a pending ask, or an allocation once it is placed.
struct Ask {
    int32_t task = -1;      // the cluster state's task, -1 for a placeholder the shim created here
    int32_t shapeTask = -1; // the task whose pod constraints it has (its own, or the originator's)
    uint32_t app = kNone;
    uint32_t res = 0; // index into Partition::askRes
    int32_t priority = 0;
    double createTime = 0;
    uint32_t order = 0;        // creation order (ties between equal times)
    int32_t taskGroup = -1;    // index into the app's task groups
    int32_t requiredNode = -1; // DaemonSet pods: the node they must run on (kUnknownNode: missing)
    bool hasRequiredNode() const { return requiredNode != -1; }
    bool placeholder = false;
    bool allowPreemptSelf = true, allowPreemptOther = true;
    bool originator = false;
    bool allocated = false;
    bool preempted = false, released = false;
    bool triggeredPreemption = false;
    bool schedulingAttempted = false;
    bool removed = false; // no longer part of its application
    double preemptCheckTime = kNever;
    int32_t node = -1;
    uint32_t release = kNone; // placeholder <-> real allocation replacing it
    double bindTime = 0;
    // Its allocation log (Allocation.LogAllocationFailure) as its last visit wrote it: why it was
    // not placed (a predicate's message, a quota), then what a preemption attempt logged.
    std::string lastFailure;
    const char* preemptionFailure = nullptr; // the attempt's own entry, when it logged one
    bool preemptionDidNotHelp = false;       // kPreemptionDoesNotHelp
    void clearLog() {
        lastFailure.clear();
        preemptionFailure = nullptr;
        preemptionDidNotHelp = false;
    }
};
// The log as one line, the reason first ("" when empty).
std::string allocationLog(const Ask& ask);

struct TaskGroup {
    std::string name;
    int32_t minMember = 0;
    Res minResource; // per member, with pods 1
};

struct PlaceholderData {
    int64_t count = 0, replaced = 0, timedOut = 0;
};

struct Reservation {
    uint32_t ask = kNone;
    uint32_t node = kNone;
    double createTime = 0;
};

// The last visit of an application by one phase of the cycle (tryAllocate, tryReservedAllocate),
// when it decided nothing, tried no node and attempted no preemption: a new visit would decide
// nothing and write only what that one wrote, as long as the application stays as it was
// (revision), so does the clock, no node frees resources or opens (growths), and the queue's and
// the user's headroom still hold the largest ask it tried (Partition::stillQuiet). The core visits
// such applications at every cycle; the skipped visits are what makes a cycle over many waiting
// applications cost what changed.
struct QuietVisit {
    bool valid = false;
    uint64_t revision = 0, growths = 0;
    double now = 0;
    Res largest;
};
struct QuietVisits {
    QuietVisit allocate, reserved; // tryAllocate's and tryReservedAllocate's
};

struct Application {
    std::string id;
    uint32_t queue = kNone; // leaf
    std::string queuePath;
    UserGroup user;
    std::map<std::string, std::string> tags;
    // The tags namespace.resourcequota, namespace.resourceguaranteed and namespace.resourcemaxapps,
    // read (GetMaxResource, GetGuaranteedResource, GetMaxApps); null when none is set.
    struct QueueTags {
        Res max, guaranteed; // nil when not tagged
        uint64_t maxApps = 0;
    };
    std::unique_ptr<QueueTags> queueTags;
    AppState state = AppState::New;
    double submissionTime = 0;
    Res pending = Res::empty(), allocated = Res::empty(), allocatedPlaceholder = Res::empty();
    Res placeholderAsk = Res::empty();
    std::vector<uint32_t> requests;       // every ask ever added and not removed, in order
    std::vector<uint32_t> sortedRequests; // priority descending, then creation time
    std::vector<uint32_t> allocations;    // allocated asks, in allocation order
    std::vector<Reservation> reservations;
    int32_t askMaxPriority = kMinPriority;
    std::vector<TaskGroup> taskGroups;
    std::vector<PlaceholderData> placeholderData; // per task group
    bool hasPlaceholderAlloc = false;
    bool hardGang = false;            // gangSchedulingStyle Hard (default Soft)
    double execTimeout = 0;           // placeholder timeout
    double placeholderTimer = kNever; // when it fires; kNever = not running
    double backoffDeadline = kNever;
    bool runnableInQueue = true, runnableByUserLimit = true;
    bool clockWatched = false; // in Partition::clockApps_
    bool forced = false;
    int32_t job = -1; // the cluster state's job (simulator), -1 when none
    uint64_t seq = 0; // creation order (Partition::nextAppSeq): slots are reused, so not the index
    std::string rejectedMessage;
    // Counts the changes to its asks, allocations, reservations and their reasons to wait.
    uint64_t revision = 0;
    // Its last quiet visits, from its first one until it leaves (most applications never wait).
    std::unique_ptr<QuietVisits> quiet;
    // Gone for good: nothing of it is scheduled, and no timer of it fires.
    bool finished() const {
        return state == AppState::Completed || state == AppState::Failed || state == AppState::Rejected;
    }
};

struct Queue {
    std::string path, name;
    int32_t parent = -1;
    std::vector<uint32_t> children; // in configuration order
    bool leaf = true, managed = true;
    SortPolicy sortType = SortPolicy::Fifo;
    bool prioritySortEnabled = true;
    PriorityPolicy priorityPolicy = PriorityPolicy::Default;
    int32_t priorityOffset = 0;
    PreemptionPolicy preemptionPolicy = PreemptionPolicy::Default;
    double preemptionDelay = 30;
    uint64_t unschedAskBackoff = 0;
    double askBackoffDelay = 30;
    std::map<std::string, std::string> properties; // merged with the parent's
    Acl submitAcl, adminAcl;
    Res max, guaranteed; // nil = not set
    uint64_t maxRunningApps = 0, runningApps = 0;
    std::vector<uint32_t> allocatingAccepted;
    Res allocated = Res::empty(), pending = Res::empty(), preempting = Res::empty();
    int32_t currentPriority = kMinPriority;
    std::map<uint32_t, int32_t> childPriorities, appPriorities;
    // A leaf's appPriorities values with their counts: the largest is the last key, where walking
    // every application of the queue to find it again cost most of a large simulation.
    std::map<int32_t, uint32_t> appPriorityCount;
    std::vector<std::pair<uint32_t, int>> reservedApps; // app -> reservations, in order
    std::vector<uint32_t> apps;
    // Counts the changes to its applications (Partition::revised) and to the list of them; the
    // applications in the order the cycle visits them, as of sortedAt.
    uint64_t appsRevision = 1, sortedAt = 0;
    std::vector<uint32_t> sortedApps;
    int32_t childTemplate = -1; // a parent's template for the leaves created below it (Partition::templates)
    SourceRef source;
};

// A parent queue's child template (objects/template): what a leaf created below it starts with.
struct QueueTemplate {
    uint64_t maxApplications = 0;
    std::map<std::string, std::string> properties;
    Res max, guaranteed; // nil = not set
};

// What one scheduling cycle decided.
enum class ResultType : uint8_t { None, Allocated, AllocatedReserved, Reserved, Unreserved, Replaced };
struct CycleDecision {
    ResultType type = ResultType::None;
    uint32_t ask = kNone;
    uint32_t node = kNone;
    uint32_t reservedNode = kNone; // AllocatedReserved elsewhere than the reserved node
    uint32_t replaced = kNone;     // Replaced: the placeholder
    bool byPreemption = false;     // Reserved: the node a preemption freed
    int cancelledReservations = 0;
    std::vector<uint32_t> preempted; // victims marked by this cycle's preemption
    std::vector<uint32_t> released;  // placeholders released by this cycle (incompatible size)
    std::vector<std::pair<uint32_t, uint32_t>> unreserved; // (ask, node) reservations removed
    bool activity() const {
        return type != ResultType::None || !preempted.empty() || !released.empty() || !unreserved.empty();
    }
};

// The shim's predicates on one node (taints, affinity, selectors...), for allocation or reservation.
using Predicate = std::function<bool(const Ask& ask, uint32_t node, bool allocate, std::string* why)>;

class Partition {
  public:
    Partition(const PartitionConfig& config, Dims dims, CoreTimings timings = {});

    // --- nodes, applications, asks (the shim's events) ---
    void setNodes(std::vector<Node> nodes); // every node at once; the root's max is their total
    // Places the application with the placement rules; returns false (and the reason) when YuniKorn
    // rejects it, else true and its index in *index.
    bool addApplication(Application app, std::string* why, uint32_t* index);
    uint32_t addAsk(uint32_t app, Ask ask);                                       // pending
    uint32_t recoverAllocation(uint32_t app, Ask ask, uint32_t node, double now); // already running there
    void addForeign(uint32_t node, const Res& res); // a pod of another scheduler
    void removeForeign(uint32_t node, const Res& res);
    // The shim confirms an allocation is gone (finished, preempted, released placeholder).
    void removeAllocation(uint32_t ask, bool placeholderReplaced);
    void removeAsk(uint32_t ask);         // a pending ask that went away
    void removeApplication(uint32_t app); // every ask and allocation of it is gone
    uint32_t appIndex(const std::string& id) const;
    // The shim is done with a removed application (removeApplication): its slot and those of its
    // asks (every ask it ever had) are reused by later ones, so a long simulation holds only what is
    // in flight. Keeps the slot (as before) when anything may still name it.
    void releaseApplication(uint32_t app, const std::vector<uint32_t>& asks);

    // --- scheduling ---
    CycleDecision schedule(double now);
    // Timers: Hard gangs whose placeholders time out fail (returned), Soft ones resume; returns the
    // placeholders released. Called before a cycle at `now`.
    void fireTimers(double now, std::vector<uint32_t>* released, std::vector<uint32_t>* failedApps);
    // The earliest time after `from` at which the clock alone changes a decision (an ask old enough
    // to reserve or preempt, a backoff or a placeholder timer ending); infinity when none. `from`
    // is not before the last fireTimers.
    double nextClockChange(double from) const;

    // --- state ---
    Predicate predicate;
    Dims dims;
    CoreTimings timings;
    bool preemptionEnabled = true;
    std::vector<Queue> queues; // 0 = root
    std::vector<QueueTemplate> templates;
    std::vector<Application> apps;
    std::vector<Ask> asks;
    std::vector<Res> askRes;
    NodeCollection nodes;
    UserGroupManager ugm;
    PlacementManager placement;
    int reservationCount = 0;
    int placeholderAllocations = 0;
    uint32_t nextAskOrder = 0;
    uint64_t nextAppSeq = 0;

    const Res& resOf(const Ask& a) const { return askRes[a.res]; }
    Res maxResourceOf(uint32_t q) const { return maxResource(q); }
    Res fairMaxOf(uint32_t q) const { return fairMaxResource(q); }
    int32_t findQueue(const std::string& path) const;

  private:
    friend struct Allocator;
    friend struct Preemptor;
    // queues
    void buildQueue(const QueueConfig& c, int32_t parent,
                    const std::map<std::string, std::string>& inherited);
    void applyProperties(Queue& q);
    int32_t createDynamicQueue(const std::string& path, const UserGroup& user, std::string* why);
    static void setResources(Queue& q, const Res& guaranteed, const Res& max);
    int32_t templateOf(const ChildTemplate& conf);
    bool checkSubmitAccess(uint32_t q, const UserGroup& user) const;
    void incPending(uint32_t q, const Res& delta);
    void decPending(uint32_t q, const Res& delta);
    void incAllocated(uint32_t q, const Res& delta);
    bool tryIncAllocated(uint32_t q, const Res& delta);
    void decAllocated(uint32_t q, const Res& delta);
    void incPreempting(uint32_t q, const Res& delta);
    void decPreempting(uint32_t q, const Res& delta);
    Res headRoom(uint32_t q) const;
    Res maxResource(uint32_t q) const;
    Res fairMaxResource(uint32_t q) const;
    Res maxQueueSet(uint32_t q) const;
    bool canRunApp(uint32_t q, uint32_t app);
    void setAllocatingAccepted(uint32_t q, uint32_t app);
    void incRunningApps(uint32_t q, uint32_t app);
    void decRunningApps(uint32_t q);
    int32_t currentPriority(const Queue& q) const;
    void updateAppPriority(uint32_t app);
    void updateQueuePriority(uint32_t q, uint32_t child, int32_t value);
    int32_t recalculatePriority(Queue& q);
    void uncountAppPriority(Queue& q, int32_t value);
    int32_t setPriority(Queue& q, std::map<uint32_t, int32_t>& priorities, uint32_t key, int32_t value);
    std::vector<uint32_t> sortQueues(uint32_t q) const;
    std::vector<uint32_t> sortApplications(uint32_t q, bool withPlaceholdersOnly) const;
    // sortApplications(q, false), sorted again only when one of the queue's applications changed (the
    // sort reads nothing else but the queue's configuration).
    const std::vector<uint32_t>& sortedApplications(uint32_t q);
    void queueReserve(uint32_t q, uint32_t app);
    void queueUnReserve(uint32_t q, uint32_t app, int releases);

    // applications
    void transition(uint32_t app, AppState to);
    void runApplication(uint32_t app);
    void completeApplication(uint32_t app);
    void failApplication(uint32_t app);
    void insertSorted(Application& a, uint32_t ask);
    void eraseSorted(Application& a, uint32_t ask);
    void updateAskMaxPriority(uint32_t app);
    Res allocateAsk(uint32_t ask);
    void deallocateAsk(uint32_t ask);
    void addAllocationToApp(uint32_t app, uint32_t ask, bool replaced);
    bool canReplace(const Application& a, const Ask& ask) const;
    int reservationIndex(const Application& a, uint32_t ask) const;
    int unReserveInternal(uint32_t app, int reservationIndex);
    bool reserveInternal(uint32_t app, uint32_t node, uint32_t ask, double now);
    void reserve(uint32_t app, uint32_t node, uint32_t ask, double now);
    void unReserve(uint32_t app, uint32_t node, uint32_t ask);
    void removeAsksOfApp(uint32_t app);
    void timeoutPlaceholders(uint32_t app, std::vector<uint32_t>* released, std::vector<uint32_t>* failed);
    // The applications the clock may concern (pending asks, a placeholder timer, a backoff): every
    // one of them and maybe others, pruned by fireTimers. Most applications run with nothing
    // pending, and the clock passes them by.
    void watchClock(uint32_t app);
    std::vector<uint32_t> clockApps_;
    // Slots of released applications and asks (releaseApplication), taken before growing.
    std::vector<uint32_t> freeApps_, freeAsks_;
    uint32_t takeAskSlot(Ask ask);

    // An application changed: its quiet visits (QuietVisit) and its queue's order of applications
    // are stale.
    void revised(Application& a) {
        ++a.revision;
        ++queues[a.queue].appsRevision;
    }
    void revised(uint32_t app) { revised(apps[app]); }
    using Phase = QuietVisit QuietVisits::*;
    bool stillQuiet(Phase phase, uint32_t app, const Res& headRoom, double now);
    void forgetQuiet(Phase phase, uint32_t app);
    void markQuiet(Phase phase, uint32_t app, Res largest, double now);
    // Whether a preemption attempt for the ask waits (its preconditions, its delay, its frequency).
    bool preemptionWaits(const Ask& k, double preemptionDelay, double now) const;

    // nodes
    bool tryNode(uint32_t app, uint32_t node, uint32_t ask, double now, CycleDecision* out);
    bool preAllocateCheck(uint32_t node, uint32_t ask) const;
    bool nodeConditions(uint32_t node, uint32_t ask, bool allocate);

    // the cycle
    CycleDecision tryReservedAllocate(double now);
    CycleDecision tryPlaceholderAllocate(double now);
    CycleDecision tryAllocate(double now);
    CycleDecision queueTryAllocate(uint32_t q, double now);
    CycleDecision queueTryReservedAllocate(uint32_t q, double now);
    CycleDecision queueTryPlaceholderAllocate(uint32_t q, double now);
    CycleDecision appTryAllocate(uint32_t app, const Res& headRoom, double preemptionDelay, int* attemptsLeft,
                                 double now);
    CycleDecision appTryReservedAllocate(uint32_t app, const Res& headRoom, double now);
    CycleDecision appTryPlaceholderAllocate(uint32_t app, double now);
    CycleDecision tryRequiredNode(uint32_t app, uint32_t ask, double now);
    void requiredNodePreemption(uint32_t app, uint32_t ask, uint32_t node);
    std::vector<uint32_t> requiredNodeVictims; // marked outside a result, reported with the cycle
    // *quiet turns false when a node was tried or chosen to reserve.
    CycleDecision tryNodes(uint32_t app, uint32_t ask, double now, bool* quiet);
    CycleDecision tryNodesNoReserve(uint32_t app, uint32_t ask, uint32_t reservedNode, double now,
                                    bool* quiet);
    bool tryPreemption(uint32_t app, const Res& headRoom, double preemptionDelay, int* attemptsLeft,
                       uint32_t ask, bool nodesTried, double now, CycleDecision* out);
    CycleDecision applyDecision(CycleDecision d, double now);
};

} // namespace gantry::engine::yunikorn
