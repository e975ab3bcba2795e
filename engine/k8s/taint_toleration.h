#pragma once
// TaintToleration: NoSchedule and NoExecute taints filter; PreferNoSchedule ones score.
#include "model/scheduler_conf.h"
#include "state/cluster_state.h"

#include <string>

namespace gantry::engine::k8s {

std::string untoleratedTaintReason(const Taint& taint);
const Taint* firstUntolerated(const PodShape& pod, const NodeRec& node); // NoSchedule / NoExecute
// The PreferNoSchedule taints the pod does not tolerate (scored in reverse).
int64_t intolerablePreferNoSchedule(const PodShape& pod, const NodeRec& node);

} // namespace gantry::engine::k8s
