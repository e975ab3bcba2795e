#pragma once
// The compiled cluster: what a scheduling session works on, in flat arrays.
//
// Built once from the model (buildClusterState) and then updated in place: a session mutates it
// and undoes every mutation when it closes, the simulator applies what the session decided
// (bindings, evictions) and its own events (arrivals, completions). Nothing here points into the
// model; names are interned, pods refer to a deduplicated PodShape, nodes carry dense resource
// vectors indexed by ResourceDims.
#include "model/cluster.h"
#include "state/resource_dims.h"
#include "state/string_pool.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gantry::engine {

// Upstream's TaskStatus, in the same order, and NotCreated: a pod its controller has not created
// yet (a CreationGate of its job is closed); no scheduler sees it.
enum class TaskStatus : uint8_t {
    Pending,
    Allocated,
    Pipelined,
    Binding,
    Bound,
    Running,
    Releasing,
    Succeeded,
    Failed,
    Unknown,
    NotCreated,
    Count
};
inline constexpr int kStatusCount = int(TaskStatus::Count);
inline constexpr int32_t kMilliGpu = 1000; // a whole device in milli-GPU
inline constexpr int kMaxNodeGpus = 64;    // devices tracked per node (a task's hold is a 64-bit mask)
const char* toString(TaskStatus status);
bool allocatedStatus(TaskStatus s);   // Bound, Binding, Running, Allocated
bool scheduledStatus(TaskStatus s);   // Running, Bound, Failed, Succeeded
bool completedStatus(TaskStatus s);   // Failed, Succeeded
bool preemptableStatus(TaskStatus s); // Bound, Running
bool occupiesNode(TaskStatus s);      // placed on a node and not terminated

// What a pod asks for and how it constrains placement; pods of one job usually share one shape.
struct PodShape {
    std::vector<int64_t> request; // dense, by dimension
    uint64_t presentMask = 0;     // scalar dims named in the request
    bool cpuRequested = false, memRequested = false;
    VResource vres; // Volcano's Resreq / InitResreq
    bool bestEffort = false;
    uint32_t ns = 0; // namespace (string id)
    Labels labels;
    // The pod's annotations a scheduler plugin reads (volcano.sh/resource-strategy-*); no others, so
    // pods that differ only in other annotations share a shape.
    Labels pluginAnnotations;
    Labels nodeSelector;
    std::optional<NodeAffinity> nodeAffinity;
    std::vector<Toleration> tolerations;
    PodAffinity podAffinity;
    PodAffinity podAntiAffinity;
    std::vector<TopologySpreadConstraint> topologySpread;
    std::string priorityClassName;
    bool preemptNever = false;
    GpuRequest gpu;
    // Placement that depends on other pods or on the node's own name cannot use node classes.
    bool perNode = false;
    bool hasPreferredNodeAffinity = false;
    // The scheduling gates that hold the pod (holdingSchedulingGates): none schedules it while any is
    // left, and nothing in a what-if removes them.
    std::vector<std::string> schedulingGates;
    int staticKey = 0; // equal for shapes whose static node predicate is the same
};

struct TaskRec {
    uint32_t job = UINT32_MAX; // UINT32_MAX = no PodGroup (not scheduled by Volcano)
    uint32_t shape = 0;
    int32_t node = -1;
    TaskStatus status = TaskStatus::Pending;
    bool preemptable = true;
    bool ours = true;  // the profile's scheduler takes it (BuildOptions::schedulerNames, or none named)
    uint16_t role = 0; // string id index into roles (0 = "")
    int32_t priority = 1;
    int32_t podPriority = 0;  // spec.priority for preemption victim ordering (0 when absent)
    int32_t kubePriority = 0; // spec.priority as admission resolves it (class value, global default, 0)
    int32_t nameIndex = -1;   // trailing "-N" of a name with at least three dash parts, -1 when none
    uint32_t name = 0;        // string ids
    uint32_t uid = 0;
    uint32_t ns = 0;
    uint32_t order = 0;         // position in the input (creation order stand-in)
    uint32_t group = 0;         // PodGroup name as the pod names it (string id; 0 when none)
    bool inK8sView = false;     // counted in the k8s NodeInfo view of its node
    int32_t nominatedNode = -1; // status.nominatedNodeName: where kube-scheduler's preemption made room
    uint64_t gpuMask = 0;       // GPU devices of its node it holds (bit = device index), 0 = none
    // When it started, in the state's seconds (a snapshot's pods before 0, the simulator's clock
    // after): kube-scheduler's preemption spares the longest-running of equal priority.
    double startSeconds = 0;
};

