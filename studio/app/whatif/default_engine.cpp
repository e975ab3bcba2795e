// The what-if engine built into the studio: the time-based simulator (engine/sim), whose every
// scheduling cycle asks the chosen scheduler profile for its decisions. The project's workload
// templates and the snapshot's what-if jobs are simulated with the project's policy for it.
#include "input_error.h"
#include "profile/registry.h"
#include "sim/simulator.h"
#include "sim/whatif.h"
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
                                      const std::string& profile) {
    auto out = std::make_unique<WhatIfResult>();
    out->profileName = profile;
    out->profile = engine::findProfile(profile)->describe(policiesOf(project));
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

    std::unique_ptr<WhatIfResult> run(const Project& project, const std::string& profile,
                                      const WhatIfControl& control) override {
        QElapsedTimer timer;
        timer.start();
        control.progress(0.02, "Expanding the workload");
        Cluster cluster = project.cluster;
        const uint64_t seed = project.simulation.seed;
        // Jobs with no timing of their own arrive at 0 and run to the end.
        sim::SimWorkload workload = sim::projectWorkload(project.workloads, cluster, {}, seed);
        if (control.cancelled()) return nullptr;
        if (workload.jobs.empty())
            throw std::runtime_error(
                "The project has no jobs to simulate: add workload templates in the Workloads tab, "
                "or open a snapshot with pending jobs.");

        sim::SimOptions options;
        options.seed = seed;
        options.cycleSeconds = project.simulation.cycleSeconds > 0 ? project.simulation.cycleSeconds : 1.0;
        options.horizonSeconds = project.simulation.horizonSeconds;
        if (!engine::findProfile(profile))
            throw std::runtime_error("Unknown scheduler profile '" + profile + "' (" +
                                     engine::profileNames() + ").");
        options.profile = profile;
        options.policies = policiesOf(project);
        std::vector<std::string> notes;
        Diagnostics warnings;
        sim::fitPolicy(options, workload, SourceRef{project.name, 0, 0, 0}, &notes, &warnings);
        // A sample every minute, or coarser for long horizons (the charts need hundreds of points, not
        // millions).
        if (project.simulation.horizonSeconds > 0)
            options.sampleSeconds = std::max(60.0, project.simulation.horizonSeconds / 2000);
        control.progress(-1, "Simulating " + std::to_string(workload.jobs.size()) + " jobs on " +
                                 std::to_string(cluster.nodes.size()) + " nodes");
        options.keepPeakPlacements = true;
        sim::SimResult result;
        try {
            result = sim::simulate(cluster, workload, options, &warnings);
        } catch (const std::invalid_argument& e) {
            throwIfErrors(warnings); // the policy's own errors, located
            throw std::runtime_error(e.what());
        }
        if (control.cancelled()) return nullptr;
        control.progress(0.97, "Collecting the results");
        auto out = convert(result, project, profile);
        out->sim = std::make_shared<const sim::SimResult>(result);
        // A run that ends with every job done leaves an empty cluster: the map then shows the moment
        // of peak allocation, which the simulator kept.
        if (result.peakSeconds >= 0 && result.jobsRunningAtEnd == 0 &&
            result.peakSeconds < result.endSeconds) {
            sim::SimResult atPeak;
            atPeak.endSeconds = result.peakSeconds;
            atPeak.nodeNames = result.nodeNames;
            atPeak.queues = result.queues;
            atPeak.placements = result.peakPlacements;
            atPeak.jobNames = result.peakJobNames;
            setPlacements(atPeak, project, out.get());
            out->placementsAtPeak = true;
        }
        out->warnings.insert(out->warnings.begin(), notes.begin(), notes.end());
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
