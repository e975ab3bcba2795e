#pragma once
// What Kueue counts of a pod's requests against quota (totalRequestsFromPodSets in
// pkg/workload/workload.go at kubernetes-sigs/kueue ff69552e): the Configuration's
// resources.excludeResourcePrefixes dropped, then its resources.transformations applied.
#include "model/kueue_config.h"
#include "profiles/kueue/amount.h"

#include <string>
#include <utility>
#include <vector>

namespace gantry::engine::kueue {

using Requests = std::vector<std::pair<std::string, Amount>>; // resource -> canonical amount

// Each transformed input adds, to every output, the output's quantity per unit of the input times the
// input's amount (times the amount of the multiplyBy resource when the pod requests it); what the
// transformations generate is summed per output and floored at zero before it joins the requests
// (so a negative output, an allowance, never reduces a request made directly); Replace drops the
// input, Retain keeps it as requested. Sums beyond int64 are unlimited.
Requests countedRequests(const KueueConfig& config, Requests requests);

} // namespace gantry::engine::kueue