// A CreationCondition in the state's terms: a role of the job, or one of its tasks.
struct GateCondition {
    CreationCondition::Kind kind = CreationCondition::Kind::RoleReady;
    uint16_t role = 0;
    uint32_t task = UINT32_MAX; // PodScheduled; UINT32_MAX: the pod it names is not in the job
    std::string topologyKey;
};

// Tasks their controller creates together once every condition holds; until then they are
// NotCreated. A job lists only its closed gates.
struct CreationGate {
    std::vector<GateCondition> conditions;
    std::vector<uint32_t> tasks;
};

// A task whose pods its job's controller has not made yet: Volcano's job controller makes the
// pods of a task with dependsOn only once the tasks it names run (BuildOptions::holdDependentTasks).
struct DependentTask {
    uint16_t role = 0;
    std::vector<uint16_t> after; // roles it waits for
    bool any = false;            // one of them is enough
    bool created = false;        // its pods are the job's tasks now
    std::vector<Pod> pods;       // what the controller makes (again after a restart)
};

struct JobRec {
    uint32_t name = 0, ns = 0;
    std::string key; // "ns/name"
    int32_t queue = -1;
    uint32_t queueName = 0;                     // the queue the PodGroup names (string id), known or not
    std::shared_ptr<const KueueWorkload> kueue; // the Kueue Workload the job was made from, if any
    // The application a shim groups the job's pods into (YuniKorn's app id), 0 = none named.
    uint32_t application = 0;
    // false: the scheduler's controllers leave the workload alone (a Job without Kueue's queue-name
    // label is not suspended); kube-scheduler places its pods as they come.
    bool managed = true;
    // A quota-admitting scheduler may admit the job with this many pods (Kueue's partial admission,
    // a single pod set); 0: all of them.
    int32_t admitAtLeast = 0;
    // Kueue admits each pod as a workload of its own (its pod integration: plain pods, a Deployment's).
    bool podsAdmittedApart = false;
    bool readingNoted =
        false; // the controllers' reading said something about it, located (WorkloadReading::note)
    int32_t minAvailable = 0;
    int32_t priority = 0;
    std::vector<std::pair<uint16_t, int32_t>> minTaskMember; // role -> min
    int32_t taskMinAvailableTotal = 0;
    bool hasMinResources = false;
    VResource minResources;
    uint64_t minResourcesMask = 0; // dims named in minResources (cpu = bit 0, memory = bit 1)
    PodGroupPhase phase = PodGroupPhase::None;
    NetworkTopologyConstraint topology;
    std::vector<DependentTask> dependents;
    // Expanded by Gantry from a workload object: the profile takes its pods whatever scheduler
    // they name (BuildOptions::schedulerNames).
    bool whatIf = false;
    bool preemptable = false; // PodGroup volcano.sh/preemptable
    std::optional<double> slaWaitingSeconds;
    double creationSeconds = 0;
    std::vector<uint32_t> tasks;
    std::vector<CreationGate> gates; // closed creation gates of its tasks
    std::vector<std::pair<uint16_t, double>>
        roleSeconds; // roles whose pods succeed this long after they start
    int32_t statusCount[kStatusCount] = {};
    int32_t pendingBestEffort = 0;    // pending tasks without requests
    int32_t schedulingGatedTasks = 0; // tasks whose shape holds scheduling gates
    std::vector<int64_t> allocated;   // sum of requests of tasks in an allocated status (dense)
    uint64_t requestMask = 0;         // scalar dims any of its tasks names
    uint32_t order = 0;
    bool changed = false; // listed in ClusterState::changedJobs
    // ClusterState::requeues when the job was added or a task of it last went back to pending: until
    // it changes, a task that left pending has not returned to it.
    uint64_t requeuedAt = 0;
};

