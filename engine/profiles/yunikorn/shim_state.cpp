#include "profiles/yunikorn/shim_state.h"

#include <algorithm>

namespace gantry::engine::yunikorn {

ShimState::ShimState(PartitionConfig config, std::vector<InputPod> pods,
                     std::vector<std::pair<std::string, std::string>> queuePaths)
    : config_(std::move(config)), pods_(std::move(pods)), queuePaths_(std::move(queuePaths)) {}

uint32_t ShimState::resOfShape(const ClusterState& state, uint32_t shape) {
    if (shapeRes_.size() <= shape) shapeRes_.resize(state.shapes.size(), -1);
    if (shapeRes_[shape] >= 0) return uint32_t(shapeRes_[shape]);
    const PodShape& sh = state.shapes[shape];
    Res r = Res::empty();
    for (int d = 0; d < state.D(); ++d) {
        const bool present = d == kCpu      ? sh.cpuRequested
                             : d == kMemory ? sh.memRequested
                                            : ((sh.presentMask >> d) & 1u);
        if (present) r.set(d, sh.request[size_t(d)]);
    }
    auto& p = *partition_;
    p.askRes.push_back(std::move(r));
    shapeRes_[shape] = int32_t(p.askRes.size()) - 1;
    return uint32_t(shapeRes_[shape]);
}

Res ShimState::resOfList(const ResourceList& list) {
    Res r = Res::empty();
    for (const auto& [name, amount] : list) {
        int d = partition_->dims.intern(yunikornResourceName(name));
        if (d >= 0) r.set(d, amount);
    }
    return r;
}

std::string ShimState::queuePathOf(const std::string& queueName) const {
    for (const auto& [name, path] : queuePaths_)
        if (name == queueName) return path;
    return queueName;
}

void ShimState::attach(ClusterState& state, double now) {
    Dims dims;
    for (int d = 0; d < state.D(); ++d) dims.names.push_back(yunikornResourceName(state.dims.name(d)));
    partition_ = std::make_unique<Partition>(config_, std::move(dims));
    Partition& p = *partition_;
    std::vector<Node> nodes(state.nodes.size());
    const int D = state.D();
    for (uint32_t n = 0; n < state.nodes.size(); ++n) {
        Node& node = nodes[n];
        node.id = state.nodeName(n);
        node.stateNode = int32_t(n);
        node.total = Res::empty();
        const int64_t* a = state.nodeRow(state.allocatable, n);
        for (int d = 0; d < D; ++d)
            if ((state.nodes[n].allocMask >> d) & 1u) node.total.set(d, a[d]);
        node.schedulable = !state.nodes[n].unschedulable;
    }
    p.setNodes(std::move(nodes));
    attaching_ = true;
    state.trackChanges = true;
    for (uint32_t j : state.changedJobs) state.jobs[j].changed = false;
    state.changedJobs.clear();
    askOfTask.assign(state.tasks.size(), -1);
    jobApp_.assign(state.jobs.size(), -1);
    jobOrder_.assign(state.jobs.size(), 0);
    for (uint32_t t = 0; t < state.tasks.size(); ++t) {
        const TaskRec& task = state.tasks[t];
        if (completedStatus(task.status)) continue;
        const bool placed = task.node >= 0 && occupiesNode(task.status);
        if (!task.volcano) {
            if (placed) p.addForeign(uint32_t(task.node), p.askRes[resOfShape(state, task.shape)]);
            continue;
        }
        if (!placed && task.status != TaskStatus::Pending) continue;
        bool rejectedApp = false;
        uint32_t app = appFor(state, t, now, &rejectedApp);
        if (rejectedApp) continue;
        const double created = t < pods_.size() ? pods_[t].createTime : now;
        Ask ask = askFor(state, t, app, created);
        uint32_t index;
        if (placed) {
            index = p.recoverAllocation(app, std::move(ask), uint32_t(task.node), now);
            if (task.job == UINT32_MAX) watched_.push_back(t);
        } else {
            index = p.addAsk(app, std::move(ask));
        }
        askOfTask[t] = int32_t(index);
        appAsks_[app].push_back(index);
    }
    // Only the input pods look applications up by id (appFor): later ones need no entry.
    attaching_ = false;
    appIds_ = {};
}

const std::string* ShimState::rejectionOf(const ClusterState& state, uint32_t t) const {
    if (rejected.empty()) return nullptr;
    const TaskRec& task = state.tasks[t];
    std::string id;
    if (t < pods_.size() && pods_[t].key == state.taskKey(t))
        id = pods_[t].meta.appId;
    else if (task.job != UINT32_MAX && state.jobAlive(task.job))
        id = state.jobs[task.job].key;
    auto it = rejected.find(id);
    return it == rejected.end() ? nullptr : &it->second;
}

// The per-application tables for a new application, whose slot may be a released one's.
void ShimState::newApp(uint32_t app) {
    if (appJob.size() <= app) {
        originatorUid_.resize(app + 1);
        appAsks_.resize(app + 1);
        held.resize(app + 1);
        appJob.resize(app + 1, -1);
    }
    originatorUid_[app].clear();
    appAsks_[app].clear();
    held[app].clear();
    appJob[app] = -1;
}

uint32_t ShimState::appFor(ClusterState& state, uint32_t t, double now, bool* rejectedApp) {
    *rejectedApp = false;
    const bool input = t < pods_.size() && pods_[t].key == state.taskKey(t);
    if (!input && state.tasks[t].job != UINT32_MAX) {
        // A simulated job whose application the core rejected (its queue does not exist and no
        // rule may create it) has no application: its pods stay pending with the reason.
        const uint32_t app = appForJob(state, state.tasks[t].job, now);
        *rejectedApp = app == kNone;
        return app;
    }
    const PodMeta meta = input ? pods_[t].meta : PodMeta{};
    std::string id = input ? meta.appId : "yunikorn-" + state.strings.str(state.tasks[t].ns) + "-autogen";
    auto it = appIds_.find(id);
    if (it != appIds_.end()) {
        if (it->second == kNone) *rejectedApp = true;
        return it->second;
    }
    Partition& p = *partition_;
    Application a;
    a.id = id;
    a.queuePath = meta.queue;
    a.user = meta.user;
    if (a.user.user.empty()) a.user = UserGroup{"nobody", {"nobody"}};
    a.tags["namespace"] = state.strings.str(state.tasks[t].ns);
    a.submissionTime = now;
    a.forced = state.tasks[t].node >= 0;
    a.hardGang = meta.hardGang;
    a.execTimeout =
        meta.placeholderTimeout > 0 ? double(meta.placeholderTimeout) : p.timings.defaultPlaceholderTimeout;
    for (const auto& tg : meta.taskGroups) {
        TaskGroup g;
        g.name = tg.name;
        g.minMember = tg.minMember;
        g.minResource = resOfList(tg.minResource);
        const int pods = p.dims.intern("pods");
        g.minResource.set(pods, 1);
        for (int d = 0; d < kMaxResDims; ++d)
            if (g.minResource.has(d))
                a.placeholderAsk.set(d, a.placeholderAsk.get(d) + g.minResource.get(d) * tg.minMember);
        a.taskGroups.push_back(std::move(g));
    }
    a.placeholderData.resize(a.taskGroups.size());
    std::string why;
    uint32_t app = kNone;
    if (input && !meta.validUser) {
        why = "invalid username, it contains invalid characters";
    } else if (!p.addApplication(std::move(a), &why, &app)) {
    } else {
        appIds_[id] = app;
        newApp(app);
        originatorUid_[app] = input ? (meta.placeholder ? pods_[t].ownerUid : pods_[t].uid) : std::string();
        return app;
    }
    appIds_[id] = kNone;
    rejected[id] = why;
    *rejectedApp = true;
    return kNone;
}

Ask ShimState::askFor(const ClusterState& state, uint32_t t, uint32_t app, double createTime) {
    Partition& p = *partition_;
    const TaskRec& task = state.tasks[t];
    Ask k;
    k.task = int32_t(t);
    k.shapeTask = int32_t(t);
    k.res = resOfShape(state, task.shape);
    k.priority = task.kubePriority;
    k.createTime = createTime;
    k.allowPreemptOther = !state.shapes[task.shape].preemptNever;
    k.allowPreemptSelf = task.preemptable;
    const bool input = t < pods_.size() && pods_[t].key == state.taskKey(t);
    if (!input) return k;
    const PodMeta& meta = pods_[t].meta;
    if (meta.allowPreemption) k.allowPreemptSelf = *meta.allowPreemption;
    k.placeholder = meta.placeholder && !meta.taskGroupName.empty();
    Application& a = p.apps[app];
    if (!meta.taskGroupName.empty()) {
        int index = -1;
        for (size_t g = 0; g < a.taskGroups.size(); ++g)
            if (a.taskGroups[g].name == meta.taskGroupName) index = int(g);
        if (index < 0) {
            TaskGroup g;
            g.name = meta.taskGroupName;
            a.taskGroups.push_back(std::move(g));
            a.placeholderData.emplace_back();
            index = int(a.taskGroups.size()) - 1;
        }
        k.taskGroup = index;
    }
    if (!meta.requiredNode.empty()) {
        uint32_t n = p.nodes.find(meta.requiredNode);
        k.requiredNode = n == UINT32_MAX ? kUnknownNode : int32_t(n);
    }
    if (!k.placeholder && !originatorUid_[app].empty() && pods_[t].uid == originatorUid_[app]) {
        bool haveOne = false;
        for (uint32_t other : appAsks_[app]) haveOne |= p.asks[other].originator;
        k.originator = !haveOne;
    }
    return k;
}

// ---------------------------------------------------------------- simulated jobs

uint32_t ShimState::appForJob(ClusterState& state, uint32_t job, double now) {
    if (jobApp_.size() <= job) jobApp_.resize(state.jobs.size(), -1);
    if (jobOrder_.size() <= job) jobOrder_.resize(state.jobs.size(), 0);
    if (jobApp_[job] >= 0) return uint32_t(jobApp_[job]);
    Partition& p = *partition_;
    const JobRec& j = state.jobs[job];
    const uint32_t model = j.tasks.empty() ? 0 : j.tasks.front();
    Application a;
    // The shim's reading of the pods (controllers.cpp): the app id they name, else the job's own;
    // the queue they name, else the project's queue mapped to its path, else the placement rules.
    a.id = j.application ? state.strings.str(j.application) : j.key;
    a.queuePath = queuePathOf(state.strings.str(j.queueName));
    a.user = UserGroup{"nobody", {"nobody"}};
    a.tags["namespace"] = state.strings.str(j.ns);
    a.submissionTime = now;
    a.job = int32_t(job);
    // Gangs as `gantry export` writes them: one task group of minMember pods, Hard style.
    if (j.minAvailable > 1) {
        TaskGroup g;
        const std::string role = state.roles[state.tasks[model].role];
        g.name = role.empty() ? "worker" : role;
        g.minMember = j.minAvailable;
        g.minResource = p.askRes[resOfShape(state, state.tasks[model].shape)];
        for (int d = 0; d < kMaxResDims; ++d)
            if (g.minResource.has(d)) a.placeholderAsk.set(d, g.minResource.get(d) * g.minMember);
        a.taskGroups.push_back(std::move(g));
        a.placeholderData.resize(1);
        a.hardGang = true;
        a.execTimeout = p.timings.defaultPlaceholderTimeout;
    }
    std::string why;
    uint32_t app = kNone;
    if (!p.addApplication(std::move(a), &why, &app)) {
        rejected[j.key] = why;
        rejectedJobs.emplace_back(job, why);
        return kNone;
    }
    jobApp_[job] = int32_t(app);
    jobOrder_[job] = j.order;
    if (attaching_) appIds_[p.apps[app].id] = app;
    newApp(app);
    appJob[app] = int32_t(job);
    const bool gang = !p.apps[app].taskGroups.empty();
    for (uint32_t t : j.tasks) {
        if (askOfTask.size() <= t) askOfTask.resize(state.tasks.size(), -1);
        if (gang) {
            held[app].push_back(int32_t(t));
            continue;
        }
        // A pod its controller has not created yet asks for nothing (sync adds it once created).
        if (state.tasks[t].status == TaskStatus::NotCreated) continue;
        Ask k = askFor(state, t, app, j.creationSeconds);
        k.originator = t == model;
        uint32_t index = p.addAsk(app, std::move(k));
        askOfTask[t] = int32_t(index);
        appAsks_[app].push_back(index);
    }
    if (gang) addPlaceholders(state, app, model, now);
    return app;
}

// The askRes index of a placeholder's resource, shared by every gang asking for the same (the
// nodes' memos key resources by index: equal keys must be equal resources, which identical ones
// are), instead of one per application.
uint32_t ShimState::groupRes(const Res& res) {
    Partition& p = *partition_;
    for (uint32_t r : groupRes_) {
        const Res& have = p.askRes[r];
        if (have.isNil() == res.isNil() && have.mask() == res.mask() && equals(have, res)) return r;
    }
    p.askRes.push_back(res);
    groupRes_.push_back(uint32_t(p.askRes.size()) - 1);
    return groupRes_.back();
}

// The shim's Reserving phase: minMember placeholder pods of each task group, owned by the
// originator, with its priority.
void ShimState::addPlaceholders(ClusterState& state, uint32_t app, uint32_t modelTask, double now) {
    Partition& p = *partition_;
    for (size_t g = 0; g < p.apps[app].taskGroups.size(); ++g) {
        const uint32_t res = groupRes(p.apps[app].taskGroups[g].minResource);
        for (int32_t m = 0; m < p.apps[app].taskGroups[g].minMember; ++m) {
            Ask k;
            k.shapeTask = int32_t(modelTask);
            k.res = res;
            k.priority = state.tasks[modelTask].kubePriority;
            k.createTime = now;
            k.placeholder = true;
            k.taskGroup = int32_t(g);
            k.allowPreemptOther = !state.shapes[state.tasks[modelTask].shape].preemptNever;
            appAsks_[app].push_back(p.addAsk(app, std::move(k)));
        }
    }
}

// The gang's pods are submitted once its placeholders all run (or it gave them up, Soft).
void ShimState::submitHeld(ClusterState& state, uint32_t app) {
    Partition& p = *partition_;
    if (app >= held.size() || held[app].empty()) return;
    const Application& a = p.apps[app];
    const bool running = a.state == AppState::Running;
    const bool resumed = a.state == AppState::Accepted && isZero(a.allocatedPlaceholder);
    if (!running && !resumed) return;
    const std::vector<int32_t> tasks = std::move(held[app]);
    held[app].clear();
    const JobRec& j = state.jobs[uint32_t(appJob[app])];
    for (int32_t t : tasks) {
        Ask k = askFor(state, uint32_t(t), app, j.creationSeconds);
        k.taskGroup = 0;
        k.originator = uint32_t(t) == j.tasks.front();
        const uint32_t index = p.addAsk(app, std::move(k));
        askOfTask[size_t(t)] = int32_t(index);
        appAsks_[app].push_back(index);
    }
}

// The shim deletes a placeholder the core released; the core hears of it at once in a simulation.
void ShimState::releasePlaceholder(uint32_t ask) {
    Partition& p = *partition_;
    if (!p.asks[ask].allocated) return;
    p.removeAllocation(ask, false);
}

void ShimState::afterDecision(ClusterState& state, const CycleDecision& d, bool simulated) {
    Partition& p = *partition_;
    auto onNode = [&](uint32_t ask, uint32_t node) {
        const Ask& k = p.asks[ask];
        if (k.task < 0) return;
        const uint32_t t = uint32_t(k.task);
        if (!state.tasks[t].inK8sView) {
            state.k8sAdd(t, uint32_t(p.nodes[node].stateNode));
            k8sAdded.emplace_back(t, uint32_t(p.nodes[node].stateNode));
        }
    };
    if (d.type == ResultType::Allocated || d.type == ResultType::AllocatedReserved ||
        d.type == ResultType::Replaced)
        onNode(d.ask, d.node);
    if (!simulated) return;
    // The shim deletes replaced and released placeholders, and those of its own that were preempted.
    if (d.type == ResultType::Replaced) p.removeAllocation(d.replaced, true);
    for (uint32_t ph : d.released) releasePlaceholder(ph);
    for (uint32_t v : d.preempted)
        if (p.asks[v].task < 0) p.removeAllocation(v, false);
    if (d.ask != kNone) submitHeld(state, p.asks[d.ask].app);
}

void ShimState::removeApp(ClusterState& state, uint32_t app) {
    Partition& p = *partition_;
    for (uint32_t ask : appAsks_[app]) {
        Ask& k = p.asks[ask];
        if (k.task >= 0 && size_t(k.task) < askOfTask.size() && askOfTask[size_t(k.task)] == int32_t(ask))
            askOfTask[size_t(k.task)] = -1;
        if (k.allocated)
            p.removeAllocation(ask, false);
        else
            p.removeAsk(ask);
    }
    held[app].clear();
    p.removeApplication(app);
    p.releaseApplication(app, appAsks_[app]);
    appAsks_[app].clear();
    originatorUid_[app].clear();
    appJob[app] = -1;
    (void)state;
}

// A simulation's changes since the last cycle, as the shim's events.
void ShimState::sync(ClusterState& state, double now) {
    Partition& p = *partition_;
    // Swapped, not moved: both lists keep their capacity from cycle to cycle.
    std::vector<uint32_t>& changed = syncedJobs;
    changed.swap(state.changedJobs);
    state.changedJobs.clear();
    for (uint32_t j : changed) state.jobs[j].changed = false;
    if (askOfTask.size() < state.tasks.size()) askOfTask.resize(state.tasks.size(), -1);
    if (jobApp_.size() < state.jobs.size()) jobApp_.resize(state.jobs.size(), -1);
    // Jobs gone first: their task slots may be taken by new arrivals, and an arrival may have taken
    // a finished job's index since the last cycle (a new application, not the old one's pods).
    for (uint32_t j : changed) {
        if (jobApp_[j] < 0) continue;
        if (state.jobAlive(j) && jobOrder_[j] == state.jobs[j].order) continue;
        removeApp(state, uint32_t(jobApp_[j]));
        jobApp_[j] = -1;
    }
    for (uint32_t j : changed) {
        if (!state.jobAlive(j)) continue;
        if (jobApp_[j] < 0) {
            appForJob(state, j, now);
            continue;
        }
        const uint32_t app = uint32_t(jobApp_[j]);
        for (uint32_t t : state.jobs[j].tasks) {
            const int32_t ask = askOfTask[t];
            const TaskRec& task = state.tasks[t];
            if (ask < 0) {
                // Created since by its controller (a JobSet's later replicated job): a new ask.
                if (task.status == TaskStatus::Pending && task.node < 0 && p.apps[app].taskGroups.empty()) {
                    const uint32_t index = p.addAsk(app, askFor(state, t, app, now));
                    askOfTask[t] = int32_t(index);
                    appAsks_[app].push_back(index);
                }
                continue;
            }
            Ask& k = p.asks[uint32_t(ask)];
            if (k.allocated && task.node < 0 && task.status == TaskStatus::Pending) {
                // Evicted and gone: the allocation is released, the recreated pod is a new ask.
                p.removeAllocation(uint32_t(ask), false);
                Ask fresh = askFor(state, t, app, now);
                fresh.taskGroup = k.taskGroup;
                const uint32_t index = p.addAsk(app, std::move(fresh));
                askOfTask[t] = int32_t(index);
                appAsks_[app].push_back(index);
            }
        }
    }
    std::vector<uint32_t> keep;
    for (uint32_t t : watched_) {
        const int32_t ask = askOfTask[t];
        const TaskRec& task = state.tasks[t];
        if (ask < 0) continue;
        if (task.node >= 0 && occupiesNode(task.status)) {
            keep.push_back(t);
            continue;
        }
        if (p.asks[uint32_t(ask)].allocated) p.removeAllocation(uint32_t(ask), false);
        askOfTask[t] = -1;
    }
    watched_ = std::move(keep);
}

} // namespace gantry::engine::yunikorn
