#pragma once
// Quota amounts as Kueue computes them: int64 in the resource's unit, with an "unlimited" value that
// arithmetic keeps (a quantity too large for int64, a sum that would overflow) and saturating
// bounded sums, so huge quotas never wrap around.
#include <cstdint>
#include <limits>

namespace gantry::engine::kueue {

using Amount = int64_t;
inline constexpr Amount kUnlimited = std::numeric_limits<int64_t>::max();
inline constexpr Amount kMinAmount = std::numeric_limits<int64_t>::min();
// An absent borrowing or lending limit.
inline constexpr Amount kNoLimit = std::numeric_limits<int64_t>::min();

inline Amount addAmount(Amount a, Amount b) {
    if (a == kUnlimited || b == kUnlimited) return kUnlimited;
    Amount r;
    if (__builtin_add_overflow(a, b, &r)) return b > 0 ? kUnlimited : kMinAmount;
    return r;
}

inline Amount subAmount(Amount a, Amount b) {
    if (a == kUnlimited && b == kUnlimited) return 0;
    if (a == kUnlimited) return kUnlimited;
    if (b == kUnlimited) return kMinAmount;
    Amount r;
    if (__builtin_sub_overflow(a, b, &r)) return b < 0 ? kUnlimited : kMinAmount;
    return r;
}

inline Amount mulAmount(Amount a, int64_t n) {
    if (a == kUnlimited) return kUnlimited;
    Amount r;
    if (__builtin_mul_overflow(a, n, &r)) return (a > 0) == (n > 0) ? kUnlimited : kMinAmount;
    return r;
}

} // namespace gantry::engine::kueue
