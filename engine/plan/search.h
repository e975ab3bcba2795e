#pragma once
// The planner's search over node counts, apart from what a point costs to evaluate.
//
// One type: the smallest count in [min, max] whose point passes, assuming that more nodes never
// make a point fail that fewer nodes pass (monotonic). Exponential then bisection, with up to
// kProbes points per round so a round's points can run at once:
//   round 0      min, min+1, min+2
//   exponential  min+4, min+8, min+16, then min+32 ... (capped at max) until one passes
//   bisection    between the highest failing and the lowest passing count, kProbes points
//                spread evenly, until they are neighbours
// Which points are tried depends only on what earlier rounds measured, never on how many threads
// run them, so the answer and the points are the same for any number of threads.
//
// Two types with costs: the cheapest mix. First the most of both (when that fails, nothing passes);
// then, for each count a of the first type, from its minimum up,
// the fewest nodes b of the second type (the same one-type search, its range capped by the b found
// for a - 1, since more of the first type never needs more of the second); the walk stops once a's
// own cost alone, with the second type at its minimum, is no cheaper than the best mix found.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace gantry::plan {

inline constexpr int kProbes = 3;

// Evaluates a round's points (each one count per type) and says which pass; nullopt = cancelled.
using RoundOracle = std::function<std::optional<std::vector<bool>>(const std::vector<std::vector<int64_t>>&)>;

struct Range {
    int64_t min = 0, max = 0;
    double cost = 1; // per node, for the two-type search
};

struct TriedPoint {
    std::vector<int64_t> counts;
    bool pass = false;
    int round = 0;
};

struct SearchResult {
    bool met = false; // some point passed
    bool cancelled = false;
    std::vector<int64_t> answer;   // the smallest passing counts (the cheapest mix); max when not met
    std::vector<TriedPoint> tried; // in the order they were tried
    // Pairs of points that break the monotonic assumption: `passing` passed although it has no more
    // of any type than `failing`, which failed.
    struct Violation {
        std::vector<int64_t> passing, failing;
    };
    std::vector<Violation> violations;
};

SearchResult searchSmallest(const Range& range, const RoundOracle& oracle);

// The most points searchSmallest tries over `range` when its answer lies above `failing` and at or
// below `passing` (what the points measured so far say; nullopt = nothing yet), if the assumption
// holds: what a progress bar can promise. Found by running the search against the possible answers
// (at most 1024 of them, spread evenly over a wider range).
size_t mostPoints(const Range& range, std::optional<int64_t> failing, std::optional<int64_t> passing);
SearchResult searchCheapest(const Range& first, const Range& second, const RoundOracle& oracle);

} // namespace gantry::plan
