#pragma once
// Predicate statuses and fit errors, with the scheduler's own messages.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gantry::engine {

enum class Code : uint8_t { Success, Error, Unschedulable, UnschedulableAndUnresolvable, Wait, Skip };

struct Status {
    Code code = Code::Success;
    uint32_t reason = 0; // id in Session::reasonText
};

// The statuses one predicate evaluation produced; fixed capacity so the placement loop never
// allocates. More than kMax statuses keeps the first ones (upstream stops at the first abort).
struct FitResult {
    static constexpr int kMax = 6;
    uint8_t n = 0;
    Status s[kMax];
    bool ok() const { return n == 0; }
    void add(Code code, uint32_t reason) {
        if (n < kMax) s[n++] = Status{code, reason};
    }
    bool contains(Code code) const {
        for (int i = 0; i < n; ++i)
            if (s[i].code == code) return true;
        return false;
    }
    bool containsErrorSkipOrWait() const {
        return contains(Code::Error) || contains(Code::Skip) || contains(Code::Wait);
    }
};

// Why a task fits no node: a histogram of reasons over the nodes tried (api.FitErrors).
struct FitErrors {
    std::string error;                    // common message; empty = "0/N nodes are unavailable"
    std::string hyperNode;                // set when the search was restricted to a hypernode
    std::map<uint32_t, uint32_t> reasons; // reason id -> number of nodes
    uint32_t nodes = 0;                   // nodes with an error
    std::vector<uint32_t> unresolvable;   // nodes whose error cannot be helped by eviction
    // Node classes whose every node fails that way (bucket evaluation: such failures are static).
    std::vector<uint32_t> unresolvableClasses;
};

} // namespace gantry::engine
