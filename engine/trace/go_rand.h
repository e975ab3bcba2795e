#pragma once
// A random generator that draws exactly what Go's math/rand (Go 1.x, before math/rand/v2) draws for
// the same seed: the additive lagged Fibonacci source of Mitchell and Reeds (607 words, tap 273)
// and the derived draws Intn, Int31n, Perm and Shuffle. Replaying a Go simulator's seeded run
// (the FGD experiment) needs every draw to match, so the algorithms follow Go's step for step.
#include <array>
#include <cstdint>
#include <vector>

namespace gantry {

class GoRand {
  public:
    explicit GoRand(int64_t seed = 1) { seed_(seed); }
    void seed(int64_t seed) { seed_(seed); }

    uint64_t uint64();
    int64_t int63() { return int64_t(uint64() & kMask63); }
    uint32_t uint32() { return uint32_t(int63() >> 31); }
    int32_t int31() { return int32_t(int63() >> 32); }
    int64_t intValue() { return int63(); } // rand.Int() on a 64-bit platform
    int64_t int63n(int64_t n);
    int32_t int31n(int32_t n);
    int64_t intn(int64_t n);
    double float64();
    std::vector<int> perm(int n);
    // Calls swap(i, j) exactly as rand.Shuffle does.
    template <typename Swap> void shuffle(int64_t n, Swap&& swap) {
        for (int64_t i = n - 1; i > 0; --i) {
            int64_t j = i > kInt32Max - 1 ? int63n(i + 1) : int64_t(int31nLemire(int32_t(i + 1)));
            swap(i, j);
        }
    }

    static constexpr int kLength = 607;
    static constexpr int kTap = 273;

  private:
    static constexpr uint64_t kMask63 = (uint64_t(1) << 63) - 1;
    static constexpr int64_t kInt32Max = (int64_t(1) << 31) - 1;
    void seed_(int64_t seed);
    int32_t int31nLemire(int32_t n); // Go's unexported int31n, used by Shuffle

    int tap_ = 0;
    int feed_ = 0;
    std::array<uint64_t, kLength> vec_{};
};

} // namespace gantry
