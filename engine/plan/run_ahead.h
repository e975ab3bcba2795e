#pragma once
// The simulations of a plan, run ahead of its search. The search (plan/search.h) measures one
// point at a time and a point runs its seeds in order up to the first failing one, so a plan is a
// chain of simulations each of which may decide the next. Idle threads run the simulations the
// search is most likely to ask for next: the point's later seeds (needed when the earlier ones
// pass) and the next point if this one passes or fails, found by replaying the search against the
// results so far and a guess for those still open. A guess only decides which simulations run
// early; what the search is told is always measured, so the points, their seeds and the answer are
// the same for any number of threads, and with one thread nothing runs that the search does not ask.
#include "plan/planner.h"
#include "plan/search.h"

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

namespace gantry::plan {

class RunAhead {
  public:
    using Search = std::function<SearchResult(const PointOracle&)>;
    // Runs the seed of index `seed` at a point; `holds` says whether its SLOs held.
    using Measure = std::function<SeedRun(const std::vector<int64_t>& counts, size_t seed)>;
    using Holds = std::function<bool(const SeedRun&)>;

    // `search` is the plan's search, replayed to guess what it asks next; it must ask what the
    // caller's own run of it asks.
    RunAhead(Search search, Measure measure, Holds holds, size_t seedCount, int threads,
             const std::atomic<bool>* cancel);
    // Takes no more simulations and waits for those running.
    ~RunAhead();
    RunAhead(const RunAhead&) = delete;
    RunAhead& operator=(const RunAhead&) = delete;

    // The point's seed runs in seed order, up to its first failing one, once they are measured;
    // nullopt when cancelled. `known(n)` is called, on the caller's thread, as the number of them
    // measured grows. Rethrows what a simulation the answer needs threw.
    std::optional<std::vector<SeedRun>> await(const std::vector<int64_t>& point,
                                              const std::function<void(size_t)>& known);

  private:
    using Key = std::pair<std::vector<int64_t>, size_t>;
    struct Slot {
        bool done = false;
        bool holds = false;
        std::optional<SeedRun> run;
        std::exception_ptr error;
    };
    enum class Outcome { Passes, Fails, Open, Broken };

    void work();
    std::optional<Key> mostLikelyNeeded();
    Outcome outcomeOf(const std::vector<int64_t>& point) const;
    double chanceHolds(const std::vector<int64_t>& point, size_t seed) const;
    const Slot* slot(const std::vector<int64_t>& point, size_t seed) const;

    Search search_;
    Measure measure_;
    Holds holds_;
    size_t seedCount_;
    int threads_;
    const std::atomic<bool>* cancel_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::map<Key, Slot> slots_; // started simulations
    bool stopping_ = false;
    std::vector<std::thread> workers_;
};

} // namespace gantry::plan
