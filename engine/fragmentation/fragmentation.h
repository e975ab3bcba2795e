#pragma once
// GPU fragmentation as Weng et al. define it ("Beware of Fragmentation", USENIX ATC '23), computed
// the way their simulator (hkust-adsl/kubernetes-scheduler-simulator) computes it:
//
//   target workload M: the most popular task shapes (CPU, GPU milli per device, device count, model
//     constraint) covering >= 95 % of tasks, frequencies renormalised to sum to 1;
//   F_n(m): the free GPU milli of node n that task shape m cannot use — all of it when m needs no
//     GPU, may not use n's model, or does not fit (too few devices with enough free milli, or too
//     little free CPU); otherwise only the devices with less free milli than m asks per device;
//   F_n(M) = sum_m p_m F_n(m);  cluster F(M) = sum_n F_n(M).
//
// Sums are accumulated in the authors' order (per class, classes in a fixed order) so that the
// FGD policy's integer scores, which truncate a sigmoid of differences of these sums, come out the
// same.
#include "fragmentation/gpu_node.h"

#include <array>
#include <span>
#include <vector>

namespace gantry::frag {

struct WeightedShape {
    TaskShape shape;
    double weight = 0; // p_m, renormalised
    int64_t count = 0; // tasks of this shape in the trace
};

struct TargetWorkload {
    std::vector<WeightedShape> shapes; // most popular first
    int64_t tasks = 0;                 // tasks counted
    int64_t coveredTasks = 0;          // tasks of the kept shapes
    double coverage() const { return tasks ? double(coveredTasks) / double(tasks) : 0; }
};

// Counts the shapes, keeps the most popular until they cover at least `threshold` of the tasks
// (ties in popularity ordered by larger CPU, GPU milli, device count, spec), renormalises.
TargetWorkload targetWorkload(std::span<const TaskShape> tasks, double threshold = 0.95);
// The same from shapes with their task counts (weight ignored; equal shapes may repeat), for
// workloads too large to list task by task.
TargetWorkload targetWorkload(std::span<const WeightedShape> counted, double threshold = 0.95);

// How a node relates to one task shape (the authors' quadrants).
enum class FragClass : int {
    LackBoth = 0,        // Q1: neither enough GPU nor CPU
    LackGpu = 1,         // Q2: enough CPU, not enough GPU
    Fits = 2,            // Q3: the task fits
    LackCpu = 3,         // Q4: enough GPU, not enough CPU
    NoGpuNeededFits = 4, // the task needs no GPU and fits
    NoGpuNeededLacksCpu = 5,
    NoAccess = 6, // the task may not use this node's GPU model
};
inline constexpr int kFragClasses = 7;

FragClass classify(const NodeState& node, const TaskShape& task);

// F_n(m) in GPU milli.
int64_t fragmentOf(const NodeState& node, const TaskShape& task);

// Free GPU milli of a node split by class, weighted by p_m. fragmented() = F_n(M); idle() = the
// node's free milli times sum p_m (= its free milli).
struct FragBuckets {
    std::array<double, kFragClasses> milli{};
    double fragmented() const; // every class but Fits, summed in class order
    double idle() const;       // all classes
    FragBuckets& operator+=(const FragBuckets& o);
};

FragBuckets nodeFragBuckets(const NodeState& node, const TargetWorkload& workload);
inline double nodeFragmentation(const NodeState& node, const TargetWorkload& workload) {
    return nodeFragBuckets(node, workload).fragmented();
}

// F_n(M) split over the node's devices (for a heatmap): device g gets sum_m p_m R_g when m cannot
// use the node at all, p_m R_g when R_g is too small for m, 0 otherwise. Sums to F_n(M).
std::vector<double> gpuFragmentation(const NodeState& node, const TargetWorkload& workload);

struct ClusterFragmentation {
    double fragMilli = 0; // F(M)
    double idleMilli = 0; // free GPU milli
    int64_t totalMilli = 0;
    double fragOverTotalPct() const { return totalMilli ? 100.0 * fragMilli / double(totalMilli) : 0; }
    double fragOverIdlePct() const { return idleMilli > 0 ? 100.0 * fragMilli / idleMilli : 0; }
};
ClusterFragmentation clusterFragmentation(std::span<const NodeState> nodes, const TargetWorkload& workload);

} // namespace gantry::frag
