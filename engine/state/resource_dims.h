#pragma once
// Resource dimensions of a compiled cluster and Volcano's resource arithmetic.
//
// ResourceDims interns resource names into dense indexes: 0 = cpu (milli), 1 = memory (bytes),
// 2 = pods (count); every other name ("nvidia.com/gpu", "ephemeral-storage", ...) follows. Amounts
// keep the model's canonical integer units, which only ever meet in ratios or comparisons, so
// Volcano's milli-scaling of storage and extended resources changes nothing.
//
// VResource reproduces api.Resource of the Volcano scheduler: cpu and memory always exist, scalar
// resources are a map in which a name may be present or absent (and the map itself may be nil),
// and each operation treats absence the way upstream does (as zero or as infinity). Plugins that
// do quota arithmetic (proportion, capacity, drf, overcommit) use it so their answers match
// upstream to the last dimension.
#include "model/resources.h"
#include "state/dim_values.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gantry::engine {

inline constexpr int kCpu = 0;
inline constexpr int kMemory = 1;
inline constexpr int kPods = 2;
inline constexpr int kMaxDims = 64; // presence of scalar dimensions is a 64-bit mask

class ResourceDims {
  public:
    ResourceDims();
    // Index of a resource name, adding it when new. Throws std::length_error past kMaxDims.
    int intern(std::string_view name);
    int find(std::string_view name) const; // -1 when unknown
    const std::string& name(int dim) const { return names_[size_t(dim)]; }
    int size() const { return int(names_.size()); }
    // Dimension indexes ordered by resource name, for stable messages.
    const std::vector<int>& byName() const { return byName_; }

  private:
    std::vector<std::string> names_;
    std::vector<int> byName_;
};

// Volcano's "missing dimension" conventions (api.DimensionDefaultValue).
enum class Missing { Zero, Infinity };

class VResource {
  public:
    double cpu = 0;
    double mem = 0;
    int64_t maxTaskNum = 0; // upstream keeps the "pods" count here as well; only NewResource sets it

    VResource() = default;
    explicit VResource(int dims) : scalar_(size_t(dims > 2 ? dims : 2), 0.0) {}

    // Builds the resource of a Kubernetes resource list, as api.NewResource does: every scalar named
    // in the list is present (even at zero); "pods" is a scalar too.
    static VResource fromList(const ResourceList& list, const ResourceDims& dims);
    static VResource infinite(int dims);

    int dims() const { return int(scalar_.size()); }
    bool hasScalars() const { return mapSet_; } // false = nil map upstream
    void touchMap() { mapSet_ = true; }         // an empty, non-nil map (pod requests have one)
    bool present(int dim) const { return dim < 2 || (mask_ >> dim) & 1u; }
    uint64_t mask() const { return mask_; }
    double get(int dim) const;
    void set(int dim, double value); // makes the dimension present
    void erase(int dim);

    VResource& add(const VResource& rr);
    VResource& sub(const VResource& rr); // upstream sub(): no check
    VResource& multi(double ratio);
    VResource& minDimensionResource(const VResource& rr, Missing missing);

    bool isEmpty() const; // all below 0.1, "pods" ignored
    bool isZero(int dim) const;
    // Names (dims) whose amount is at least 0.1, cpu and memory first then scalars by dim.
    std::vector<int> resourceNames() const;
    int resourceNames(int* out) const; // the same into out[kMaxDims], returns how many

    bool lessEqual(const VResource& rr, Missing missing) const;
    // Returns false and the failing dimensions (cpu, memory, then scalars).
    bool lessEqualWithDimensionAndResourcesName(const VResource& rr, const VResource& req,
                                                std::vector<int>* failed) const;
    bool lessEqualPartlyWithDimension(const VResource& rr, const VResource& req) const;
    bool lessEqualPartlyWithDimensionZeroFiltered(const VResource& rr, const VResource& req) const;
    bool greaterPartlyWithDimension(const VResource& rr, const VResource& req) const;
    bool greaterPartlyWithRelevantDimensions(const VResource& rr, const VResource& req) const;
    bool equal(const VResource& rr) const;
    // equality.Semantic.DeepEqual: exact values, same names present (nil map == empty map).
    bool deepEqual(const VResource& rr) const;

    // Diff's "increased" part: max(l - r, 0) per dimension, absent names = 0 (api.ExceededPart).
    static VResource exceededPart(const VResource& left, const VResource& right);
    // helpers.Max / helpers.Min with their nil-map quirks.
    static VResource max(const VResource& l, const VResource& r);
    static VResource min(const VResource& l, const VResource& r);
    // Dimensions present with at least 0.1 in both (api.Intersection), "pods" optionally dropped.
    static std::vector<int> intersection(const VResource& a, const VResource& b, bool dropPods);
    // Whether that intersection is non-empty, without building it.
    static bool sharesName(const VResource& a, const VResource& b, bool dropPods);

    std::string str(const ResourceDims& dims) const;

  private:
    void ensureDims(int dims);
    DimValues scalar_;    // indexed by dim; [0] and [1] unused
    uint64_t mask_ = 0;   // presence of scalar dims (bit dim)
    bool mapSet_ = false; // the scalar map exists (non-nil)
};

// Share of l in r as upstream's helpers.Share: r == 0 gives 0 or 1.
double share(double l, double r);

} // namespace gantry::engine
