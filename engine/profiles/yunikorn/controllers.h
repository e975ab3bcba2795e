#pragma once
// How YuniKorn's shim reads the workloads of a cluster (BuildOptions::readWorkload).
#include "state/cluster_state.h"

namespace gantry::engine::yunikorn {

WorkloadReading readWorkload(const PodGroup& group, const std::vector<const Pod*>& pods);

} // namespace gantry::engine::yunikorn
