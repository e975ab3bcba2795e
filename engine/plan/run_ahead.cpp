#include "plan/run_ahead.h"

#include <chrono>
#include <queue>

namespace gantry::plan {

namespace {

// Guesses explored per choice: each replays the search, which is cheap next to a simulation.
constexpr int kMostGuesses = 64;
// How likely a seed holds (or fails) where the monotonic assumption says it does.
constexpr double kLikely = 0.9;

// A replay of the search with the open points' outcomes guessed; `likelihood` is how likely the
// guesses are together.
struct Guess {
    std::map<std::vector<int64_t>, bool> outcomes;
    double likelihood = 1;
    bool operator<(const Guess& other) const { return likelihood < other.likelihood; }
};

} // namespace

RunAhead::RunAhead(Search search, Measure measure, Holds holds, size_t seedCount, int threads,
                   const std::atomic<bool>* cancel)
    : search_(std::move(search)), measure_(std::move(measure)), holds_(std::move(holds)),
      seedCount_(seedCount), threads_(std::max(1, threads)), cancel_(cancel) {}

RunAhead::~RunAhead() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    for (auto& w : workers_) w.join();
}

const RunAhead::Slot* RunAhead::slot(const std::vector<int64_t>& point, size_t seed) const {
    const auto it = slots_.find({point, seed});
    return it == slots_.end() ? nullptr : &it->second;
}

// Passes or Fails once the seeds measured say so (Fails as soon as any seed failed); Broken when a
// seed before any failing one threw; Open otherwise.
RunAhead::Outcome RunAhead::outcomeOf(const std::vector<int64_t>& point) const {
    bool open = false;
    for (size_t s = 0; s < seedCount_; ++s) {
        const Slot* run = slot(point, s);
        if (!run || !run->done)
            open = true;
        else if (run->error)
            return Outcome::Broken;
        else if (!run->holds)
            return Outcome::Fails;
    }
    return open ? Outcome::Open : Outcome::Passes;
}

// How likely a seed not measured at the point holds: the search's own assumption applied to that
// seed's runs elsewhere (it held with no more nodes, or failed with no fewer), else even odds.
double RunAhead::chanceHolds(const std::vector<int64_t>& point, size_t seed) const {
    for (const auto& [key, run] : slots_) {
        if (key.second != seed || !run.done || run.error) continue;
        if (run.holds && noMoreOfAny(key.first, point)) return kLikely;
        if (!run.holds && noMoreOfAny(point, key.first)) return 1 - kLikely;
    }
    return 0.5;
}

// The simulation not started yet that the search most likely needs: best first over guesses of
// the open points' outcomes.
std::optional<RunAhead::Key> RunAhead::mostLikelyNeeded() {
    std::optional<Key> best;
    double bestChance = 0;
    std::priority_queue<Guess> guesses;
    guesses.push({});
    for (int explored = 0; !guesses.empty() && explored < kMostGuesses; ++explored) {
        const Guess guess = guesses.top();
        guesses.pop();
        if (best && guess.likelihood <= bestChance) break;
        std::optional<std::vector<int64_t>> open;
        double passes = 1;
        search_([&](const std::vector<int64_t>& point) -> std::optional<bool> {
            if (const auto it = guess.outcomes.find(point); it != guess.outcomes.end()) return it->second;
            // A seed is needed when every seed before it that is not measured yet holds.
            double chance = guess.likelihood;
            passes = 1;
            for (size_t s = 0; s < seedCount_; ++s) {
                const Slot* run = slot(point, s);
                if (run && run->done) {
                    if (run->error || !run->holds) break;
                    continue;
                }
                if (!run && chance > bestChance) {
                    best = Key{point, s};
                    bestChance = chance;
                }
                const double holds = chanceHolds(point, s);
                chance *= holds;
                passes *= holds;
            }
            const Outcome outcome = outcomeOf(point);
            if (outcome == Outcome::Passes) return true;
            if (outcome == Outcome::Fails) return false;
            if (outcome == Outcome::Open) open = point;
            return std::nullopt;
        });
        if (!open) continue;
        for (bool outcome : {true, false}) {
            Guess next = guess;
            next.outcomes[*open] = outcome;
            next.likelihood *= outcome ? passes : 1 - passes;
            guesses.push(std::move(next));
        }
    }
    return best;
}

void RunAhead::work() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stopping_) {
        const bool cancelled = cancel_ && cancel_->load(std::memory_order_relaxed);
        const std::optional<Key> next = cancelled ? std::nullopt : mostLikelyNeeded();
        if (!next) {
            changed_.wait(lock);
            continue;
        }
        slots_[*next];
        lock.unlock();
        Slot result;
        try {
            result.run = measure_(next->first, next->second);
            result.holds = holds_(*result.run);
        } catch (...) {
            result.error = std::current_exception();
        }
        result.done = true;
        lock.lock();
        slots_[*next] = std::move(result);
        changed_.notify_all();
    }
}

std::optional<std::vector<SeedRun>> RunAhead::await(const std::vector<int64_t>& point,
                                                    const std::function<void(size_t)>& known) {
    std::unique_lock<std::mutex> lock(mutex_);
    // Started with the first point asked: the search has checked its request by then, so its
    // replays cannot throw.
    if (workers_.empty())
        for (int t = 0; t < threads_; ++t) workers_.emplace_back([this] { work(); });
    changed_.notify_all();
    size_t reported = 0;
    for (;;) {
        if (cancel_ && cancel_->load(std::memory_order_relaxed)) return std::nullopt;
        // The seeds in order up to the first failing one, as far as they are measured.
        size_t ready = 0;
        bool settled = false;
        for (; ready < seedCount_; ++ready) {
            const Slot* run = slot(point, ready);
            if (!run || !run->done) break;
            if (run->error) std::rethrow_exception(run->error);
            if (!run->holds) {
                settled = true;
                ++ready;
                break;
            }
        }
        settled = settled || ready == seedCount_;
        if (ready > reported) {
            reported = ready;
            if (known) {
                lock.unlock();
                known(reported);
                lock.lock();
                continue;
            }
        }
        if (settled) {
            std::vector<SeedRun> runs;
            for (size_t s = 0; s < ready; ++s) runs.push_back(std::move(*slots_[{point, s}].run));
            return runs;
        }
        // Polled for the cancel flag, which is set without a notification.
        changed_.wait_for(lock, std::chrono::milliseconds(50));
    }
}

} // namespace gantry::plan
