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

} // namespace gantry::engine
