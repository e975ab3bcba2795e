#pragma once
// A set of small indexes (the simulator's job slots) kept as a bitmap: insert and erase in constant
// time, iteration in increasing order like std::set but over flat words, which matters when tens of
// thousands of jobs wait and every cycle walks them.
#include <bit>
#include <cstdint>
#include <vector>

namespace gantry::sim {

class SlotSet {
  public:
    void insert(uint32_t i) {
        if (words_.size() <= i / 64) words_.resize(i / 64 + 1, 0);
        const uint64_t bit = uint64_t(1) << (i % 64);
        if (!(words_[i / 64] & bit)) ++size_;
        words_[i / 64] |= bit;
    }
    void erase(uint32_t i) {
        if (words_.size() <= i / 64) return;
        const uint64_t bit = uint64_t(1) << (i % 64);
        if (words_[i / 64] & bit) --size_;
        words_[i / 64] &= ~bit;
    }
    bool empty() const { return size_ == 0; }
    size_t size() const { return size_; }

    // Calls f(i) for every member, smallest first; f must not insert or erase.
    template <class F> void forEach(F&& f) const {
        for (size_t w = 0; w < words_.size(); ++w)
            for (uint64_t bits = words_[w]; bits; bits &= bits - 1)
                f(uint32_t(w * 64 + size_t(std::countr_zero(bits))));
    }

  private:
    std::vector<uint64_t> words_;
    size_t size_ = 0;
};

} // namespace gantry::sim
