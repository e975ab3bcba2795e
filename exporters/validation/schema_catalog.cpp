#include "validation/schema_catalog.h"

#include "embedded/embedded_files.h"
#include "manifest/document.h"

#include <map>
#include <stdexcept>

namespace gantry {

struct SchemaCatalog::File {
    std::string path;
    std::string_view text;
    std::string group, kind;  // from a quick scan, before the file is parsed
    std::string documentName; // Gantry's non-Kubernetes document schemas
    bool loaded = false;
    Json json;
    std::vector<KindSchema> kinds;
    const Schema* documentSchema = nullptr;
};

namespace {

// The value of the first line "<indent>key: value" of a YAML text, unquoted.
std::string scanKey(std::string_view text, std::string_view indentedKey) {
    std::string needle = "\n"; // built stepwise: GCC 12 warns falsely on "\n" + string
    needle += indentedKey;
    needle += ": ";
    size_t at = text.find(needle);
    if (at == std::string_view::npos) return {};
    size_t start = at + needle.size();
    size_t end = text.find('\n', start);
    std::string value(text.substr(start, end - start));
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\''))
        value = value.substr(1, value.size() - 2);
    return value;
}

} // namespace

SchemaCatalog& SchemaCatalog::shared() {
    static SchemaCatalog catalog;
    return catalog;
}

SchemaCatalog::SchemaCatalog() {
    for (const auto& f : embeddedFiles()) {
        if (!f.path.ends_with(".yaml")) continue;
        auto file = std::make_unique<File>();
        file->path = std::string(f.path);
        file->text = f.contents;
        if (f.path.starts_with("gantry/")) {
            // "describes: {group: ..., kind: ...}" or "describes: {document: ...}", on one line.
            std::string line = scanKey(f.contents, "describes");
            auto d = parseManifests(line, file->path);
            if (d.size() == 1 && d[0].value.is_object()) {
                file->group = d[0].value.value("group", "");
                file->kind = d[0].value.value("kind", "");
                file->documentName = d[0].value.value("document", "");
            }
        } else {
            file->group = scanKey(f.contents, "  group");
            file->kind = scanKey(f.contents, "    kind");
        }
        files_.push_back(std::move(file));
    }
}

SchemaCatalog::File& SchemaCatalog::load(File& file) {
    if (file.loaded) return file;
    auto docs = parseManifests(std::string(file.text), file.path);
    if (docs.size() != 1) throw std::runtime_error("bundled schema " + file.path + " must hold one document");
    file.json = std::move(docs[0].value);
    file.loaded = true;
    auto resolver = [this](const std::string& ref) { return resolve(ref); };
    const Json& j = file.json;
    if (j.contains("gantrySchema")) {
        const Json& d = j["describes"];
        if (d.contains("document")) {
            file.documentName = d["document"].get<std::string>();
            file.documentSchema = schemas_.compile(j, "/openAPIV3Schema", resolver);
            return file;
        }
        KindSchema k;
        k.group = d.value("group", "");
        k.version = d["version"].get<std::string>();
        k.kind = d["kind"].get<std::string>();
        k.namespaced = d.value("scope", "") == "Namespaced";
        k.file = file.path;
        k.schema = schemas_.compile(j, "/openAPIV3Schema", resolver);
        file.group = k.group;
        file.kind = k.kind;
        file.kinds.push_back(k);
        return file;
    }
    if (j.value("kind", "") != "CustomResourceDefinition")
        throw std::runtime_error("bundled schema " + file.path + " is not a CustomResourceDefinition");
    const Json& spec = j["spec"];
    const auto& versions = spec["versions"];
    for (size_t i = 0; i < versions.size(); ++i) {
        const Json& v = versions[i];
        KindSchema k;
        k.group = spec["group"].get<std::string>();
        k.kind = spec["names"]["kind"].get<std::string>();
        k.version = v["name"].get<std::string>();
        k.namespaced = spec.value("scope", "") == "Namespaced";
        k.served = v.value("served", true);
        k.storage = v.value("storage", false);
        k.deprecated = v.value("deprecated", false);
        k.file = file.path;
        k.schema =
            schemas_.compile(j, "/spec/versions/" + std::to_string(i) + "/schema/openAPIV3Schema", resolver);
        file.kinds.push_back(k);
    }
    return file;
}

const Schema* SchemaCatalog::resolve(const std::string& ref) {
    // "<file>#<version>:<pointer>"
    size_t hash = ref.find('#');
    size_t colon = ref.find(':', hash);
    if (hash == std::string::npos || colon == std::string::npos) return nullptr;
    std::string path = ref.substr(0, hash), version = ref.substr(hash + 1, colon - hash - 1);
    std::string pointer = ref.substr(colon + 1);
    static std::map<std::string, const Schema*> cache; // guarded by mutex_
    if (auto it = cache.find(ref); it != cache.end()) return it->second;
    for (auto& f : files_) {
        if (f->path != path) continue;
        load(*f);
        const auto& versions = f->json["spec"]["versions"];
        for (size_t i = 0; i < versions.size(); ++i) {
            if (versions[i]["name"] != version) continue;
            std::string base = "/spec/versions/" + std::to_string(i) + "/schema/openAPIV3Schema";
            const Schema* s = schemas_.compile(f->json, base + pointer,
                                               [this](const std::string& r) { return resolve(r); });
            cache[ref] = s;
            return s;
        }
    }
    return nullptr;
}

const KindSchema* SchemaCatalog::find(const std::string& apiVersion, const std::string& kind) {
    std::lock_guard lock(mutex_);
    size_t slash = apiVersion.find('/');
    std::string group = slash == std::string::npos ? "" : apiVersion.substr(0, slash);
    std::string version = slash == std::string::npos ? apiVersion : apiVersion.substr(slash + 1);
    for (auto& f : files_) {
        if (f->group != group || f->kind != kind) continue;
        for (const auto& k : load(*f).kinds)
            if (k.version == version) return &k;
    }
    return nullptr;
}

std::vector<std::string> SchemaCatalog::versionsOf(const std::string& group, const std::string& kind) {
    std::lock_guard lock(mutex_);
    std::vector<std::string> out;
    for (auto& f : files_)
        if (f->group == group && f->kind == kind)
            for (const auto& k : load(*f).kinds) out.push_back(k.version);
    return out;
}

const Schema* SchemaCatalog::document(const std::string& name) {
    std::lock_guard lock(mutex_);
    for (auto& f : files_)
        if (f->documentName == name) return load(*f).documentSchema;
    return nullptr;
}

std::vector<KindSchema> SchemaCatalog::allKinds() {
    std::lock_guard lock(mutex_);
    std::vector<KindSchema> out;
    for (auto& f : files_)
        for (const auto& k : load(*f).kinds) out.push_back(k);
    return out;
}

std::vector<std::string> SchemaCatalog::unevaluatedRules() {
    allKinds();
    std::lock_guard lock(mutex_);
    return schemas_.unevaluatedRules();
}

} // namespace gantry
