#pragma once
// What-if workload templates: a job shape repeated over an arrival process, each job running for a
// drawn duration. expandWorkloads (engine/workload/) turns them into PodGroups and Pods, seeded.
#include "model/pod.h"
#include "model/pod_group.h"
#include "model/resources.h"
#include "model/selectors.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gantry {

struct ArrivalProcess {
    enum class Kind { Fixed, Poisson, Burst };
    Kind kind = Kind::Fixed;
    double startSeconds = 0;
    std::vector<double> times;  // Fixed: explicit arrival times (empty = all at start)
    double intervalSeconds = 0; // Fixed with no times: one job every interval; Burst: between bursts
    double ratePerHour = 0;     // Poisson: mean arrivals per hour
    int32_t burstSize = 1;      // Burst: jobs per burst
    bool operator==(const ArrivalProcess&) const = default;
};

struct DurationDistribution {
    enum class Kind { Fixed, Exponential, Uniform, LogNormal };
    Kind kind = Kind::Fixed;
    double meanSeconds = 3600; // Fixed value, Exponential mean, LogNormal median
    double minSeconds = 0;     // Uniform bounds
    double maxSeconds = 0;
    double sigma = 0.5; // LogNormal shape
    bool operator==(const DurationDistribution&) const = default;
};

struct WorkloadTemplate {
    std::string name;
    std::string ns = "default";
    std::string queue;
    std::string priorityClass;
    int32_t jobs = 1;      // how many jobs the arrival process produces
    int32_t replicas = 1;  // pods per job
    int32_t minMember = 0; // gang size; 0 = all replicas (all-or-nothing)
    std::string role = "worker";
    ResourceList podRequests; // per pod; includes the GPU resource for whole-GPU pods
    GpuRequest gpu;           // per pod
    Labels nodeSelector;
    std::vector<Toleration> tolerations;
    NetworkTopologyConstraint networkTopology;
    ArrivalProcess arrival;
    DurationDistribution duration;
    double checkpointSeconds = 0;
    bool preemptable = true;
    SourceRef source;
    bool operator==(const WorkloadTemplate& o) const {
        return name == o.name && ns == o.ns && queue == o.queue && priorityClass == o.priorityClass &&
               jobs == o.jobs && replicas == o.replicas && minMember == o.minMember && role == o.role &&
               podRequests == o.podRequests && gpu == o.gpu && nodeSelector == o.nodeSelector &&
               tolerations == o.tolerations && networkTopology == o.networkTopology && arrival == o.arrival &&
               duration == o.duration && checkpointSeconds == o.checkpointSeconds &&
               preemptable == o.preemptable;
    }
};

} // namespace gantry
