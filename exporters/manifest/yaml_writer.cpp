// Json -> YAML text, in the layout kubectl prints (block style, lists at their key's indentation).
#include "manifest/document.h"
#include "yaml/yaml_quote.h"

#include <cmath>
#include <regex>

namespace gantry {

namespace {

bool needsQuotes(const std::string& s) {
    if (s.empty()) return true;
    if (!resolvePlainScalar(s).is_string()) return true; // the YAML 1.1 forms include the 1.2 ones
    static const std::string indicators = "-?:,[]{}#&*!|>'\"%@`";
    if (indicators.find(s.front()) != std::string::npos) return true;
    if (s.front() == ' ' || s.back() == ' ' || s.back() == ':') return true;
    if (s.find(": ") != std::string::npos || s.find(" #") != std::string::npos) return true;
    for (unsigned char c : s)
        if (c < 0x20 || c == 0x7f) return true;
    // A date or time could become a timestamp in some readers.
    static const std::regex dateLike(R"(^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}.*)");
    return std::regex_match(s, dateLike);
}

std::string quoted(const std::string& s) {
    std::string out;
    appendYamlDoubleQuoted(s, out);
    return out;
}

// A multi-line string that a literal block can carry unchanged.
bool literalBlockFits(const std::string& s) {
    if (s.find('\n') == std::string::npos || s.front() == ' ' || s.front() == '\n') return false;
    for (unsigned char c : s)
        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) return false;
    return true;
}

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
        const auto& s = v.get_ref<const std::string&>();
        return needsQuotes(s) ? quoted(s) : s;
    }
    default:
        return v.dump();
    }
}

void appendLiteral(std::string& out, const std::string& s, int indent) {
    size_t trailing = 0;
    while (trailing < s.size() && s[s.size() - 1 - trailing] == '\n') ++trailing;
    out += trailing == 0 ? "|-\n" : trailing == 1 ? "|\n" : "|+\n";
    std::string pad(size_t(indent), ' ');
    size_t start = 0;
    std::string body = s.substr(0, s.size() - (trailing > 0 ? 1 : 0));
    while (start <= body.size()) {
        size_t end = body.find('\n', start);
        std::string line = body.substr(start, end == std::string::npos ? std::string::npos : end - start);
        out += line.empty() ? "\n" : pad + line + "\n";
        if (end == std::string::npos) break;
        start = end + 1;
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
    } else if (v.is_string() && literalBlockFits(v.get_ref<const std::string&>())) {
        out += " ";
        appendLiteral(out, v.get_ref<const std::string&>(), indent + 2);
    } else {
        out += " " + scalarText(v) + "\n";
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
