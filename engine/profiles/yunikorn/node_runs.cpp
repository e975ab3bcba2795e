#include "profiles/yunikorn/node_runs.h"

#include <algorithm>

namespace gantry::engine::yunikorn {

void NodeRuns::reset(size_t nodes, int width) {
    width_ = width;
    keys_.assign(nodes, Key{});
    room_.assign(nodes * size_t(width), 0);
    in_.assign(nodes, 0);
    runs_.clear();
}

void NodeRuns::update(uint32_t n, const Key& key, const int64_t* room, bool in) {
    const bool was = in_[n] != 0;
    const bool moves = was && (!in || key != keys_[n]);
    if (moves) erase(n);
    keys_[n] = key;
    std::copy(room, room + width_, room_.begin() + std::ptrdiff_t(size_t(n) * size_t(width_)));
    in_[n] = in;
    if (!in) return;
    if (!was || moves)
        insert(n);
    else
        refresh(runs_[runOf(key)]);
}

size_t NodeRuns::runOf(const Key& key) const {
    auto after = std::upper_bound(runs_.begin(), runs_.end(), key,
                                  [&](const Key& k, const Run& run) { return k < keys_[run.nodes.front()]; });
    return after == runs_.begin() ? 0 : size_t(after - runs_.begin()) - 1;
}

void NodeRuns::insert(uint32_t n) {
    if (runs_.empty()) {
        runs_.push_back(Run{{n}, std::vector<int64_t>(size_t(width_), 0)});
        refresh(runs_.back());
        return;
    }
    const size_t r = runOf(keys_[n]);
    std::vector<uint32_t>& nodes = runs_[r].nodes;
    auto at = std::lower_bound(nodes.begin(), nodes.end(), keys_[n],
                               [&](uint32_t m, const Key& k) { return keys_[m] < k; });
    nodes.insert(at, n);
    if (nodes.size() < kRunSplit) {
        const int64_t* free = room(n);
        for (int k = 0; k < width_; ++k)
            runs_[r].largest[size_t(k)] = std::max(runs_[r].largest[size_t(k)], free[k]);
        return;
    }
    Run back{{nodes.begin() + std::ptrdiff_t(kRunSplit / 2), nodes.end()},
             std::vector<int64_t>(size_t(width_), 0)};
    nodes.resize(kRunSplit / 2);
    refresh(runs_[r]);
    refresh(back);
    runs_.insert(runs_.begin() + std::ptrdiff_t(r + 1), std::move(back));
}

void NodeRuns::erase(uint32_t n) {
    const size_t r = runOf(keys_[n]);
    std::vector<uint32_t>& nodes = runs_[r].nodes;
    nodes.erase(std::lower_bound(nodes.begin(), nodes.end(), keys_[n],
                                 [&](uint32_t m, const Key& k) { return keys_[m] < k; }));
    if (nodes.empty())
        runs_.erase(runs_.begin() + std::ptrdiff_t(r));
    else
        refresh(runs_[r]);
}

void NodeRuns::refresh(Run& run) {
    std::fill(run.largest.begin(), run.largest.end(), 0);
    for (uint32_t n : run.nodes) {
        const int64_t* free = room(n);
        for (int k = 0; k < width_; ++k) run.largest[size_t(k)] = std::max(run.largest[size_t(k)], free[k]);
    }
}

} // namespace gantry::engine::yunikorn
