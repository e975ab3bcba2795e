#pragma once
// NodeUnschedulable: a cordoned node takes only pods that tolerate its unschedulable taint.
#include "model/scheduler_conf.h"
#include "state/cluster_state.h"

namespace gantry::engine::k8s {

inline constexpr const char* kUnschedulable = "node(s) were unschedulable";
bool passesUnschedulable(const PodShape& pod, const NodeRec& node);

} // namespace gantry::engine::k8s
