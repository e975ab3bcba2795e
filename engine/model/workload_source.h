#pragma once
// Where a gang came from, as the schedulers' controllers tell workloads apart: a scheduler's own
// object (a Volcano PodGroup or Job, a Kueue Workload), Gantry's own what-if (a template, a trace
// task), or a generic Kubernetes workload (a batch Job, a JobSet, a Kubeflow job, pods) that each
// scheduler reads through its own labels and controllers.
#include "model/pod.h"
#include "model/pod_group.h"

#include <optional>
#include <string>
#include <vector>

namespace gantry {

enum class WorkloadSource { Gantry, Volcano, Kueue, Generic };

WorkloadSource workloadSource(const PodGroup& group);

// A label of the workload object, else of its first pod that has it (controllers copy a template's
// metadata onto its pods; plain pods carry their own).
std::optional<std::string> workloadLabel(const PodGroup& group, const std::vector<const Pod*>& pods,
                                         const char* key);
// The same for annotations.
std::optional<std::string> workloadAnnotation(const PodGroup& group, const std::vector<const Pod*>& pods,
                                              const char* key);
// An annotation of the pods alone (what a pod-level controller reads).
std::optional<std::string> podAnnotation(const std::vector<const Pod*>& pods, const char* key);

// The requests of the first pod times n (controllers that make a gang of n pods of a template).
ResourceList podRequestsTimes(const std::vector<const Pod*>& pods, int32_t n);

} // namespace gantry
