#pragma once
// Kueue (kubernetes-sigs/kueue at ff69552e, v0.20 development) as a scheduler profile. Kueue admits
// workloads (whole jobs) to ClusterQueues against quotas per resource flavor, borrowing and lending
// in cohorts, preempting by priority or fair share, optionally placing them in a topology; the pods
// of an admitted workload are then placed on the flavor's nodes by kube-scheduler. docs/kueue.md
// says what is modelled and what is simplified.
#include "profile/profile_info.h"

namespace gantry::engine::kueue {

ProfileInfo profileInfo();

} // namespace gantry::engine::kueue
