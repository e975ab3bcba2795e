// The what-if engine built into the studio: the time-based simulator (engine/sim), whose every
// scheduling cycle is a session of the engine. The project's workload templates and the snapshot's
// what-if jobs are simulated with the project's policy (or the comparison profile).
#include "input_error.h"
#include "profiles/volcano/framework/conf_check.h"
#include "sim/simulator.h"
#include "sim/sources.h"
#include "whatif/whatif_engine.h"

#include <QElapsedTimer>
#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace gantry::studio {
namespace {

std::string formatDuration(double s) {
    char buf[64];
    if (s >= 2 * 86400)
        std::snprintf(buf, sizeof buf, "%.1f days", s / 86400);
    else if (s >= 2 * 3600)
        std::snprintf(buf, sizeof buf, "%.1f hours", s / 3600);
    else if (s >= 120)
        std::snprintf(buf, sizeof buf, "%.0f minutes", s / 60);
    else
        std::snprintf(buf, sizeof buf, "%.0f seconds", s);
    return buf;
}

bool sharesGpus(const sim::SimWorkload& w) {
    for (const auto& k : w.kinds)
        for (const auto& p : k.pods)
            if (p.gpu.count > 0 && p.gpu.milliPerGpu < 1000) return true;
    return false;
}

// The project's jobs as the simulator takes them: the snapshot's what-if jobs (moved out of the
// cluster) followed by the expanded workload templates.
sim::SimWorkload projectWorkload(const Project& project, Cluster& cluster, uint64_t seed) {
    sim::TimingDefaults timing; // jobs with no timing of their own arrive at 0 and run to the end
    sim::SimWorkload workload = sim::takeClusterJobs(cluster, timing, seed);
    sim::SimWorkload templates = sim::fromTemplates(project.workloads, cluster, seed);
    const uint32_t base = uint32_t(workload.kinds.size());
    for (auto& k : templates.kinds) workload.kinds.push_back(std::move(k));
    for (auto j : templates.jobs) {
        j.kind += base;
        workload.jobs.push_back(j);
    }
    workload.warnings.insert(workload.warnings.end(), templates.warnings.begin(), templates.warnings.end());
    return workload;
}

std::string profileName(const Project& project, WhatIfProfile profile) {
    if (profile == WhatIfProfile::Contrast)
        return std::string("kube-scheduler ") +
               toString(project.contrast.value_or(KubeSchedulerProfile{}).strategy);
    return "Volcano policy";
}

// The run's end state for the GPU map, with node indices of the project's cluster.
void setPlacements(const sim::SimResult& r, const Project& project, WhatIfResult* out) {
    out->placements.clear();
    out->placementsSeconds = r.endSeconds;
    std::unordered_map<std::string, int> nodeIndex;
    for (size_t i = 0; i < project.cluster.nodes.size(); ++i)
        nodeIndex.emplace(project.cluster.nodes[i].name, int(i));
    out->jobNames = r.jobNames;
    out->queueNames.clear();
    for (const auto& q : r.queues) out->queueNames.push_back(q.name);
    for (const auto& p : r.placements) {
        if (p.node >= r.nodeNames.size()) continue;
        auto it = nodeIndex.find(r.nodeNames[p.node]);
        if (it == nodeIndex.end() || p.gpu.count == 0) continue;
        GpuPlacement g;
        g.node = it->second;
        g.gpu = p.gpu;
        for (int d = 0; d < 64; ++d)
            if ((p.devices >> d) & 1) g.indices.push_back(d);
        g.job = p.job;
        g.queue = p.queue;
        g.cpuMilli = p.cpuMilli;
        out->placements.push_back(std::move(g));
    }
}

std::unique_ptr<WhatIfResult> convert(const sim::SimResult& r, const Project& project,
                                      WhatIfProfile profile) {
    auto out = std::make_unique<WhatIfResult>();
    out->method = WhatIfResult::Method::TimeSimulation;
    out->profile = profileName(project, profile);
    out->time = r.time;
    out->gpuAllocationPct = r.gpuAllocationPct;
    out->fragmentationPct = r.fragmentationPct;
    out->pendingJobs.assign(r.pendingJobs.begin(), r.pendingJobs.end());
    for (const auto& q : r.queues) {
        WhatIfResult::QueueSeries s;
        s.queue = q.name;
        s.parent = q.parent;
        s.leaf = std::none_of(r.queues.begin(), r.queues.end(),
                              [&](const sim::QueueSeries& c) { return c.parent == q.name; });
        s.usedGpus = q.usedGpus;
        s.guarantee = q.guaranteeGpus;
        s.deserved = q.deservedGpus;
        s.capability = q.capabilityGpus;
        out->queues.push_back(std::move(s));
        WhatIfResult::QueueWaits w;
        w.queue = q.name;
        w.waitSeconds = q.waitSeconds;
        w.started = int(q.summary.started);
        w.pending = int(q.summary.pendingAtEnd);
        if (q.summary.jobs > 0) out->waits.push_back(std::move(w));
    }
    for (const auto& p : r.pendingAtEnd)
        out->pending.push_back(
            {p.job, p.queue, p.reason, p.pods, p.minMember, p.placed, p.gpus, p.waitingSeconds});
    for (const auto& reason : r.pendingReasons)
        out->pendingReasons.push_back({reason.reason, reason.jobSeconds, int(reason.jobs)});

    setPlacements(r, project, out.get());
    out->jobsTotal = int(r.jobsTotal);
    out->jobsStarted = int(r.jobsStarted);
    out->jobsCompleted = int(r.jobsCompleted);
    out->jobsPartial = int(r.jobsPartialAtEnd);
    out->jobRestarts = int(r.jobRestarts);
    out->podsTotal = int(r.podsTotal);
    out->podsBound = int(r.podsPlacedAtEnd);
    out->evictions = int(r.podEvictions);
    out->totalGpus = r.totalGpus;
    out->allocatedGpus = r.allocatedGpusAtEnd;
    out->lostGpuHours = r.lostGpuHours;
    out->meanGpuAllocationPct = r.meanGpuAllocationPct;
    out->simulatedSeconds = r.endSeconds;
    out->warnings = r.warnings;
    char note[512];
    std::snprintf(note, sizeof note,
                  "Simulated %s of the project's jobs (%lld arrived, %lld completed) with %s: %lld "
                  "scheduling sessions, "
                  "each the engine's own decision; arrivals and durations drawn with seed %llu.",
                  formatDuration(r.endSeconds).c_str(), static_cast<long long>(r.jobsArrived),
                  static_cast<long long>(r.jobsCompleted), out->profile.c_str(),
                  static_cast<long long>(r.sessions), static_cast<unsigned long long>(r.seed));
    out->note = note;
    return out;
}

class SimulatorEngine : public WhatIfEngine {
  public:
    std::string unavailableReason() const override { return {}; }