struct QueueRec {
    std::string name;
    int32_t parent = -1; // index, -1 = none given
    std::string parentName;
    int32_t weight = 1;
    int32_t priority = 0;
    bool open = true;
    bool reclaimable = true;
    ResourceList guarantee, deserved, capability; // as written (set-ness matters upstream)
    std::string hierarchy, hierarchyWeights;      // volcano.sh/hierarchy annotations
    std::optional<NodeGroupAffinity> nodeGroupAffinity;
    std::optional<std::string> nodeGroupResourceLimits; // volcano.sh/nodegroup-resource-limits
    bool assumed =
        false; // not in the input: the scheduler creates it at start-up (BuildOptions::startupQueues)
};

struct HyperNodeRec {
    std::string name;
    int32_t tier = 1;
    std::string tierName;
    int32_t parent = -1;
    std::vector<int32_t> children;
    std::vector<uint32_t> nodes; // real nodes below it, sorted by id
};

struct NodeRec {
    uint32_t name = 0;
    uint32_t rank = 0; // position in name order
    uint32_t cls = 0;
    int32_t maxTaskNum = 0;
    uint64_t allocMask = 0; // dims named in allocatable
    bool unschedulable = false;
    Labels labels;
    std::vector<Taint> taints;
    GpuDevices gpus;
    std::vector<int32_t> hyperNodes; // every hypernode containing it, lowest tier first
};

// Nodes alike in everything a placement decision reads from the node object (allocatable,
// labels, taints, schedulability, hypernode membership).
struct NodeClass {
    uint32_t representative = 0;
    std::vector<uint32_t> members;
    std::vector<uint32_t> buckets; // live buckets of this class
};

// Nodes of one class in the same dynamic state (idle, used, releasing, pipelined, k8s requested,
// pod count): every placement predicate and score gives them the same answer.
struct NodeBucket {
    uint32_t cls = 0;
    uint32_t joins = 0;       // nodes that ever joined (each member's nodeJoin is its number)
    std::set<uint32_t> ranks; // members by name rank
    std::vector<int64_t> key;
    uint64_t hash = 0;
    // (join number, node) in join order, including members that left since (their nodeBucket or
    // nodeJoin no longer match): the members that joined after a given number are a suffix.
    std::vector<std::pair<uint32_t, uint32_t>> joinLog;
};

// A PodDisruptionBudget as kube-scheduler's preemption counts it.
struct DisruptionBudgetRec {
    uint32_t ns = 0;
    LabelSelector selector; // empty: matches no pod
    std::optional<std::string> minAvailable, maxUnavailable;
    int32_t statusAllowed = 0; // status.disruptionsAllowed, read when the spec sets neither
    std::vector<std::string> disruptedPods;
};

// What a scheduler's own controllers make of a workload (its PodGroup and pods): the queue they put
// it in, the gang they give it, the application its pods form. Each profile reads the workloads it
// does not own itself (profiles/<name>/controllers.cpp).
struct WorkloadReading {
    std::string
        name; // the PodGroup's name as the controller calls it (Volcano's podgroup-<uid>); "": the input's
    std::string queue; // in the profile's own terms: a Volcano queue, a Kueue LocalQueue or ClusterQueue, ...
    int32_t minMember = 0;
    std::map<std::string, int32_t> minTaskMember;
    ResourceList minResources;
    std::string application;
    bool managed = true;
    int32_t admitAtLeast = 0;        // partial admission down to this many pods (0: all of them)
    bool podsAdmittedApart = false;  // each pod admitted as a workload of its own
    std::optional<int32_t> priority; // the controllers' priority for it; none: its PriorityClass's
    std::string note;                // said once per kind of workload: what was read and why
};
using ReadWorkload =
    std::function<WorkloadReading(const PodGroup& group, const std::vector<const Pod*>& pods)>;

