#pragma once
// Dynamic Resource Allocation (resource.k8s.io/v1) as kube-scheduler reads it: DeviceClasses,
// ResourceSlices (pools of devices with attributes, capacity and shared counters), ResourceClaims
// and their templates. Capacities and counters are kept in milli-units (Quantity::MilliValue), so
// they compare and add as integers whatever suffix the driver wrote.
#include "model/diagnostic.h"
#include "model/selectors.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gantry {

// One attribute value: exactly one of string, int, bool, version, as the API's one-of writes it.
struct DeviceAttribute {
    std::string type; // "string" | "int" | "bool" | "version"
    std::string text; // string and version values
    int64_t number = 0;
    bool flag = false;
    bool operator==(const DeviceAttribute&) const = default;
};

// Attribute name as the slice writes it: "productName" (in the driver's domain) or qualified
// ("resource.kubernetes.io/pciBusID").
using DeviceAttributes = std::map<std::string, DeviceAttribute>;
// Capacity or counter name -> amount in milli-units.
using DeviceAmounts = std::map<std::string, int64_t>;

struct CounterConsumption {
    std::string counterSet;
    DeviceAmounts counters;
    bool operator==(const CounterConsumption&) const = default;
};

struct CounterSet {
    std::string name;
    DeviceAmounts counters;
    bool operator==(const CounterSet&) const = default;
};

struct Device {
    std::string name;
    DeviceAttributes attributes;
    DeviceAmounts capacity;
    std::vector<CounterConsumption> consumesCounters; // partitionable devices (KEP-4815)
    bool allowMultipleAllocations = false;            // consumable capacity (KEP-5075)
    bool operator==(const Device&) const = default;
};

struct ResourceSlice {
    std::string name;
    std::string driver;
    std::string pool;
    int64_t poolGeneration = 0;
    int64_t resourceSliceCount = 1;
    std::string nodeName; // empty: allNodes or nodeSelector decide
    bool allNodes = false;
    std::vector<NodeSelectorTerm> nodeSelector;
    std::vector<Device> devices;
    std::vector<CounterSet> sharedCounters;
    SourceRef source;
    bool operator==(const ResourceSlice& o) const {
        return name == o.name && driver == o.driver && pool == o.pool && poolGeneration == o.poolGeneration &&
               resourceSliceCount == o.resourceSliceCount && nodeName == o.nodeName &&
               allNodes == o.allNodes && nodeSelector == o.nodeSelector && devices == o.devices &&
               sharedCounters == o.sharedCounters;
    }
};

struct DeviceClass {
    std::string name;
    std::vector<std::string> selectors; // CEL expressions; a device must pass all
    std::string extendedResourceName;   // KEP-5004: requests of this resource are served by the class
    SourceRef source;
    bool operator==(const DeviceClass& o) const {
        return name == o.name && selectors == o.selectors && extendedResourceName == o.extendedResourceName;
    }
};

// What one request (or one subrequest of a prioritized list) asks for.
struct DeviceSubRequest {
    std::string name;
    std::string deviceClassName;
    std::vector<std::string> selectors; // CEL
    bool allocateAll = false;           // allocationMode: All
    int64_t count = 1;                  // allocationMode: ExactCount
    DeviceAmounts capacity;             // capacity.requests (consumable capacity)
    bool operator==(const DeviceSubRequest&) const = default;
};

// A request: `exactly` is one entry named as the request; `firstAvailable` lists the choices in
// order of preference (KEP-4816).
struct DeviceRequest {
    std::string name;
    bool prioritized = false;
    std::vector<DeviceSubRequest> choices;
    bool operator==(const DeviceRequest&) const = default;
};

struct DeviceConstraint {
    std::vector<std::string> requests; // empty: all requests
    std::string matchAttribute;
    bool operator==(const DeviceConstraint&) const = default;
};

struct DeviceClaimSpec {
    std::vector<DeviceRequest> requests;
    std::vector<DeviceConstraint> constraints;
    bool operator==(const DeviceClaimSpec&) const = default;
};

struct AllocatedDevice {
    std::string request; // "req" or "req/subrequest"
    std::string driver;
    std::string pool;
    std::string device;
    DeviceAmounts consumedCapacity;
    bool operator==(const AllocatedDevice&) const = default;
};

struct ClaimAllocation {
    std::vector<AllocatedDevice> devices;
    std::vector<NodeSelectorTerm> nodeSelector; // where the claim can be used; empty: anywhere
    bool operator==(const ClaimAllocation&) const = default;
};

struct ResourceClaim {
    std::string name;
    std::string ns;
    DeviceClaimSpec spec;
    std::optional<ClaimAllocation> allocation; // status.allocation
    std::vector<std::string> reservedFor;      // pods, by name
    SourceRef source;
    bool operator==(const ResourceClaim& o) const {
        return name == o.name && ns == o.ns && spec == o.spec && allocation == o.allocation &&
               reservedFor == o.reservedFor;
    }
};

struct ResourceClaimTemplate {
    std::string name;
    std::string ns;
    DeviceClaimSpec spec;
    SourceRef source;
    bool operator==(const ResourceClaimTemplate& o) const {
        return name == o.name && ns == o.ns && spec == o.spec;
    }
};

// One entry of a pod's spec.resourceClaims.
struct PodResourceClaim {
    std::string name;
    std::string resourceClaimName;         // a claim of the namespace
    std::string resourceClaimTemplateName; // or a template the claim is made from
    std::string generatedClaimName;        // status.resourceClaimStatuses: the claim made for the pod
    bool operator==(const PodResourceClaim&) const = default;
};

struct DraObjects {
    std::vector<DeviceClass> deviceClasses;
    std::vector<ResourceSlice> resourceSlices;
    std::vector<ResourceClaim> resourceClaims;
    std::vector<ResourceClaimTemplate> resourceClaimTemplates;
    bool empty() const {
        return deviceClasses.empty() && resourceSlices.empty() && resourceClaims.empty() &&
               resourceClaimTemplates.empty();
    }
    bool operator==(const DraObjects&) const = default;
};

} // namespace gantry
