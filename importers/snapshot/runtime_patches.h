#pragma once
// Kubeflow Trainer's runtimePatches: a TrainJob's changes to the JobSet its runtime describes, each
// strategic-merged in order into the runtime's JobSet template before the JobSet is built
// (mergeRuntimePatches in kubeflow/trainer pkg/runtime/core/trainingruntime.go, at 8c0f5059). The
// pods get what scheduling reads from a patch: template labels and annotations, nodeSelector,
// affinity, tolerations and scheduling gates, merged as a strategic merge patch merges them into a
// corev1.PodSpec. The rest (service account, volumes, containers' env and mounts, security
// context, the JobSet's own metadata) changes no placement.
#include "import_state.h"

#include <string>
#include <vector>

namespace gantry::snapshot {

// The TrainJob's spec.runtimePatches, checked as the trainer's webhook and the CRD check them.
void checkRuntimePatches(const Y& patches);
// A patch naming a replicated job the runtime does not have is refused by the trainer's webhook
// ("must not have replicated job that doesn't exist in the runtime job template").
void checkPatchedReplicatedJobs(const Y& patches, const std::vector<std::string>& runtimeJobs);
// Applies every patch's pod template for `replicatedJob` to `pod`, in order.
void applyRuntimePatches(const Y& patches, const std::string& replicatedJob, Pod& pod);

} // namespace gantry::snapshot
