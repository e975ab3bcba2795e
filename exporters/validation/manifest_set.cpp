#include "validation/manifest_set.h"

#include "model/quantity.h"

namespace gantry {

const Json* ManifestObject::at(std::initializer_list<const char*> keys) const {
    const Json* v = value;
    for (const char* k : keys) {
        if (!v || !v->is_object()) return nullptr;
        auto it = v->find(k);
        if (it == v->end()) return nullptr;
        v = &*it;
    }
    return v;
}

std::string stringAt(const Json& object, const char* key) {
    if (!object.is_object()) return {};
    auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string describeProblem(const ManifestObject& object, const FieldPath& path, const std::string& message) {
    std::string out;
    if (object.doc && object.doc->index > 0) out = "document " + std::to_string(object.doc->index) + ", ";
    out += object.label;
    std::string p = path.str();
    if (!p.empty()) out += ", " + p;
    return out + ": " + message;
}

void ProblemSink::add(Severity severity, const ManifestObject& object, const FieldPath& path,
                      const std::string& message) {
    Diagnostic d;
    d.severity = severity;
    // Paths are relative to the object; a List item's location is found under its base path.
    std::string rel = path.pointer();
    d.where = object.doc ? object.doc->where(object.base) : SourceRef{};
    if (object.doc) {
        // Walk the relative path from the object's base to find the deepest located value.
        auto it = object.doc->marks.find(object.base.pointer() + rel);
        if (it != object.doc->marks.end()) {
            d.where.line = it->second.first;
            d.where.column = it->second.second;
        } else {
            std::string ptr = object.base.pointer() + rel;
            while (!ptr.empty()) {
                ptr = ptr.substr(0, ptr.rfind('/'));
                auto m = object.doc->marks.find(ptr);
                if (m != object.doc->marks.end()) {
                    d.where.line = m->second.first;
                    d.where.column = m->second.second;
                    break;
                }
            }
        }
    }
    d.message = describeProblem(object, path, message);
    diagnostics_.push_back(std::move(d));
}

std::optional<int64_t> quantityAmount(const std::string& resource, const Json& value) {
    std::string text;
    if (value.is_string())
        text = value.get<std::string>();
    else if (value.is_number_integer())
        text = std::to_string(value.get<int64_t>());
    else
        return std::nullopt;
    std::string error;
    return parseAmount(resource, text, &error);
}

ResourceList quantityMap(const Json* map) {
    ResourceList out;
    if (!map || !map->is_object()) return out;
    for (const auto& [name, value] : map->items())
        if (auto amount = quantityAmount(name, value)) out.set(name, *amount);
    return out;
}

} // namespace gantry
