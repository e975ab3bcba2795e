#include "profiles/yunikorn/resource.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace gantry::engine::yunikorn {

namespace {

// Quantities saturate instead of wrapping, as upstream's addVal does.
int64_t addVal(int64_t a, int64_t b) {
    int64_t out;
    if (__builtin_add_overflow(a, b, &out)) return b < 0 ? INT64_MIN : INT64_MAX;
    return out;
}
int64_t subVal(int64_t a, int64_t b) {
    int64_t out;
    if (__builtin_sub_overflow(a, b, &out)) return b > 0 ? INT64_MIN : INT64_MAX;
    return out;
}

template <class F> void forEach(uint64_t mask, F f) {
    for (uint64_t m = mask; m; m &= m - 1) f(__builtin_ctzll(m));
}

} // namespace

int Dims::find(const std::string& name) const {
    for (size_t i = 0; i < names.size(); ++i)
        if (names[i] == name) return int(i);
    return -1;
}

int Dims::intern(const std::string& name) {
    int d = find(name);
    if (d >= 0) return d;
    if (int(names.size()) >= kMaxResDims) return -1;
    names.push_back(name);
    return int(names.size()) - 1;
}

void Res::grow(int n) {
    if (n <= n_) return;
    auto bigger = std::make_unique<int64_t[]>(size_t(n));
    std::fill(bigger.get(), bigger.get() + n, 0);
    std::copy(data(), data() + n_, bigger.get());
    heap_ = std::move(bigger);
    n_ = uint8_t(n);
}

void Res::copyFrom(const Res& o) {
    mask_ = o.mask_;
    set_ = o.set_;
    if (o.n_ > n_) grow(o.n_);
    int64_t* d = data();
    std::fill(d, d + n_, 0);
    forEach(o.mask_, [&](int k) { d[k] = o.data()[k]; });
}

void Res::moveFrom(Res& o) {
    mask_ = o.mask_;
    set_ = o.set_;
    if (o.heap_) {
        heap_ = std::move(o.heap_);
        n_ = o.n_;
        o.n_ = kInline;
    } else {
        heap_.reset();
        n_ = kInline;
        std::copy(o.inline_, o.inline_ + kInline, inline_);
    }
    o.mask_ = 0;
    o.set_ = false;
}

void Res::set(int d, int64_t v) {
    if (d >= n_) grow(std::max(d + 1, int(n_) * 2));
    data()[d] = v;
    mask_ |= uint64_t(1) << d;
    set_ = true;
}

void Res::erase(int d) {
    if (!has(d)) return;
    data()[d] = 0;
    mask_ &= ~(uint64_t(1) << d);
}

void Res::addTo(const Res& o) {
    if (!set_ || !o.set_) return;
    forEach(o.mask_, [&](int k) { set(k, addVal(get(k), o.get(k))); });
}

void Res::subFrom(const Res& o) {
    if (!set_ || !o.set_) return;
    forEach(o.mask_, [&](int k) { set(k, subVal(get(k), o.get(k))); });
}

void Res::prune() {
    forEach(mask_, [&](int k) {
        if (data()[k] == 0) erase(k);
    });
}

bool Res::fitIn(const Res& smaller) const {
    for (uint64_t m = smaller.mask_; m; m &= m - 1) {
        const int k = __builtin_ctzll(m);
        if (smaller.data()[k] > std::max<int64_t>(0, get(k))) return false;
    }
    return true;
}

bool Res::fitInMaxUndef(const Res& smaller) const {
    for (uint64_t m = smaller.mask_ & mask_; m; m &= m - 1) {
        const int k = __builtin_ctzll(m);
        if (smaller.data()[k] > std::max<int64_t>(0, data()[k])) return false;
    }
    return true;
}

bool Res::fitInActual(const Res& smaller) const {
    bool fits = true;
    forEach(smaller.mask_, [&](int k) {
        if (has(k) && smaller.get(k) > get(k)) fits = false;
    });
    return fits;
}

double Res::fitInScore(const Res& fit) const {
    if (!set_ || !fit.set_) return fit.set_ ? double(__builtin_popcountll(fit.mask_)) : 0.0;
    double score = 0;
    forEach(fit.mask_, [&](int k) {
        const int64_t fitVal = fit.get(k);
        if (fitVal <= 0) return;
        const int64_t resVal = get(k);
        if (resVal <= 0) {
            score += 1;
            return;
        }
        if (fitVal > resVal) score += double(fitVal - resVal) / double(fitVal);
    });
    return score;
}

