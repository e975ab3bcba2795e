#pragma once
// Per-dimension amounts of a VResource. Sessions copy resources all the time (quota arithmetic,
// per-job totals, every plugin's attributes), and a cluster rarely names more than a handful of
// resources, so up to kInline values live inside the object and only more go to the heap.
#include <algorithm>
#include <cstddef>
#include <memory>

namespace gantry::engine {

class DimValues {
  public:
    static constexpr size_t kInline = 8;

    DimValues() = default;
    DimValues(size_t n, double value) { resize(n, value); }
    DimValues(const DimValues& o) { assign(o); }
    DimValues& operator=(const DimValues& o) {
        if (this != &o) assign(o);
        return *this;
    }
    DimValues(DimValues&& o) noexcept { take(o); }
    DimValues& operator=(DimValues&& o) noexcept {
        if (this != &o) take(o);
        return *this;
    }

    size_t size() const { return n_; }
    double& operator[](size_t i) { return data()[i]; }
    const double& operator[](size_t i) const { return data()[i]; }

    // Grows to n values, the new ones set to value (never shrinks: callers only grow).
    void resize(size_t n, double value) {
        if (n <= n_) return;
        if (n > capacity()) {
            auto grown = std::make_unique<double[]>(n);
            std::copy(data(), data() + n_, grown.get());
            heap_ = std::move(grown);
            heapCapacity_ = n;
        }
        std::fill(data() + n_, data() + n, value);
        n_ = n;
    }

  private:
    size_t capacity() const { return heap_ ? heapCapacity_ : kInline; }
    double* data() { return heap_ ? heap_.get() : inline_; }
    const double* data() const { return heap_ ? heap_.get() : inline_; }
    void assign(const DimValues& o) {
        if (o.n_ > capacity()) {
            heap_ = std::make_unique<double[]>(o.n_);
            heapCapacity_ = o.n_;
        }
        std::copy(o.data(), o.data() + o.n_, data());
        n_ = o.n_;
    }
    void take(DimValues& o) {
        if (o.heap_) {
            heap_ = std::move(o.heap_);
            heapCapacity_ = o.heapCapacity_;
        } else {
            heap_.reset();
            std::copy(o.inline_, o.inline_ + o.n_, inline_);
        }
        n_ = o.n_;
        o.n_ = 0;
    }

    size_t n_ = 0;
    size_t heapCapacity_ = 0;
    double inline_[kInline] = {};
    std::unique_ptr<double[]> heap_;
};

} // namespace gantry::engine
