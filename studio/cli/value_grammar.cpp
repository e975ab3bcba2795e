#include "value_grammar.h"

#include "model/go_text.h"

#include <cctype>

namespace gantry::cli {

std::optional<int64_t> parseWholeNumber(std::string_view text) {
    // Go allows one sign only; the digits must follow it directly.
    const size_t first = !text.empty() && (text[0] == '+' || text[0] == '-') ? 1 : 0;
    if (first >= text.size() || !std::isdigit(static_cast<unsigned char>(text[first]))) return std::nullopt;
    return engine::parseGoInt(text);
}

std::optional<double> parseNumber(std::string_view text) {
    return engine::parseGoFloat(text);
}

std::optional<double> parseSeconds(std::string_view text) {
    const std::string t = engine::trim(text);
    auto s = engine::parseGoDuration(t);
    if (!s) s = engine::parseGoFloat(t);
    if (!s || *s < 0) return std::nullopt;
    return s;
}

} // namespace gantry::cli
