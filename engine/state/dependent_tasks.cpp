// Volcano's task start order (a Volcano Job's spec.tasks[].dependsOn), as its job controller keeps
// it at volcano-sh/volcano ed72c7c8 (pkg/controllers/job/job_controller_actions.go): syncJob makes
// a task's missing pods only when waitDependsOnTaskMeetCondition holds. A named task is ready when
// at least its minAvailable of its pods are Running (with every container ready) or Succeeded
// (isDependsOnPodsReady); iteration "any" needs one named task ready, otherwise all. Gantry has no
// readiness probes: a Running pod is ready.
#include "state/cluster_state.h"

#include <algorithm>

namespace gantry::engine {

bool ClusterState::dependenciesHold(uint32_t job, const DependentTask& task) const {
    const JobRec& j = jobs[job];
    auto ready = [&](uint16_t role) {
        auto min = std::find_if(j.minTaskMember.begin(), j.minTaskMember.end(),
                                [&](const auto& m) { return m.first == role; });
        if (min == j.minTaskMember.end()) return true; // no minimum: nothing to wait for
        int32_t running = 0;
        for (uint32_t t : j.tasks)
            if (tasks[t].role == role &&
                (tasks[t].status == TaskStatus::Running || tasks[t].status == TaskStatus::Succeeded))
                ++running;
        return running >= min->second;
    };
    return task.any ? std::any_of(task.after.begin(), task.after.end(), ready)
                    : std::all_of(task.after.begin(), task.after.end(), ready);
}

int ClusterState::createReadyDependents(uint32_t job, const BuildOptions& options) {
    int added = 0;
    for (bool again = true; again;) {
        again = false;
        for (size_t i = 0; i < jobs[job].dependents.size(); ++i) {
            DependentTask& d = jobs[job].dependents[i];
            if (d.created || !dependenciesHold(job, d)) continue;
            d.created = true;
            again = true; // a task with minAvailable 0 is ready at once: another may follow
            for (const Pod& p : d.pods) addTaskOf(p, job, options); // adds tasks, never jobs
            added += int(d.pods.size());
        }
    }
    if (added > 0) {
        jobs[job].requeuedAt = ++requeues;
        markChanged(job);
    }
    return added;
}

void ClusterState::withdrawDependents(uint32_t job) {
    JobRec& j = jobs[job];
    for (auto& d : j.dependents) {
        if (!d.created || dependenciesHold(job, d)) continue;
        const bool allWaiting = std::all_of(j.tasks.begin(), j.tasks.end(), [&](uint32_t t) {
            return tasks[t].role != d.role || (tasks[t].status == TaskStatus::Pending && tasks[t].node < 0);
        });
        if (!allWaiting) continue; // still being torn down: the controller deletes it first
        std::vector<uint32_t> keep;
        for (uint32_t t : j.tasks) {
            if (tasks[t].role != d.role) {
                keep.push_back(t);
                continue;
            }
            j.statusCount[int(TaskStatus::Pending)]--;
            if (shapes[tasks[t].shape].bestEffort) j.pendingBestEffort--;
            freeTask(t);
        }
        j.tasks = std::move(keep);
        j.requestMask = 0;
        for (uint32_t t : j.tasks) j.requestMask |= shapes[tasks[t].shape].presentMask;
        d.created = false;
        markChanged(job);
    }
}

} // namespace gantry::engine