struct BuildOptions {
    // Scheduler names whose pending pods Volcano takes (empty name counts as Volcano's). Pods of
    // what-if workloads Gantry expanded (batch Jobs, JobSets, Kubeflow jobs) are taken too.
    std::vector<std::string> schedulerNames{"volcano"};
    bool allSchedulers = false; // take every pending pod (the kube-default contrast)
    // Pods naming a scheduler Gantry does not emulate (kai-scheduler, a custom one) are that
    // scheduler's and no profile takes them, unless its admission gives every new pod to it
    // (YuniKorn's admission controller rewrites schedulerName) outside these namespaces.
    bool admissionTakesEveryPod = false;
    std::vector<std::string> admissionBypassNamespaces;
    // Count every resource a node or pod names, not only those Volcano counts (YuniKorn keeps
    // custom names such as "first" as resource types of their own).
    bool everyResource = false;
    // Keep the jobs of every queue, also those naming no Volcano queue (a profile that resolves
    // queues of its own kinds reads JobRec::queueName).
    bool anyQueue = false;
    // Without anyQueue: say so when a gang names a queue that does not exist (the scheduler
    // leaves it alone), in these words after "PodGroup ns/name names queue 'q', which does not
    // exist; ".
    std::string unknownQueueConsequence;
    // Queues the scheduler creates at start-up where the input has none of that name (Volcano's
    // root and default). A gang that lands in one is told it was assumed, with `note`.
    struct StartupQueue {
        Queue queue;
        std::string note;
    };
    std::vector<StartupQueue> startupQueues;
    // How the scheduler's controllers read each workload; null: as the input says.
    ReadWorkload readWorkload = nullptr;
    // Pods of no gang form workloads of the scheduler's controllers (one per controller owner, else
    // one per pod), read with readWorkload; without it they stay pods of no job.
    bool groupLoosePods = false;
    // The pods of a task that depends on others (a Volcano Job's dependsOn) are made only once those
    // run, as Volcano's job controller makes them (ClusterState::createReadyDependents).
    bool holdDependentTasks = false;
};

class ClusterState {
  public:
    ResourceDims dims;
    StringPool strings;
    std::vector<std::string> roles{""};

    std::vector<NodeRec> nodes;
    std::vector<uint32_t> nodeByRank;
    // Dense per-node resource arrays, node n at [n * D, (n + 1) * D).
    std::vector<int64_t> allocatable, idle, used, releasing, pipelined, k8sRequested;
    std::vector<int64_t> nonZeroCpu, nonZeroMem;  // k8s NonZeroRequested
    std::vector<int32_t> k8sPods;                 // pods in the k8s NodeInfo view
    std::vector<std::vector<uint32_t>> nodeTasks; // tasks placed on each node
    // GPU devices: node n owns devices [gpuOffset[n], gpuOffset[n + 1]) (at most kMaxNodeGpus), each
    // with its free milli-GPU. A task holding devices (placed, not pipelined) takes them when it is
    // placed: the devices its pod names, else whole GPUs on the lowest free devices, shares best-fit
    // on the fullest device that still has room. Free milli may go below zero only when imported
    // pods already overcommit a node.
    std::vector<uint32_t> gpuOffset;
    std::vector<int32_t> gpuFree;

    std::vector<PodShape> shapes;
    std::vector<TaskRec> tasks;
    std::vector<JobRec> jobs;
    std::vector<QueueRec> queues;
    std::vector<HyperNodeRec> hyperNodes; // the last one is the virtual cluster top
    std::map<std::string, int32_t> hyperNodeTierByName;
    std::vector<int32_t> hyperNodeTiers; // ascending, including the top's
    int32_t defaultPriority = 0;         // globalDefault PriorityClass value
    std::map<std::string, int32_t> priorityClasses;
    // PriorityClasses with preemptionPolicy Never ("" for the globalDefault one): admission gives a
    // pod without a policy of its own its class's.
    std::set<std::string> preemptNeverClasses;
    std::map<std::string, Labels> namespaceLabels;
    std::vector<DisruptionBudgetRec> disruptionBudgets;
    // Unix seconds of the state's time 0: the input's newest creationTimestamp, to which creation
    // times are relative (none when no object has one).
    std::optional<int64_t> epochUnix;
    std::vector<FairshareStateMap> fairshareStates; // the input's, for Volcano's fairshare plugin
    int32_t podsWithAffinity = 0;                   // placed pods carrying pod (anti-)affinity terms

