#pragma once
// Writing a string as a YAML scalar: plain, double-quoted or as a literal block. Every YAML text Gantry
// writes itself (exported manifests, live snapshots) writes its strings here.
#include <string>
#include <string_view>

namespace gantry {

// When a string may go unquoted. Both rules only write plain what YAML 1.1 and 1.2 readers read back
// as the same string; they differ in how much they allow, and so in the bytes they write.
enum class PlainStrings {
    // Plain unless a reader would resolve it as something else (plain_scalar.h) or it holds YAML
    // syntax; literal blocks for any multi-line text without control characters. As kubectl prints
    // manifests: exported manifests.
    WhenUnambiguous,
    // Plain only for identifier-like words (a letter, `_` or `/`, then letters, digits, `_ - . /`)
    // that are no YAML keyword; literal blocks only when no line ends in a blank. Live snapshots.
    IdentifiersOnly,
};

// Appends `s` as a double-quoted scalar; characters outside YAML's printable set (control characters,
// C1 controls, U+FFFE and U+FFFF) become \xNN or \uNNNN escapes, so that any UTF-8 string survives a
// round trip through a YAML 1.1 or 1.2 reader. A byte that is not UTF-8 becomes U+FFFD.
void appendYamlDoubleQuoted(std::string_view s, std::string& out);

// Appends `s` plain when `rule` allows it, else double-quoted: a map key or a one-line value.
void appendYamlScalar(std::string_view s, PlainStrings rule, std::string& out);

// Appends a string value and its line end: a literal block (`|`, `|-` or `|+`, its lines indented by
// `indent` spaces) when `rule` allows one and it carries the text exactly, else appendYamlScalar.
void appendYamlStringValue(std::string_view s, PlainStrings rule, int indent, std::string& out);

} // namespace gantry
