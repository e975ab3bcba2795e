// Json -> YAML text, in the layout kubectl prints (block style, lists at their key's indentation).
#include "manifest/document.h"
#include "yaml/yaml_scalar.h"

#include <cmath>

namespace gantry {

namespace {

constexpr PlainStrings kManifestStrings = PlainStrings::WhenUnambiguous;

std::string scalarText(const Json& v) {
    switch (v.type()) {
    case Json::value_t::null:
        return "null";
    case Json::value_t::boolean:
        return v.get<bool>() ? "true" : "false";
    case Json::value_t::number_integer:
        return std::to_string(v.get<int64_t>());
    case Json::value_t::number_unsigned:
        return std::to_string(v.get<uint64_t>());
    case Json::value_t::number_float: {
        double d = v.get<double>();
        if (std::isnan(d)) return ".nan";
        if (std::isinf(d)) return d > 0 ? ".inf" : "-.inf";
        return v.dump();
    }
    case Json::value_t::string: {
        std::string out;
        appendYamlScalar(v.get_ref<const std::string&>(), kManifestStrings, out);
        return out;
    }
    default:
        return v.dump();
    }
}

void emitValue(std::string& out, const Json& v, int indent); // after "key:" or "-"

void emitMap(std::string& out, const Json& obj, int indent) {
    std::string pad(size_t(indent), ' ');
    for (const auto& [key, value] : obj.items()) {
        out += pad + scalarText(Json(key)) + ":";
        emitValue(out, value, indent);
    }
}

void emitSeq(std::string& out, const Json& arr, int indent) {
    std::string pad(size_t(indent), ' ');
    for (const auto& item : arr) {
        if (item.is_object() && !item.empty()) {
            std::string body;
            emitMap(body, item, indent + 2);
            out += pad + "- " + body.substr(size_t(indent) + 2);
        } else {
            out += pad + "-";
            if (item.is_array() && !item.empty()) {
                out += "\n";
                emitSeq(out, item, indent + 2);
            } else {
                emitValue(out, item, indent);
            }
        }
    }
}

void emitValue(std::string& out, const Json& v, int indent) {
    if (v.is_object()) {
        if (v.empty()) {
            out += " {}\n";
            return;
        }
        out += "\n";
        emitMap(out, v, indent + 2);
    } else if (v.is_array()) {
        if (v.empty()) {
            out += " []\n";
            return;
        }
        out += "\n";
        emitSeq(out, v, indent);
    } else if (v.is_string()) {
        out += " ";
        appendYamlStringValue(v.get_ref<const std::string&>(), kManifestStrings, indent + 2, out);
    } else {
        out += ' ';
        out += scalarText(v);
        out += '\n';
    }
}

} // namespace

std::string toYaml(const Json& value) {
    std::string out;
    if (value.is_object() && !value.empty())
        emitMap(out, value, 0);
    else if (value.is_array() && !value.empty())
        emitSeq(out, value, 0);
    else if (value.is_object())
        out = "{}\n";
    else if (value.is_array())
        out = "[]\n";
    else
        out = scalarText(value) + "\n";
    return out;
}

std::string toYamlStream(const std::vector<Json>& documents) {
    std::string out;
    for (size_t i = 0; i < documents.size(); ++i) {
        if (i > 0) out += "---\n";
        out += toYaml(documents[i]);
    }
    return out;
}

} // namespace gantry
