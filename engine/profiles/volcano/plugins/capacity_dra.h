#pragma once
// The capacity plugin's DeviceClass quota (Volcano's capacity DRA support, docs/design/capacity-dra-
// support.md): a queue's capability may name `deviceclass/<DeviceClass>` (devices) and
// `<dim>.deviceclass/<DeviceClass>` (consumable capacity per device, times the count). A task is
// charged the ExactCount requests of its pod's claims (allocationMode All and firstAvailable are
// not counted, as upstream), a claim several of a queue's pods share once. Only the capability is
// enforced, when a task is allocated: deserved and guarantee keys are read upstream but never
// checked, and the quota is never compared with the devices the cluster publishes.
#include "k8s/claim_tasks.h"
#include "model/resources.h"
#include "state/cluster_state.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gantry::engine::plugins {

// Devices and capacity of one DeviceClass: a count, and amounts in milli-units.
struct DraAmount {
    int64_t count = 0;
    std::map<std::string, int64_t> capacity;
};
using DraByClass = std::map<std::string, DraAmount>;

// What one task's claims ask for, claim by claim.
struct TaskDra {
    std::vector<std::pair<std::string, DraByClass>> claims; // claim key, its request per class
};

// A queue's DRA quota and what its tasks hold.
struct QueueDra {
    DraByClass capability;
    DraByClass allocated;
    std::map<std::string, int32_t> claimRefs; // claim key -> tasks holding it
};

// The quota the queue's capability names; nullopt when it names none.
std::optional<QueueDra> parseQueueDra(const ResourceList& capability);

class CapacityDra {
  public:
    CapacityDra(k8s::ClaimTasks* claims, bool consumable) : claims_(claims), consumable_(consumable) {}

    // The task's request (empty when its pod uses no claim), worked out once per task name.
    const TaskDra& of(const ClusterState& st, uint32_t t);
    // Whether the queue's capability takes the task: the claims it does not hold yet, added to what
    // it holds (checkDRAAllocatable without the in-queue part). A class the capability does not
    // name, or a count of 0, is not limited.
    bool fits(const QueueDra& q, const TaskDra& task) const;
    // The task holds its claims in the queue (+1) or gives them back (-1). `charged`: the amounts
    // that the queue's total changed by, for callers that pass them on.
    static void hold(QueueDra& q, const TaskDra& task, int sign, DraByClass* charged = nullptr);
    // Adds amounts of the classes the queue's capability names (an ancestor's share of a change).
    static void addNamed(QueueDra& q, const DraByClass& amounts, int sign);

  private:
    k8s::ClaimTasks* claims_;
    bool consumable_;
    std::map<std::string, TaskDra> byPod_;
    TaskDra none_;
};

} // namespace gantry::engine::plugins
