// resource.k8s.io objects (v1, and the v1beta1/v1beta2 shapes a live cluster may still serve):
// DeviceClass, ResourceSlice, ResourceClaim, ResourceClaimTemplate.
#include "import_state.h"
#include "kubernetes/k8s_fields.h"

namespace gantry::snapshot {

namespace {

// Capacities and counters are kept in milli-units whatever the name (model/dra.h); a name outside
// Kubernetes' byte-counted resources converts that way.
constexpr std::string_view kMilliUnits = "resource.k8s.io/amount";

int64_t milli(const Y& quantity) {
    return quantity.quantity(kMilliUnits);
}

// {name: {value: Q}} (capacity, counters); `valueKeys` are the keys of each entry read as modelled.
DeviceAmounts readAmounts(const Y& map, std::initializer_list<std::string_view> ignored = {}) {
    DeviceAmounts out;
    for (const auto& [name, entry] : map.entries()) {
        entry.checkKeys("device amount", {"value"}, ignored);
        if (!entry["value"].present()) entry.fail("'" + name + "' has no value");
        out[name] = milli(entry["value"]);
    }
    return out;
}

std::vector<std::string> readSelectors(const Y& list) {
    std::vector<std::string> out;
    for (const auto& s : list.items()) {
        s.checkKeys("device selector", {"cel"});
        auto cel = s["cel"];
        if (!cel.present()) s.fail("a device selector needs cel.expression");
        cel.checkKeys("CEL selector", {"expression"});
        std::string expr = cel["expression"].str();
        if (expr.empty()) cel.fail("empty CEL expression");
        out.push_back(std::move(expr));
    }
    return out;
}

Device readDevice(const Y& y) {
    // v1beta1 nests the description under `basic`.
    const Y body = y["basic"].present() ? y["basic"] : y;
    y.checkKeys("device",
                {"name", "attributes", "capacity", "consumesCounters", "allowMultipleAllocations", "basic"},
                {"taints", "nodeName", "nodeSelector", "allNodes", "bindsToNode", "bindingConditions",
                 "bindingFailureConditions"});
    Device d;
    d.name = y["name"].str();
    if (d.name.empty()) y.fail("a device needs a name");
    for (const auto& [name, v] : body["attributes"].entries()) {
        v.checkKeys("device attribute", {"string", "int", "bool", "version"});
        DeviceAttribute a;
        if (v["string"].present()) {
            a.type = "string";
            a.text = v["string"].str();
        } else if (v["version"].present()) {
            a.type = "version";
            a.text = v["version"].str();
        } else if (v["int"].present()) {
            a.type = "int";
            a.number = v["int"].i64();
        } else if (v["bool"].present()) {
            a.type = "bool";
            a.flag = v["bool"].boolean();
        } else {
            v.fail("attribute '" + name + "' needs one of string, int, bool, version");
        }
        d.attributes[name] = std::move(a);
    }
    d.capacity = readAmounts(body["capacity"], {"requestPolicy"});
    for (const auto& c : body["consumesCounters"].items()) {
        c.checkKeys("counter consumption", {"counterSet", "counters"});
        d.consumesCounters.push_back(CounterConsumption{c["counterSet"].str(), readAmounts(c["counters"])});
    }
    d.allowMultipleAllocations = y["allowMultipleAllocations"].boolean(false);
    return d;
}

DeviceSubRequest readSubRequest(const Y& y, std::string name) {
    y.checkKeys("device request",
                {"name", "deviceClassName", "selectors", "allocationMode", "count", "capacity"},
                {"tolerations", "adminAccess"});
    DeviceSubRequest r;
    r.name = std::move(name);
    r.deviceClassName = y["deviceClassName"].str();
    if (r.deviceClassName.empty()) y.fail("request '" + r.name + "' needs a deviceClassName");
    r.selectors = readSelectors(y["selectors"]);
    std::string mode = y["allocationMode"].choice("ExactCount", {"ExactCount", "All"});
    r.allocateAll = mode == "All";
    r.count = y["count"].i64(1);
    if (!r.allocateAll && r.count < 1) y["count"].fail("count must be at least 1");
    if (r.allocateAll && y["count"].present())
        y["count"].fail("count must not be set with allocationMode All");
    y["capacity"].checkKeys("capacity", {"requests"});
    for (const auto& [res, q] : y["capacity"]["requests"].entries()) r.capacity[res] = milli(q);
    return r;
}

DeviceClaimSpec readClaimSpec(const Y& spec) {
    spec.checkKeys("ResourceClaim spec", {"devices"});
    auto devices = spec["devices"];
    devices.checkKeys("ResourceClaim devices", {"requests", "constraints"}, {"config"});
    DeviceClaimSpec out;
    for (const auto& req : devices["requests"].items()) {
        DeviceRequest r;
        r.name = req["name"].str();
        if (r.name.empty()) req.fail("a device request needs a name");
        for (const auto& other : out.requests)
            if (other.name == r.name) req["name"].fail("duplicate request '" + r.name + "'");
        if (req["firstAvailable"].present()) {
            req.checkKeys("device request", {"name", "firstAvailable"});
            r.prioritized = true;
            for (const auto& sub : req["firstAvailable"].items()) {
                std::string subName = sub["name"].str();
                if (subName.empty()) sub.fail("a subrequest needs a name");
                r.choices.push_back(readSubRequest(sub, subName));
            }
            if (r.choices.empty()) req["firstAvailable"].fail("firstAvailable needs at least one subrequest");
        } else if (req["exactly"].present()) {
            req.checkKeys("device request", {"name", "exactly"});
            r.choices.push_back(readSubRequest(req["exactly"], r.name));
        } else {
            r.choices.push_back(readSubRequest(req, r.name)); // v1beta1: the fields on the request
        }
        out.requests.push_back(std::move(r));
    }
    for (const auto& c : devices["constraints"].items()) {
        c.checkKeys("device constraint", {"requests", "matchAttribute"}, {"distinctAttribute"});
        DeviceConstraint k;
        k.requests = c["requests"].strings();
        k.matchAttribute = c["matchAttribute"].str();
        out.constraints.push_back(std::move(k));
    }
    return out;
}

std::vector<NodeSelectorTerm> readNodeSelector(const Y& y) {
    std::vector<NodeSelectorTerm> terms;
    y.checkKeys("node selector", {"nodeSelectorTerms"});
    for (const auto& t : y["nodeSelectorTerms"].items()) terms.push_back(readNodeSelectorTerm(t));
    return terms;
}

} // namespace

void readDeviceClass(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("DeviceClass", {"apiVersion", "kind", "metadata", "spec"});
    auto spec = r["spec"];
    spec.checkKeys("DeviceClass", {"selectors", "extendedResourceName"}, {"config"});
    DeviceClass c;
    c.name = o.name;
    c.selectors = readSelectors(spec["selectors"]);
    c.extendedResourceName = spec["extendedResourceName"].str();
    c.source = o.source;
    s.cluster.dra.deviceClasses.push_back(std::move(c));
}

void readResourceSlice(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("ResourceSlice", {"apiVersion", "kind", "metadata", "spec"});
    auto spec = r["spec"];
    spec.checkKeys("ResourceSlice",
                   {"driver", "pool", "nodeName", "allNodes", "nodeSelector", "devices", "sharedCounters"},
                   {"perDeviceNodeSelection"});
    ResourceSlice sl;
    sl.name = o.name;
    sl.source = o.source;
    sl.driver = spec["driver"].str();
    if (sl.driver.empty()) spec.fail("a ResourceSlice needs a driver");
    auto pool = spec["pool"];
    pool.checkKeys("pool", {"name", "generation", "resourceSliceCount"});
    sl.pool = pool["name"].str();
    if (sl.pool.empty()) spec.fail("a ResourceSlice needs pool.name");
    sl.poolGeneration = pool["generation"].i64(0);
    sl.resourceSliceCount = pool["resourceSliceCount"].i64(1);
    if (sl.resourceSliceCount < 1) pool["resourceSliceCount"].fail("resourceSliceCount must be at least 1");
    sl.nodeName = spec["nodeName"].str();
    sl.allNodes = spec["allNodes"].boolean(false);
    if (spec["nodeSelector"].present()) sl.nodeSelector = readNodeSelector(spec["nodeSelector"]);
    // The API server refuses a name twice in one slice (Duplicate value).
    for (const auto& d : spec["devices"].items()) {
        Device device = readDevice(d);
        for (const auto& other : sl.devices)
            if (other.name == device.name) d["name"].fail("Duplicate value: \"" + device.name + "\"");
        sl.devices.push_back(std::move(device));
    }
    for (const auto& c : spec["sharedCounters"].items()) {
        c.checkKeys("counter set", {"name", "counters"});
        CounterSet set{c["name"].str(), readAmounts(c["counters"])};
        for (const auto& other : sl.sharedCounters)
            if (other.name == set.name) c["name"].fail("Duplicate value: \"" + set.name + "\"");
        sl.sharedCounters.push_back(std::move(set));
    }
    s.cluster.dra.resourceSlices.push_back(std::move(sl));
}

void readResourceClaim(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("ResourceClaim", {"apiVersion", "kind", "metadata", "spec", "status"});
    ResourceClaim c;
    c.name = o.name;
    c.ns = o.ns;
    c.source = o.source;
    c.spec = readClaimSpec(r["spec"]);
    auto status = r["status"];
    status.checkKeys("ResourceClaim status", {"allocation", "reservedFor"}, {"devices"});
    if (auto alloc = status["allocation"]; alloc.present()) {
        alloc.checkKeys("allocation", {"devices", "nodeSelector"}, {"allocationTimestamp"});
        ClaimAllocation a;
        alloc["devices"].checkKeys("allocation devices", {"results"}, {"config"});
        for (const auto& d : alloc["devices"]["results"].items()) {
            d.checkKeys(
                "allocation result", {"request", "driver", "pool", "device", "consumedCapacity"},
                {"adminAccess", "tolerations", "shareID", "bindingConditions", "bindingFailureConditions"});
            AllocatedDevice ad{d["request"].str(), d["driver"].str(), d["pool"].str(), d["device"].str(), {}};
            for (const auto& [res, q] : d["consumedCapacity"].entries()) ad.consumedCapacity[res] = milli(q);
            a.devices.push_back(std::move(ad));
        }
        if (alloc["nodeSelector"].present()) a.nodeSelector = readNodeSelector(alloc["nodeSelector"]);
        c.allocation = std::move(a);
    }
    for (const auto& ref : status["reservedFor"].items()) c.reservedFor.push_back(ref["name"].str());
    s.cluster.dra.resourceClaims.push_back(std::move(c));
}

void readResourceClaimTemplate(State& s, const Object& o) {
    const Y& r = o.root;
    r.checkKeys("ResourceClaimTemplate", {"apiVersion", "kind", "metadata", "spec"});
    auto spec = r["spec"];
    spec.checkKeys("ResourceClaimTemplate", {"spec"}, {"metadata"});
    ResourceClaimTemplate t;
    t.name = o.name;
    t.ns = o.ns;
    t.source = o.source;
    t.spec = readClaimSpec(spec["spec"]);
    s.cluster.dra.resourceClaimTemplates.push_back(std::move(t));
}

} // namespace gantry::snapshot
