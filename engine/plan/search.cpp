#include "plan/search.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace gantry::plan {

namespace {

struct Cancelled {};

// What the searches share: the points measured (and those known without measuring), round by round.
class Searcher {
  public:
    explicit Searcher(const RoundOracle& oracle) : oracle_(oracle) {}

    // Results for the points, measuring in one round those not known yet.
    std::vector<bool> evaluate(const std::vector<std::vector<int64_t>>& points) {
        std::vector<std::vector<int64_t>> unknown;
        for (const auto& p : points)
            if (!known_.count(p) && std::find(unknown.begin(), unknown.end(), p) == unknown.end())
                unknown.push_back(p);
        if (!unknown.empty()) {
            auto passed = oracle_(unknown);
            if (!passed) throw Cancelled{};
            if (passed->size() != unknown.size()) throw std::logic_error("the oracle answered another round");
            for (size_t i = 0; i < unknown.size(); ++i) {
                known_[unknown[i]] = (*passed)[i];
                result.tried.push_back({unknown[i], (*passed)[i], round_});
            }
            ++round_;
        }
        std::vector<bool> out;
        for (const auto& p : points) out.push_back(known_.at(p));
        return out;
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
        auto round = [&](std::vector<int64_t> xs) {
            std::sort(xs.begin(), xs.end());
            xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
            std::vector<std::vector<int64_t>> points;
            for (int64_t x : xs) points.push_back(pointOf(x));
            const auto passed = evaluate(points);
            for (size_t i = 0; i < xs.size(); ++i) {
                if (passed[i]) {
                    if (!firstPass || xs[i] < *firstPass) firstPass = xs[i];
                    break;
                }
                lastFail = std::max(lastFail.value_or(xs[i]), xs[i]);
            }
        };
        std::vector<int64_t> first;
        for (int64_t k = 0; k < kProbes && lo + k <= hi; ++k) first.push_back(lo + k);
        round(first);
        int64_t step = kProbes - 1; // round 0 reached lo + 2; then lo + 4, lo + 8, lo + 16 ...
        while (!firstPass) {
            if (*lastFail >= hi) return {false, hi};
            std::vector<int64_t> xs;
            while (int(xs.size()) < kProbes) {
                step = hi - lo <= 2 * step ? hi - lo : 2 * step;
                const int64_t x = lo + step;
                if (x > *lastFail) xs.push_back(x);
                if (x == hi) break;
            }
            round(xs);
        }
        while (lastFail && *firstPass - *lastFail > 1) {
            const int64_t gap = *firstPass - *lastFail;
            std::vector<int64_t> xs;
            for (int k = 1; k <= kProbes; ++k) {
                const int64_t x = *lastFail + gap * k / (kProbes + 1);
                if (x > *lastFail && x < *firstPass) xs.push_back(x);
            }
            round(xs);
        }
        return {true, *firstPass};
    }

    SearchResult result;

  private:
    const RoundOracle& oracle_;
    std::map<std::vector<int64_t>, bool> known_;
    int round_ = 0;
};

bool noMoreOfAny(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i] > b[i]) return false;
    return true;
}

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

SearchResult searchSmallest(const Range& range, const RoundOracle& oracle) {
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
        auto passes = [threshold](const std::vector<std::vector<int64_t>>& points) {
            std::vector<bool> out;
            for (const auto& p : points) out.push_back(p[0] >= threshold);
            return std::optional<std::vector<bool>>(std::move(out));
        };
        most = std::max(most, searchSmallest(range, passes).tried.size());
    }
    return most;
}

SearchResult searchCheapest(const Range& first, const Range& second, const RoundOracle& oracle) {
    checkRange(first);
    checkRange(second);
    if (!(first.cost > 0) || !(second.cost > 0)) throw std::invalid_argument("node costs must be positive");
    Searcher s(oracle);
    try {
        // When the most of both types fails, no mix passes (monotonic): one run says so.
        if (!s.evaluate({{first.max, second.max}})[0]) {
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
