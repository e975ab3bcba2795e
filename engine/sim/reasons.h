#pragma once
// Pending reasons grouped across jobs: the scheduler's message with the names and numbers that make
// it particular to one pod taken out, so that "0/12 nodes are unavailable: 4 Insufficient
// nvidia.com/gpu, 8 node(s) didn't match Pod's node affinity/selector." and the same with other
// counts fall in one group.
#include "sim/result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gantry::sim {

// Replaces the pod key, the job key, the node a pod "can possibly be assigned to", the hypernode a
// search was confined to, and every standalone number; then sorts the parts of a node-count list
// again (the scheduler sorts them with their counts).
std::string normalizeReason(std::string_view text, std::string_view podKey, std::string_view jobKey);

class ReasonBook {
  public:
    // Class id (>= 1) of a reason; grows the per-class tables.
    uint32_t classify(std::string_view text, std::string_view podKey, std::string_view jobKey);
    std::vector<double> seconds{0};        // job-seconds waited, per class
    std::vector<int64_t> entries{0};       // times a job started waiting for it, per class
    std::vector<ReasonTime> table() const; // most job-seconds first, then by text

  private:
    std::unordered_map<std::string, uint32_t> index_;
    std::vector<std::string> names_{""};
};

} // namespace gantry::sim