    // PodGroups the scheduler does not see (e.g. their queue does not exist), with the reason.
    std::map<std::string, std::string> skippedGroups;

    std::vector<NodeClass> classes;
    std::vector<NodeBucket> buckets;
    std::vector<uint32_t> nodeBucket; // bucket of each node
    std::vector<uint32_t> nodeJoin;   // when the node joined its bucket (NodeBucket::joins then)
    // Node label keys some pod's nodeSelector or node affinity reads: only these labels tell node
    // classes apart (a hostname label every node has does not split them). A new key, from a job
    // added later, makes the indexes stale until the next session rebuilds them.
    std::set<std::string> relevantLabelKeys;
    bool indexesStale = false;

    // Cluster-wide sums, kept up to date: allocatable of every node (with the scalar dimensions any
    // node declares) and used of every node (with the number of nodes using each dimension).
    std::vector<int64_t> allocatableSum, usedSum;
    uint64_t allocatableMask = 0;
    std::vector<int32_t> usedNodes;
    VResource totalAllocatable() const; // as the sum of every node's Volcano allocatable
    VResource totalUsed() const;        // as the sum of every node's used (dimensions in use)

    // Per-hypernode sums of the member nodes' rows (hypernode h at [h * D, (h + 1) * D)) and the OR
    // of their allocMask, on request: kept up to date by every change from then on, so a reader
    // need not walk each hypernode's nodes (network-topology-aware, every session). Allocatable,
    // idle, releasing and pipelined add a node's cpu, memory and the dimensions it declares (a pod
    // may hold one its node lacks); used adds every dimension.
    void trackHyperNodes();
    bool hyperNodesTracked() const { return !hnUsed.empty(); }
    std::vector<int64_t> hnAllocatable, hnUsed, hnIdle, hnReleasing, hnPipelined;
    std::vector<uint64_t> hnAllocMask;

    // Jobs whose pods or phase changed, for an observer that keeps per-job summaries (SettledJobs).
    // Recorded only while trackChanges is on; the observer empties the list.
    bool trackChanges = false;
    std::vector<uint32_t> changedJobs;
    uint64_t requeues = 0; // counts jobs added and tasks that went back to pending (JobRec::requeuedAt)
    void markChanged(uint32_t job) {
        if (!trackChanges || jobs[job].changed) return;
        jobs[job].changed = true;
        changedJobs.push_back(job);
    }
    void setJobPhase(uint32_t job, PodGroupPhase phase) {
        jobs[job].phase = phase;
        markChanged(job);
    }

    int D() const { return dims.size(); }
    const int64_t* nodeRow(const std::vector<int64_t>& a, uint32_t n) const {
        return a.data() + size_t(n) * size_t(D());
    }
    int64_t* nodeRow(std::vector<int64_t>& a, uint32_t n) { return a.data() + size_t(n) * size_t(D()); }
    const std::string& nodeName(uint32_t n) const { return strings.str(nodes[n].name); }
    std::string taskKey(uint32_t t) const {
        return strings.str(tasks[t].ns) + '/' + strings.str(tasks[t].name);
    }
    const PodShape& shapeOf(uint32_t t) const { return shapes[tasks[t].shape]; }
    // A pending task its scheduling gates hold: no scheduler places it.
    bool schedulingGated(uint32_t t) const {
        return tasks[t].status == TaskStatus::Pending && !shapes[tasks[t].shape].schedulingGates.empty();
    }
    // kube-scheduler's words for it (the SchedulingGates plugin's PreEnqueue status).
    std::string schedulingGatesReason(uint32_t t) const;
    int findNode(const std::string& name) const;
    int findQueue(const std::string& name) const;
    int findJob(const std::string& key) const;

