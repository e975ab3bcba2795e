// Running a plan's simulations ahead of its search: the search is told the same for any number of
// threads, one thread runs only what the search asks, and a failing simulation the search needs
// reaches it.
#include "plan/run_ahead.h"
#include "test_registry.h"

#include <QtTest>
#include <set>
#include <stdexcept>

using namespace gantry::plan;

namespace {

// Seed 0 holds from 10 nodes, seed 1 from 20, seed 2 from 45: a point passes from 45, and the
// points from 20 to 44 fail only at their last seed, as points near the boundary often do.
bool holdsAt(int64_t nodes, size_t seed) {
    return nodes >= (seed == 0 ? 10 : seed == 1 ? 20 : 45);
}

struct Plan {
    std::vector<std::pair<std::vector<int64_t>, std::vector<uint64_t>>> points; // what the search got
    std::set<std::pair<int64_t, size_t>> simulated;
    SearchResult found;
};

Plan runPlan(int threads, int64_t throwsAt = -1000) {
    Plan out;
    std::mutex mutex;
    const Range range{0, 100};
    auto search = [&](const PointOracle& oracle) { return searchSmallest(range, oracle); };
    RunAhead runs(
        search,
        [&](const std::vector<int64_t>& counts, size_t seed) {
            {
                std::lock_guard<std::mutex> lock(mutex);
                out.simulated.insert({counts[0], seed});
            }
            if (counts[0] == throwsAt) throw std::runtime_error("simulation failed");
            SeedRun run;
            run.seed = seed;
            run.metrics = {{"holds", holdsAt(counts[0], seed) ? 1 : 0}};
            return run;
        },
        [](const SeedRun& run) { return run.metrics[0].second == 1; }, 3, threads, nullptr);
    out.found = search([&](const std::vector<int64_t>& counts) -> std::optional<bool> {
        auto seeds = runs.await(counts, {});
        std::vector<uint64_t> kept;
        bool pass = true;
        for (const auto& s : *seeds) {
            kept.push_back(s.seed);
            pass = pass && s.metrics[0].second == 1;
        }
        out.points.emplace_back(counts, kept);
        return pass && kept.size() == 3;
    });
    return out;
}

} // namespace

class RunAheadTest : public QObject {
    Q_OBJECT
  private slots:
    void sameForAnyThreads() {
        const Plan one = runPlan(1);
        QCOMPARE(one.found.answer, std::vector<int64_t>{45});
        // One thread runs exactly the seeds the search keeps.
        size_t kept = 0;
        for (const auto& p : one.points) kept += p.second.size();
        QCOMPARE(one.simulated.size(), kept);
        // A point failing at its last seed keeps all three.
        for (const auto& [counts, seeds] : one.points)
            if (counts[0] >= 20 && counts[0] < 45) QCOMPARE(seeds.size(), size_t(3));
        for (int threads : {2, 3, 8}) {
            const Plan more = runPlan(threads);
            QCOMPARE(more.points, one.points);
            QCOMPARE(more.found.answer, one.found.answer);
            QVERIFY(more.simulated.size() >= kept);
        }
    }

    void failureReachesTheSearch() {
        // 44 is measured (and fails at its last seed) on the way to 45.
        for (int threads : {1, 2}) QVERIFY_THROWS_EXCEPTION(std::runtime_error, runPlan(threads, 44));
    }
};

GANTRY_TEST(RunAheadTest)
#include "test_run_ahead.moc"
