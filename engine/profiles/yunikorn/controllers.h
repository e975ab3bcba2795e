#pragma once
// How YuniKorn's shim reads the workloads of a cluster (BuildOptions::readWorkload).
#include "profiles/yunikorn/shim.h"
#include "state/cluster_state.h"

#include <map>
#include <string>

namespace gantry::engine::yunikorn {

// The shim's reading of a workload's first pod is kept in *metas by application id (the first
// workload of an id keeps it), for the simulated pods of the workload (ShimState).
WorkloadReading readWorkload(const PodGroup& group, const std::vector<const Pod*>& pods,
                             std::map<std::string, PodMeta>* metas);

} // namespace gantry::engine::yunikorn
