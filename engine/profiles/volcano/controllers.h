#pragma once
// How Volcano's controllers read the workloads of a cluster (BuildOptions::readWorkload).
#include "state/cluster_state.h"

namespace gantry::engine::volcano {

WorkloadReading readWorkload(const PodGroup& group, const std::vector<const Pod*>& pods);

} // namespace gantry::engine::volcano
