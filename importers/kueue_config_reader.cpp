#include "kueue_config_reader.h"

#include "kubernetes/k8s_fields.h"
#include "model/kubernetes_names.h"
#include "model/quantity.h"
#include "yaml/plain_scalar.h"
#include "yaml/yaml_reader.h"
#include "yaml/yaml_source.h"

#include <algorithm>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>

namespace gantry {

namespace {

constexpr const char* kConfigKey = kKueueConfigKey;

// The integrations Kueue registers (FrameworkName of each package under pkg/controller/jobs).
const char* const kFrameworks[] = {"batch/job",
                                   "pod",
                                   "deployment",
                                   "statefulset",
                                   "leaderworkerset.x-k8s.io/leaderworkerset",
                                   "jobset.x-k8s.io/jobset",
                                   "kubeflow.org/mpijob",
                                   "kubeflow.org/pytorchjob",
                                   "kubeflow.org/tfjob",
                                   "kubeflow.org/paddlejob",
                                   "kubeflow.org/xgboostjob",
                                   "kubeflow.org/jaxjob",
                                   "trainer.kubeflow.org/trainjob",
                                   "ray.io/rayjob",
                                   "ray.io/raycluster",
                                   "ray.io/rayservice",
                                   "workload.codeflare.dev/appwrapper",
                                   "sparkoperator.k8s.io/sparkapplication"};

bool knownFramework(const std::string& name) {
    return std::find(std::begin(kFrameworks), std::end(kFrameworks), name) != std::end(kFrameworks);
}

std::string frameworkList() {
    std::string out;
    for (const char* f : kFrameworks) out += (out.empty() ? "" : ", ") + std::string(f);
    return out;
}

// The gates whose defaults the profile knows; any other name is kept but has no effect.
bool knownGate(const std::string& name) {
    static const char* const known[] = {"PartialAdmission",
                                        "PrioritySortingWithinCohort",
                                        "FairSharingPrioritizeNonBorrowing",
                                        "FairSharingPreemptWithinNominal",
                                        "TopologyAwareScheduling",
                                        "UnadmittedWorkloadsObservability",
                                        "FlavorFungibility",
                                        "SchedulingEquivalenceHashing",
                                        "RecomputeAssignmentUponPreemptionTargetsOverlap",
                                        "PrioritizePreemptorWorkloads",
                                        "TASRecomputeAssignmentWithinSchedulingCycle",
                                        "WorkloadPriorityClassDefaulting",
                                        "AdmissionFairSharing",
                                        "KueueDRAIntegration",
                                        "KueueDRAIntegrationPartitionableDevices",
                                        "KueueDRAIntegrationConsumableCapacity"};
    for (const char* k : known)
        if (name == k) return true;
    return false;
}

// A mapping's sources: each a counter the devices consume (KueueDRAIntegrationPartitionableDevices,
// on by default) or a capacity they offer (KueueDRAIntegrationConsumableCapacity, off by default),
// checked as Kueue's Configuration validation does.
std::vector<KueueConfig::DeviceClassMapping::Source> readDeviceClassSources(const Y& list,
                                                                            const KueueConfig& c) {
    std::vector<KueueConfig::DeviceClassMapping::Source> out;
    size_t counters = 0, capacities = 0;
    for (const auto& entry : list.items()) {
        entry.checkKeys("source", {"counter", "capacity"});
        const bool counter = entry["counter"].present(), capacity = entry["capacity"].present();
        if (counter == capacity) entry.fail("exactly one source type must be set per entry");
        (counter ? counters : capacities)++;
        const Y body = counter ? entry["counter"] : entry["capacity"];
        const std::string gate =
            counter ? "KueueDRAIntegrationPartitionableDevices" : "KueueDRAIntegrationConsumableCapacity";
        if (!c.gate(gate))
            body.fail(std::string(counter ? "counter" : "capacity") + " sources require " + gate +
                      " to be enabled");
        body.checkKeys(counter ? "counter" : "capacity", {"name", "driver", "deviceSelector"});
        KueueConfig::DeviceClassMapping::Source s;
        s.counter = counter;
        s.name = body["name"].str();
        if (s.name.empty()) body.fail("name is required");
        if (counter && !checkDns1123Label(s.name).empty())
            body["name"].fail("a counter name must be a DNS-1123 label (lower case letters, digits and '-')");
        s.driver = body["driver"].str();
        if (s.driver.empty()) body.fail("driver is required");
        if (s.driver.size() > 63) body["driver"].fail("must not exceed 63 characters");
        if (!checkDns1123Subdomain(s.driver).empty())
            body["driver"].fail("a driver must be a lowercase DNS-1123 subdomain");
        const Y expression = body["deviceSelector"]["cel"]["expression"];
        s.deviceSelector = expression.str();
        if (s.deviceSelector.empty()) body.fail("deviceSelector.cel.expression is required");
        out.push_back(std::move(s));
    }
    if (counters > 0 && capacities > 0)
        list.fail("cannot mix counter and capacity sources in the same mapping");
    return out;
}

KueueConfig readRoot(const Y& root) {
    KueueConfig c;
    c.source = root.where();
    const std::string api = root["apiVersion"].str();
    if (api != "config.kueue.x-k8s.io/v1beta2" && api != "config.kueue.x-k8s.io/v1beta1")
        root["apiVersion"].fail("expected apiVersion config.kueue.x-k8s.io/v1beta2 (or v1beta1), got '" +
                                api + "'");
    if (root["kind"].str() != "Configuration")
        root["kind"].fail("expected kind Configuration, got '" + root["kind"].str() + "'");
    const bool beta1 = api.ends_with("v1beta1");
    auto fs = root["fairSharing"];
    if (fs.present()) {
        fs.checkKeys("fairSharing", {"enable", "preemptionStrategies"});
        // v1beta2: the block being there turns fair sharing on; v1beta1 has an explicit switch.
        c.fairSharing = beta1 ? fs["enable"].boolean(false) : fs["enable"].boolean(true);
        for (const auto& s : fs["preemptionStrategies"].items()) {
            std::string v = s.str();
            s.expectOneOf(v, {"LessThanOrEqualToFinalShare", "LessThanInitialShare"});
            c.preemptionStrategies.push_back(v);
        }
    }
    auto afs = root["admissionFairSharing"];
    if (afs.present()) {
        afs.checkKeys("admissionFairSharing",
                      {"usageHalfLifeTime", "usageSamplingInterval", "resourceWeights"});
        KueueConfig::AdmissionFairSharing a;
        a.usageHalfLifeSeconds = afs["usageHalfLifeTime"].durationSeconds(0);
        a.usageSamplingIntervalSeconds = afs["usageSamplingInterval"].durationSeconds(300);
        for (const auto& [name, weight] : afs["resourceWeights"].entries()) {
            auto v = weight.optNum();
            if (!v || *v < 0) weight.fail("a resource weight must be a number of at least 0");
            a.resourceWeights[name] = *v;
        }
        c.admissionFairSharing = std::move(a);
    }
    auto w = root["waitForPodsReady"];
    if (w.present()) {
        w.checkKeys("waitForPodsReady", {"enable", "timeout", "blockAdmission", "requeuingStrategy"},
                    {"recoveryTimeout"});
        c.waitForPodsReady = beta1 ? w["enable"].boolean(false) : w["enable"].boolean(true);
        c.podsReadyTimeoutSeconds = w["timeout"].durationSeconds(c.podsReadyTimeoutSeconds);
        if (c.podsReadyTimeoutSeconds <= 0) w["timeout"].fail("timeout must be positive");
        c.blockAdmission = w["blockAdmission"].boolean(false);
        auto rs = w["requeuingStrategy"];
        rs.checkKeys("requeuingStrategy",
                     {"timestamp", "backoffLimitCount", "backoffBaseSeconds", "backoffMaxSeconds"});
        c.requeuingTimestamp = rs["timestamp"].choice("Eviction", {"Eviction", "Creation"});
        c.backoffLimitCount = rs["backoffLimitCount"].optI32();
        if (c.backoffLimitCount && *c.backoffLimitCount < 0)
            rs["backoffLimitCount"].fail("backoffLimitCount must not be negative");
        c.backoffBaseSeconds = rs["backoffBaseSeconds"].i32(60);
        c.backoffMaxSeconds = rs["backoffMaxSeconds"].i32(3600);
        if (c.backoffBaseSeconds <= 0) rs["backoffBaseSeconds"].fail("backoffBaseSeconds must be positive");
        if (c.backoffMaxSeconds <= 0) rs["backoffMaxSeconds"].fail("backoffMaxSeconds must be positive");
    }
    // integrations.frameworks: Kueue's defaulting gives a Configuration that lists none batch/job alone
    // (apis/config/v1beta2/defaults.go); a name no integration registers stops the manager
    // (pkg/config/validation.go validateIntegrations).
    auto integrations = root["integrations"];
    integrations.checkKeys("integrations", {"frameworks"},
                           {"externalFrameworks", "labelKeysToCopy", "podOptions"});
    c.frameworks.emplace();
    for (const auto& f : integrations["frameworks"].items()) {
        const std::string name = f.str();
        if (!knownFramework(name))
            f.fail("unsupported integration '" + name + "' (Kueue registers " + frameworkList() + ")");
        if (std::find(c.frameworks->begin(), c.frameworks->end(), name) != c.frameworks->end())
            f.fail("integration '" + name + "' is listed twice");
        c.frameworks->push_back(name);
    }
    if (c.frameworks->empty()) c.frameworks->push_back("batch/job");
    c.manageJobsWithoutQueueName = root["manageJobsWithoutQueueName"].boolean(false);
    c.kueueNamespace = root["namespace"].str(c.kueueNamespace);
    c.managedJobsNamespaceSelector = readOptionalLabelSelector(root["managedJobsNamespaceSelector"]);
    // Before resources: their DRA sources need the gates.
    for (const auto& [name, value] : root["featureGates"].entries()) {
        auto on = value.optBool();
        if (!on) value.fail("expected true or false");
        if (!knownGate(name))
            value.warn("feature gate '" + name + "' does not change what Gantry's Kueue emulation decides");
        c.featureGates[name] = *on;
    }
    auto resources = root["resources"];
    if (resources.present()) {
        resources.checkKeys("resources",
                            {"transformations", "excludeResourcePrefixes", "deviceClassMappings"});
        // Class -> (mapping, counter of its first source; "" when that is no counter) of the mappings
        // that list it (pkg/config/validation.go validateDeviceClassMappings).
        std::map<std::string, std::vector<std::pair<std::string, std::string>>> mappedClasses;
        for (const auto& m : resources["deviceClassMappings"].items()) {
            m.checkKeys("deviceClassMapping", {"name", "deviceClassNames", "sources"});
            KueueConfig::DeviceClassMapping mapping;
            mapping.name = m["name"].str();
            if (mapping.name.empty()) m.fail("a deviceClassMapping needs a name (the quota resource)");
            mapping.deviceClassNames = m["deviceClassNames"].strings();
            if (mapping.deviceClassNames.empty())
                m.fail("deviceClassMapping '" + mapping.name + "' names no DeviceClass");
            mapping.sources = readDeviceClassSources(m["sources"], c);
            const std::string counter = !mapping.sources.empty() && mapping.sources.front().counter
                                            ? mapping.sources.front().name
                                            : "";
            for (const auto& cls : mapping.deviceClassNames) {
                auto& before = mappedClasses[cls];
                // A class may be tracked for several counters, under different resources.
                for (const auto& [other, otherCounter] : before) {
                    if (counter.empty() || otherCounter.empty())
                        m["deviceClassNames"].fail("DeviceClass '" + cls +
                                                   "': device class already mapped to resource " + other);
                    if (counter == otherCounter)
                        m["deviceClassNames"].fail(
                            "DeviceClass '" + cls +
                            "': device class already has a counter source for counter \"" + counter + "\"");
                }
                before.emplace_back(mapping.name, counter);
            }
            c.deviceClassMappings.push_back(std::move(mapping));
        }
        for (const auto& p : resources["excludeResourcePrefixes"].items())
            c.excludeResourcePrefixes.push_back(p.str());
        for (const auto& t : resources["transformations"].items()) {
            t.checkKeys("transformation", {"input", "strategy", "multiplyBy", "outputs"});
            KueueConfig::Transformation tr;
            tr.input = t["input"].str();
            if (tr.input.empty()) t.fail("a transformation needs an input resource");
            for (const auto& other : c.transformations)
                if (other.input == tr.input)
                    t["input"].fail("a second transformation of input '" + tr.input + "'");
            tr.replace = t["strategy"].choice("Retain", {"Retain", "Replace"}) == "Replace";
            tr.multiplyBy = t["multiplyBy"].str();
            for (const auto& [name, q] : t["outputs"].entries())
                tr.outputs.emplace_back(name, q.quantity(name, true));
            c.transformations.push_back(std::move(tr));
        }
    }
    // The manager's own plumbing changes no decision; any other key is reported as not modelled.
    root.checkKeys("Configuration",
                   {"apiVersion", "kind", "fairSharing", "admissionFairSharing", "waitForPodsReady",
                    "featureGates", "integrations", "manageJobsWithoutQueueName",
                    "managedJobsNamespaceSelector", "namespace", "resources"},
                   {"health", "metrics", "webhook", "leaderElection", "controller", "clientConnection",
                    "internalCertManagement", "queueVisibility", "objectRetentionPolicies"});
    return c;
}

} // namespace

KueueConfig readKueueConfig(const Y& root) {
    KueueConfig c = readRoot(root);
    // Kept for the export; bytes that are not UTF-8 (the reader takes them in quoted keys) become
    // U+FFFD rather than stopping the read.
    c.document = yamlToJson(root.node()).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return c;
}

KueueConfig parseKueueConfig(const std::string& text, const std::string& name, Diagnostics* warnings) {
    auto docs = loadDocuments(text, name);
    if (docs.empty()) throw InputError(SourceRef{name, 0, 0, 0}, "the Kueue configuration is empty");
    FieldNotes notes;
    for (const auto& doc : docs) {
        auto root = readerFor(doc, warnings, &notes);
        if (!root.isMap() || root["kind"].str() != "ConfigMap") continue;
        auto value = root["data"][kConfigKey];
        if (!value.present()) continue;
        if (!value.isScalar()) value.fail("expected the configuration as a string");
        auto inner = loadDocuments(value.str(), embeddedOrigin(value.node(), text, doc.origin, doc.index));
        if (inner.empty()) value.fail("the embedded configuration is empty");
        KueueConfig c = readKueueConfig(readerFor(inner[0], warnings, &notes));
        if (warnings) notes.appendTo(*warnings);
        return c;
    }
    if (docs.size() > 1)
        throw InputError(SourceRef{name, 0, 0, 0}, std::string("no ConfigMap with key '") + kConfigKey +
                                                       "' in this multi-document file");
    auto root = readerFor(docs[0], warnings, &notes);
    if (root.isMap() && root["kind"].str() == "ConfigMap")
        root.fail(std::string("the ConfigMap has no data key '") + kConfigKey + "'");
    KueueConfig c = readKueueConfig(root);
    if (warnings) notes.appendTo(*warnings);
    return c;
}

KueueConfig readKueueConfigFile(const std::string& path, Diagnostics* warnings) {
    return parseKueueConfig(readTextFile(path), path, warnings);
}

} // namespace gantry
