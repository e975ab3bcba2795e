#include "kueue_config_reader.h"

#include "model/quantity.h"
#include "yaml/yaml_reader.h"
#include "yaml/yaml_source.h"

namespace gantry {

namespace {

constexpr const char* kConfigKey = "controller_manager_config.yaml";

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
                                        "TASRecomputeAssignmentWithinSchedulingCycle"};
    for (const char* k : known)
        if (name == k) return true;
    return false;
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
    auto integrations = root["integrations"];
    if (integrations.present()) {
        integrations.checkKeys("integrations", {"frameworks"},
                               {"externalFrameworks", "labelKeysToCopy", "podOptions"});
        if (integrations["frameworks"].present()) {
            c.frameworks.emplace();
            for (const auto& f : integrations["frameworks"].items()) c.frameworks->push_back(f.str());
        }
    }
    c.manageJobsWithoutQueueName = root["manageJobsWithoutQueueName"].boolean(false);
    auto resources = root["resources"];
    if (resources.present()) {
        resources.checkKeys("resources", {"transformations", "excludeResourcePrefixes"});
        for (const auto& p : resources["excludeResourcePrefixes"].items())
            c.excludeResourcePrefixes.push_back(p.str());
        for (const auto& t : resources["transformations"].items()) {
            t.checkKeys("transformation", {"input", "strategy", "outputs"}, {"multiplyBy"});
            KueueConfig::Transformation tr;
            tr.input = t["input"].str();
            if (tr.input.empty()) t.fail("a transformation needs an input resource");
            tr.replace = t["strategy"].choice("Retain", {"Retain", "Replace"}) == "Replace";
            for (const auto& [name, q] : t["outputs"].entries()) {
                std::string error;
                auto amount = parseAmount(name, q.str(), &error);
                if (!amount) q.fail(error);
                tr.outputs.emplace_back(name, double(*amount));
            }
            c.transformations.push_back(std::move(tr));
        }
    }
    // The manager's own plumbing changes no decision; any other key is reported as not modelled.
    root.checkKeys("Configuration",
                   {"apiVersion", "kind", "fairSharing", "waitForPodsReady", "featureGates", "integrations",
                    "manageJobsWithoutQueueName", "resources"},
                   {"namespace", "health", "metrics", "webhook", "leaderElection", "controller",
                    "clientConnection", "internalCertManagement", "queueVisibility",
                    "objectRetentionPolicies"});
    for (const auto& [name, value] : root["featureGates"].entries()) {
        auto on = value.optBool();
        if (!on) value.fail("expected true or false");
        if (!knownGate(name))
            value.warn("feature gate '" + name + "' does not change what Gantry's Kueue emulation decides");
        c.featureGates[name] = *on;
    }
    return c;
}

} // namespace

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
        KueueConfig c = readRoot(readerFor(inner[0], warnings, &notes));
        if (warnings) notes.appendTo(*warnings);
        return c;
    }
    if (docs.size() > 1)
        throw InputError(SourceRef{name, 0, 0, 0}, std::string("no ConfigMap with key '") + kConfigKey +
                                                       "' in this multi-document file");
    auto root = readerFor(docs[0], warnings, &notes);
    if (root.isMap() && root["kind"].str() == "ConfigMap")
        root.fail(std::string("the ConfigMap has no data key '") + kConfigKey + "'");
    KueueConfig c = readRoot(root);
    if (warnings) notes.appendTo(*warnings);
    return c;
}

KueueConfig readKueueConfigFile(const std::string& path, Diagnostics* warnings) {
    return parseKueueConfig(readTextFile(path), path, warnings);
}

} // namespace gantry
