#include "live/snapshot_sanitize.h"

#include <string>

namespace gantry::live {

namespace {

void keepOnly(nlohmann::json& object, std::initializer_list<const char*> keys) {
    if (!object.is_object()) return;
    nlohmann::json kept = nlohmann::json::object();
    for (const char* key : keys) {
        auto it = object.find(key);
        if (it != object.end()) kept[key] = std::move(*it);
    }
    object = std::move(kept);
}

void trimContainers(nlohmann::json& spec, const char* field) {
    auto it = spec.find(field);
    if (it == spec.end() || !it->is_array()) return;
    for (auto& container : *it) keepOnly(container, {"name", "image", "resources", "ports", "restartPolicy"});
}

void trimPod(nlohmann::json& pod) {
    if (auto spec = pod.find("spec"); spec != pod.end() && spec->is_object()) {
        trimContainers(*spec, "containers");
        trimContainers(*spec, "initContainers");
        spec->erase("ephemeralContainers");
        spec->erase("imagePullSecrets");
        // Volumes: only the name and a claim reference (inline sources can embed options and keys).
        if (auto volumes = spec->find("volumes"); volumes != spec->end() && volumes->is_array())
            for (auto& v : *volumes) keepOnly(v, {"name", "persistentVolumeClaim"});
    }
    if (auto status = pod.find("status"); status != pod.end())
        keepOnly(*status, {"phase", "conditions", "nominatedNodeName", "qosClass", "startTime", "resize"});
}

} // namespace

void sanitizeObject(nlohmann::json& object, const std::string& kind) {
    if (!object.is_object()) return;
    if (auto meta = object.find("metadata"); meta != object.end() && meta->is_object()) {
        meta->erase("managedFields");
        if (auto ann = meta->find("annotations"); ann != meta->end() && ann->is_object()) {
            ann->erase("kubectl.kubernetes.io/last-applied-configuration");
            if (ann->empty()) meta->erase("annotations");
        }
    }
    if (kind == "Pod") {
        trimPod(object);
    } else if (kind == "Node") {
        if (auto status = object.find("status"); status != object.end() && status->is_object())
            status->erase("images");
    } else if (kind == "ConfigMap") {
        object.erase("binaryData");
    }
}

} // namespace gantry::live
