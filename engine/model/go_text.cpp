#include "model/go_text.h"

#include <cctype>
#include <charconv>
#include <cstdlib>

namespace gantry::engine {

std::string trim(std::string_view text) {
    size_t b = 0, e = text.size();
    while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
    return std::string(text.substr(b, e - b));
}

std::optional<int64_t> parseGoInt(std::string_view text) {
    if (text.empty()) return std::nullopt;
    size_t i = 0;
    bool neg = false;
    if (text[0] == '+' || text[0] == '-') {
        neg = text[0] == '-';
        i = 1;
    }
    if (i >= text.size()) return std::nullopt;
    int64_t v = 0;
    auto [p, ec] = std::from_chars(text.data() + i, text.data() + text.size(), v);
    if (ec != std::errc() || p != text.data() + text.size()) return std::nullopt;
    return neg ? -v : v;
}

std::optional<bool> parseGoBool(std::string_view t) {
    if (t == "1" || t == "t" || t == "T" || t == "TRUE" || t == "true" || t == "True") return true;
    if (t == "0" || t == "f" || t == "F" || t == "FALSE" || t == "false" || t == "False") return false;
    return std::nullopt;
}

std::optional<double> parseGoFloat(std::string_view text) {
    if (text.empty()) return std::nullopt;
    std::string s(text);
    for (char c : s)
        if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+' || c == 'e' ||
              c == 'E'))
            return std::nullopt;
    char* end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size()) return std::nullopt;
    return v;
}

std::optional<double> parseGoDuration(std::string_view s) {
    if (s.empty()) return std::nullopt;
    double sign = 1;
    if (s[0] == '-' || s[0] == '+') {
        if (s[0] == '-') sign = -1;
        s.remove_prefix(1);
    }
    if (s == "0") return 0.0;
    if (s.empty()) return std::nullopt;
    double total = 0;
    while (!s.empty()) {
        size_t i = 0;
        while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
        if (i == 0) return std::nullopt;
        auto number = parseGoFloat(s.substr(0, i));
        if (!number) return std::nullopt;
        s.remove_prefix(i);
        size_t j = 0;
        while (j < s.size() && !(std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == '.')) ++j;
        std::string_view unit = s.substr(0, j);
        s.remove_prefix(j);
        double scale;
        if (unit == "ns")
            scale = 1e-9;
        else if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs")
            scale = 1e-6;
        else if (unit == "ms")
            scale = 1e-3;
        else if (unit == "s")
            scale = 1;
        else if (unit == "m")
            scale = 60;
        else if (unit == "h")
            scale = 3600;
        else
            return std::nullopt;
        total += *number * scale;
    }
    return sign * total;
}

} // namespace gantry::engine
