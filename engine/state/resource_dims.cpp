#include "state/resource_dims.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace gantry::engine {

namespace {
constexpr double kMinResource = 0.1; // upstream's minResource tolerance
bool leq(double l, double r) {
    return l < r || std::fabs(l - r) < kMinResource;
}
} // namespace

ResourceDims::ResourceDims() {
    names_ = {std::string(res::Cpu), std::string(res::Memory), std::string(res::Pods)};
    byName_ = {0, 1, 2};
    std::sort(byName_.begin(), byName_.end(), [&](int a, int b) { return names_[a] < names_[b]; });
}

int ResourceDims::intern(std::string_view name) {
    int found = find(name);
    if (found >= 0) return found;
    if (int(names_.size()) >= kMaxDims) throw std::length_error("more than 64 resource names");
    names_.emplace_back(name);
    int dim = int(names_.size()) - 1;
    byName_.insert(std::upper_bound(byName_.begin(), byName_.end(), dim,
                                    [&](int a, int b) { return names_[a] < names_[b]; }),
                   dim);
    return dim;
}

int ResourceDims::find(std::string_view name) const {
    for (size_t i = 0; i < names_.size(); ++i)
        if (names_[i] == name) return int(i);
    return -1;
}

double share(double l, double r) {
    if (r == 0) return l == 0 ? 0 : 1;
    return l / r;
}

void VResource::ensureDims(int dims) {
    if (int(scalar_.size()) < dims) scalar_.resize(size_t(dims), 0.0);
}

VResource VResource::fromList(const ResourceList& list, const ResourceDims& dims) {
    VResource r(dims.size());
    for (const auto& [name, amount] : list) {
        int dim = dims.find(name);
        if (dim < 0) continue; // a name Volcano does not count (volcanoCountsResource)
        if (dim == kCpu)
            r.cpu += double(amount);
        else if (dim == kMemory)
            r.mem += double(amount);
        else
            r.set(dim, r.get(dim) + double(amount));
        if (dim == kPods) r.maxTaskNum += amount;
    }
    return r;
}

VResource VResource::infinite(int dims) {
    VResource r(dims);
    r.cpu = std::numeric_limits<double>::max();
    r.mem = std::numeric_limits<double>::max();
    return r;
}

double VResource::get(int dim) const {
    if (dim == kCpu) return cpu;
    if (dim == kMemory) return mem;
    if (!present(dim)) return 0;
    return scalar_[size_t(dim)];
}

void VResource::set(int dim, double value) {
    if (dim == kCpu) {
        cpu = value;
        return;
    }
    if (dim == kMemory) {
        mem = value;
        return;
    }
    ensureDims(dim + 1);
    scalar_[size_t(dim)] = value;
    mask_ |= uint64_t(1) << dim;
    mapSet_ = true;
}

void VResource::erase(int dim) {
    if (dim < 2) return;
    mask_ &= ~(uint64_t(1) << dim);
    if (size_t(dim) < scalar_.size()) scalar_[size_t(dim)] = 0;
}

VResource& VResource::add(const VResource& rr) {
    cpu += rr.cpu;
    mem += rr.mem;
    for (uint64_t m = rr.mask_; m; m &= m - 1) {
        int d = __builtin_ctzll(m);
        set(d, get(d) + rr.scalar_[size_t(d)]);
    }
    return *this;
}

VResource& VResource::sub(const VResource& rr) {
    cpu -= rr.cpu;
    mem -= rr.mem;
    if (!mapSet_) return *this;
    for (uint64_t m = rr.mask_; m; m &= m - 1) {
        int d = __builtin_ctzll(m);
        set(d, get(d) - rr.scalar_[size_t(d)]);
    }
    return *this;
}

VResource& VResource::multi(double ratio) {
    cpu *= ratio;
    mem *= ratio;
    for (uint64_t m = mask_; m; m &= m - 1) scalar_[size_t(__builtin_ctzll(m))] *= ratio;
    return *this;
}

VResource& VResource::minDimensionResource(const VResource& rr, Missing missing) {
    cpu = std::min(cpu, rr.cpu);
    mem = std::min(mem, rr.mem);
    if (!mapSet_) return *this;
    for (uint64_t m = mask_; m; m &= m - 1) {
        int d = __builtin_ctzll(m);
        if (rr.present(d))
            scalar_[size_t(d)] = std::min(scalar_[size_t(d)], rr.get(d));
        else if (missing == Missing::Zero)
            scalar_[size_t(d)] = 0;
    }
    return *this;
}

