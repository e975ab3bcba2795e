#include "history/time_text.h"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <ctime>

namespace gantry::history {

namespace {

bool digits(std::string_view s, size_t at, size_t n, int* out) {
    if (at + n > s.size()) return false;
    int v = 0;
    for (size_t i = at; i < at + n; ++i) {
        if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return true;
}

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
int64_t daysFromCivil(int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = unsigned(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + int64_t(doe) - 719468;
}

bool leap(int y) {
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

} // namespace

std::optional<double> parseRfc3339(std::string_view s) {
    int year, month, day, hour, minute, second;
    if (!digits(s, 0, 4, &year) || s.size() < 20 || s[4] != '-' || !digits(s, 5, 2, &month) || s[7] != '-' ||
        !digits(s, 8, 2, &day) || (s[10] != 'T' && s[10] != 't') || !digits(s, 11, 2, &hour) ||
        s[13] != ':' || !digits(s, 14, 2, &minute) || s[16] != ':' || !digits(s, 17, 2, &second))
        return std::nullopt;
    static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (month < 1 || month > 12 || day < 1 || day > kDays[month - 1] + (month == 2 && leap(year)) ||
        hour > 23 || minute > 59 || second > 60)
        return std::nullopt;
    size_t i = 19;
    double fraction = 0;
    if (i < s.size() && s[i] == '.') {
        double scale = 0.1;
        size_t start = ++i;
        for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i, scale /= 10)
            fraction += (s[i] - '0') * scale;
        if (i == start) return std::nullopt;
    }
    int offset = 0;
    if (i < s.size() && (s[i] == 'Z' || s[i] == 'z')) {
        ++i;
    } else if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
        int oh, om;
        if (!digits(s, i + 1, 2, &oh) || i + 3 >= s.size() || s[i + 3] != ':' || !digits(s, i + 4, 2, &om) ||
            oh > 23 || om > 59)
            return std::nullopt;
        offset = (s[i] == '+' ? 1 : -1) * (oh * 3600 + om * 60);
        i += 6;
    } else {
        return std::nullopt;
    }
    if (i != s.size()) return std::nullopt;
    const int64_t days = daysFromCivil(year, unsigned(month), unsigned(day));
    return double(days * 86400 + hour * 3600 + minute * 60 + second - offset) + fraction;
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
