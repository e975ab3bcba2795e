#include "live/snapshot_yaml.h"

#include "yaml/yaml_quote.h"

#include <cstdio>
#include <string_view>

namespace gantry::live {

namespace {

bool ieq(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != b[i]) return false;
    return true;
}

// Plain (unquoted) only for text that every YAML reader (1.1 and 1.2) takes as this same string.
bool plainSafe(std::string_view s) {
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

void appendScalarText(std::string_view s, std::string& out) {
    if (plainSafe(s))
        out += s;
    else
        appendYamlDoubleQuoted(s, out);
}

// A literal block keeps the text exactly when it has no control characters but newline and tab, no
// trailing blanks on a line, and does not start with a blank (which would need an indentation hint).
bool literalBlockSafe(std::string_view s) {
    if (s.find('\n') == std::string_view::npos || s.size() < 2) return false;
    if (s[0] == ' ' || s[0] == '\t' || s[0] == '\n') return false;
    char prev = 0;
    for (unsigned char c : s) {
        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) return false;
        if (c == '\n' && (prev == ' ' || prev == '\t')) return false;
        prev = char(c);
    }
    return prev != ' ' && prev != '\t';
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

void appendYamlString(std::string_view text, int indent, std::string& out) {
    if (literalBlockSafe(text)) {
        appendLiteralBlock(text, indent + 2, out);
        return;
    }
    appendScalarText(text, out);
    out += '\n';
}

void appendYamlKey(std::string_view key, std::string& out) {
    appendScalarText(key, out);
}

} // namespace gantry::live
