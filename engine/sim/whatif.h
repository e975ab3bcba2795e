#pragma once
// Setting up a what-if the same way wherever it runs (`gantry simulate`, the studio, the planner):
// the project's jobs as the simulator takes them, and the chosen profile's policy fitted to them.
#include "model/cluster.h"
#include "model/diagnostic.h"
#include "model/workload.h"
#include "sim/simulator.h"
#include "sim/sources.h"

#include <string>
#include <vector>

namespace gantry::sim {

// The snapshot's what-if jobs (moved out of `cluster`) followed by the expanded workload templates.
SimWorkload projectWorkload(const std::vector<WorkloadTemplate>& templates, Cluster& cluster,
                            const TimingDefaults& timing, uint64_t seed);

// Completes options.policies for the workload as options.profile asks (Volcano's default policy
// gains deviceshare when pods share GPUs). Notes say what Gantry added for the user; warnings say
// where the user's own policy falls short, located at `where` when the policy has no file of its
// own. Throws std::invalid_argument for an unknown profile.
void fitPolicy(SimOptions& options, const SimWorkload& workload, const SourceRef& where,
               std::vector<std::string>* notes, Diagnostics* warnings);

} // namespace gantry::sim
