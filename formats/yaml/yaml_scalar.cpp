#include "yaml/yaml_scalar.h"

#include "yaml/plain_scalar.h"

#include <cctype>
#include <regex>

namespace gantry {

namespace {

bool unambiguousPlain(std::string_view view) {
    if (view.empty()) return false;
    const std::string s(view);
    if (!resolvePlainScalar(s).is_string()) return false; // the YAML 1.1 forms include the 1.2 ones
    static const std::string indicators = "-?:,[]{}#&*!|>'\"%@`";
    if (indicators.find(s.front()) != std::string::npos) return false;
    if (s.front() == ' ' || s.back() == ' ' || s.back() == ':') return false;
    if (s.find(": ") != std::string::npos || s.find(" #") != std::string::npos) return false;
    for (unsigned char c : s)
        if (c < 0x20 || c == 0x7f) return false;
    // A date or time could become a timestamp in some readers.
    static const std::regex dateLike(R"(^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}.*)");
    return !std::regex_match(s, dateLike);
}

bool ieq(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != b[i]) return false;
    return true;
}

bool identifierPlain(std::string_view s) {
    if (s.empty()) return false;
    unsigned char first = static_cast<unsigned char>(s[0]);
    if (!(std::isalpha(first) || first == '_' || first == '/')) return false;
    for (unsigned char c : s)
        if (!(std::isalnum(c) || c == '_' || c == '-' || c == '.' || c == '/')) return false;
    static const char* reserved[] = {"true", "false", "yes",  "no",  "on", "off",
                                     "y",    "n",     "null", "nan", "inf"};
    for (const char* r : reserved)
        if (ieq(s, r)) return false;
    return true;
}

bool plainAllowed(std::string_view s, PlainStrings rule) {
    return rule == PlainStrings::WhenUnambiguous ? unambiguousPlain(s) : identifierPlain(s);
}

// A literal block carries multi-line text without control characters (but newline and tab) that does
// not start with a blank or a newline (which would need an indentation hint). The snapshot rule
// (IdentifiersOnly) is stricter still: no tab first, no blank at the end of a line.
bool literalBlockAllowed(std::string_view s, PlainStrings rule) {
    if (s.find('\n') == std::string_view::npos || s[0] == ' ' || s[0] == '\n') return false;
    const bool strict = rule == PlainStrings::IdentifiersOnly;
    if (strict && s[0] == '\t') return false;
    char prev = 0;
    for (unsigned char c : s) {
        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) return false;
        if (strict && c == '\n' && (prev == ' ' || prev == '\t')) return false;
        prev = char(c);
    }
    return !strict || (prev != ' ' && prev != '\t');
}

void appendLiteralBlock(std::string_view s, int indent, std::string& out) {
    size_t trailing = 0;
    while (trailing < s.size() && s[s.size() - 1 - trailing] == '\n') ++trailing;
    out += trailing == 0 ? "|-\n" : trailing == 1 ? "|\n" : "|+\n";
    size_t pos = 0;
    while (pos < s.size()) {
        size_t nl = s.find('\n', pos);
        std::string_view line =
            s.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
        if (!line.empty()) {
            out.append(size_t(indent), ' ');
            out += line;
        }
        out += '\n';
        if (nl == std::string_view::npos) break;
        pos = nl + 1;
    }
}

} // namespace

void appendYamlDoubleQuoted(std::string_view s, std::string& out) {
    static const char* hex = "0123456789abcdef";
    out += '"';
    for (unsigned char c : s) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (c < 0x20 || c == 0x7f) {
                out += "\\x";
                out += hex[c >> 4];
                out += hex[c & 15];
            } else {
                out += char(c);
            }
        }
    }
    out += '"';
}

void appendYamlScalar(std::string_view s, PlainStrings rule, std::string& out) {
    if (plainAllowed(s, rule))
        out += s;
    else
        appendYamlDoubleQuoted(s, out);
}

void appendYamlStringValue(std::string_view s, PlainStrings rule, int indent, std::string& out) {
    if (literalBlockAllowed(s, rule)) {
        appendLiteralBlock(s, indent, out);
        return;
    }
    appendYamlScalar(s, rule, out);
    out += '\n';
}

} // namespace gantry
