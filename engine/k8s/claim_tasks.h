#pragma once
// The DRA side of a scheduler over one cluster state: which tasks DynamicResources has work for
// (their claims, or extended resources a DeviceClass serves, KEP-5004), worked out once per task
// slot and kept current as slots are reused, and the pods that left giving their devices back. The
// kube-scheduler cycle, Volcano's predicates plugin and YuniKorn's shim (its Filter only) all
// schedule claims through it.
#include "k8s/dra_allocator.h"
#include "state/cluster_state.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace gantry::engine::k8s {

class ClaimTasks {
  public:
    // `extended`: extended resources a DeviceClass serves count as DynamicResources' too (kube-
    // scheduler 1.37); a scheduler that counts them against the node itself passes false.
    ClaimTasks(DraAllocator& dra, bool extended) : dra_(dra), extended_(extended) {}

    DraAllocator& allocator() { return dra_; }
    // Whether DynamicResources has something to do for the task.
    bool uses(const ClusterState& st, uint32_t t);
    // PreFilter: why the task cannot be scheduled on any node (a missing claim or class); null when
    // it can be tried.
    const std::string* unusable(const ClusterState& st, uint32_t t);
    // Whether a DeviceClass serves the dimension's extended resource.
    bool servedByDra(const ClusterState& st, int d);
    // The devices the task gets through DRA on the node for its extended resources the node does not
    // advertise.
    void extendedFor(const ClusterState& st, uint32_t t, uint32_t n, std::vector<ExtendedDevices>& out);
    // Filter and Reserve on the node (the allocator's), with the task's extended devices.
    const char* filter(const ClusterState& st, uint32_t t, uint32_t n);
    std::vector<ClaimResult> allocate(const ClusterState& st, uint32_t t, uint32_t n);
    // Unreserve: the task gives back what allocate gave it.
    void release(const ClusterState& st, uint32_t t);
    // The pods that left (finished, evicted, pending again, their task slot taken by another pod)
    // give their devices back; on the first call, the pods of the snapshot that hold claims are found.
    void sync(const ClusterState& st);

  private:
    bool shapeServed(const ClusterState& st, uint32_t shape);

    DraAllocator& dra_;
    const bool extended_;
    // Per task slot: whether it uses claims, for the (name, shape) it was worked out for; the tasks
    // that do, by key.
    std::vector<uint8_t> uses_;
    std::vector<uint64_t> usesId_;
    std::unordered_map<std::string, uint32_t> index_;
    std::vector<int8_t> servedDims_; // per dimension: -1 not asked yet
    std::vector<ExtendedDevices> scratch_;
};

} // namespace gantry::engine::k8s
