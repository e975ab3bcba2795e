#pragma once
// What-if workload templates (model/workload.h) turned into jobs: arrival times drawn from the
// template's arrival process, a duration per job from its duration distribution, and the PodGroup
// and pods each job submits. Deterministic: the same templates and seed give the same jobs, and
// each template draws from its own streams (adding a template never changes another's jobs).
//
// Arrival processes (times in seconds after `start`):
//   Fixed    explicit times (job i at times[i]); or, without times, one job every `interval`
//            (all at start when no interval is given)
//   Poisson  exponential gaps with mean 3600 / ratePerHour; the first job arrives one gap after start
//   Burst    burstSize jobs at start, the next burstSize after `interval`, and so on
// Durations: Fixed (mean), Exponential (mean), Uniform [min, max], LogNormal (median, sigma).
#include "model/cluster.h"
#include "model/diagnostic.h"
#include "model/workload.h"
#include "workload/random.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gantry::workload {

// Arrival times of `jobs` jobs, non-decreasing. A Fixed list shorter than `jobs` repeats its last
// time for the rest (checkTemplate warns about it).
std::vector<double> arrivalTimes(const ArrivalProcess& arrival, int32_t jobs, Random& rng);
double drawDuration(const DurationDistribution& duration, Random& rng);

struct JobDraw {
    double arrival = 0;
    double duration = 0;
};

// The draws of a template, from streams named after it ("arrival:<name>", "duration:<name>"): a
// template's jobs do not change when other templates are added, removed or reordered.
std::vector<JobDraw> drawJobs(const WorkloadTemplate& w, uint64_t seed);

// Warnings about a template the expansion reads in a particular way (a times list whose length is
// not the job count).
Diagnostics checkTemplate(const WorkloadTemplate& w);

// Names: job n of template "train" is "train-n"; its pods are "train-n-<role>-<i>".
std::string jobName(const WorkloadTemplate& w, int32_t n);
std::string podName(const WorkloadTemplate& w, int32_t n, int32_t replica);

// The PodGroup and the pods of job n. Pods ask for the template's resources plus its GPUs (a share
// of one device is requested as milli-GPUs of the GPU resource), carry the priority the cluster's
// priority class gives them (as admission would), and are confined to the allowed GPU models by a
// required node affinity on nvidia.com/gpu.product.
PodGroup templatePodGroup(const WorkloadTemplate& w, int32_t n, const JobDraw& draw);
std::vector<Pod> templatePods(const WorkloadTemplate& w, int32_t n, const Cluster& cluster);

// Every job of every template, in template order, as model objects (for a view of the whole
// workload or small runs; the simulator materialises jobs one at a time instead).
struct Expansion {
    std::vector<PodGroup> podGroups;
    std::vector<Pod> pods;
    Diagnostics warnings;
};
Expansion expandWorkloads(const std::vector<WorkloadTemplate>& templates, const Cluster& cluster,
                          uint64_t seed);

// Admission's view of a pod's priority: its class's value (or the global default class's, or 0)
// when the pod carries none, and the class's preemption policy when the pod names none.
void resolvePriority(Pod& pod, const Cluster& cluster);

// The label that names a node's GPU model (set by the inventory and by GPU feature discovery).
inline constexpr const char* kGpuProductLabel = "nvidia.com/gpu.product";

} // namespace gantry::workload
