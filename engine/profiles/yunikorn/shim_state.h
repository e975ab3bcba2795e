#pragma once
// The shim between the cluster state and the core's partition: which tasks are YuniKorn's asks and
// allocations, which pods of other schedulers occupy nodes, and, over a simulation, what changed
// since the last cycle (arrivals, completions, evictions) translated into the shim's events. For
// simulated gangs it plays the shim's part too: placeholders first, the real pods once they all
// run (Hard style: the application fails when they time out, Soft: it runs without them).
#include "model/cluster.h"
#include "profiles/yunikorn/config.h"
#include "profiles/yunikorn/partition.h"
#include "profiles/yunikorn/shim.h"
#include "state/cluster_state.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace gantry::engine::yunikorn {

// What the shim knows of a pod of the input cluster (the state's first tasks are these pods).
struct InputPod {
    std::string key; // namespace/name
    std::string uid, ownerUid;
    PodMeta meta;
    double createTime = 0; // seconds relative to the newest pod (<= 0)
};

class ShimState {
  public:
    ShimState(PartitionConfig config, std::vector<InputPod> pods,
              std::vector<std::pair<std::string, std::string>> queuePaths);

    // First cycle: every node and pod of the state.
    void attach(ClusterState& state, double now);
    // Later cycles of a simulation: the state's changes since the last cycle.
    void sync(ClusterState& state, double now);
    bool attached() const { return partition_ != nullptr; }

    Partition& partition() { return *partition_; }
    const Partition& partition() const { return *partition_; }

    // After a decision: the shim's own follow-ups (the k8s view of a placed pod; in a simulation
    // also deleting replaced, released and preempted placeholders at once, and submitting the held
    // pods of a gang that now runs).
    void afterDecision(ClusterState& state, const CycleDecision& d, bool simulated);
    // Placeholders the core released (timeout, size): deleted by the shim.
    void releasePlaceholder(uint32_t ask);
    // Submits the pods held for a gang once its placeholders are all bound, or once the core runs
    // it without them (`resumed`, Soft style after the timeout).
    void submitHeld(ClusterState& state, uint32_t app, bool resumed = false);

    // Applications the core refused (placement), by id, with why; jobs of a simulation refused so.
    std::map<std::string, std::string> rejected;
    // Why the application of a task was refused; nullptr when it was not.
    const std::string* rejectionOf(const ClusterState& state, uint32_t task) const;
    std::vector<std::pair<uint32_t, std::string>> rejectedJobs;
    std::vector<int32_t> askOfTask;                   // task -> ask (-1)
    std::vector<std::vector<int32_t>> held;           // app -> tasks the shim holds back (gangs reserving)
    std::vector<int32_t> appJob;                      // app -> state job (-1): its first one
    std::vector<uint32_t> jobsOf(uint32_t app) const; // the state jobs of an application
    std::vector<std::string> warnings;
    // The pods the shim assumed on a node during a cycle (Context.AssumePod: its cache counts them
    // at once, so the next predicate check sees them); forgetAssumed() leaves the state as the
    // cycle found it.
    void forgetAssumed(ClusterState& state);
    // The state jobs the last sync() took from ClusterState::changedJobs (every job whose tasks,
    // phase or existence changed since the cycle before).
    std::vector<uint32_t> syncedJobs;

    // The reading of the first pod of each workload read from a manifest, by its application id
    // (the profile's readWorkload fills it; shared with it).
    std::shared_ptr<std::map<std::string, PodMeta>> workloadMeta;

    // The shim's tags of the namespaces' applications (readNamespaceTags), by namespace.
    std::map<std::string, NamespaceTags> namespaceTags;

  private:
    void addNamespaceTags(Application& a, const std::string& ns);
    bool isInput(const ClusterState& state, uint32_t task) const;
    bool gangReserved(uint32_t app) const;
    Application applicationOf(const PodMeta& meta, const std::string& ns, double now);
    int32_t taskGroupOf(uint32_t app, const std::string& name);
    const PodMeta* workloadMetaOf(uint32_t job) const;
    uint32_t appFor(ClusterState& state, uint32_t task, double now, bool* rejectedApp);
    uint32_t appForJob(ClusterState& state, uint32_t job, double now);
    Ask askFor(const ClusterState& state, uint32_t task, uint32_t app, double createTime);
    uint32_t resOfShape(const ClusterState& state, uint32_t shape);
    Res resOfList(const ResourceList& list);
    void addPlaceholders(ClusterState& state, uint32_t app, uint32_t modelTask, double now, uint32_t owner);
    void join(ClusterState& state, uint32_t job, uint32_t app);
    void leave(ClusterState& state, uint32_t job, uint32_t app);
    // appAsks_, and for an application jobs may share, which job (JobRec::order) the ask is for.
    void noteAsk(uint32_t app, uint32_t ask, uint32_t owner);
    void removeApp(ClusterState& state, uint32_t app);
    void newApp(uint32_t app);
    uint32_t groupRes(const Res& res);
    std::string queuePathOf(const std::string& queueName) const;

    PartitionConfig config_;
    std::vector<InputPod> pods_;
    std::vector<std::pair<std::string, std::string>> queuePaths_; // source queue name -> path
    std::unique_ptr<Partition> partition_;
    std::vector<int32_t> shapeRes_;          // state shape -> askRes index
    std::vector<uint32_t> groupRes_;         // askRes indexes of placeholder resources (groupRes)
    std::map<std::string, uint32_t> appIds_; // while attaching: application id -> app (kNone: rejected)
    bool attaching_ = false;
    std::vector<std::string> originatorUid_;     // app -> uid of its originator pod
    std::vector<std::vector<uint32_t>> appAsks_; // app -> its asks (for removal)
    std::vector<int32_t> jobApp_;                // state job -> app
    std::vector<const PodMeta*> jobMeta_;        // state job -> its workload's reading (null: none)
    // Applications of workloads read from manifests, live, by id: later jobs whose pods name the
    // same id join them. For each, its jobs and the job each of its asks was made for.
    std::unordered_map<std::string, uint32_t> sharedApps_;
    struct Members {
        std::vector<uint32_t> jobs;
        std::vector<std::pair<uint32_t, uint32_t>> asks; // (ask, JobRec::order)
    };
    std::unordered_map<uint32_t, Members> members_;
    // state job -> JobRec::order of the job its app was made for: the state hands a finished job's
    // index (and task slots) to the next arrival, which is another application.
    std::vector<uint32_t> jobOrder_;
    std::vector<uint32_t> watched_; // jobless tasks the simulator may take off their node
    void assume(ClusterState& state, uint32_t task, uint32_t node);
    struct Assumed {
        uint32_t task = 0, node = 0;
        TaskStatus status = TaskStatus::Pending;
        int32_t formerNode = -1;
        bool placed = false; // put on the node, not only in its k8s view
    };
    std::vector<Assumed> assumed_;
    // Whether some pod shape of the state has inter-pod terms (pod affinity, anti-affinity,
    // topology spread): only then can an assumed pod change a predicate, through the node's pods
    // (ClusterState::nodeTasks). Shapes are only added, so they are read once.
    bool interPodTerms(const ClusterState& state);
    size_t shapesRead_ = 0;
    bool interPod_ = false;
};

} // namespace gantry::engine::yunikorn