    std::unique_ptr<WhatIfResult> run(const Project& project, WhatIfProfile profile,
                                      const WhatIfControl& control) override {
        QElapsedTimer timer;
        timer.start();
        control.progress(0.02, "Expanding the workload");
        Cluster cluster = project.cluster;
        const uint64_t seed = project.simulation.seed;
        sim::SimWorkload workload = projectWorkload(project, cluster, seed);
        if (control.cancelled()) return nullptr;
        if (workload.jobs.empty())
            throw std::runtime_error(
                "The project has no jobs to simulate: add workload templates in the Workloads tab, "
                "or open a snapshot with pending jobs.");

        sim::SimOptions options;
        options.seed = seed;
        options.cycleSeconds = project.simulation.cycleSeconds > 0 ? project.simulation.cycleSeconds : 1.0;
        options.horizonSeconds = project.simulation.horizonSeconds;
        if (profile == WhatIfProfile::Contrast) {
            options.profile = sim::SimOptions::Profile::KubeDefault;
            options.kube = project.contrast.value_or(KubeSchedulerProfile{});
        } else {
            options.conf = project.volcano;
            Diagnostics check = checkSchedulerConf(options.conf);
            throwIfErrors(check);
            // Volcano's stock policy cannot place GPU shares; a workload that shares GPUs needs the
            // deviceshare plugin, which the default configuration then gets (as gantry simulate does).
            if (sharesGpus(workload) && !options.conf.plugin("deviceshare") &&
                options.conf == defaultVolcanoConf()) {
                PluginOption ds;
                ds.name = "deviceshare";
                options.conf.tiers.back().plugins.push_back(ds);
            }
        }
        // A sample every minute, or coarser for long horizons (the charts need hundreds of points, not
        // millions).
        if (project.simulation.horizonSeconds > 0)
            options.sampleSeconds = std::max(60.0, project.simulation.horizonSeconds / 2000);
        control.progress(-1, "Simulating " + std::to_string(workload.jobs.size()) + " jobs on " +
                                 std::to_string(cluster.nodes.size()) + " nodes");
        Diagnostics warnings;
        sim::SimResult result = sim::simulate(cluster, workload, options, &warnings);
        if (control.cancelled()) return nullptr;
        control.progress(0.97, "Collecting the results");
        auto out = convert(result, project, profile);
        // A run that ends with every job done leaves an empty cluster: the map then shows the moment
        // of peak allocation, replayed up to that time (same seed, same decisions).
        const auto peak = std::max_element(result.gpuAllocationPct.begin(), result.gpuAllocationPct.end());
        if (peak != result.gpuAllocationPct.end() && *peak > 0 && result.jobsRunningAtEnd == 0 &&
            result.time[size_t(peak - result.gpuAllocationPct.begin())] < result.endSeconds) {
            control.progress(0.98, "Replaying to the peak for the GPU map");
            sim::SimOptions replay = options;
            replay.horizonSeconds =
                std::max(result.time[size_t(peak - result.gpuAllocationPct.begin())], 1e-3);
            replay.measureFragmentation = false;
            sim::SimResult atPeak = sim::simulate(cluster, workload, replay);
            if (control.cancelled()) return nullptr;
            setPlacements(atPeak, project, out.get());
            out->placementsAtPeak = true;
        }
        for (const auto& w : workload.warnings) out->warnings.push_back(w.str());
        for (const auto& w : warnings) out->warnings.push_back(w.str());
        out->elapsedMs = double(timer.nsecsElapsed()) / 1e6;
        control.progress(1.0, "Done");
        return out;
    }
};

} // namespace

std::unique_ptr<WhatIfEngine> makeDefaultWhatIfEngine() {
    return std::make_unique<SimulatorEngine>();
}

} // namespace gantry::studio
