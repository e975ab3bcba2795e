#pragma once
// A job's resources as Volcano's api.JobInfo computes them, from the cluster state alone: what its
// placed pods hold, what admitting it reserves in its queue, and what it holds beyond its
// minResources. Sessions and the settled-job totals both use them.
#include "state/cluster_state.h"

namespace gantry::engine {

// Sum of the requests of the job's pods in an allocated status (JobInfo.Allocated).
VResource jobAllocated(const ClusterState& state, uint32_t job);
// res less the requests of the job's pods that scheduling gates hold, per dimension and never below
// zero (JobInfo.DeductSchGatedResources): gated pods reserve nothing in their queue, so they keep no
// other job out.
VResource deductSchedulingGated(const ClusterState& state, uint32_t job, VResource res);
// minResources minus what is already allocated, per dimension (util.GetInqueueResource), less what
// gated pods would take (as every caller upstream deducts it).
VResource inqueueResource(const ClusterState& state, uint32_t job, const VResource& allocated);
// Allocated beyond minResources (JobInfo.GetElasticResources).
VResource elasticResource(const ClusterState& state, uint32_t job);

} // namespace gantry::engine
