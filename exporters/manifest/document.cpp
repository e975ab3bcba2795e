#include "manifest/document.h"

#include "input_error.h"
#include "yaml/yaml_source.h"

#include <yaml-cpp/yaml.h>

namespace gantry {

namespace {

struct Converter {
    ManifestDocument& doc;
    YamlRules rules = YamlRules::Kubectl;
    int lineOffset = 0; // mapping of an embedded text back into its outer file
    int columnOffset = 0;
    bool fixedMark = false;
    std::pair<int, int> fixed{0, 0};

    std::pair<int, int> mark(const YAML::Node& node) const {
        if (fixedMark) return fixed;
        auto m = node.Mark();
        if (m.line < 0) return {0, 0};
        return {m.line + 1 + lineOffset, m.column + 1 + columnOffset};
    }

    Json scalar(const YAML::Node& node) const {
        const std::string& tag = node.Tag();
        const std::string& text = node.Scalar();
        if (tag == "!" || tag == "tag:yaml.org,2002:str") return text;
        if (tag == "tag:yaml.org,2002:null") return nullptr;
        Json resolved = resolvePlainScalar(text, rules);
        if (tag == "tag:yaml.org,2002:int" && !resolved.is_number_integer()) return text;
        if (tag == "tag:yaml.org,2002:bool" && !resolved.is_boolean()) return text;
        return resolved;
    }

    Json convert(const YAML::Node& node, const FieldPath& path) {
        auto at = mark(node);
        if (at.first > 0) doc.marks[path.pointer()] = at;
        switch (node.Type()) {
        case YAML::NodeType::Null:
        case YAML::NodeType::Undefined:
            return nullptr;
        case YAML::NodeType::Scalar:
            return scalar(node);
        case YAML::NodeType::Sequence: {
            Json out = Json::array();
            size_t i = 0;
            for (const auto& item : node) out.push_back(convert(item, path.index(i++)));
            return out;
        }
        case YAML::NodeType::Map: {
            Json out = Json::object();
            for (const auto& kv : node) {
                std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string();
                // sigs.k8s.io/yaml turns resolved keys into strings: `on:` is the key "true".
                if (kv.first.IsScalar() && kv.first.Tag() == "?") {
                    Json k = resolvePlainScalar(key, rules);
                    if (k.is_boolean())
                        key = k.get<bool>() ? "true" : "false";
                    else if (k.is_number_integer())
                        key = std::to_string(k.get<int64_t>());
                }
                if (!kv.first.IsScalar()) {
                    auto m = mark(kv.first);
                    doc.readProblems.push_back({Severity::Error,
                                                SourceRef{doc.file, m.first, m.second, doc.index},
                                                "a map key must be a scalar"});
                    continue;
                }
                FieldPath child = path.field(key);
                if (out.contains(key)) {
                    auto m = mark(kv.first);
                    std::string where = path.str();
                    doc.readProblems.push_back({Severity::Error,
                                                SourceRef{doc.file, m.first, m.second, doc.index},
                                                "duplicate field \"" + key + "\"" +
                                                    (where.empty() ? std::string() : " in " + where)});
                    continue;
                }
                out[key] = convert(kv.second, child);
            }
            return out;
        }
        }
        return nullptr;
    }
};

std::vector<ManifestDocument> load(const std::string& text, const std::string& name, int lineOffset,
                                   int columnOffset, std::optional<std::pair<int, int>> fixed,
                                   YamlRules rules) {
    TextOrigin origin{name, lineOffset, columnOffset, std::nullopt};
    if (fixed) origin.pinned = SourceRef{name, fixed->first, fixed->second, 0};
    checkYamlSyntax(text, origin);
    std::vector<YAML::Node> nodes;
    try {
        nodes = YAML::LoadAll(text);
    } catch (const YAML::Exception& e) {
        SourceRef where{name, 0, 0, 0};
        if (fixed)
            where.line = fixed->first, where.column = fixed->second;
        else if (e.mark.line >= 0)
            where.line = e.mark.line + 1 + lineOffset, where.column = e.mark.column + 1 + columnOffset;
        throw InputError(where, "YAML syntax error: " + e.msg);
    }
    std::vector<ManifestDocument> docs;
    int index = 0;
    for (const auto& node : nodes) {
        ++index;
        if (node.IsNull()) continue; // an empty document, as kubectl skips it
        ManifestDocument doc;
        doc.file = name;
        doc.index = index;
        Converter conv{doc,
                       rules,
                       lineOffset,
                       columnOffset,
                       fixed.has_value(),
                       fixed.value_or(std::pair<int, int>{0, 0})};
        doc.value = conv.convert(node, FieldPath());
        docs.push_back(std::move(doc));
    }
    return docs;
}

} // namespace

SourceRef ManifestDocument::where(const FieldPath& path) const {
    FieldPath p = path;
    while (true) {
        auto it = marks.find(p.pointer());
        if (it != marks.end()) return SourceRef{file, it->second.first, it->second.second, index};
        if (p.empty()) break;
        p = p.parent();
    }
    return SourceRef{file, 0, 0, index};
}

std::vector<ManifestDocument> parseManifests(const std::string& text, const std::string& name,
                                             YamlRules rules) {
    return load(text, name, 0, 0, std::nullopt, rules);
}

std::vector<ManifestDocument> readManifestFile(const std::string& path) {
    return parseManifests(readTextFile(path), path);
}

EmbeddedText embeddedText(const ManifestDocument& outer, const FieldPath& field,
                          const std::string& outerText) {
    EmbeddedText out;
    Json::json_pointer ptr(field.pointer());
    if (outer.value.contains(ptr) && outer.value.at(ptr).is_string())
        out.text = outer.value.at(ptr).get<std::string>();
    SourceRef at = outer.where(field);
    out.pinned = std::pair<int, int>{at.line, at.column};
    size_t pos = 0;
    for (int l = 1; at.line > 0 && l < at.line && pos != std::string::npos; ++l) {
        pos = outerText.find('\n', pos);
        if (pos != std::string::npos) ++pos;
    }
    size_t c = at.line > 0 && pos != std::string::npos ? pos + size_t(at.column - 1) : std::string::npos;
    if (c < outerText.size() && outerText[c] == '|') {
        // The block's indentation is that of its first non-blank line.
        size_t lineStart = outerText.find('\n', c);
        while (lineStart != std::string::npos && ++lineStart < outerText.size()) {
            size_t end = outerText.find('\n', lineStart);
            std::string line = outerText.substr(lineStart, end == std::string::npos ? end : end - lineStart);
            size_t indent = line.find_first_not_of(' ');
            if (indent != std::string::npos) {
                out.lineOffset = at.line;
                out.columnOffset = int(indent);
                out.pinned.reset();
                break;
            }
            lineStart = end;
        }
    }
    return out;
}

std::vector<ManifestDocument> parseEmbeddedYaml(const ManifestDocument& outer, const FieldPath& field,
                                                const std::string& outerText, YamlRules rules) {
    EmbeddedText e = embeddedText(outer, field, outerText);
    auto docs = load(e.text, outer.file, e.lineOffset, e.columnOffset, e.pinned, rules);
    for (auto& d : docs) d.index = outer.index;
    return docs;
}

} // namespace gantry
