#pragma once
// Admission Fair Sharing's usage ledger over time. Each LocalQueue's consumed resources start as
// its status persisted them (seeded at the first cycle's clock, as the LocalQueue controller seeds
// its ledger on start); an admission adds the scheduler's entry penalty, settled at once with the
// decay since the last update (the workload controller at Admitted); every usageSamplingInterval
// the LocalQueue controller decays them toward what the queue's admitted workloads hold, by
// usageHalfLifeTime (kubernetes-sigs/kueue at ff69552e: pkg/util/admissionfairsharing,
// localqueue_controller.go reconcileConsumedUsage, workload_controller.go's settlement).
#include "profiles/kueue/workloads.h"
#include "profiles/kueue/world.h"

#include <vector>

namespace gantry::engine::kueue {

// Every LocalQueue not seeded yet is brought up to date as of now.
void afsSeed(World& w, double now);
// A workload admitted now: its LocalQueue's ledger entry. Returns the ClusterQueue whose order may
// have changed (-1 when none).
int afsAdmitted(World& w, const std::vector<Workload>& wls, uint32_t wl, double now);
// The LocalQueues whose sampling interval has passed, decayed: the ClusterQueues whose order changed.
std::vector<int> afsSample(World& w, const std::vector<Workload>& wls, double now);

} // namespace gantry::engine::kueue
