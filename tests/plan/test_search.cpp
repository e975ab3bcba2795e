// The planner's search on oracles whose answer is known: the smallest passing count, the points a
// round asks for, the cheapest two-type mix against every mix of a grid, the pairs of points that
// break the monotonic assumption, and cancelling.
#include "plan/search.h"
#include "test_registry.h"

#include <QtTest>
#include <set>

using namespace gantry::plan;

namespace {

// An oracle from a pass rule, recording the points it was asked in order.
struct Oracle {
    explicit Oracle(std::function<bool(const std::vector<int64_t>&)> rule) : passes(std::move(rule)) {}
    std::function<bool(const std::vector<int64_t>&)> passes;
    std::vector<std::vector<int64_t>> asked;
    int cancelAfter = -1; // points answered before it cancels
    PointOracle fn() {
        return [this](const std::vector<int64_t>& point) -> std::optional<bool> {
            if (cancelAfter >= 0 && int(asked.size()) == cancelAfter) return std::nullopt;
            asked.push_back(point);
            return passes(point);
        };
    }
    size_t runs() const { return asked.size(); }
};

} // namespace

class SearchTest : public QObject {
    Q_OBJECT
  private slots:
    void smallestOverEveryThreshold() {
        // Every threshold of a 0..100 range, and one past it: the answer is the threshold, each point
        // is tried once, and the search stays far below trying every count.
        for (int64_t threshold = 0; threshold <= 101; ++threshold) {
            Oracle o{[threshold](const std::vector<int64_t>& p) { return p[0] >= threshold; }};
            const SearchResult r = searchSmallest({0, 100}, o.fn());
            QCOMPARE(r.met, threshold <= 100);
            QCOMPARE(r.answer, std::vector<int64_t>{std::min<int64_t>(threshold, 100)});
            QVERIFY(r.violations.empty());
            std::set<std::vector<int64_t>> seen;
            for (const auto& t : r.tried) QVERIFY2(seen.insert(t.counts).second, "a point tried twice");
            QCOMPARE(r.tried.size(), o.runs());
            QVERIFY2(o.runs() <= 20,
                     qPrintable(QString("threshold %1: %2 points").arg(threshold).arg(o.runs())));
            if (threshold > 0 && threshold <= 100) {
                // The answer's neighbour below was measured and failed: the margin is one node.
                bool below = false;
                for (const auto& t : r.tried) below = below || (t.counts[0] == threshold - 1 && !t.pass);
                QVERIFY(below);
            }
        }
    }

    void pointsAreExponentialThenBisection() {
        Oracle o{[](const std::vector<int64_t>& p) { return p[0] >= 11; }};
        const SearchResult r = searchSmallest({-4, 60}, o.fn());
        QCOMPARE(r.answer, std::vector<int64_t>{11});
        const std::vector<std::vector<int64_t>> asked{{-4}, {-3}, {-2}, {0}, {4}, {12}, {8}, {10}, {11}};
        QCOMPARE(o.asked, asked);
        for (size_t i = 0; i < r.tried.size(); ++i) QCOMPARE(r.tried[i].round, int(i));
        // The exponential steps stop at the maximum.
        Oracle high{[](const std::vector<int64_t>& p) { return p[0] >= 9; }};
        QCOMPARE(searchSmallest({3, 9}, high.fn()).answer, std::vector<int64_t>{9});
        QCOMPARE(high.asked, (std::vector<std::vector<int64_t>>{{3}, {4}, {5}, {7}, {9}, {8}}));
    }

    void notMetGivesTheMaximum() {
        Oracle o{[](const std::vector<int64_t>&) { return false; }};
        const SearchResult r = searchSmallest({3, 9}, o.fn());
        QVERIFY(!r.met);
        QCOMPARE(r.answer, std::vector<int64_t>{9});
        bool maxTried = false;
        for (const auto& t : r.tried) maxTried = maxTried || t.counts[0] == 9;
        QVERIFY(maxTried);
    }

