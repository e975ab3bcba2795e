#pragma once
// Resource amounts as integers in each resource's canonical unit:
//   cpu and extended/scalar resources (nvidia.com/gpu, rdma/...) in milli-units (1 GPU = 1000),
//   memory, ephemeral-storage, storage and hugepages-* in bytes, pods in pods.
// This is the unit Volcano's scheduler uses internally, so shares and scores match it.
#include "model/quantity.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gantry {

namespace res {
inline constexpr std::string_view Cpu = "cpu";
inline constexpr std::string_view Memory = "memory";
inline constexpr std::string_view Pods = "pods";
inline constexpr std::string_view EphemeralStorage = "ephemeral-storage";
inline constexpr std::string_view NvidiaGpu = "nvidia.com/gpu";
} // namespace res

enum class ResourceUnit { Milli, Bytes, Count };

ResourceUnit unitOf(std::string_view resourceName);

// Converts a quantity to the canonical integer of that resource; nullopt on overflow.
std::optional<int64_t> toAmount(std::string_view resourceName, const Quantity& q);
// Parses "2", "500m", "4Gi" for the named resource. Error text in *error.
std::optional<int64_t> parseAmount(std::string_view resourceName, std::string_view text, std::string* error);
// Canonical integer back to the Kubernetes quantity text ("500m", "4Gi", "8").
std::string formatAmount(std::string_view resourceName, int64_t amount);
// Resources counted as GPUs in summaries ("nvidia.com/gpu", "amd.com/gpu", "gpu" ...).
bool isGpuResource(std::string_view resourceName);

// A small sorted map of resource name to amount. Absent means zero for requests and
// "not set" for quotas; callers that care use has().
class ResourceList {
  public:
    using Entry = std::pair<std::string, int64_t>;

    ResourceList() = default;
    ResourceList(std::initializer_list<Entry> entries);

    int64_t get(std::string_view name) const;
    bool has(std::string_view name) const;
    void set(std::string_view name, int64_t amount);
    void add(std::string_view name, int64_t amount);
    void erase(std::string_view name);
    bool empty() const { return entries_.empty(); }
    size_t size() const { return entries_.size(); }

    ResourceList& operator+=(const ResourceList& other);
    ResourceList& operator-=(const ResourceList& other);
    // Every resource set in *this is <= the same resource in other (missing in other = 0).
    bool fitsIn(const ResourceList& other) const;
    // Component-wise maximum, keeping resources of both.
    static ResourceList max(const ResourceList& a, const ResourceList& b);

    auto begin() const { return entries_.begin(); }
    auto end() const { return entries_.end(); }
    const std::vector<Entry>& entries() const { return entries_; }
    bool operator==(const ResourceList&) const = default;

    // "cpu=2, memory=4Gi, nvidia.com/gpu=8"
    std::string str() const;

  private:
    std::vector<Entry> entries_; // sorted by name, names unique
};

} // namespace gantry
