// Kueue's Configuration, in the kueue-manager-config ConfigMap Kueue's install ships (data key
// controller_manager_config.yaml): the document the project read, with the fields Gantry models
// written over it, so what it does not model (health, metrics, webhook, leaderElection, controller,
// clientConnection ...) goes back out as it came in.
#include "export/kueue_configuration.h"

#include "export/export_support.h"

#include <cmath>

namespace gantry::exporting {

namespace {

// Go's time.Duration text for whole seconds ("168h0m0s" reads as "168h"): hours, minutes, seconds.
std::string goDuration(double seconds) {
    const int64_t s = int64_t(std::llround(seconds));
    if (s == 0) return "0s";
    std::string out;
    if (s >= 3600) out += std::to_string(s / 3600) + "h";
    if (s % 3600 >= 60) out += std::to_string(s % 3600 / 60) + "m";
    if (s % 60) out += std::to_string(s % 60) + "s";
    return out;
}

// v1beta1 turns a section on with enable: true; in v1beta2 the section being there does.
void section(Json& doc, const char* key, bool on, bool beta1) {
    if (on) {
        if (!doc.contains(key) || !doc[key].is_object()) doc[key] = Json::object();
        if (beta1) doc[key]["enable"] = true;
        return;
    }
    if (beta1 && doc.contains(key) && doc[key].is_object())
        doc[key]["enable"] = false;
    else
        doc.erase(key);
}

} // namespace

Json kueueConfigurationJson(const KueueConfig& c) {
    Json doc = c.document.empty() ? Json::object() : Json::parse(c.document, nullptr, false);
    if (!doc.is_object()) doc = Json::object();
    const bool beta1 = doc.value("apiVersion", "") == "config.kueue.x-k8s.io/v1beta1";
    doc["apiVersion"] = beta1 ? "config.kueue.x-k8s.io/v1beta1" : "config.kueue.x-k8s.io/v1beta2";
    doc["kind"] = "Configuration";
    if (c.kueueNamespace != "kueue-system" || doc.contains("namespace")) doc["namespace"] = c.kueueNamespace;

    section(doc, "fairSharing", c.fairSharing, beta1);
    if (c.fairSharing) {
        if (c.preemptionStrategies.empty())
            doc["fairSharing"].erase("preemptionStrategies");
        else
            doc["fairSharing"]["preemptionStrategies"] = c.preemptionStrategies;
    }

    if (const auto& afs = c.admissionFairSharing) {
        Json a = doc.contains("admissionFairSharing") && doc["admissionFairSharing"].is_object()
                     ? doc["admissionFairSharing"]
                     : Json::object();
        a["usageHalfLifeTime"] = goDuration(afs->usageHalfLifeSeconds);
        a["usageSamplingInterval"] = goDuration(afs->usageSamplingIntervalSeconds);
        if (afs->resourceWeights.empty())
            a.erase("resourceWeights");
        else {
            Json weights = Json::object();
            for (const auto& [resource, w] : afs->resourceWeights) weights[resource] = w;
            a["resourceWeights"] = weights;
        }
        doc["admissionFairSharing"] = a;
    } else {
        doc.erase("admissionFairSharing");
    }

    section(doc, "waitForPodsReady", c.waitForPodsReady, beta1);
    if (c.waitForPodsReady) {
        Json& w = doc["waitForPodsReady"];
        w["timeout"] = goDuration(c.podsReadyTimeoutSeconds);
        w["blockAdmission"] = c.blockAdmission;
        if (!w.contains("requeuingStrategy") || !w["requeuingStrategy"].is_object())
            w["requeuingStrategy"] = Json::object();
        Json& rs = w["requeuingStrategy"];
        rs["timestamp"] = c.requeuingTimestamp;
        if (c.backoffLimitCount)
            rs["backoffLimitCount"] = *c.backoffLimitCount;
        else
            rs.erase("backoffLimitCount"); // null: requeue without limit
        rs["backoffBaseSeconds"] = int64_t(c.backoffBaseSeconds);
        rs["backoffMaxSeconds"] = int64_t(c.backoffMaxSeconds);
    }

    if (c.featureGates.empty())
        doc.erase("featureGates");
    else {
        Json gates = Json::object();
        for (const auto& [name, on] : c.featureGates) gates[name] = on;
        doc["featureGates"] = gates;
    }
    if (c.frameworks) {
        if (!doc.contains("integrations") || !doc["integrations"].is_object())
            doc["integrations"] = Json::object();
        doc["integrations"]["frameworks"] = *c.frameworks;
    }
    if (c.manageJobsWithoutQueueName || doc.contains("manageJobsWithoutQueueName"))
        doc["manageJobsWithoutQueueName"] = c.manageJobsWithoutQueueName;
    if (c.managedJobsNamespaceSelector)
        doc["managedJobsNamespaceSelector"] = labelSelectorJson(*c.managedJobsNamespaceSelector);
    else
        doc.erase("managedJobsNamespaceSelector");

    if (c.transformations.empty() && c.excludeResourcePrefixes.empty() && c.deviceClassMappings.empty()) {
        if (doc.contains("resources") && doc["resources"].is_object()) {
            doc["resources"].erase("transformations");
            doc["resources"].erase("excludeResourcePrefixes");
            doc["resources"].erase("deviceClassMappings");
            if (doc["resources"].empty()) doc.erase("resources");
        }
    } else {
        if (!doc.contains("resources") || !doc["resources"].is_object()) doc["resources"] = Json::object();
        Json& r = doc["resources"];
        if (c.excludeResourcePrefixes.empty())
            r.erase("excludeResourcePrefixes");
        else
            r["excludeResourcePrefixes"] = c.excludeResourcePrefixes;
        Json list = Json::array();
        for (const auto& t : c.transformations) {
            Json j{{"input", t.input}, {"strategy", t.replace ? "Replace" : "Retain"}};
            if (!t.multiplyBy.empty()) j["multiplyBy"] = t.multiplyBy;
            Json outputs = Json::object();
            for (const auto& [name, q] : t.outputs) outputs[name] = readableAmount(name, q);
            j["outputs"] = outputs;
            list.push_back(j);
        }
        if (list.empty())
            r.erase("transformations");
        else
            r["transformations"] = list;
        Json mappings = Json::array();
        for (const auto& m : c.deviceClassMappings) {
            Json mapping{{"name", m.name}, {"deviceClassNames", m.deviceClassNames}};
            for (const auto& src : m.sources)
                mapping["sources"].push_back(Json{
                    {src.counter ? "counter" : "capacity",
                     Json{{"name", src.name},
                          {"driver", src.driver},
                          {"deviceSelector", Json{{"cel", Json{{"expression", src.deviceSelector}}}}}}}});
            mappings.push_back(std::move(mapping));
        }
        if (mappings.empty())
            r.erase("deviceClassMappings");
        else
            r["deviceClassMappings"] = mappings;
    }
    return doc;
}

} // namespace gantry::exporting
