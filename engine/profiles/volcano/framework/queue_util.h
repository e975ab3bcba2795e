#pragma once
// util.PriorityQueue: a binary heap with the exact sift rules of Go's container/heap, so that the
// pop order matches upstream whenever the pushes happen in the same order. The less function is
// read at every comparison (shares change while elements wait, as they do upstream).
#include <cstdint>
#include <utility>
#include <vector>

namespace gantry::engine {

template <class Less> class PriorityQueue {
  public:
    explicit PriorityQueue(Less less) : less_(std::move(less)) {}

    void push(uint32_t x) {
        items_.push_back(x);
        up(items_.size() - 1);
    }
    uint32_t pop() {
        const size_t n = items_.size() - 1;
        std::swap(items_[0], items_[n]);
        down(0, n);
        uint32_t x = items_.back();
        items_.pop_back();
        return x;
    }
    bool empty() const { return items_.empty(); }
    size_t size() const { return items_.size(); }
    const std::vector<uint32_t>& items() const { return items_; }

  private:
    void up(size_t j) {
        while (j > 0) {
            size_t i = (j - 1) / 2;
            if (!less_(items_[j], items_[i])) break;
            std::swap(items_[i], items_[j]);
            j = i;
        }
    }
    void down(size_t i, size_t n) {
        for (;;) {
            size_t j1 = 2 * i + 1;
            if (j1 >= n) break;
            size_t j = j1;
            if (size_t j2 = j1 + 1; j2 < n && less_(items_[j2], items_[j1])) j = j2;
            if (!less_(items_[j], items_[i])) break;
            std::swap(items_[i], items_[j]);
            i = j;
        }
    }

    Less less_;
    std::vector<uint32_t> items_;
};

} // namespace gantry::engine