    // --- mutations (the session records their inverses) ---
    // Moves a task to a status, keeping job counts and node accounting as upstream's
    // JobInfo.UpdateTaskStatus + NodeInfo.AddTask/RemoveTask do. node = -1 keeps the task's node.
    void setTask(uint32_t task, TaskStatus status, int32_t node);
    // A shape like `shape` with node selector entries and tolerations added (Kueue writes its
    // flavor's node labels and tolerations into the pods of a workload it admits).
    uint32_t shapeWithPlacement(uint32_t shape, const Labels& nodeSelector,
                                const std::vector<Toleration>& tolerations);
    // k8s NodeInfo view: pods the filters and scorers see (evictions remove, pipelines add).
    void k8sAdd(uint32_t task, uint32_t node);
    void k8sRemove(uint32_t task, uint32_t node);

    // --- creation gates (JobSet startup order, dependsOn, exclusive placement's followers) ---
    // Whether a gate's conditions hold now; when not, *why says what it waits for.
    bool gateHolds(uint32_t job, const CreationGate& gate, std::string* why = nullptr) const;
    // Creates the tasks of every closed gate of the job whose conditions hold (NotCreated ->
    // Pending; a follower gets its leader's domain as a nodeSelector). Returns the gates opened, with
    // their tasks' former shapes, for a caller that must undo them (closeGate).
    struct OpenedGate {
        uint32_t job = 0;
        CreationGate gate;
        std::vector<uint32_t> shapes, orders;
        uint32_t nextOrder = 0;
    };
    std::vector<OpenedGate> openGates(uint32_t job);
    void closeGate(OpenedGate&& opened); // undoes openGates for one gate
    // Why a NotCreated task does not exist yet ("" when it is not gated).
    std::string whyNotCreated(uint32_t task) const;
    // The role's own run time (JobRec::roleSeconds), or -1 when its pods run as long as the job.
    double roleSeconds(uint32_t job, uint16_t role) const;

    // Adds a job with its tasks (simulator arrivals), reusing the slots of removed jobs. Returns the
    // job index.
    uint32_t addJob(const PodGroup& group, const std::vector<Pod>& pods, const BuildOptions& options);
    uint32_t addJob(const PodGroup& group, const std::vector<Pod>& pods);
    // Volcano's job controller (pkg/controllers/job, syncJob): makes the pods of each of the job's
    // dependent tasks whose dependencies hold, until none more does. A dependency holds when at
    // least its task's minimum (PodGroup minTaskMember) of that task's pods run or succeeded.
    // Returns how many tasks it added.
    int createReadyDependents(uint32_t job, const BuildOptions& options);
    bool dependenciesHold(uint32_t job, const DependentTask& task) const;
    // After a restart deleted the job's pods: the dependent tasks whose dependencies no longer hold
    // lose their (pending) pods again, to be made once the dependencies run.
    void withdrawDependents(uint32_t job);
    // A node label key a placement decision reads (a plugin's own, such as nodegroup's): nodes that
    // differ in it are no longer alike (node classes); the indexes are rebuilt at the next ensureIndexes.
    void noteLabelKey(const std::string& key) {
        if (relevantLabelKeys.insert(key).second && !nodeBucket.empty()) indexesStale = true;
    }
    // Removes a finished job: none of its tasks may be on a node any more. Its job and task slots
    // and its names are freed for later arrivals; the slots stay in the vectors as dead entries
    // (no queue, tasks Succeeded and jobless) that every loop already skips.
    void removeJob(uint32_t job);
    bool jobAlive(uint32_t job) const { return !jobs[job].key.empty(); }
    size_t liveJobs() const { return jobs.size() - freeJobs.size(); }

