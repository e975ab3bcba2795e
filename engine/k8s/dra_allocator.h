#pragma once
// kube-scheduler's DynamicResources plugin with structured parameters: the ResourceClaims a pod
// uses are allocated on a node from the devices the node's ResourceSlices publish, as the
// structured allocator does (k8s.io/dynamic-resource-allocation/structured): pools in order, the
// requests of every claim in order, first fit with backtracking, prioritized lists
// (firstAvailable) tried choice by choice, allocationMode All, DeviceClass and request selectors
// (k8s/dra_cel.h), matchAttribute constraints, shared counters consumed by partitions,
// consumable capacity, a device given to one claim at a time, claims allocated before held.
//
// One ledger per cluster state: what is in use carries from one cycle to the next; a pod that
// left the state gives its claims' devices back (sync).
#include "k8s/dra_cel.h"
#include "model/cluster.h"
#include "profile/claim_gpus.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace gantry::engine::k8s {

// The DynamicResources Filter's words (pkg/scheduler/framework/plugins/dynamicresources); both
// are UnschedulableAndUnresolvable: preemption does not free devices.
inline constexpr const char* kCannotAllocateAllClaims = "cannot allocate all claims";
inline constexpr const char* kClaimNotAvailableOnNode = "resourceclaim not available on the node";
// Any other reason filter() gives is the allocator's error (a CEL runtime error): upstream's Filter
// returns it as an Error status, which aborts the pod's scheduling attempt.
inline bool isAllocationError(const char* reason) {
    return reason && reason != kCannotAllocateAllClaims && reason != kClaimNotAvailableOnNode;
}

// A claim as the pod uses it: an object of the snapshot, or the one the ResourceClaim controller
// makes from a template (named <pod>-<podClaimName>, without the controller's random suffix).
struct PodClaim {
    std::string key; // "ns/name"
    const DeviceClaimSpec* spec = nullptr;
    const ClaimAllocation* allocated = nullptr; // already allocated (status.allocation)
};

// KEP-5004: devices a pod gets for an extended resource the node does not advertise, from the
// DeviceClass that serves it.
struct ExtendedDevices {
    std::string deviceClass;
    int64_t count = 0;
};

struct ClaimResult {
    std::string claim; // "ns/name"
    std::string node;
    std::vector<AllocatedDevice> devices;
};

class DraAllocator {
  public:
    // Indexes the slices, marks the devices of allocated claims in use and compiles every selector;
    // selectors outside the supported CEL are warnings, located at their object.
    DraAllocator(const Cluster& cluster, std::vector<Diagnostic>* warnings);

    bool empty() const { return pods_.empty(); }
    // Whether the pod ("ns/name") uses claims; whether it holds devices through them.
    bool hasClaims(const std::string& pod) const { return pods_.count(pod) != 0; }
    bool holds(const std::string& pod) const { return claimsOf_.count(pod) != 0; }
    // The pod's claims as it uses them (null: none), for schedulers that count them against quotas.
    const std::vector<PodClaim>* claimsOf(const std::string& pod) const {
        auto it = pods_.find(pod);
        return it == pods_.end() ? nullptr : &it->second.claims;
    }
    // Why the pod cannot be scheduled anywhere, before any node (PreFilter): a claim that does not
    // exist, a class that does not exist. Empty when it can be tried.
    const std::string& preFilter(const std::string& pod) const;

    // The DeviceClass that serves requests of an extended resource on nodes that do not advertise
    // it: the one whose extendedResourceName it is, or <class> of
    // deviceclass.resource.kubernetes.io/<class>; null when none does.
    const std::string* extendedClass(const std::string& resource) const;

    // Whether every claim of the pod can be used on the node: the allocated ones are available
    // there and the others, with the devices `extended` asks for, can be allocated from its
    // devices, given what is in use. Null: yes; otherwise the Filter's reason.
    const char* filter(const std::string& pod, const std::string& node, const Labels& labels,
                       const std::vector<ExtendedDevices>& extended = {});
    // Allocates them on the node (after filter said yes) and reserves every claim of the pod for it
    // (a claim allocated before, for another pod, too). The extended resources' claim is named
    // <pod>-extended-resources (upstream adds a random suffix).
    std::vector<ClaimResult> allocate(const std::string& pod, const std::string& node, const Labels& labels,
                                      const std::vector<ExtendedDevices>& extended = {});
    // Unreserve: the pod no longer uses its claims. A claim no pod uses any more is deallocated
    // (its devices come back), as the ResourceClaim controller does once reservedFor is empty; one
    // other pods still use stays allocated.
    void releasePod(const std::string& pod);
    // The physical GPU compute the devices in use stand for, in milli-GPU (draDeviceGpuMilli): a
    // device shared by consumable capacity by the share of it in use.
    int64_t gpuMilliInUse() const { return gpuMilliInUse_; }
    // The GPUs of the NVIDIA DRA driver's devices, as the ledger stands (k8s/dra_gpu_idle.cpp).
    ClaimGpus gpus() const;
    // Unreserves every pod the ledger knows that `stillHolds` denies.
    template <class Pred> void sync(Pred stillHolds) {
        std::vector<std::string> gone;
        for (const auto& [pod, claims] : claimsOf_)
            if (!stillHolds(pod)) gone.push_back(pod);
        for (const auto& pod : gone) releasePod(pod);
    }

