#pragma once
// YuniKorn's resource (yunikorn-core pkg/common/resources): a sparse map from resource type to an
// integer quantity, where an absent type and a type set to 0 mean different things for quotas,
// and a nil resource differs from an empty one in a few places (a queue without max, a remaining
// guarantee that is not set). Types are dimension indexes of the profile (0 = vcore, as the
// cluster state numbers cpu; see Dims). Every operation treats absence and nil as upstream does.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gantry::engine::yunikorn {

inline constexpr int kMaxResDims = 64; // presence is a 64-bit mask

// Resource types by YuniKorn name: the cluster state's dimensions first (cpu is "vcore"), then the
// names only a configuration uses.
struct Dims {
    std::vector<std::string> names;
    int find(const std::string& name) const;
    int intern(const std::string& name); // -1 past kMaxResDims
};

class Res {
  public:
    Res() = default; // nil
    static Res empty() {
        Res r;
        r.set_ = true;
        return r;
    }
    Res(const Res& o) { copyFrom(o); }
    Res& operator=(const Res& o) {
        if (this != &o) copyFrom(o);
        return *this;
    }
    Res(Res&& o) noexcept { moveFrom(o); }
    Res& operator=(Res&& o) noexcept {
        if (this != &o) moveFrom(o);
        return *this;
    }

    bool isNil() const { return !set_; }
    bool isEmpty() const { return !set_ || mask_ == 0; } // IsEmpty: nil or no types
    uint64_t mask() const { return mask_; }
    bool has(int d) const { return (mask_ >> d) & 1u; }
    int64_t get(int d) const { return has(d) ? data()[d] : 0; }
    void set(int d, int64_t v);
    void erase(int d);
    int size() const { return n_; } // one past the highest dimension it can hold

    // In-place forms (AddTo / SubFrom: a nil receiver stays nil).
    void addTo(const Res& o);
    void subFrom(const Res& o);
    void prune(); // drops types set to zero

    bool fitIn(const Res& smaller) const;         // undefined types in this are 0
    bool fitInMaxUndef(const Res& smaller) const; // undefined types in this are unlimited
    bool fitInActual(const Res& smaller) const;   // undefined skipped, negatives compared as they are
    double fitInScore(const Res& fit) const;
    bool matchAny(const Res& other) const;
    bool strictlyGreaterThanOnlyExisting(const Res& smaller) const;
    bool strictlyGreaterThanOrEqualsOnlyExisting(const Res& smaller) const;
    bool hasNegativeValue() const;

    std::string str(const std::vector<std::string>& names) const;

  private:
    static constexpr int kInline = 6;
    int64_t* data() { return heap_ ? heap_.get() : inline_; }
    const int64_t* data() const { return heap_ ? heap_.get() : inline_; }
    void grow(int n);
    void copyFrom(const Res& o);
    void moveFrom(Res& o);
    bool onlyExisting(const Res& smaller, bool orEquals) const;

    uint64_t mask_ = 0;
    bool set_ = false;
    uint8_t n_ = kInline;
    int64_t inline_[kInline] = {};
    std::unique_ptr<int64_t[]> heap_;
};

// Operations returning a new resource (nil inputs handled as upstream).
Res add(const Res& l, const Res& r);
Res sub(const Res& l, const Res& r);
Res subOnlyExisting(const Res& base, const Res& delta);
Res addOnlyExisting(const Res& base, const Res& delta);
Res subEliminateNegative(const Res& l, const Res& r);
Res componentWiseMin(const Res& l, const Res& r);
Res componentWiseMinOnlyExisting(const Res& l, const Res& r);
Res componentWiseMax(const Res& l, const Res& r);
Res mergeIfNotPresent(const Res& l, const Res& r);
bool isZero(const Res& r);
bool strictlyGreaterThanZero(const Res& r);
bool strictlyGreaterThan(const Res& larger, const Res& smaller);
bool strictlyGreaterThanOrEquals(const Res& larger, const Res& smaller);
bool equals(const Res& l, const Res& r);
bool equalsOrEmpty(const Res& l, const Res& r);

// Shares and fairness.
int compUsageRatio(const Res& l, const Res& r, const Res& total);
double fairShare(const Res& allocated, const Res& guaranteed, const Res& fairMax);

} // namespace gantry::engine::yunikorn