bool Res::matchAny(const Res& other) const {
    if (!set_ || !other.set_) return false;
    return (mask_ & other.mask_) != 0;
}

bool Res::onlyExisting(const Res& smaller, bool orEquals) const {
    const bool smallerEmpty = smaller.isEmpty();
    bool notEqual = false, equal = false, common = false, allPositive = true, fail = false;
    forEach(mask_, [&](int k) {
        const int64_t v = get(k);
        if (smallerEmpty && v <= 0) allPositive = false;
        if (smaller.has(k)) {
            common = true;
            const int64_t s = smaller.get(k);
            if (s > v) fail = true;
            if (s <= v) equal = true;
            if (s != v) notEqual = true;
        }
    });
    if (fail) return false;
    if (smallerEmpty && !isEmpty()) return allPositive;
    if (common) return orEquals ? equal : notEqual;
    return !isEmpty() && !smallerEmpty;
}

bool Res::strictlyGreaterThanOnlyExisting(const Res& smaller) const {
    return onlyExisting(smaller, false);
}
bool Res::strictlyGreaterThanOrEqualsOnlyExisting(const Res& smaller) const {
    return onlyExisting(smaller, true);
}

bool Res::hasNegativeValue() const {
    bool negative = false;
    forEach(mask_, [&](int k) { negative |= get(k) < 0; });
    return negative;
}

std::string Res::str(const std::vector<std::string>& names) const {
    if (!set_) return "nil";
    std::string out;
    forEach(mask_, [&](int k) {
        out += (out.empty() ? "" : " ") + (k < int(names.size()) ? names[size_t(k)] : "?") + ":" +
               std::to_string(get(k));
    });
    return "map[" + out + "]";
}

Res add(const Res& l, const Res& r) {
    Res out = l.isNil() ? Res::empty() : l;
    if (r.isNil()) return out;
    forEach(r.mask(), [&](int k) { out.set(k, addVal(out.get(k), r.get(k))); });
    return out;
}

Res sub(const Res& l, const Res& r) {
    Res out = l.isNil() ? Res::empty() : l;
    if (r.isNil()) return out;
    forEach(r.mask(), [&](int k) { out.set(k, subVal(out.get(k), r.get(k))); });
    return out;
}

Res subOnlyExisting(const Res& base, const Res& delta) {
    if (base.isNil() || delta.isNil()) return base;
    Res out = Res::empty();
    forEach(base.mask(), [&](int k) { out.set(k, subVal(base.get(k), delta.get(k))); });
    return out;
}

Res addOnlyExisting(const Res& base, const Res& delta) {
    if (base.isNil() || delta.isNil()) return base;
    Res out = Res::empty();
    forEach(base.mask(), [&](int k) { out.set(k, addVal(base.get(k), delta.get(k))); });
    return out;
}

Res subEliminateNegative(const Res& l, const Res& r) {
    Res out = l.isNil() ? Res::empty() : l;
    if (r.isNil()) return out;
    forEach(r.mask(), [&](int k) { out.set(k, std::max<int64_t>(0, subVal(out.get(k), r.get(k)))); });
    return out;
}

Res componentWiseMin(const Res& l, const Res& r) {
    if (l.isNil()) return r;
    if (r.isNil()) return l;
    Res out = Res::empty();
    forEach(l.mask() | r.mask(), [&](int k) {
        if (l.has(k) && r.has(k))
            out.set(k, std::min(l.get(k), r.get(k)));
        else
            out.set(k, l.has(k) ? l.get(k) : r.get(k));
    });
    return out;
}

Res componentWiseMinOnlyExisting(const Res& l, const Res& r) {
    if (l.isNil()) return Res();
    if (r.isNil()) return l;
    Res out = Res::empty();
    forEach(l.mask(), [&](int k) { out.set(k, r.has(k) ? std::min(l.get(k), r.get(k)) : l.get(k)); });
    return out;
}

Res componentWiseMax(const Res& l, const Res& r) {
    Res out = Res::empty();
    if (l.isNil() || r.isNil()) return out;
    forEach(l.mask() | r.mask(), [&](int k) { out.set(k, std::max(l.get(k), r.get(k))); });
    return out;
}

