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
    void submitHeld(ClusterState& state, uint32_t app);

    // Applications the core refused (placement), by id, with why; jobs of a simulation refused so.
    std::map<std::string, std::string> rejected;
    // Why the application of a task was refused; nullptr when it was not.
    const std::string* rejectionOf(const ClusterState& state, uint32_t task) const;
    std::vector<std::pair<uint32_t, std::string>> rejectedJobs;
    std::vector<int32_t> askOfTask;         // task -> ask (-1)
    std::vector<std::vector<int32_t>> held; // app -> tasks the shim holds back (gangs reserving)
    std::vector<int32_t> appJob;            // app -> state job (-1)
    std::vector<std::string> warnings;
    // Tasks of the state this shim put on a node or took off one during a cycle (undone by the
    // profile so the cycle leaves the state as it found it).
    std::vector<std::pair<uint32_t, uint32_t>> k8sAdded;
    // The state jobs the last sync() took from ClusterState::changedJobs (every job whose tasks,
    // phase or existence changed since the cycle before).
    std::vector<uint32_t> syncedJobs;

  private:
    uint32_t appFor(ClusterState& state, uint32_t task, double now, bool* rejectedApp);
    uint32_t appForJob(ClusterState& state, uint32_t job, double now);
    Ask askFor(const ClusterState& state, uint32_t task, uint32_t app, double createTime);
    uint32_t resOfShape(const ClusterState& state, uint32_t shape);
    Res resOfList(const ResourceList& list);
    void addPlaceholders(ClusterState& state, uint32_t app, uint32_t modelTask, double now);
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
    // state job -> JobRec::order of the job its app was made for: the state hands a finished job's
    // index (and task slots) to the next arrival, which is another application.
    std::vector<uint32_t> jobOrder_;
    std::vector<uint32_t> watched_; // jobless tasks the simulator may take off their node
};

} // namespace gantry::engine::yunikorn
