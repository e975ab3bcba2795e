#include "profiles/kueue/pod_placement.h"

#include <algorithm>
#include <map>

namespace gantry::engine::kueue {

namespace {

// kube-scheduler preempts by pod priority under Kueue too, but Kueue's cycle does not apply its
// evictions yet: placement runs without DefaultPreemption (docs/kueue.md).
KubeSchedulerProfile withoutPreemption(KubeSchedulerProfile profile) {
    profile.preemption = false;
    return profile;
}

} // namespace

Placement::Placement(const Cluster& cluster, const SchedulerPolicies& policies)
    : kube_(withoutPreemption(policies.kube), cluster, nullptr) {}

// Room for the workload and for every task slot of the state.
void Placement::track(const ClusterState& st, uint32_t wi) {
    if (tasksOf_.size() <= wi) tasksOf_.resize(wi + 1);
    if (ownShape_.size() < st.tasks.size()) {
        ownShape_.resize(st.tasks.size(), UINT32_MAX);
        placeable_.resize(st.tasks.size(), 0);
        listed_.resize(st.tasks.size(), 0);
    }
}

void Placement::admit(ClusterState& st, const World& w, uint32_t wi, const Workload& wl) {
    if (wl.job == UINT32_MAX) return;
    track(st, wi);
    std::map<std::string, size_t> podSetOf;
    for (size_t i = 0; i < wl.podSets.size(); ++i) podSetOf.emplace(wl.podSets[i].name, i);
    std::vector<int32_t> placed(wl.podSets.size(), 0);
    for (uint32_t t : tasksOf(st, wl)) {
        const std::string& role = st.roles[st.tasks[t].role];
        auto it = podSetOf.find(role.empty() ? "main" : role);
        if (it == podSetOf.end() || it->second >= wl.admission.size()) continue;
        const PodSetAdmission& a = wl.admission[it->second];
        if (placed[it->second] >= a.count) continue;
        ++placed[it->second];
        placeable_[t] = 1;
        tasksOf_[wi].push_back(t);
        if (!listed_[t]) {
            listed_[t] = 1;
            candidates_.push_back(t);
        }
        Labels selector;
        std::vector<Toleration> tolerations;
        std::vector<int> seen;
        for (int f : a.flavorOf) {
            if (f < 0 || std::find(seen.begin(), seen.end(), f) != seen.end()) continue;
            seen.push_back(f);
            const Flavor& flavor = w.flavors[size_t(f)];
            for (const auto& [k, v] : flavor.nodeLabels) selector[k] = v;
            tolerations.insert(tolerations.end(), flavor.tolerations.begin(), flavor.tolerations.end());
        }
        if (ownShape_[t] == UINT32_MAX) ownShape_[t] = st.tasks[t].shape;
        // Only a pod not yet placed changes shape: a placed one keeps what it was placed with.
        if (st.tasks[t].status == TaskStatus::Pending || st.tasks[t].status == TaskStatus::NotCreated)
            st.tasks[t].shape = st.shapeWithPlacement(ownShape_[t], selector, tolerations);
    }
}

void Placement::unmanaged(ClusterState& st, uint32_t wi, const Workload& wl) {
    if (wl.job == UINT32_MAX) return;
    track(st, wi);
    for (uint32_t t : tasksOf(st, wl)) {
        placeable_[t] = 1;
        tasksOf_[wi].push_back(t);
        if (!listed_[t]) {
            listed_[t] = 1;
            candidates_.push_back(t);
        }
    }
}

void Placement::foreign(const ClusterState& st) {
    if (ownShape_.size() < st.tasks.size()) {
        ownShape_.resize(st.tasks.size(), UINT32_MAX);
        placeable_.resize(st.tasks.size(), 0);
        listed_.resize(st.tasks.size(), 0);
    }
    for (uint32_t t = 0; t < st.tasks.size(); ++t)
        if (st.tasks[t].status == TaskStatus::Pending && !st.tasks[t].ours && !listed_[t]) {
            placeable_[t] = 1;
            listed_[t] = 1;
            candidates_.push_back(t);
        }
}

void Placement::release(ClusterState& st, uint32_t wi, const Workload& wl) {
    if (wi >= tasksOf_.size()) return;
    const bool same = wl.job < st.jobs.size() && st.jobAlive(wl.job) && st.jobs[wl.job].order == wl.jobOrder;
    for (uint32_t t : tasksOf_[wi]) {
        placeable_[t] = 0;
        if (same && st.tasks[t].job == wl.job &&
            (st.tasks[t].status == TaskStatus::Pending || st.tasks[t].status == TaskStatus::NotCreated) &&
            ownShape_[t] != UINT32_MAX)
            st.tasks[t].shape = ownShape_[t];
        ownShape_[t] = UINT32_MAX;
    }
    tasksOf_[wi].clear();
}

CycleResult Placement::place(ClusterState& st, CycleOptions options) {
    // A suspended job has no pods: kube-scheduler sees only the pending pods of admitted workloads.
    std::sort(candidates_.begin(), candidates_.end());
    pending_.clear();
    size_t kept = 0;
    for (uint32_t t : candidates_) {
        const TaskRec& task = st.tasks[t];
        // A pod its controller creates later stays listed: it is placed once it exists.
        if (!placeable_[t] || (task.status != TaskStatus::Pending && task.status != TaskStatus::NotCreated)) {
            listed_[t] = 0;
            continue;
        }
        candidates_[kept++] = t;
        if ((task.job != UINT32_MAX || !task.ours) && task.status == TaskStatus::Pending)
            pending_.push_back(t);
    }
    candidates_.resize(kept);
    options.pendingPods = &pending_;
    return kube_.cycle(st, options);
}

} // namespace gantry::engine::kueue