Res mergeIfNotPresent(const Res& l, const Res& r) {
    if (l.isNil()) return r;
    if (r.isNil()) return l;
    Res out = l;
    forEach(r.mask() & ~l.mask(), [&](int k) { out.set(k, r.get(k)); });
    return out;
}

bool isZero(const Res& r) {
    bool zero = true;
    forEach(r.mask(), [&](int k) { zero &= r.get(k) == 0; });
    return zero;
}

bool strictlyGreaterThanZero(const Res& r) {
    if (r.isNil()) return false;
    bool greater = false;
    for (uint64_t m = r.mask(); m; m &= m - 1) {
        const int64_t v = r.get(__builtin_ctzll(m));
        if (v < 0) return false;
        greater |= v > 0;
    }
    return greater;
}

bool strictlyGreaterThan(const Res& larger, const Res& smaller) {
    bool notEqual = false, fail = false;
    forEach(larger.mask() | smaller.mask(), [&](int k) {
        if (smaller.get(k) > larger.get(k)) fail = true;
        if (smaller.get(k) != larger.get(k)) notEqual = true;
    });
    return !fail && notEqual;
}

bool strictlyGreaterThanOrEquals(const Res& larger, const Res& smaller) {
    bool fail = false;
    forEach(larger.mask() | smaller.mask(), [&](int k) { fail |= smaller.get(k) > larger.get(k); });
    return !fail;
}

bool equals(const Res& l, const Res& r) {
    if (l.isNil() && r.isNil()) return true;
    if (l.isNil() || r.isNil()) return false;
    bool same = true;
    forEach(l.mask() | r.mask(), [&](int k) { same &= l.get(k) == r.get(k); });
    return same;
}

bool equalsOrEmpty(const Res& l, const Res& r) {
    if (isZero(l) && isZero(r)) return true;
    return equals(l, r);
}

namespace {

// GetShares: one share per type the resource names (zero usage gives a zero share), ascending.
int shares(const Res& res, const Res& total, double* out) {
    int n = 0;
    forEach(res.mask(), [&](int k) {
        const int64_t v = res.get(k);
        if (v == 0)
            out[n++] = 0;
        else if (total.isNil() || total.get(k) == 0)
            out[n++] = double(v);
        else
            out[n++] = double(v) / double(total.get(k));
    });
    std::sort(out, out + n);
    return n;
}

int compareShares(const double* l, int ln, const double* r, int rn) {
    int li = ln - 1, ri = rn - 1;
    while (ri >= 0 && li >= 0) {
        if (l[li] > r[ri]) return 1;
        if (l[li] < r[ri]) return -1;
        --li;
        --ri;
    }
    if (li == -1 && ri == -1) return 0;
    for (; li >= 0; --li) {
        if (l[li] > 0) return 1;
        if (l[li] < 0) return -1;
    }
    for (; ri >= 0; --ri) {
        if (r[ri] > 0) return -1;
        if (r[ri] < 0) return 1;
    }
    return 0;
}

// getShareFairForDenominator: found = false when the denominator does not name the type.
double shareFor(int k, int64_t allocated, const Res& denominator, bool* found) {
    *found = false;
    if (denominator.isNil() || !denominator.has(k)) return 0;
    *found = true;
    const int64_t d = denominator.get(k);
    if (d <= 0) return allocated <= 0 ? 0.0 : 1.0;
    return double(allocated) / double(d);
}

} // namespace

int compUsageRatio(const Res& l, const Res& r, const Res& total) {
    double ls[kMaxResDims], rs[kMaxResDims];
    const int ln = shares(l, total, ls), rn = shares(r, total, rs);
    return compareShares(ls, ln, rs, rn);
}

double fairShare(const Res& allocated, const Res& guaranteed, const Res& fairMax) {
    if (allocated.isEmpty()) return 0;
    double best = 0;
    forEach(allocated.mask(), [&](int k) {
        const int64_t v = allocated.get(k);
        if (v < 0) return;
        bool found = false;
        double s = shareFor(k, v, guaranteed, &found);
        if (!found) s = shareFor(k, v, fairMax, &found);
        if (found && s > best) best = s;
    });
    return best;
}

} // namespace gantry::engine::yunikorn
