#include "history/time_text.h"

#include "model/go_text.h"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <ctime>

namespace gantry::history {

std::optional<double> parseRfc3339(std::string_view s) {
    return engine::parseRfc3339(s);
}

std::string formatRfc3339(double unixSeconds) {
    const std::time_t t = std::time_t(std::floor(unixSeconds));
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buffer;
}

std::optional<double> parseSpan(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
    if (text.empty()) return std::nullopt;
    double total = 0;
    size_t i = 0;
    bool any = false;
    while (i < text.size()) {
        size_t start = i;
        while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
        if (i == start) return std::nullopt;
        std::string number(text.substr(start, i - start));
        char* end = nullptr;
        const double value = std::strtod(number.c_str(), &end);
        if (!end || *end != '\0') return std::nullopt;
        size_t unitStart = i;
        while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) ++i;
        const std::string_view unit = text.substr(unitStart, i - unitStart);
        double scale;
        if (unit.empty()) {
            if (any || i != text.size()) return std::nullopt; // plain seconds stand alone
            scale = 1;
        } else if (unit == "ms") {
            scale = 0.001;
        } else if (unit == "s") {
            scale = 1;
        } else if (unit == "m") {
            scale = 60;
        } else if (unit == "h") {
            scale = 3600;
        } else if (unit == "d") {
            scale = 86400;
        } else if (unit == "w") {
            scale = 7 * 86400;
        } else if (unit == "y") {
            scale = 365 * 86400;
        } else {
            return std::nullopt;
        }
        total += value * scale;
        any = true;
    }
    if (!std::isfinite(total)) return std::nullopt;
    return total;
}

std::string formatSpan(double seconds) {
    if (seconds <= 0) return "0s";
    int64_t ms = int64_t(std::llround(seconds * 1000));
    if (ms % 1000 != 0) return std::to_string(ms) + "ms";
    int64_t s = ms / 1000;
    std::string out;
    const struct {
        int64_t size;
        const char* unit;
    } units[] = {{86400, "d"}, {3600, "h"}, {60, "m"}, {1, "s"}};
    for (const auto& u : units) {
        if (s >= u.size) {
            out += std::to_string(s / u.size) + u.unit;
            s %= u.size;
        }
    }
    return out;
}

} // namespace gantry::history
