#include "trace/go_rand.h"

#include <stdexcept>

namespace gantry {

namespace {

constexpr int kLen = GoRand::kLength;
constexpr int kTap = GoRand::kTap;
constexpr int32_t kInt32Max = 0x7fffffff;

// One step of the Park-Miller generator x' = 48271 x mod (2^31 - 1), Schrage's way, as Go seeds.
int32_t seedStep(int32_t x) {
    constexpr int32_t a = 48271, q = 44488, r = 3399;
    int32_t hi = x / q, lo = x % q;
    x = a * lo - r * hi;
    if (x < 0) x += kInt32Max;
    return x;
}

// The lagged Fibonacci stream x[t] = x[t-607] + x[t-273] (mod 2^64) is linear, so its state after
// N steps is z^N mod P(z), P(z) = z^607 - z^334 - 1, applied to the first values. Go seeds every
// generator by XOR-ing its Park-Miller words with the state reached from srand(1) after 7.8e12
// steps ("cooked" words); computing that state by polynomial powering takes milliseconds instead of
// hours.
using Poly = std::vector<uint64_t>; // coefficients mod 2^64, degree < 607 after reduction

Poly mulMod(const Poly& a, const Poly& b) {
    std::vector<uint64_t> prod(2 * kLen - 1, 0);
    for (int i = 0; i < kLen; ++i) {
        uint64_t ai = a[i];
        if (ai == 0) continue;
        uint64_t* out = prod.data() + i;
        for (int j = 0; j < kLen; ++j) out[j] += ai * b[j];
    }
    // z^k = z^(k-273) + z^(k-607) for k >= 607; fold from the top so folded terms are folded again.
    for (int k = 2 * kLen - 2; k >= kLen; --k) {
        uint64_t c = prod[k];
        if (c == 0) continue;
        prod[k - kTap] += c;
        prod[k - kLen] += c;
    }
    prod.resize(kLen);
    return prod;
}

std::array<uint64_t, kLen> computeCooked() {
    // srand(1) of Go's generator-of-the-table: three Park-Miller words per slot, shifted 20/10/0.
    std::array<uint64_t, kLen> initial{};
    int32_t x = 1;
    for (int i = -20; i < kLen; ++i) {
        x = seedStep(x);
        if (i >= 0) {
            uint64_t u = uint64_t(int64_t(x)) << 20;
            x = seedStep(x);
            u ^= uint64_t(int64_t(x)) << 10;
            x = seedStep(x);
            u ^= uint64_t(int64_t(x));
            initial[i] = u;
        }
    }
    // Stream view: value x[t] lives in slot (334 - t) mod 607, for t in (-607, 0] initially.
    auto slotOf = [](int64_t t) { return int((((334 - t) % kLen) + kLen) % kLen); };
    std::vector<uint64_t> stream(2 * kLen - 1); // x[-606 .. 606]
    for (int t = -606; t <= 0; ++t) stream[t + 606] = initial[slotOf(t)];
    for (int t = 1; t <= 606; ++t) stream[t + 606] = stream[t + 606 - kLen] + stream[t + 606 - kTap];

    // c(z) = z^N mod P(z), N = 7.8e12; then x[-606 + N + j] = sum_i c_i x[-606 + i + j].
    const uint64_t steps = 7800000000000ULL;
    Poly result(kLen, 0), base(kLen, 0);
    result[0] = 1;
    base[1] = 1;
    for (uint64_t e = steps; e; e >>= 1) {
        if (e & 1) result = mulMod(result, base);
        if (e > 1) base = mulMod(base, base);
    }
    std::array<uint64_t, kLen> cooked{};
    for (int j = 0; j < kLen; ++j) {
        uint64_t v = 0;
        for (int i = 0; i < kLen; ++i) v += result[i] * stream[i + j];
        int64_t t = int64_t(steps) - 606 + j;
        cooked[slotOf(t)] = v;
    }
    return cooked;
}

const std::array<uint64_t, kLen>& cookedWords() {
    static const std::array<uint64_t, kLen> cooked = computeCooked();
    return cooked;
}

} // namespace

void GoRand::seed_(int64_t seed) {
    const auto& cooked = cookedWords();
    tap_ = 0;
    feed_ = kLen - kTap;
    seed %= kInt32Max;
    if (seed < 0) seed += kInt32Max;
    if (seed == 0) seed = 89482311;
    int32_t x = int32_t(seed);
    for (int i = -20; i < kLen; ++i) {
        x = seedStep(x);
        if (i >= 0) {
            uint64_t u = uint64_t(int64_t(x)) << 40;
            x = seedStep(x);
            u ^= uint64_t(int64_t(x)) << 20;
            x = seedStep(x);
            u ^= uint64_t(int64_t(x));
            vec_[i] = u ^ cooked[i];
        }
    }
}

uint64_t GoRand::uint64() {
    if (--tap_ < 0) tap_ += kLen;
    if (--feed_ < 0) feed_ += kLen;
    uint64_t x = vec_[feed_] + vec_[tap_];
    vec_[feed_] = x;
    return x;
}

int64_t GoRand::int63n(int64_t n) {
    if (n <= 0) throw std::invalid_argument("GoRand::int63n: n must be positive");
    if ((n & (n - 1)) == 0) return int63() & (n - 1);
    int64_t max = int64_t((uint64_t(1) << 63) - 1 - (uint64_t(1) << 63) % uint64_t(n));
    int64_t v = int63();
    while (v > max) v = int63();
    return v % n;
}

int32_t GoRand::int31n(int32_t n) {
    if (n <= 0) throw std::invalid_argument("GoRand::int31n: n must be positive");
    if ((n & (n - 1)) == 0) return int31() & (n - 1);
    int32_t max = int32_t((uint32_t(1) << 31) - 1 - (uint32_t(1) << 31) % uint32_t(n));
    int32_t v = int31();
    while (v > max) v = int31();
    return v % n;
}

int32_t GoRand::int31nLemire(int32_t n) {
    uint32_t v = uint32();
    uint64_t prod = uint64_t(v) * uint64_t(n);
    uint32_t low = uint32_t(prod);
    if (low < uint32_t(n)) {
        uint32_t thresh = uint32_t(-n) % uint32_t(n);
        while (low < thresh) {
            v = uint32();
            prod = uint64_t(v) * uint64_t(n);
            low = uint32_t(prod);
        }
    }
    return int32_t(prod >> 32);
}

int64_t GoRand::intn(int64_t n) {
    if (n <= 0) throw std::invalid_argument("GoRand::intn: n must be positive");
    if (n <= kInt32Max) return int31n(int32_t(n));
    return int63n(n);
}

double GoRand::float64() {
    for (;;) {
        double f = double(int63()) / 9223372036854775808.0;
        if (f != 1) return f;
    }
}

std::vector<int> GoRand::perm(int n) {
    std::vector<int> m(size_t(n > 0 ? n : 0));
    for (int i = 0; i < n; ++i) {
        int j = int(intn(i + 1));
        m[i] = m[j];
        m[j] = i;
    }
    return m;
}

} // namespace gantry
