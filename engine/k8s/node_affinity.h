#pragma once
// NodeAffinity: the node selector and required node affinity filter; the preferred terms score.
#include "model/scheduler_conf.h"
#include "state/cluster_state.h"

#include <string>

namespace gantry::engine::k8s {

inline constexpr const char* kNodeAffinity = "node(s) didn't match Pod's node affinity/selector";
bool passesNodeAffinity(const PodShape& pod, const NodeRec& node, const std::string& nodeName);
// The sum of the weights of the preferred terms the node matches (before normalization).
int64_t nodeAffinityScore(const PodShape& pod, const NodeRec& node, const std::string& nodeName);

} // namespace gantry::engine::k8s
