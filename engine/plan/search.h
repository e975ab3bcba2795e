#pragma once
// The planner's search over node counts, apart from what a point costs to evaluate.
//
// One type: the smallest count in [min, max] whose point passes, assuming that more nodes never
// make a point fail that fewer nodes pass (monotonic). One point at a time, exponential then
// bisection:
//   exponential  min, min+1, min+2, min+4, min+8 ... (capped at max) until one passes
//   bisection    halfway between the highest failing and the lowest passing count, until they
//                are neighbours
// Which point comes next depends only on what the points before it measured, so the answer and
// the points are the same however their simulations are run (plan/run_ahead.h runs the likely next
// points on idle threads).
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

// Measures a point (one count per type) and says whether it passes; nullopt = cancelled.
using PointOracle = std::function<std::optional<bool>(const std::vector<int64_t>&)>;

struct Range {
    int64_t min = 0, max = 0;
    double cost = 1; // per node, for the two-type search
};

struct TriedPoint {
    std::vector<int64_t> counts;
    bool pass = false;
    int round = 0; // the point's place in the search: 0 for the first point measured
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

// Whether point a has no more nodes of any type than point b (the order the assumption is about).
bool noMoreOfAny(const std::vector<int64_t>& a, const std::vector<int64_t>& b);

SearchResult searchSmallest(const Range& range, const PointOracle& oracle);

// The most points searchSmallest tries over `range` when its answer lies above `failing` and at or
// below `passing` (what the points measured so far say; nullopt = nothing yet), if the assumption
// holds: what a progress bar can promise. Found by running the search against the possible answers
// (at most 1024 of them, spread evenly over a wider range).
size_t mostPoints(const Range& range, std::optional<int64_t> failing, std::optional<int64_t> passing);
SearchResult searchCheapest(const Range& first, const Range& second, const PointOracle& oracle);

} // namespace gantry::plan
