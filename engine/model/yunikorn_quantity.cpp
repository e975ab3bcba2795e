#include "model/yunikorn_quantity.h"

#include "model/quantity.h"
#include "model/resources.h"

#include <array>
#include <utility>

namespace gantry {

std::optional<int64_t> parseYuniKornQuantity(std::string_view resource, std::string_view text,
                                             std::string* why) {
    auto fail = [&](const char* reason) -> std::optional<int64_t> {
        if (why) *why = reason;
        return std::nullopt;
    };
    auto isSpace = [](char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
    };
    while (!text.empty() && isSpace(text.front())) text.remove_prefix(1);
    while (!text.empty() && isSpace(text.back())) text.remove_suffix(1);
    size_t i = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    if (i == 0) return fail("invalid quantity (digits only, no sign or decimal point)");
    std::string_view digits = text.substr(0, i);
    while (i < text.size() && isSpace(text[i])) ++i;
    std::string_view suffix = text.substr(i);
    const bool vcore = resource == "vcore";
    static constexpr std::array<std::pair<std::string_view, int64_t>, 14> multipliers{
        {{"", 1},
         {"m", 1},
         {"k", 1000LL},
         {"M", 1000000LL},
         {"G", 1000000000LL},
         {"T", 1000000000000LL},
         {"P", 1000000000000000LL},
         {"E", 1000000000000000000LL},
         {"Ki", 1LL << 10},
         {"Mi", 1LL << 20},
         {"Gi", 1LL << 30},
         {"Ti", 1LL << 40},
         {"Pi", 1LL << 50},
         {"Ei", 1LL << 60}}};
    int64_t scale = 0;
    for (auto [s, m] : multipliers)
        if (s == suffix) scale = m;
    if (scale == 0) {
        bool shaped = suffix.size() <= 2 && !suffix.empty() &&
                      std::string_view("mkKMGTPE").find(suffix[0]) != std::string_view::npos &&
                      (suffix.size() == 1 || suffix[1] == 'i');
        return fail(shaped ? "invalid suffix" : "invalid quantity (digits only, no sign or decimal point)");
    }
    if (suffix == "m" && !vcore) return fail("invalid suffix (m is allowed for vcore only)");
    uint128 value = 0;
    for (char c : digits) {
        value = value * 10 + (c - '0');
        if (value > uint128(INT64_MAX)) return fail("invalid quantity: overflow");
    }
    value *= uint128(scale);
    if (vcore && suffix != "m") value *= 1000;
    if (value > uint128(INT64_MAX)) return fail("invalid quantity: overflow");
    return int64_t(value);
}

std::optional<int64_t> parseYuniKornAmount(std::string_view resource, std::string_view text,
                                           std::string* why) {
    auto value = parseYuniKornQuantity(resource, text, why);
    if (!value || resource == "vcore" || unitOf(resource) != ResourceUnit::Milli) return value;
    if (*value > INT64_MAX / 1000) {
        if (why) *why = "invalid quantity: overflow";
        return std::nullopt;
    }
    return *value * 1000;
}

} // namespace gantry
