#include "yaml/yaml_scalar.h"

#include "yaml/plain_scalar.h"

#include <cctype>
#include <nlohmann/json.hpp>
#include <regex>
#include <utility>

namespace gantry {

namespace {

// The code point of the UTF-8 sequence at s[i] and its length, or -1 for a byte that starts no valid
// sequence (overlong forms, surrogates and values above U+10FFFF included).
std::pair<long, size_t> decodeUtf8(std::string_view s, size_t i) {
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = byte(i);
    const size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
    if (n == 0 || c > 0xf4 || i + n > s.size()) return {-1, 1};
    long cp = c & (0x7f >> n);
    for (size_t k = 1; k < n; ++k) {
        if ((byte(i + k) & 0xc0) != 0x80) return {-1, 1};
        cp = (cp << 6) | (byte(i + k) & 0x3f);
    }
    static constexpr long kLeast[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kLeast[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return {-1, 1};
    return {cp, n};
}

// YAML's printable set (both 1.1 and 1.2): what a reader accepts unescaped in a document.
bool printable(long cp) {
    return cp == 0x9 || cp == 0xa || cp == 0xd || (cp >= 0x20 && cp <= 0x7e) || cp == 0x85 ||
           (cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) ||
           (cp >= 0x10000 && cp <= 0x10ffff);
}

// Valid UTF-8 of printable characters only: what may be written without escapes.
bool printableText(std::string_view s) {
    for (size_t i = 0; i < s.size();) {
        if (static_cast<unsigned char>(s[i]) < 0x80) {
            ++i;
            continue;
        }
        auto [cp, n] = decodeUtf8(s, i);
        if (cp < 0 || !printable(cp)) return false;
        i += n;
    }
    return true;
}

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
    if (!printableText(s)) return false;
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
    return (!strict || (prev != ' ' && prev != '\t')) && printableText(s);
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
    const auto escape = [&](const char* prefix, long cp, int digits) {
        out += prefix;
        for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) out += hex[(cp >> shift) & 15];
    };
    out += '"';
    for (size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c >= 0x80) {
            auto [cp, n] = decodeUtf8(s, i);
            if (cp < 0)
                out += "\ufffd"; // not UTF-8: no YAML text can carry the byte
            else if (!printable(cp))
                escape(cp <= 0xff ? "\\x" : "\\u", cp, cp <= 0xff ? 2 : 4);
            else
                out.append(s.substr(i, n));
            i += n;
            continue;
        }
        ++i;
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
            if (c < 0x20 || c == 0x7f)
                escape("\\x", c, 2);
            else
                out += char(c);
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
