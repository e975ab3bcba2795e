#pragma once
// The simulator's random numbers: SplitMix64 (Steele, Lea and Flood 2014), a 64-bit generator with
// a full 2^64 period that is fast, has no state beyond one word and passes BigCrush. Every draw is
// derived from the run's seed through named streams, so adding a workload or changing one
// distribution never shifts the draws of another.
#include <cmath>
#include <cstdint>
#include <string_view>

namespace gantry::workload {

class Random {
  public:
    explicit Random(uint64_t seed) : state_(seed) {}

    uint64_t next() {
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    // Uniform in [0, 1) with 53 random bits.
    double uniform() { return double(next() >> 11) * 0x1.0p-53; }
    // Uniform in (0, 1]: safe to take the logarithm of.
    double uniformOpen() { return double((next() >> 11) + 1) * 0x1.0p-53; }
    double exponential(double mean) { return -mean * std::log(uniformOpen()); }
    // Standard normal by the Box-Muller transform (one value per two uniforms, no cached spare, so
    // a draw's value depends only on its position in the stream).
    double normal() {
        const double u1 = uniformOpen(), u2 = uniform();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
    }

    // A stream for one purpose of one item: the seed mixed with the purpose's name and the index.
    static Random stream(uint64_t seed, std::string_view purpose, uint64_t index) {
        uint64_t h = 0xcbf29ce484222325ULL; // FNV-1a over the purpose
        for (char c : purpose) h = (h ^ uint8_t(c)) * 0x100000001b3ULL;
        Random mix(seed ^ h);
        mix.state_ ^= mix.next() + index * 0xd1b54a32d192ed03ULL;
        mix.next();
        return mix;
    }

  private:
    uint64_t state_;
};

} // namespace gantry::workload