    void violationsAreReported() {
        // Passes at 0, fails from 1 to 4, passes from 5: the first round already shows it.
        Oracle o{[](const std::vector<int64_t>& p) { return p[0] == 0 || p[0] >= 5; }};
        const SearchResult r = searchSmallest({0, 20}, o.fn());
        QCOMPARE(r.answer, std::vector<int64_t>{0});
        QCOMPARE(r.violations.size(), size_t(2));
        for (const auto& v : r.violations) {
            QCOMPARE(v.passing, std::vector<int64_t>{0});
            QVERIFY(v.failing == std::vector<int64_t>{1} || v.failing == std::vector<int64_t>{2});
        }
        // Passing at 1 and from 10 on: the first three points show it; the bisection measures only
        // between the highest failing and the lowest passing count, which cannot.
        Oracle hole{[](const std::vector<int64_t>& p) { return p[0] == 1 || p[0] >= 10; }};
        const SearchResult h = searchSmallest({0, 40}, hole.fn());
        QCOMPARE(h.answer, std::vector<int64_t>{1});
        QCOMPARE(h.violations.size(), size_t(1));
        QCOMPARE(h.violations[0].passing, std::vector<int64_t>{1});
        QCOMPARE(h.violations[0].failing, std::vector<int64_t>{2});
    }

    void cheapestMixAgainstEveryMix() {
        // Pass when the two types give enough capacity: 3a + b >= need (a counts thrice as much);
        // the cheapest mix by brute force over the grid, for several prices and needs.
        for (int need : {1, 7, 20, 31}) {
            for (auto [ca, cb] : {std::pair{3.2, 1.1}, std::pair{2.0, 1.0}, std::pair{5.0, 1.0}}) {
                Oracle o{[need](const std::vector<int64_t>& p) { return 3 * p[0] + p[1] >= need; }};
                const SearchResult r = searchCheapest({0, 10, ca}, {0, 12, cb}, o.fn());
                double best = -1;
                for (int a = 0; a <= 10; ++a)
                    for (int b = 0; b <= 12; ++b)
                        if (3 * a + b >= need && (best < 0 || a * ca + b * cb < best - 1e-9))
                            best = a * ca + b * cb;
                QVERIFY(r.met);
                QVERIFY2(3 * r.answer[0] + r.answer[1] >= need, "the answer must pass");
                QCOMPARE(r.answer[0] * ca + r.answer[1] * cb, best);
                QVERIFY(r.violations.empty());
                QVERIFY2(o.runs() < 11 * 13, "fewer runs than the whole grid");
            }
        }
        Oracle never{[](const std::vector<int64_t>&) { return false; }};
        const SearchResult n = searchCheapest({0, 3, 1}, {0, 4, 1}, never.fn());
        QVERIFY(!n.met);
        QCOMPARE(n.answer, (std::vector<int64_t>{3, 4}));
    }

    void cancelledSearchStops() {
        Oracle o{[](const std::vector<int64_t>& p) { return p[0] >= 50; }};
        o.cancelAfter = 1;
        const SearchResult r = searchSmallest({0, 100}, o.fn());
        QVERIFY(r.cancelled);
        QVERIFY(!r.met);
        QCOMPARE(r.tried.size(), size_t(1));
    }

    void mostPointsBoundsEverySearch() {
        // Over every answer a -8..40 range can have: the bound with nothing known is the longest
        // search, and with what a search's first rounds found, still at least what it goes on to try.
        const Range range{-8, 40};
        size_t longest = 0;
        for (int64_t threshold = range.min; threshold <= range.max + 1; ++threshold) {
            Oracle o{[threshold](const std::vector<int64_t>& p) { return p[0] >= threshold; }};
            const SearchResult r = searchSmallest(range, o.fn());
            longest = std::max(longest, r.tried.size());
            std::optional<int64_t> failing, passing;
            for (const auto& t : r.tried) {
                if (t.round >= 2) break;
                if (t.pass)
                    passing = std::min(passing.value_or(t.counts[0]), t.counts[0]);
                else
                    failing = std::max(failing.value_or(t.counts[0]), t.counts[0]);
            }
            QVERIFY(mostPoints(range, failing, passing) >= r.tried.size());
            QVERIFY(mostPoints(range, failing, passing) <= mostPoints(range, {}, {}));
        }
        QCOMPARE(mostPoints(range, {}, {}), longest);
        // Known to the point: the answer is 12, and the search tried what it takes to say so.
        Oracle at12{[](const std::vector<int64_t>& p) { return p[0] >= 12; }};
        QCOMPARE(mostPoints(range, 11, 12), searchSmallest(range, at12.fn()).tried.size());
    }

    void badRanges() {
        Oracle o{[](const std::vector<int64_t>&) { return true; }};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, searchSmallest({5, 4}, o.fn()));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, searchCheapest({0, 4, 0}, {0, 4, 1}, o.fn()));
    }
};

GANTRY_TEST(SearchTest)
#include "test_search.moc"
