#pragma once
// Memo of F_n(M) by node state. Fragmentation depends only on free CPU, the multiset of free device
// milli and the GPU model, and a cluster has few distinct states, so placement policies that
// evaluate "what if" states (FGD) look most of them up instead of recomputing.
#include "fragmentation/fragmentation.h"

#include <cstdint>
#include <unordered_map>

namespace gantry::frag {

struct FragValue {
    double fragmented = 0; // F_n(M)
    double idle = 0;       // all buckets: free milli weighted by sum p_m
};

class FragMemo {
  public:
    explicit FragMemo(const TargetWorkload& workload) : workload_(&workload) {}
    const TargetWorkload& workload() const { return *workload_; }
    FragValue get(const NodeState& node);
    size_t size() const { return memo_.size(); }

  private:
    struct Key {
        int64_t cpuLeft;
        uint64_t gpus[4]; // free milli of each device, sorted descending, 16 bits each
        int32_t model;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        size_t operator()(const Key& k) const;
    };
    const TargetWorkload* workload_;
    std::unordered_map<Key, FragValue, KeyHash> memo_;
};

} // namespace gantry::frag
