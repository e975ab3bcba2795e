#pragma once
// Nodes kept in sort order, cut into short runs of consecutive nodes that each know the largest
// free amount per resource type among their nodes. A scan for an ask passes a run none of whose
// nodes can hold it with one comparison and stops at the first node that can, so it costs the runs
// before that node, not the whole cluster (a binpacking order keeps its full nodes in front).
#include "profiles/yunikorn/resource.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace gantry::engine::yunikorn {

class NodeRuns {
  public:
    using Key = std::pair<double, std::pair<uint32_t, uint32_t>>; // (score, (rank, node))

    // `nodes` nodes, none in the order yet; `width` resource types per node's free amounts.
    void reset(size_t nodes, int width);
    int width() const { return width_; }
    const Key& key(uint32_t n) const { return keys_[n]; }
    const int64_t* room(uint32_t n) const { return room_.data() + size_t(n) * size_t(width_); }
    bool contains(uint32_t n) const { return in_[n] != 0; }
    // The node's place in the order and its free amounts (`room`, width() of them, none negative)
    // are now these; it is in the order when `in`.
    void update(uint32_t n, const Key& key, const int64_t* room, bool in);
    // Whether `res` fits the free amounts `room` (types from width() on are free in no node).
    bool fits(const int64_t* room, const Res& res) const {
        for (uint64_t m = res.mask(); m; m &= m - 1) {
            const int k = __builtin_ctzll(m);
            if (res.get(k) > (k < width_ ? room[k] : 0)) return false;
        }
        return true;
    }
    // The nodes in the order whose free amounts hold `res`, in order; f returns false to stop, and
    // may change nodes only when it stops.
    template <class F> bool forEachFitting(const Res& res, F f) const {
        for (const Run& run : runs_) {
            if (!fits(run.largest.data(), res)) continue;
            for (uint32_t n : run.nodes)
                if (fits(room(n), res) && !f(n)) return true;
        }
        return false;
    }

  private:
    struct Run {
        std::vector<uint32_t> nodes;  // in order
        std::vector<int64_t> largest; // per type below width_, over its nodes
    };
    static constexpr size_t kRunSplit = 64; // a run this long splits in two
    size_t runOf(const Key& key) const;     // the run that holds or would take `key`
    void insert(uint32_t n);
    void erase(uint32_t n);
    void refresh(Run& run);
    int width_ = 1;
    std::vector<Key> keys_;
    std::vector<int64_t> room_; // per node, width_ amounts
    std::vector<uint8_t> in_;
    std::vector<Run> runs_;
};

} // namespace gantry::engine::yunikorn
