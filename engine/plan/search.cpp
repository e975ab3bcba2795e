#include "plan/search.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace gantry::plan {

namespace {

struct Cancelled {};

// What the searches share: the points measured (and those known without measuring), in order.
class Searcher {
  public:
    explicit Searcher(const PointOracle& oracle) : oracle_(oracle) {}

    // Whether the point passes, measuring it when it is not known yet.
    bool evaluate(const std::vector<int64_t>& point) {
        if (const auto it = known_.find(point); it != known_.end()) return it->second;
        const auto passed = oracle_(point);
        if (!passed) throw Cancelled{};
        known_[point] = *passed;
        result.tried.push_back({point, *passed, round_++});
        return *passed;
    }

    // Taken as passing without a measurement (the two-type search's bound from the last column).
    void assume(const std::vector<int64_t>& point) { known_.emplace(point, true); }

    struct Line {
        bool met = false;
        int64_t answer = 0;
    };

    // The smallest x in [lo, hi] whose point passes.
    template <typename PointOf> Line smallest(int64_t lo, int64_t hi, PointOf pointOf) {
        std::optional<int64_t> lastFail, firstPass;
        auto tryAt = [&](int64_t x) {
            if (evaluate(pointOf(x)))
                firstPass = std::min(firstPass.value_or(x), x);
            else if (!firstPass || x < *firstPass)
                lastFail = std::max(lastFail.value_or(x), x);
        };
        // lo, lo + 1, lo + 2, lo + 4 ...: the step doubles only while it stays below hi - lo. The
        // first three are measured even after one passed: the only points past a passing one that
        // the search tries, they can show a broken assumption at the bottom of the range.
        for (int64_t step = 0; !firstPass || step <= 2; step = step == 0 ? 1 : 2 * step) {
            const int64_t x = hi - lo <= step ? hi : lo + step;
            tryAt(x);
            if (x == hi) break;
        }
        if (!firstPass) return {false, hi};
        while (lastFail && *firstPass - *lastFail > 1) tryAt(*lastFail + (*firstPass - *lastFail) / 2);
        return {true, *firstPass};
    }

    SearchResult result;

  private:
    const PointOracle& oracle_;
    std::map<std::vector<int64_t>, bool> known_;
    int round_ = 0;
};

void findViolations(SearchResult& r) {
    for (const auto& failing : r.tried) {
        if (failing.pass) continue;
        for (const auto& passing : r.tried)
            if (passing.pass && noMoreOfAny(passing.counts, failing.counts))
                r.violations.push_back({passing.counts, failing.counts});
    }
}

void checkRange(const Range& r) {
    if (r.min > r.max) throw std::invalid_argument("the range's minimum is above its maximum");
}

} // namespace

bool noMoreOfAny(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
    for (size_t i = 0; i < a.size() && i < b.size(); ++i)
        if (a[i] > b[i]) return false;
    return true;
}

SearchResult searchSmallest(const Range& range, const PointOracle& oracle) {
    checkRange(range);
    Searcher s(oracle);
    try {
        auto line = s.smallest(range.min, range.max, [](int64_t x) { return std::vector<int64_t>{x}; });
        s.result.met = line.met;
        s.result.answer = {line.answer};
    } catch (const Cancelled&) {
        s.result.cancelled = true;
    }
    findViolations(s.result);
    return std::move(s.result);
}

size_t mostPoints(const Range& range, std::optional<int64_t> failing, std::optional<int64_t> passing) {
    // A threshold past the maximum stands for "nothing passes".
    const int64_t lo = failing ? std::max(*failing + 1, range.min) : range.min;
    const int64_t hi = passing ? std::min(*passing, range.max) : range.max + 1;
    const int64_t span = hi - lo;
    const int64_t step = span < 1024 ? 1 : span / 1024 + 1;
    size_t most = 0;
    for (int64_t threshold = lo; threshold <= hi;
         threshold += std::min(step, std::max<int64_t>(hi - threshold, 1))) {
        auto passes = [threshold](const std::vector<int64_t>& point) {
            return std::optional<bool>(point[0] >= threshold);
        };
        most = std::max(most, searchSmallest(range, passes).tried.size());
    }
    return most;
}

SearchResult searchCheapest(const Range& first, const Range& second, const PointOracle& oracle) {
    checkRange(first);
    checkRange(second);
    if (!(first.cost > 0) || !(second.cost > 0)) throw std::invalid_argument("node costs must be positive");
    Searcher s(oracle);
    try {
        // When the most of both types fails, no mix passes (monotonic): one run says so.
        if (!s.evaluate({first.max, second.max})) {
            s.result.answer = {first.max, second.max};
            findViolations(s.result);
            return std::move(s.result);
        }
        std::optional<std::pair<int64_t, int64_t>> best;
        double bestCost = 0;
        int64_t bound = second.max;
        for (int64_t a = first.min; a <= first.max; ++a) {
            const double floor = double(a) * first.cost + double(second.min) * second.cost;
            if (best && floor >= bestCost) break;
            auto line = s.smallest(second.min, bound, [a](int64_t b) { return std::vector<int64_t>{a, b}; });
            if (!line.met) continue;
            const double cost = double(a) * first.cost + double(line.answer) * second.cost;
            if (!best || cost < bestCost) {
                best = {a, line.answer};
                bestCost = cost;
            }
            bound = line.answer;
            // More of the first type passes wherever fewer did: the next column's top needs no run.
            if (a + 1 <= first.max) s.assume({a + 1, bound});
        }
        s.result.met = best.has_value();
        s.result.answer = best ? std::vector<int64_t>{best->first, best->second}
                               : std::vector<int64_t>{first.max, second.max};
    } catch (const Cancelled&) {
        s.result.cancelled = true;
    }
    findViolations(s.result);
    return std::move(s.result);
}

} // namespace gantry::plan
