#include "model/quantity.h"

#include <array>
#include <cmath>
#include <limits>

namespace gantry {
namespace {

using u128 = uint128;
constexpr int kMaxDigits = 36; // 10^36 < 2^120, leaves headroom for the scaling arithmetic

u128 pow10u(int n) {
    u128 r = 1;
    for (int i = 0; i < n; ++i) r *= 10;
    return r;
}

bool fail(std::string* error, const char* why) {
    if (error) *error = why;
    return false;
}

// Interprets the suffix; sets exponent of 10 and of 2. Mirrors apimachinery's suffixer.
bool parseSuffix(std::string_view s, int& exp10, int& exp2, std::string* error) {
    exp10 = 0;
    exp2 = 0;
    if (s.empty()) return true;
    static constexpr std::array<std::pair<std::string_view, int>, 6> binary{
        {{"Ki", 10}, {"Mi", 20}, {"Gi", 30}, {"Ti", 40}, {"Pi", 50}, {"Ei", 60}}};
    for (auto [name, e] : binary)
        if (s == name) return exp2 = e, true;
    static constexpr std::array<std::pair<std::string_view, int>, 9> decimal{
        {{"n", -9}, {"u", -6}, {"m", -3}, {"k", 3}, {"M", 6}, {"G", 9}, {"T", 12}, {"P", 15}, {"E", 18}}};
    for (auto [name, e] : decimal)
        if (s == name) return exp10 = e, true;
    if ((s[0] == 'e' || s[0] == 'E') && s.size() > 1) {
        size_t i = 1;
        bool neg = false;
        if (s[i] == '+' || s[i] == '-') neg = s[i++] == '-';
        if (i == s.size()) return fail(error, "exponent has no digits");
        int value = 0;
        for (; i < s.size(); ++i) {
            if (s[i] < '0' || s[i] > '9') return fail(error, "unknown suffix");
            value = value * 10 + (s[i] - '0');
            if (value > 1000) return fail(error, "exponent out of range");
        }
        exp10 = neg ? -value : value;
        return true;
    }
    return fail(error,
                "unknown suffix (expected one of m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi, Ei or e<exp>)");
}

} // namespace

std::optional<Quantity> Quantity::parse(std::string_view text, std::string* error) {
    Quantity q;
    size_t i = 0;
    if (text.empty()) return fail(error, "empty quantity"), std::nullopt;
    if (text[i] == '+' || text[i] == '-') q.negative_ = text[i++] == '-';
    int digits = 0, fractionDigits = 0, significant = 0;
    bool seenPoint = false;
    for (; i < text.size(); ++i) {
        char c = text[i];
        if (c == '.') {
            if (seenPoint) break;
            seenPoint = true;
            continue;
        }
        if (c < '0' || c > '9') break;
        ++digits;
        if (seenPoint) ++fractionDigits;
        if (q.mantissa_ == 0 && c == '0') continue; // leading zeros carry no precision
        if (++significant > kMaxDigits) return fail(error, "too many significant digits"), std::nullopt;
        q.mantissa_ = q.mantissa_ * 10 + static_cast<unsigned>(c - '0');
    }
    if (digits == 0) return fail(error, "not a number"), std::nullopt;
    int exp10 = 0, exp2 = 0;
    if (!parseSuffix(text.substr(i), exp10, exp2, error)) return std::nullopt;
    q.exp10_ = exp10 - fractionDigits;
    q.exp2_ = exp2;
    if (q.mantissa_ == 0) q.negative_ = false;
    return q;
}

std::optional<int64_t> Quantity::scaled(int scale) const {
    if (mantissa_ == 0) return 0;
    const u128 limit =
        negative_ ? u128(std::numeric_limits<int64_t>::max()) + 1 : u128(std::numeric_limits<int64_t>::max());
    int e = exp10_ + scale;
    u128 magnitude = 0;
    bool inexact = false;
    if (e >= 0) {
        u128 n = mantissa_;
        for (int k = 0; k < e; ++k) {
            if (n > limit) return std::nullopt;
            n *= 10;
        }
        for (int k = 0; k < exp2_; ++k) {
            if (n > limit) return std::nullopt;
            n <<= 1;
        }
        magnitude = n;
    } else if (-e > 38) {
        // mantissa < 10^36 < 10^-e and exp2 is 0 here (binary suffixes cannot carry that many
        // fraction digits), so the magnitude is below one unit.
        magnitude = 0;
        inexact = true;
    } else {
        u128 d = pow10u(-e);
        u128 q = mantissa_ / d, r = mantissa_ % d;
        for (int k = 0; k < exp2_; ++k) { // long division of r * 2^exp2 by d, one bit at a time
            if (q > limit) return std::nullopt;
            q <<= 1;
            r <<= 1;
            if (r >= d) ++q, r -= d;
        }
        magnitude = q;
        inexact = r != 0;
    }
    // Round towards +infinity: positive inexact values go up, negative ones truncate towards zero.
    if (inexact && !negative_) ++magnitude;
    if (magnitude > limit) return std::nullopt;
    if (negative_) return magnitude == limit ? std::numeric_limits<int64_t>::min() : -int64_t(magnitude);
    return int64_t(magnitude);
}

double Quantity::toDouble() const {
    double v = static_cast<double>(mantissa_) * std::pow(10.0, exp10_) * std::ldexp(1.0, exp2_);
    return negative_ ? -v : v;
}

std::string formatQuantity(int64_t amount, bool milli, bool preferBinary) {
    if (amount == 0) return "0";
    const bool neg = amount < 0;
    u128 mag = neg ? u128(-(amount + 1)) + 1 : u128(amount);
    std::string sign = neg ? "-" : "";
    auto digits = [](u128 v) {
        std::string s;
        do s.insert(s.begin(), char('0' + int(v % 10))), v /= 10;
        while (v);
        return s;
    };
    if (milli) {
        if (mag % 1000 != 0) return sign + digits(mag) + "m";
        mag /= 1000;
    }
    if (preferBinary) {
        static constexpr std::array<const char*, 6> bin{"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
        int best = -1;
        u128 v = mag;
        for (int k = 0; k < 6 && v % 1024 == 0; ++k) v /= 1024, best = k;
        if (best >= 0) return sign + digits(v) + bin[size_t(best)];
    }
    static constexpr std::array<const char*, 6> dec{"k", "M", "G", "T", "P", "E"};
    int best = -1;
    u128 v = mag;
    for (int k = 0; k < 6 && v % 1000 == 0; ++k) v /= 1000, best = k;
    if (best >= 0) return sign + digits(v) + dec[size_t(best)];
    return sign + digits(mag);
}

} // namespace gantry
