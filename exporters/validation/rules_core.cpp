// Rules of the core kinds Gantry writes: PriorityClass, ConfigMap, and the workload templates
// (batch/v1 Job) with their Kueue labels and YuniKorn gang annotations.
#include "validation/manifest_set.h"

#include <map>
#include <regex>
#include <set>

namespace gantry {

namespace {

bool isCore(const ManifestObject& o, const char* group, const char* kind) {
    return o.content == ManifestObject::Content::Object && o.group == group && o.kind == kind;
}

std::string annotation(const Json* meta, const char* section, const std::string& key) {
    if (!meta || !meta->is_object() || !meta->contains(section) || !(*meta)[section].is_object()) return {};
    const Json& m = (*meta)[section];
    auto it = m.find(key);
    return it != m.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// yunikorn.apache.org/task-groups on a pod template: a JSON array of task groups.
void checkTaskGroups(const ManifestObject& o, const Json* templateMeta, const FieldPath& metaPath,
                     ProblemSink& sink) {
    const std::string groupsText = annotation(templateMeta, "annotations", "yunikorn.apache.org/task-groups");
    const std::string groupName =
        annotation(templateMeta, "annotations", "yunikorn.apache.org/task-group-name");
    FieldPath at = metaPath.field("annotations").key("yunikorn.apache.org/task-groups");
    if (groupsText.empty()) {
        if (!groupName.empty())
            sink.error(o, metaPath.field("annotations").key("yunikorn.apache.org/task-group-name"),
                       "names task group \"" + groupName +
                           "\" but yunikorn.apache.org/task-groups is not set");
        return;
    }
    Json groups = Json::parse(groupsText, nullptr, false);
    if (groups.is_discarded() || !groups.is_array()) {
        sink.error(o, at, "must be a JSON array of task groups");
        return;
    }
    std::set<std::string> names;
    for (size_t i = 0; i < groups.size(); ++i) {
        const Json& g = groups[i];
        std::string where = "task group " + std::to_string(i);
        if (!g.is_object()) {
            sink.error(o, at, where + " is not an object");
            continue;
        }
        std::string name = stringAt(g, "name");
        if (name.empty())
            sink.error(o, at, where + ": name is required");
        else if (!names.insert(name).second)
            sink.error(o, at, "task group name \"" + name + "\" is not unique");
        if (!g.contains("minMember") || !g["minMember"].is_number_integer() ||
            g["minMember"].get<int64_t>() <= 0 || g["minMember"].get<int64_t>() > INT32_MAX)
            sink.error(o, at, where + " (" + name + "): minMember must be an integer greater than 0");
        if (!g.contains("minResource") || !g["minResource"].is_object()) {
            sink.error(o, at, where + " (" + name + "): minResource is required");
        } else {
            const Json& r = g["minResource"];
            if (r.contains("cpu") && r.contains("vcore"))
                sink.error(o, at, where + " (" + name + "): minResource must not set both cpu and vcore");
            if (r.contains("pods"))
                sink.error(o, at, where + " (" + name + "): minResource must not set pods");
            for (const auto& [res, q] : r.items()) {
                auto amount = quantityAmount(res, q);
                if (!amount)
                    sink.error(o, at, where + " (" + name + "): minResource " + res + " is not a quantity");
                else if (*amount < 0)
                    sink.error(o, at, where + " (" + name + "): minResource " + res + " is negative");
            }
        }
    }
    if (!groupName.empty() && !names.count(groupName))
        sink.error(o, metaPath.field("annotations").key("yunikorn.apache.org/task-group-name"),
                   "task group \"" + groupName + "\" is not one of yunikorn.apache.org/task-groups");
    std::string params =
        annotation(templateMeta, "annotations", "yunikorn.apache.org/schedulingPolicyParameters");
    FieldPath pp = metaPath.field("annotations").key("yunikorn.apache.org/schedulingPolicyParameters");
    size_t start = 0;
    while (start < params.size()) {
        size_t end = params.find(' ', start);
        std::string pair = params.substr(start, end == std::string::npos ? end : end - start);
        start = end == std::string::npos ? params.size() : end + 1;
        if (pair.empty()) continue;
        size_t eq = pair.find('=');
        std::string key = pair.substr(0, eq), value = eq == std::string::npos ? "" : pair.substr(eq + 1);
        if (eq == std::string::npos)
            sink.warning(o, pp, "\"" + pair + "\" is not key=value; YuniKorn skips it");
        else if (key == "placeholderTimeoutInSeconds") {
            if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos)
                sink.error(o, pp,
                           "placeholderTimeoutInSeconds must be a whole number of seconds, not \"" + value +
                               "\"");
        } else if (key == "gangSchedulingStyle") {
            if (value != "Soft" && value != "Hard")
                sink.warning(o, pp,
                             "gangSchedulingStyle \"" + value +
                                 "\" is neither Soft nor Hard; YuniKorn falls back to Soft");
        } else {
            sink.warning(o, pp, "unknown scheduling policy parameter \"" + key + "\"");
        }
    }
}

// The API server's own checks of a batch/v1 Job spec that a schema cannot say (Kubernetes
// pkg/apis/batch/validation): a Job's pods never restart in place, and Indexed mode needs a
// bounded number of completions.
void checkJobSpec(const ManifestObject& o, ProblemSink& sink) {
    const FieldPath spec = FieldPath().field("spec");
    if (const Json* restart = o.at({"spec", "template", "spec", "restartPolicy"});
        !restart || !restart->is_string() || (*restart != "Never" && *restart != "OnFailure"))
        sink.error(o, spec.field("template").field("spec").field("restartPolicy"),
                   "a Job's pods need restartPolicy Never or OnFailure");
    const Json* mode = o.at({"spec", "completionMode"});
    const bool indexed = mode && *mode == "Indexed";
    constexpr int64_t kIndexedLimit = 100000;
    if (indexed) {
        const Json* completions = o.at({"spec", "completions"});
        if (!completions || !completions->is_number_integer())
            sink.error(o, spec.field("completions"),
                       "completions must be set when completionMode is Indexed");
        else if (completions->get<int64_t>() > kIndexedLimit)
            sink.error(o, spec.field("completions"),
                       "must be less than or equal to 100000 when completionMode is Indexed");
        if (const Json* parallelism = o.at({"spec", "parallelism"});
            parallelism && parallelism->is_number_integer() && parallelism->get<int64_t>() > kIndexedLimit)
            sink.error(o, spec.field("parallelism"),
                       "must be less than or equal to 100000 when completionMode is Indexed");
    }
    for (const char* field : {"backoffLimitPerIndex", "maxFailedIndexes"})
        if (o.at({"spec", field}) && !indexed)
            sink.error(o, spec.field(field), std::string("requires completionMode Indexed"));
    if (const Json* restart = o.at({"spec", "template", "spec", "restartPolicy"});
        o.at({"spec", "backoffLimitPerIndex"}) && indexed && restart && *restart != "Never")
        sink.error(o, spec.field("backoffLimitPerIndex"), "requires the pods' restartPolicy Never");
}

} // namespace

void checkCoreObjects(const std::vector<ManifestObject>& objects, ProblemSink& sink) {
    static const std::regex configKey(R"(^[-._a-zA-Z0-9]+$)");
    const ManifestObject* globalDefault = nullptr;
    std::set<std::string> localQueues; // "ns/name"
    bool anyLocalQueue = false;
    for (const auto& o : objects)
        if (o.content == ManifestObject::Content::Object && o.group == "kueue.x-k8s.io" &&
            o.kind == "LocalQueue") {
            localQueues.insert((o.ns.empty() ? "default" : o.ns) + "/" + o.name);
            anyLocalQueue = true;
        }
    for (const auto& o : objects) {
        if (isCore(o, "scheduling.k8s.io", "PriorityClass")) {
            if (o.name.rfind("system-", 0) == 0)
                sink.error(o, FieldPath().field("metadata").field("name"),
                           "priority class names with 'system-' prefix are reserved");
            if (const Json* g = o.at({"globalDefault"}); g && *g == true) {
                if (globalDefault)
                    sink.error(o, FieldPath().field("globalDefault"),
                               "PriorityClass " + globalDefault->name +
                                   " is already marked as default; only one is allowed");
                else
                    globalDefault = &o;
            }
        }
        if (isCore(o, "", "ConfigMap")) {
            size_t total = 0;
            std::set<std::string> keys;
            for (const char* section : {"data", "binaryData"}) {
                const Json* d = o.at({section});
                if (!d || !d->is_object()) continue;
                for (const auto& [key, value] : d->items()) {
                    FieldPath at = FieldPath().field(section).key(key);
                    if (key.size() > 253 || !std::regex_match(key, configKey) || key == "." || key == "..")
                        sink.error(
                            o, at,
                            "a valid config key must consist of alphanumeric characters, '-', '_' or '.'");
                    if (!keys.insert(key).second) sink.error(o, at, "duplicate of key " + key + " in data");
                    total += key.size() + (value.is_string() ? value.get<std::string>().size() : 0);
                }
            }
            if (total > 1024 * 1024)
                sink.error(o, FieldPath().field("data"),
                           "ConfigMap holds " + std::to_string(total) + " bytes; the limit is 1048576");
        }
        if (isCore(o, "batch", "Job")) {
            const Json* meta = o.at({"metadata"});
            std::string queue = annotation(meta, "labels", "kueue.x-k8s.io/queue-name");
            std::string ns = o.ns.empty() ? "default" : o.ns;
            if (!queue.empty() && anyLocalQueue && !localQueues.count(ns + "/" + queue))
                sink.warning(o,
                             FieldPath().field("metadata").field("labels").key("kueue.x-k8s.io/queue-name"),
                             "LocalQueue " + ns + "/" + queue + " is not in these files");
            checkTaskGroups(o, o.at({"spec", "template", "metadata"}),
                            FieldPath().field("spec").field("template").field("metadata"), sink);
            checkJobSpec(o, sink);
            // Kueue charges DRA devices through claim templates only: a pod naming a ResourceClaim
            // makes the workload inadmissible (pkg/dra/claims.go, KueueDRAIntegration on by default).
            if (const Json* claims = o.at({"spec", "template", "spec", "resourceClaims"});
                !queue.empty() && claims && claims->is_array())
                for (size_t i = 0; i < claims->size(); ++i)
                    if ((*claims)[i].is_object() && (*claims)[i].contains("resourceClaimName"))
                        sink.warning(
                            o,
                            FieldPath()
                                .field("spec")
                                .field("template")
                                .field("spec")
                                .field("resourceClaims")
                                .index(i)
                                .field("resourceClaimName"),
                            "Kueue does not admit this workload: \"KueueDRAIntegration feature does not "
                            "support use of resource claims\"; name a ResourceClaimTemplate "
                            "(resourceClaimTemplateName) instead");
        }
    }
}

} // namespace gantry