    // GPU devices of a node and whether a task's GPU request fits them now (devices with enough
    // free milli, and a model the request allows).
    int gpuCount(uint32_t node) const { return int(gpuOffset[node + 1] - gpuOffset[node]); }
    const int32_t* gpuRow(uint32_t node) const { return gpuFree.data() + gpuOffset[node]; }
    bool gpuModelAllowed(uint32_t task, uint32_t node) const;
    bool gpusFit(uint32_t task, uint32_t node) const;
    // Reindexes a node after its dynamic state changed.
    void reindexNode(uint32_t node);
    void rebuildIndexes();
    void ensureIndexes() {
        if (indexesStale) rebuildIndexes();
    }

    // Pods of a shape that would fit each node's future idle resources by their request alone (an
    // upper bound: no other predicate is asked), summed over the nodes. Kept up to date by
    // reindexNode for the shapes asked for with trackFits, which parked jobs wait on (SettledJobs).
    void trackFits(uint32_t shape);
    int64_t fitCount(uint32_t shape) const { return fitTracks[size_t(fitSlot[shape])].total; }
    // The largest fitCount of one hypernode of tier <= tier (the virtual top counts as one):
    // what allocate could place of the shape for a gang it tries only inside such hypernodes.
    // Kept beside fitCount when the state has hypernodes.
    int64_t fitCountWithin(uint32_t shape, int32_t tier) const;
    // The nodes counted in fitCount (at least one pod fits), in no particular order.
    const std::vector<uint32_t>& nodesFitting(uint32_t shape) const {
        return fitTracks[size_t(fitSlot[shape])].nodes;
    }
    int64_t podsFitting(const PodShape& shape, uint32_t node) const;

    // Equivalence-class key inputs exposed for tests.
    std::vector<int64_t> dynamicKey(uint32_t node) const;
    uint64_t dynamicHash(uint32_t node) const;
    bool dynamicKeyEquals(uint32_t node, const std::vector<int64_t>& key) const;
    int sortedGpuFree(uint32_t node, int32_t* out) const; // out: kMaxNodeGpus values

  private:
    friend struct StateBuilder; // state_builder.cpp fills what follows
    uint32_t internShape(PodShape&& shape);
    void addTaskOf(const Pod& pod, uint32_t job, const BuildOptions& options); // state_builder.cpp
    void freeTask(uint32_t task); // its slot and names, for a later arrival
    void nodeAccount(uint32_t task, uint32_t node, TaskStatus status, int sign);
    bool countsResource(const std::string& name) const;
    bool everyResource = false; // BuildOptions::everyResource
    std::unordered_map<std::string, uint32_t> shapeIndex;
    std::unordered_map<std::string, uint32_t> nodeIndex, queueIndex, jobIndex;
    std::unordered_multimap<uint64_t, uint32_t> bucketIndex; // hash of the dynamic key -> bucket
    std::vector<uint32_t> freeBuckets;
    std::vector<uint32_t> freeJobs, freeTasks; // slots of removed jobs, reused by addJob
    uint32_t nextJobOrder = 0, nextTaskOrder = 0;
    struct FitTrack {
        uint32_t shape = 0;
        int64_t total = 0;
        std::vector<int32_t> perNode;      // pods that fit, by node
        std::vector<uint32_t> nodes;       // nodes where perNode > 0
        std::vector<int32_t> positions;    // by node: its place in nodes, -1
        std::vector<int64_t> perHyperNode; // sums of perNode over each hypernode's nodes
    };
    std::vector<int32_t> fitSlot;    // shape -> its row in fitTracks, -1
    std::vector<FitTrack> fitTracks; // tracked shapes
    void updateFits(uint32_t node);
    void setFit(FitTrack& f, uint32_t node, int32_t now);
    void acquireGpus(uint32_t task, uint32_t node);
    void releaseGpus(uint32_t task, uint32_t node);
};

// Compiles a cluster. Warnings (pods naming unknown PodGroups, unknown nodes...) are appended.
ClusterState buildClusterState(const Cluster& cluster, Diagnostics* warnings = nullptr,
                               const BuildOptions& options = {});

// Upstream's IsScalarResourceName plus the names Volcano counts explicitly.
bool volcanoCountsResource(const std::string& name);

} // namespace gantry::engine