  private:
    struct DeviceRef {
        uint32_t pool = 0;
        uint32_t slice = 0;  // into the cluster's resourceSlices
        uint32_t device = 0; // within the slice
    };
    struct Pool {
        std::string driver, name;
        std::vector<uint32_t> devices; // into devices_, in slice then device order
        std::map<std::string, DeviceAmounts> counterSets;
        bool complete = true;
        // Which nodes it serves: one node by name, or every node whose labels pass a selector.
        std::string nodeName;
        bool allNodes = false;
        std::vector<NodeSelectorTerm> nodeSelector;
    };
    // One device given to a claim: its counters and capacity consumed.
    struct Use {
        uint32_t device = 0;
        DeviceAmounts capacity; // consumable capacity taken; empty: the whole device
    };
    struct Choice; // the search's working set (dra_allocator.cpp)

    const Device& device(uint32_t d) const;
    const std::string& driverOf(uint32_t d) const;
    std::vector<uint32_t> poolsFor(const std::string& node, const Labels& labels) const;
    // Whether device d passes the class's and the request's selectors. A CEL runtime error is false
    // with *error set, in the allocator's words ("class C: selector #i on device D: CEL runtime error:
    // ..."): upstream's allocation stops there.
    bool selectable(uint32_t d, const DeviceSubRequest& req, const std::string& claim,
                    std::string* error) const;
    const DeviceSelector* selector(const std::string& expression) const;
    bool search(Choice& c, size_t claim, size_t request) const;
    bool fill(Choice& c, size_t claim, size_t request, size_t choice, int64_t have, size_t from) const;
    bool fits(const Choice& c, uint32_t d, const DeviceSubRequest& req, size_t claim,
              const std::string& requestName, DeviceAmounts* capacity) const;
    bool constraintsHold(const Choice& c, uint32_t d, size_t claim, const std::string& request) const;
    void take(const Use& use, int sign);
    void release(const Use& use) { take(use, -1); }
    int64_t sharedGpuMilli(uint32_t d) const;
    int64_t gpuMilli(uint32_t d) const { return int64_t(gpuSlices_[d]) * 1000 / 7; }
    void indexGpus();
    bool askedFor(uint32_t d) const;
    bool available(uint32_t d) const;
    std::optional<std::vector<ClaimResult>> run(const std::string& pod, const std::string& node,
                                                const Labels& labels,
                                                const std::vector<ExtendedDevices>& extended) const;

    const DraObjects dra_; // its own copy: the claims and devices below point into it
    std::vector<Pool> pools_;
    std::unordered_map<std::string, std::vector<uint32_t>> poolsOfNode_; // pools that name the node
    std::vector<uint32_t> sharedPools_; // pools that serve by allNodes or a node selector
    std::vector<DeviceRef> devices_;
    std::map<std::tuple<std::string, std::string, std::string>, uint32_t> byName_; // driver, pool, device
    std::vector<int32_t> exclusiveUses_;      // per device: claims holding it whole
    std::vector<DeviceAmounts> capacityUsed_; // per device: consumable capacity taken
    std::vector<int8_t> gpuSlices_;           // per device: draDeviceComputeSlices
    int64_t gpuMilliInUse_ = 0;
    // The physical GPUs of the NVIDIA driver's devices: their devices, and whether those are
    // partitions of the GPU's shared counters (dynamic MIG) or fixed devices.
    struct PhysicalGpu {
        std::vector<uint32_t> devices;
        bool partitioned = false;
        bool migDevices = false; // some of its devices are MIG devices
    };
    std::vector<PhysicalGpu> physicalGpus_;
    bool migDevices_ = false;
    // Per device: whether a request of a pod's claim selects it (-1 not asked yet); the distinct
    // claim specs of the pods, with a claim's key for messages.
    mutable std::vector<int8_t> asked_;
    mutable std::vector<std::pair<const DeviceClaimSpec*, const std::string*>> askedSpecs_;
    std::vector<std::map<std::string, DeviceAmounts>> counterUsed_; // per pool: counter set -> used
    std::map<std::string, const DeviceClass*> classes_;
    std::map<std::string, uint32_t> classIndex_;
    // Whether device d passes class c's selectors (classMatch_[d * classes + c]): -1 not asked yet.
    // Selectors read only the device, so each is evaluated once.
    mutable std::vector<int8_t> classMatch_;
    std::map<std::string, std::string> extendedClasses_; // extended resource -> DeviceClass
    std::map<std::string, std::optional<DeviceSelector>> selectors_;
    // The error of the last filter or allocation that failed with one (a CEL runtime error).
    mutable std::string lastError_;
    struct PodClaims {
        std::vector<PodClaim> claims;
        std::string unusable; // PreFilter's reason, if any
    };
    std::map<std::string, PodClaims> pods_;
    // The allocated claims whose devices are in use: where, which devices, and the pods they are
    // reserved for (status.reservedFor). A claim several pods name is allocated once; the others
    // use it there, and its devices come back when the last of them is done. A claim allocated in
    // the snapshot for no pod is held for good.
    struct Allocation {
        std::string node; // empty: allocated in the snapshot (its node selector says where)
        std::vector<Use> uses;
        std::set<std::string> reservedFor;
    };
    std::map<std::string, Allocation> allocations_;
    std::map<std::string, std::vector<std::string>> claimsOf_; // pod -> the claims reserved for it
    // Whether an allocated claim can be used on the node (its allocation's node selector, or the
    // node this ledger allocated it on); *allocated: whether it is allocated at all.
    bool usableOn(const PodClaim& claim, const std::string& node, const Labels& labels,
                  bool* allocated) const;
};

} // namespace gantry::engine::k8s
