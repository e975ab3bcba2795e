// metadata of every object: the ObjectMeta schema, then Kubernetes' name rules.
#include "model/kubernetes_names.h"
#include "validation/manifest_set.h"
#include "validation/schema_catalog.h"

namespace gantry {

void checkObjectMetadata(const ManifestObject& object, const Json& metadata, const FieldPath& path,
                         bool namespaced, ProblemSink& sink) {
    const Schema* schema = SchemaCatalog::shared().document("object-meta");
    SchemaProblems problems;
    validateAgainstSchema(metadata, *schema, path, problems);
    for (const auto& p : problems) sink.add(p.severity, object, p.path, p.message);
    if (!metadata.is_object()) return;

    auto text = [&](const char* key) -> std::string {
        auto it = metadata.find(key);
        return it != metadata.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    std::string name = text("name"), generateName = text("generateName");
    if (name.empty() && generateName.empty()) {
        sink.error(object, path.field("name"), "required field \"name\" is missing");
    } else if (name.empty()) {
        sink.warning(
            object, path.field("generateName"),
            "kubectl apply needs metadata.name; an object with only generateName can only be created");
    } else if (auto why = checkDns1123Subdomain(name); !why.empty()) {
        sink.error(object, path.field("name"), "\"" + name + "\" is not a valid name: " + why);
    }
    if (!generateName.empty()) {
        // The server appends 5 random characters, so the prefix alone must be a valid start.
        std::string probe = generateName + "abcde";
        if (auto why = checkDns1123Subdomain(probe); !why.empty())
            sink.error(object, path.field("generateName"),
                       "\"" + generateName + "\" is not a valid prefix: " + why);
    }
    std::string ns = text("namespace");
    if (!ns.empty()) {
        if (!namespaced)
            sink.warning(object, path.field("namespace"),
                         object.kind + " is cluster-scoped; the namespace \"" + ns + "\" is ignored");
        else if (auto why = checkDns1123Label(ns); !why.empty())
            sink.error(object, path.field("namespace"), "\"" + ns + "\" is not a valid namespace: " + why);
    }
    if (auto labels = metadata.find("labels"); labels != metadata.end() && labels->is_object()) {
        for (const auto& [key, value] : labels->items()) {
            if (auto why = checkQualifiedName(key); !why.empty())
                sink.error(object, path.field("labels").key(key),
                           "invalid label key \"" + key + "\": " + why);
            if (value.is_string())
                if (auto why = checkLabelValue(value.get<std::string>()); !why.empty())
                    sink.error(object, path.field("labels").key(key),
                               "invalid label value \"" + value.get<std::string>() + "\": " + why);
        }
    }
    if (auto annotations = metadata.find("annotations");
        annotations != metadata.end() && annotations->is_object()) {
        size_t total = 0;
        for (const auto& [key, value] : annotations->items()) {
            if (auto why = checkQualifiedName(key); !why.empty())
                sink.error(object, path.field("annotations").key(key),
                           "invalid annotation key \"" + key + "\": " + why);
            total += key.size() + (value.is_string() ? value.get<std::string>().size() : 0);
        }
        if (total > 256 * 1024)
            sink.error(object, path.field("annotations"),
                       "annotations total " + std::to_string(total) + " bytes, more than the 262144 allowed");
    }
    if (auto finalizers = metadata.find("finalizers");
        finalizers != metadata.end() && finalizers->is_array()) {
        for (size_t i = 0; i < finalizers->size(); ++i)
            if ((*finalizers)[i].is_string())
                if (auto why = checkQualifiedName((*finalizers)[i].get<std::string>()); !why.empty())
                    sink.error(object, path.field("finalizers").index(i), "invalid finalizer name: " + why);
    }
}

} // namespace gantry