bool VResource::isEmpty() const {
    if (!(cpu < kMinResource && mem < kMinResource)) return false;
    for (uint64_t m = mask_; m; m &= m - 1) {
        int d = __builtin_ctzll(m);
        if (d == kPods) continue;
        if (scalar_[size_t(d)] >= kMinResource) return false;
    }
    return true;
}

bool VResource::isZero(int dim) const {
    return get(dim) < kMinResource;
}

std::vector<int> VResource::resourceNames() const {
    int names[kMaxDims];
    return std::vector<int>(names, names + resourceNames(names));
}

int VResource::resourceNames(int* out) const {
    int n = 0;
    if (cpu >= kMinResource) out[n++] = kCpu;
    if (mem >= kMinResource) out[n++] = kMemory;
    for (uint64_t m = mask_; m; m &= m - 1) {
        int d = __builtin_ctzll(m);
        if (scalar_[size_t(d)] >= kMinResource) out[n++] = d;
    }
    return n;
}

bool VResource::lessEqual(const VResource& rr, Missing missing) const {
    if (!leq(cpu, rr.cpu) || !leq(mem, rr.mem)) return false;
    if (missing == Missing::Infinity && (rr.mask_ & ~mask_)) return false;
    for (uint64_t m = mask_; m; m &= m - 1) {
        int d = __builtin_ctzll(m);
        if (!rr.present(d) && missing == Missing::Infinity) continue;
        if (!leq(scalar_[size_t(d)], rr.get(d))) return false;
    }
    return true;
}

bool VResource::lessEqualWithDimensionAndResourcesName(const VResource& rr, const VResource& req,
                                                       std::vector<int>* failed) const {
    bool ok = true;
    auto fail = [&](int d) {
        ok = false;
        if (failed) failed->push_back(d);
    };
    if (req.cpu > 0 && cpu > rr.cpu) fail(kCpu);
    if (req.mem > 0 && mem > rr.mem) fail(kMemory);
    if (!mapSet_) return ok;
    for (uint64_t m = req.mask_; m; m &= m - 1) {
        int d = __builtin_ctzll(m);
        if (d == kPods) continue;
        if (req.scalar_[size_t(d)] > 0 && get(d) > rr.get(d)) fail(d);
    }
    return ok;
}

bool VResource::lessEqualPartlyWithDimension(const VResource& rr, const VResource& req) const {
    if (req.cpu > 0 && leq(cpu, rr.cpu)) return true;
    if (req.mem > 0 && leq(mem, rr.mem)) return true;
    for (uint64_t m = req.mask_; m; m &= m - 1) {
        int d = __builtin_ctzll(m);
        if (d == kPods) continue;
        if (req.scalar_[size_t(d)] > 0 && leq(get(d), rr.get(d))) return true;
    }
    return false;
}

bool VResource::lessEqualPartlyWithDimensionZeroFiltered(const VResource& rr, const VResource& req) const {
    VResource filtered(std::max(dims(), req.dims()));
    if (req.cpu > 0 && !(cpu < kMinResource && rr.cpu < kMinResource)) filtered.cpu = req.cpu;
    if (req.mem > 0 && !(mem < kMinResource && rr.mem < kMinResource)) filtered.mem = req.mem;
    if (req.mapSet_) {
        filtered.mapSet_ = true;
        for (uint64_t m = req.mask_; m; m &= m - 1) {
            int d = __builtin_ctzll(m);
            double q = req.scalar_[size_t(d)];
            if (q > 0 && !(get(d) < kMinResource && rr.get(d) < kMinResource)) filtered.set(d, q);
        }
    }
    return lessEqualPartlyWithDimension(rr, filtered);
}

bool VResource::greaterPartlyWithDimension(const VResource& rr, const VResource& req) const {
    if (req.cpu > 0 && cpu > rr.cpu) return true;
    if (req.mem > 0 && mem > rr.mem) return true;
    for (uint64_t m = req.mask_; m; m &= m - 1) {
        int d = __builtin_ctzll(m);
        if (d == kPods) continue;
        if (req.scalar_[size_t(d)] > 0 && get(d) > rr.get(d)) return true;
    }
    return false;
}

bool VResource::greaterPartlyWithRelevantDimensions(const VResource& rr, const VResource& req) const {
    VResource filtered(std::max(dims(), req.dims()));
    if (req.cpu > 0 && !(rr.cpu < kMinResource)) filtered.cpu = req.cpu;
    if (req.mem > 0 && !(rr.mem < kMinResource)) filtered.mem = req.mem;
    for (uint64_t m = req.mask_; m; m &= m - 1) {
        int d = __builtin_ctzll(m);
        if (req.scalar_[size_t(d)] > 0 && rr.present(d)) filtered.set(d, req.scalar_[size_t(d)]);
    }
    return greaterPartlyWithDimension(rr, filtered);
}

