#include "live/snapshot_sanitize.h"

#include <algorithm>
#include <initializer_list>

namespace gantry::live {

namespace {

bool is(const std::vector<std::string>& path, std::initializer_list<std::string_view> expected) {
    return path.size() == expected.size() && std::equal(path.begin(), path.end(), expected.begin());
}

bool oneOf(std::string_view key, std::initializer_list<std::string_view> keys) {
    return std::find(keys.begin(), keys.end(), key) != keys.end();
}

} // namespace

bool keepField(std::string_view kind, const std::vector<std::string>& path, std::string_view key) {
    if (is(path, {"metadata"})) return key != "managedFields";
    if (is(path, {"metadata", "annotations"}))
        return key != "kubectl.kubernetes.io/last-applied-configuration";
    if (kind == "Pod") {
        if (is(path, {"spec"})) return !oneOf(key, {"ephemeralContainers", "imagePullSecrets"});
        if (is(path, {"spec", "containers", "[]"}) || is(path, {"spec", "initContainers", "[]"}))
            return oneOf(key, {"name", "image", "resources", "ports", "restartPolicy"});
        if (is(path, {"spec", "volumes", "[]"})) return oneOf(key, {"name", "persistentVolumeClaim"});
        if (is(path, {"status"}))
            return oneOf(key, {"phase", "conditions", "nominatedNodeName", "qosClass", "startTime", "resize",
                               "resourceClaimStatuses"});
    } else if (kind == "Node") {
        if (is(path, {"status"})) return key != "images";
    } else if (kind == "ConfigMap") {
        if (path.empty()) return key != "binaryData";
    } else if (kind == "DeviceClass" || kind == "ResourceClaim" || kind == "ResourceClaimTemplate") {
        // A driver's opaque parameters are not read, and may hold anything.
        if (is(path, {"spec"}) || is(path, {"spec", "devices"}) || is(path, {"spec", "spec", "devices"}))
            return key != "config";
    }
    return true;
}

} // namespace gantry::live
