#include "validation/manifest_validator.h"

#include "input_error.h"
#include "validation/manifest_set.h"
#include "validation/schema_catalog.h"
#include "yaml/yaml_source.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace gantry {

namespace {

std::string str(const Json& obj, const char* key) {
    if (!obj.is_object()) return {};
    auto it = obj.find(key);
    return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

void report(const SchemaProblems& problems, const ManifestObject& object, ProblemSink& sink) {
    for (const auto& p : problems) sink.add(p.severity, object, p.path, p.message);
}

bool isYuniKornConfigMap(const ManifestObject& o, const std::string& key) {
    if (key == "queues.yaml") return true;
    return (o.name == "yunikorn-configs" || o.name == "yunikorn-defaults") && key.ends_with(".yaml");
}

} // namespace

void ManifestValidator::addFile(const std::string& path) {
    try {
        addText(readTextFile(path), path);
    } catch (const InputError& e) {
        readErrors_.push_back(e.diagnostic());
    }
}

void ManifestValidator::addText(const std::string& text, const std::string& name) {
    texts_[name] = text;
    try {
        auto docs = parseManifests(text, name);
        // A bare YuniKorn queues.yaml is read by YuniKorn with YAML 1.2 rules (`y` is a string there).
        bool yunikorn = std::any_of(docs.begin(), docs.end(), [](const ManifestDocument& d) {
            return d.value.is_object() && d.value.contains("partitions") && !d.value.contains("kind");
        });
        if (yunikorn) {
            auto strict = parseManifests(text, name, YamlRules::Yaml12);
            for (size_t i = 0; i < docs.size() && i < strict.size(); ++i)
                if (docs[i].value.is_object() && docs[i].value.contains("partitions") &&
                    !docs[i].value.contains("kind"))
                    docs[i] = std::move(strict[i]);
        }
        for (auto& d : docs) documents_.push_back(std::move(d));
    } catch (const InputError& e) {
        readErrors_.push_back(e.diagnostic());
    }
}

void ManifestValidator::addDocument(const Json& value, const std::string& file, int index) {
    ManifestDocument d;
    d.file = file;
    d.index = index;
    d.value = value;
    documents_.push_back(std::move(d));
}

size_t ManifestValidator::documentsOf(const std::string& file) const {
    return size_t(std::count_if(documents_.begin(), documents_.end(),
                                [&](const ManifestDocument& d) { return d.file == file; }));
}

Diagnostics ManifestValidator::run() {
    ProblemSink sink;
    for (const auto& d : readErrors_) sink.addRaw(d);
    auto& catalog = SchemaCatalog::shared();
    std::vector<ManifestObject> objects;
    embedded_.clear();

    // Kubernetes objects (List items too) and the bare configuration documents.
    auto addObject = [&](const ManifestDocument& doc, const FieldPath& base, const Json& value,
                         auto&& self) -> void {
        ManifestObject o;
        o.doc = &doc;
        o.base = base;
        o.value = &value;
        if (!value.is_object()) {
            sink.addRaw(
                {Severity::Error, doc.where(base),
                 "document " + std::to_string(doc.index) + ": not an object (a manifest must be a map)"});
            return;
        }
        o.apiVersion = str(value, "apiVersion");
        o.kind = str(value, "kind");
        if (o.apiVersion.empty() && o.kind.empty()) {
            if (value.contains("partitions")) {
                o.content = ManifestObject::Content::YuniKornQueues;
                o.label = "YuniKorn queues config";
            } else if (value.contains("actions") || value.contains("tiers")) {
                o.content = ManifestObject::Content::VolcanoSchedulerConf;
                o.label = "volcano-scheduler.conf";
                if (auto t = texts_.find(doc.file); t != texts_.end() && documentsOf(doc.file) == 1)
                    o.source.text = t->second;
            } else {
                sink.addRaw(
                    {Severity::Error, doc.where(base),
                     "document " + std::to_string(doc.index) +
                         ": not a Kubernetes object (apiVersion and kind are missing), nor a YuniKorn "
                         "queues.yaml or a volcano-scheduler.conf"});
                return;
            }
            objects.push_back(o);
            return;
        }
        size_t slash = o.apiVersion.find('/');
        o.group = slash == std::string::npos ? "" : o.apiVersion.substr(0, slash);
        o.version = slash == std::string::npos ? o.apiVersion : o.apiVersion.substr(slash + 1);
        if (const Json* meta = value.contains("metadata") ? &value["metadata"] : nullptr) {
            o.name = str(*meta, "name");
            o.ns = str(*meta, "namespace");
        }
        o.label = o.kind.empty() ? std::string("object") : o.kind;
        if (!o.name.empty()) o.label += " " + (o.ns.empty() ? o.name : o.ns + "/" + o.name);
        if (o.kind.empty()) {
            sink.error(o, FieldPath().field("kind"), "required field \"kind\" is missing");
            return;
        }
        if (o.apiVersion.empty()) {
            sink.error(o, FieldPath().field("apiVersion"), "required field \"apiVersion\" is missing");
            return;
        }
        if (o.kind == "List" && o.apiVersion == "v1") {
            if (auto it = value.find("items"); it != value.end() && it->is_array())
                for (size_t i = 0; i < it->size(); ++i)
                    self(doc, base.field("items").index(i), (*it)[i], self);
            return;
        }
        objects.push_back(o);
    };
    for (const auto& doc : documents_) {
        for (const auto& p : doc.readProblems) sink.addRaw(p);
        addObject(doc, FieldPath(), doc.value, addObject);
    }

    // Schemas, and the configuration documents inside ConfigMaps. Only objects of a known schema
    // go on to the cross-object rules.
    std::vector<ManifestObject> embeddedObjects, checked;
    for (const auto& o : objects) {
        if (o.content == ManifestObject::Content::YuniKornQueues ||
            o.content == ManifestObject::Content::VolcanoSchedulerConf) {
            const char* name = o.content == ManifestObject::Content::YuniKornQueues
                                   ? "yunikorn-queues"
                                   : "volcano-scheduler-conf";
            SchemaProblems problems;
            validateAgainstSchema(o.json(), *catalog.document(name), FieldPath(), problems);
            report(problems, o, sink);
            checked.push_back(o);
            continue;
        }
        const KindSchema* kind = catalog.find(o.apiVersion, o.kind);
        if (!kind) {
            auto versions = catalog.versionsOf(o.group, o.kind);
            if (versions.empty()) {
                sink.warning(o, FieldPath(),
                             "kind " + o.kind + " of " + o.apiVersion +
                                 " has no bundled schema; not validated");
            } else {
                std::string known;
                for (const auto& v : versions)
                    known += (known.empty() ? "" : ", ") + (o.group.empty() ? v : o.group + "/" + v);
                sink.error(o, FieldPath().field("apiVersion"),
                           "\"" + o.apiVersion + "\" does not serve " + o.kind +
                               "; served versions: " + known);
            }
            continue;
        }
        if (kind->deprecated) {
            std::string newest;
            for (const auto& v : catalog.versionsOf(o.group, o.kind))
                if (const KindSchema* k = catalog.find(o.group.empty() ? v : o.group + "/" + v, o.kind);
                    k && k->storage)
                    newest = k->apiVersion();
            sink.warning(o, FieldPath().field("apiVersion"),
                         o.apiVersion + " " + o.kind + " is deprecated" +
                             (newest.empty() ? "" : "; use " + newest));
        }
        checked.push_back(o);
        SchemaProblems problems;
        ValidateOptions options;
        options.objectMeta = [](const Json&, const FieldPath&, SchemaProblems&) {}; // checked below
        validateAgainstSchema(o.json(), *kind->schema, FieldPath(), problems, options);
        report(problems, o, sink);
        if (auto it = o.json().find("metadata"); it != o.json().end())
            checkObjectMetadata(o, *it, FieldPath().field("metadata"), kind->namespaced, sink);
        else
            sink.error(o, FieldPath().field("metadata"), "required field \"metadata\" is missing");

        // YAML configuration held in a ConfigMap.
        if (o.kind != "ConfigMap" || !o.group.empty()) continue;
        const Json* data = o.at({"data"});
        if (const Json* binary = o.at({"binaryData"}); binary && binary->is_object())
            for (const auto& [key, value] : binary->items())
                if (key == "volcano-scheduler.conf" || isYuniKornConfigMap(o, key) ||
                    key.ends_with(".yaml.gz"))
                    sink.warning(
                        o, FieldPath().field("binaryData").key(key),
                        "binary (gzip) configuration is not checked; put it under data to have it validated");
        if (!data || !data->is_object()) continue;
        for (const auto& [key, value] : data->items()) {
            ManifestObject::Content content;
            if (key == "volcano-scheduler.conf")
                content = ManifestObject::Content::VolcanoSchedulerConf;
            else if (isYuniKornConfigMap(o, key))
                content = ManifestObject::Content::YuniKornQueues;
            else
                continue;
            if (!value.is_string()) continue; // the schema reported it
            FieldPath at = o.base.field("data").key(key);
            const std::string& outerText = texts_.count(o.doc->file) ? texts_[o.doc->file] : std::string();
            try {
                auto docs = parseEmbeddedYaml(*o.doc, at, outerText,
                                              content == ManifestObject::Content::YuniKornQueues
                                                  ? YamlRules::Yaml12
                                                  : YamlRules::Kubectl);
                if (docs.size() != 1) {
                    sink.error(o, FieldPath().field("data").key(key),
                               "must hold exactly one YAML document, holds " + std::to_string(docs.size()));
                    continue;
                }
                embedded_.push_back(std::move(docs[0]));
            } catch (const InputError& e) {
                Diagnostic d = e.diagnostic();
                d.message = describeProblem(o, FieldPath().field("data").key(key), d.message);
                sink.addRaw(d);
                continue;
            }
            ManifestObject inner;
            inner.content = content;
            inner.doc = &embedded_.back();
            inner.value = &embedded_.back().value;
            inner.apiVersion = o.apiVersion;
            inner.name = o.name;
            inner.ns = o.ns;
            inner.label = o.label + " data[" + key + "]";
            inner.source = embeddedText(*o.doc, at, outerText);
            if (!inner.value->is_object()) {
                sink.error(inner, FieldPath(), "must be a YAML map");
                continue;
            }
            const char* schemaName = content == ManifestObject::Content::YuniKornQueues
                                         ? "yunikorn-queues"
                                         : "volcano-scheduler-conf";
            SchemaProblems innerProblems;
            validateAgainstSchema(*inner.value, *catalog.document(schemaName), FieldPath(), innerProblems);
            report(innerProblems, inner, sink);
            embeddedObjects.push_back(inner);
        }
    }
    checked.insert(checked.end(), embeddedObjects.begin(), embeddedObjects.end());

    checkCoreObjects(checked, sink);
    checkVolcanoObjects(checked, sink);
    checkKueueObjects(checked, sink);
    checkYuniKornConfigs(checked, sink);
    checkVolcanoSchedulerConfs(checked, sink);
    return sink.take();
}

Diagnostics validateManifestText(const std::string& text, const std::string& name) {
    ManifestValidator v;
    v.addText(text, name);
    return v.run();
}

} // namespace gantry