bool VResource::equal(const VResource& rr) const {
    auto eq = [](double l, double r) { return l == r || std::fabs(l - r) < kMinResource; };
    if (!eq(cpu, rr.cpu) || !eq(mem, rr.mem)) return false;
    for (uint64_t m = mask_; m; m &= m - 1) {
        int d = __builtin_ctzll(m);
        if (!eq(scalar_[size_t(d)], rr.get(d))) return false;
    }
    return true;
}

bool VResource::deepEqual(const VResource& rr) const {
    if (cpu != rr.cpu || mem != rr.mem || maxTaskNum != rr.maxTaskNum || mask_ != rr.mask_) return false;
    for (uint64_t m = mask_; m; m &= m - 1) {
        int d = __builtin_ctzll(m);
        if (scalar_[size_t(d)] != rr.scalar_[size_t(d)]) return false;
    }
    return true;
}

VResource VResource::exceededPart(const VResource& left, const VResource& right) {
    VResource out(std::max(left.dims(), right.dims()));
    out.cpu = left.cpu > right.cpu ? left.cpu - right.cpu : 0;
    out.mem = left.mem > right.mem ? left.mem - right.mem : 0;
    out.mapSet_ = true; // Diff always makes the increased map
    for (uint64_t m = left.mask_ | right.mask_; m; m &= m - 1) {
        int d = __builtin_ctzll(m);
        double l = left.get(d), r = right.get(d);
        // upstream treats the literal value -1 as "infinite" in Diff
        if (l == -1) {
            out.set(d, l);
            continue;
        }
        if (r == -1) continue;
        if (l > r) out.set(d, l - r);
    }
    return out;
}

VResource VResource::max(const VResource& l, const VResource& r) {
    VResource out(std::max(l.dims(), r.dims()));
    out.cpu = std::max(l.cpu, r.cpu);
    out.mem = std::max(l.mem, r.mem);
    if (!l.mapSet_ && !r.mapSet_) return out;
    out.mapSet_ = true;
    for (uint64_t m = l.mask_; m; m &= m - 1) {
        int d = __builtin_ctzll(m);
        if (l.get(d) >= 0) out.set(d, l.get(d));
    }
    for (uint64_t m = r.mask_; m; m &= m - 1) {
        int d = __builtin_ctzll(m);
        if (r.get(d) >= 0) out.set(d, std::max(r.get(d), out.get(d)));
    }
    return out;
}

VResource VResource::min(const VResource& l, const VResource& r) {
    VResource out(std::max(l.dims(), r.dims()));
    out.cpu = std::min(l.cpu, r.cpu);
    out.mem = std::min(l.mem, r.mem);
    if (!l.mapSet_ || !r.mapSet_) return out;
    out.mapSet_ = true;
    for (uint64_t m = l.mask_; m; m &= m - 1) {
        int d = __builtin_ctzll(m);
        out.set(d, std::min(l.get(d), r.get(d)));
    }
    return out;
}

std::vector<int> VResource::intersection(const VResource& a, const VResource& b, bool dropPods) {
    std::vector<int> out;
    auto bn = b.resourceNames();
    for (int d : a.resourceNames()) {
        if (dropPods && d == kPods) continue;
        if (std::find(bn.begin(), bn.end(), d) != bn.end()) out.push_back(d);
    }
    return out;
}

bool VResource::sharesName(const VResource& a, const VResource& b, bool dropPods) {
    // Names as bits (cpu 0, memory 1, a scalar its dim): the same test as intersection's.
    auto bits = [](const VResource& r) {
        uint64_t out = (r.cpu >= kMinResource ? 1u : 0u) | (r.mem >= kMinResource ? 2u : 0u);
        for (uint64_t m = r.mask_; m; m &= m - 1) {
            const int d = __builtin_ctzll(m);
            if (r.scalar_[size_t(d)] >= kMinResource) out |= uint64_t(1) << d;
        }
        return out;
    };
    uint64_t both = bits(a) & bits(b);
    if (dropPods) both &= ~(uint64_t(1) << kPods);
    return both != 0;
}

std::string VResource::str(const ResourceDims& dims) const {
    auto fmt = [](double v) {
        if (v == std::numeric_limits<double>::max()) return std::string("max");
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.2f", v);
        return std::string(buf);
    };
    std::string out = "cpu " + fmt(cpu) + ", memory " + fmt(mem);
    for (int d : dims.byName())
        if (d >= 2 && present(d)) out += ", " + dims.name(d) + " " + fmt(get(d));
    return out;
}

} // namespace gantry::engine
