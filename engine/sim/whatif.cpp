#include "sim/whatif.h"

#include "profile/registry.h"

#include <stdexcept>

namespace gantry::sim {

SimWorkload projectWorkload(const std::vector<WorkloadTemplate>& templates, Cluster& cluster,
                            const TimingDefaults& timing, uint64_t seed) {
    SimWorkload workload = takeClusterJobs(cluster, timing, seed);
    SimWorkload expanded = fromTemplates(templates, cluster, seed);
    const uint32_t base = uint32_t(workload.kinds.size());
    for (auto& k : expanded.kinds) workload.kinds.push_back(std::move(k));
    for (auto j : expanded.jobs) {
        j.kind += base;
        workload.jobs.push_back(j);
    }
    workload.warnings.insert(workload.warnings.end(), expanded.warnings.begin(), expanded.warnings.end());
    return workload;
}

void fitPolicy(SimOptions& options, const SimWorkload& workload, const SourceRef& where,
               std::vector<std::string>* notes, Diagnostics* warnings) {
    const engine::ProfileInfo* info = engine::findProfile(options.profile);
    if (!info)
        throw std::invalid_argument("unknown scheduler profile '" + options.profile + "' (" +
                                    engine::profileNames() + ")");
    if (!info->fitToWorkload) return;
    engine::WorkloadNeeds needs;
    for (const auto& k : workload.kinds)
        for (const auto& p : k.pods)
            if (p.gpu.count > 0 && p.gpu.milliPerGpu < 1000) needs.sharesGpus = true;
    info->fitToWorkload(options.policies, needs, where, notes, warnings);
}

} // namespace gantry::sim
