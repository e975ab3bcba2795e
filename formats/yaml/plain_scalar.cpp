#include "yaml/plain_scalar.h"

#include "yaml/yaml_dom.h"

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>

namespace gantry {

namespace {

const std::regex& floatPattern() {
    static const std::regex re(R"(^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$)");
    return re;
}

// strconv.ParseInt(text, 0, 64) after go-yaml removed the underscores: sign, then 0x / 0o / 0b /
// leading-0 octal or decimal.
std::optional<int64_t> parseGoInt(std::string text) {
    std::erase(text, '_');
    if (text.empty()) return std::nullopt;
    bool negative = false;
    size_t i = 0;
    if (text[0] == '+' || text[0] == '-') negative = text[i++] == '-';
    if (i == text.size()) return std::nullopt;
    int base = 10;
    if (text.size() - i > 1 && text[i] == '0') {
        char p = text[i + 1];
        if (p == 'x' || p == 'X')
            base = 16, i += 2;
        else if (p == 'o' || p == 'O')
            base = 8, i += 2;
        else if (p == 'b' || p == 'B')
            base = 2, i += 2;
        else
            base = 8, i += 1;
    }
    if (i == text.size()) return std::nullopt;
    uint64_t value = 0;
    auto [ptr, ec] = std::from_chars(text.data() + i, text.data() + text.size(), value, base);
    if (ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
    if (!negative && value > uint64_t(INT64_MAX)) return std::nullopt;
    if (negative && value > uint64_t(INT64_MAX) + 1) return std::nullopt;
    return negative ? int64_t(0 - value) : int64_t(value);
}

} // namespace

nlohmann::ordered_json resolvePlainScalar(const std::string& text, YamlRules rules) {
    static const char* trues[] = {"true", "True", "TRUE", "y", "Y", "yes", "Yes", "YES", "on", "On", "ON"};
    static const char* falses[] = {"false", "False", "FALSE", "n",   "N",  "no",
                                   "No",    "NO",    "off",   "Off", "OFF"};
    const size_t boolForms = rules == YamlRules::Kubectl ? 11 : 3;
    if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") return nullptr;
    for (size_t i = 0; i < boolForms; ++i) {
        if (text == trues[i]) return true;
        if (text == falses[i]) return false;
    }
    char c = text[0];
    if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.') {
        if (auto i = parseGoInt(text)) return *i;
        std::string plain = text;
        std::erase(plain, '_');
        if (plain == ".inf" || plain == ".Inf" || plain == ".INF" || plain == "+.inf" || plain == "+.Inf" ||
            plain == "+.INF")
            return std::numeric_limits<double>::infinity();
        if (plain == "-.inf" || plain == "-.Inf" || plain == "-.INF")
            return -std::numeric_limits<double>::infinity();
        if (plain == ".nan" || plain == ".NaN" || plain == ".NAN")
            return std::numeric_limits<double>::quiet_NaN();
        if (std::regex_match(plain, floatPattern())) {
            // Integers too large for int64 become floats, as in go-yaml.
            return std::strtod(plain.c_str(), nullptr);
        }
    }
    return text;
}

nlohmann::ordered_json yamlToJson(const DomNode* node, YamlRules rules) {
    if (!node || node->kind == DomNode::Kind::Null) return nullptr;
    if (node->isScalar())
        return node->quoted ? nlohmann::ordered_json(node->text) : resolvePlainScalar(node->text, rules);
    if (node->isSequence()) {
        auto out = nlohmann::ordered_json::array();
        for (const DomNode* item : node->children) out.push_back(yamlToJson(item, rules));
        return out;
    }
    auto out = nlohmann::ordered_json::object();
    for (size_t i = 0; i + 1 < node->children.size(); i += 2)
        out[node->children[i]->text] = yamlToJson(node->children[i + 1], rules);
    return out;
}

} // namespace gantry
