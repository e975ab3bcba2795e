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
    // Applications of the input with a real pod already placed have passed their Reserving stage
    // (Application.skipReservationStage): their gang makes no placeholders.
    std::set<std::string> pastReserving;
    for (uint32_t t = 0; t < state.tasks.size() && t < pods_.size(); ++t) {
        const TaskRec& task = state.tasks[t];
        if (isInput(state, t) && !pods_[t].meta.placeholder && task.node >= 0 && occupiesNode(task.status))
            pastReserving.insert(pods_[t].meta.appId);
    }
    std::vector<std::pair<uint32_t, uint32_t>> reserving; // (app, its originator's task)
    for (uint32_t t = 0; t < state.tasks.size(); ++t) {
        const TaskRec& task = state.tasks[t];
        if (completedStatus(task.status)) continue;
        const bool placed = task.node >= 0 && occupiesNode(task.status);
        if (!task.ours) {
            if (placed) p.addForeign(uint32_t(task.node), p.askRes[resOfShape(state, task.shape)]);
            continue;
        }
        if (!placed && task.status != TaskStatus::Pending) continue;
        // The shim makes no application or task of a pod that scheduling gates hold
        // (Context.updateYuniKornPod in pkg/cache/context.go).
        if (!placed && state.schedulingGated(t)) continue;
        bool rejectedApp = false;
        uint32_t app = appFor(state, t, now, &rejectedApp);
        if (rejectedApp) continue;
        const bool input = isInput(state, t);
        if (!input && task.job != UINT32_MAX) continue; // appForJob took the job's pods
        // The shim's Reserving stage: placeholders are scheduled, the real pods wait for them.
        if (input && !placed && !pods_[t].meta.placeholder && !p.apps[app].taskGroups.empty() &&
            !pastReserving.count(pods_[t].meta.appId)) {
            if (held[app].empty()) reserving.emplace_back(app, t);
            held[app].push_back(int32_t(t));
            continue;
        }
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
        noteAsk(app, index, 0);
    }
    // The placeholders of the gangs reserving, created with their originator (the first real pod).
    for (const auto& [app, originator] : reserving) {
        addPlaceholders(state, app, originator, pods_[originator].createTime, 0);
        submitHeld(state, app); // the input's placeholders may all be bound already
    }
    // Only the input pods look applications up by id (appFor): later ones need no entry.
    attaching_ = false;
    appIds_ = {};
}

bool ShimState::isInput(const ClusterState& state, uint32_t t) const {
    return t < pods_.size() && pods_[t].key == state.taskKey(t);
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
    Application a = applicationOf(meta, state.strings.str(state.tasks[t].ns), now);
    a.id = id;
    a.forced = state.tasks[t].node >= 0;
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

// What the shim sends the core for a new application (AddApplicationRequest): the pod's queue and
// user, its task groups and gang style, and the tags of its namespace.
Application ShimState::applicationOf(const PodMeta& meta, const std::string& ns, double now) {
    Partition& p = *partition_;
    Application a;
    a.queuePath = meta.queue;
    a.user = meta.user;
    if (a.user.user.empty()) a.user = UserGroup{"nobody", {"nobody"}};
    addNamespaceTags(a, ns);
    a.submissionTime = now;
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
    return a;
}

void ShimState::addNamespaceTags(Application& a, const std::string& ns) {
    a.tags["namespace"] = ns;
    auto it = namespaceTags.find(ns);
    if (it == namespaceTags.end()) return;
    const NamespaceTags& t = it->second;
    if (!t.quota.empty() || !t.guaranteed.empty() || t.maxApps > 0) {
        a.queueTags = std::make_unique<Application::QueueTags>();
        if (!t.quota.empty()) a.queueTags->max = resOfList(t.quota);
        if (!t.guaranteed.empty()) a.queueTags->guaranteed = resOfList(t.guaranteed);
        a.queueTags->maxApps = t.maxApps;
    }
    if (!t.parentQueue.empty()) a.tags["namespace.parentqueue"] = t.parentQueue;
}

int32_t ShimState::taskGroupOf(uint32_t app, const std::string& name) {
    if (name.empty()) return -1;
    Application& a = partition_->apps[app];
    for (size_t g = 0; g < a.taskGroups.size(); ++g)
        if (a.taskGroups[g].name == name) return int32_t(g);
    // A group the task groups do not define: the core keeps its own count of it.
    TaskGroup g;
    g.name = name;
    a.taskGroups.push_back(std::move(g));
    a.placeholderData.emplace_back();
    return int32_t(a.taskGroups.size()) - 1;
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
    const bool input = isInput(state, t);
    const PodMeta* workload = input ? nullptr : workloadMetaOf(task.job);
    if (workload) {
        // A simulated pod of a workload read from its manifest: its template's annotations.
        if (workload->allowPreemption) k.allowPreemptSelf = *workload->allowPreemption;
        k.taskGroup = taskGroupOf(app, workload->taskGroupName);
    }
    if (!input) return k;
    const PodMeta& meta = pods_[t].meta;
    if (meta.allowPreemption) k.allowPreemptSelf = *meta.allowPreemption;
    k.placeholder = meta.placeholder && !meta.taskGroupName.empty();
    k.taskGroup = taskGroupOf(app, meta.taskGroupName);
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
    // Every pod gated: nothing the shim sees yet.
    if (!j.tasks.empty() && j.schedulingGatedTasks == int32_t(j.tasks.size())) return kNone;
    const uint32_t model = j.tasks.empty() ? 0 : j.tasks.front();
    // A workload read from its manifest: the shim reads its pods (controllers.cpp keeps the first
    // one's reading by application id): user, task groups, gang style, placeholder timeout.
    const PodMeta* meta = nullptr;
    if (workloadMeta && !workloadMeta->empty()) {
        auto it = workloadMeta->find(j.application ? state.strings.str(j.application)
                                                   : "yunikorn-" + state.strings.str(j.ns) + "-autogen");
        if (it != workloadMeta->end()) meta = &it->second;
    }
    if (jobMeta_.size() <= job) jobMeta_.resize(state.jobs.size(), nullptr);
    jobMeta_[job] = meta;
    // Pods naming the id of a live application are its asks (the shim keys applications by id:
    // a namespace's pods without an id of their own form its one generated application).
    if (meta) {
        auto live = sharedApps_.find(meta->appId);
        if (live != sharedApps_.end() && !p.apps[live->second].finished()) {
            join(state, job, live->second);
            return live->second;
        }
    }
    Application a;
    if (meta) a = applicationOf(*meta, state.strings.str(j.ns), now);
    // The shim's reading of the pods (controllers.cpp): the app id they name, else the job's own;
    // the queue they name, else the project's queue mapped to its path, else the placement rules.
    a.id = j.application ? state.strings.str(j.application) : j.key;
    a.queuePath = queuePathOf(state.strings.str(j.queueName));
    if (!meta) {
        a.user = UserGroup{"nobody", {"nobody"}};
        addNamespaceTags(a, state.strings.str(j.ns));
        a.submissionTime = now;
    }
    a.job = int32_t(job);
    // Gangs of Gantry's own workloads as `gantry export` writes them: one task group of minMember
    // pods, Hard style.
    if (!meta && j.minAvailable > 1) {
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
    bool added = false;
    if (meta && !meta->validUser)
        why = "invalid username, it contains invalid characters";
    else
        added = p.addApplication(std::move(a), &why, &app);
    if (!added) {
        rejected[j.key] = why;
        rejectedJobs.emplace_back(job, why);
        return kNone;
    }
    jobApp_[job] = int32_t(app);
    jobOrder_[job] = j.order;
    if (attaching_) appIds_[p.apps[app].id] = app;
    newApp(app);
    appJob[app] = int32_t(job);
    if (meta) {
        sharedApps_[meta->appId] = app;
        members_[app].jobs.push_back(job);
    }
    const bool gang = !p.apps[app].taskGroups.empty();
    for (uint32_t t : j.tasks) {
        if (askOfTask.size() <= t) askOfTask.resize(state.tasks.size(), -1);
        if (state.schedulingGated(t)) continue;
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
        noteAsk(app, index, j.order);
    }
    if (gang) addPlaceholders(state, app, model, now, j.order);
    return app;
}

// A later job of a live application: its pods are asks of it (held while its gang reserves).
void ShimState::join(ClusterState& state, uint32_t job, uint32_t app) {
    Partition& p = *partition_;
    const JobRec& j = state.jobs[job];
    jobApp_[job] = int32_t(app);
    jobOrder_[job] = j.order;
    members_[app].jobs.push_back(job);
    for (uint32_t t : j.tasks) {
        if (askOfTask.size() <= t) askOfTask.resize(state.tasks.size(), -1);
        if (state.schedulingGated(t)) continue;
        if (!held[app].empty()) {
            held[app].push_back(int32_t(t));
            continue;
        }
        const uint32_t index = p.addAsk(app, askFor(state, t, app, j.creationSeconds));
        askOfTask[t] = int32_t(index);
        noteAsk(app, index, j.order);
    }
}

std::vector<uint32_t> ShimState::jobsOf(uint32_t app) const {
    if (auto it = members_.find(app); it != members_.end()) return it->second.jobs;
    if (app < appJob.size() && appJob[app] >= 0) return {uint32_t(appJob[app])};
    return {};
}

void ShimState::noteAsk(uint32_t app, uint32_t ask, uint32_t owner) {
    appAsks_[app].push_back(ask);
    if (auto it = members_.find(app); it != members_.end()) it->second.asks.emplace_back(ask, owner);
}

// A job of an application leaves: its asks and allocations go; the application with its last one.
void ShimState::leave(ClusterState& state, uint32_t job, uint32_t app) {
    auto it = members_.find(app);
    if (it == members_.end() || it->second.jobs.size() <= 1) {
        removeApp(state, app);
        return;
    }
    Partition& p = *partition_;
    Members& m = it->second;
    std::erase(m.jobs, job);
    const uint32_t owner = jobOrder_[job];
    for (const auto& [ask, madeFor] : m.asks) {
        if (madeFor != owner) continue;
        Ask& k = p.asks[ask];
        if (k.task >= 0 && size_t(k.task) < askOfTask.size() && askOfTask[size_t(k.task)] == int32_t(ask))
            askOfTask[size_t(k.task)] = -1;
        if (k.allocated)
            p.removeAllocation(ask, false);
        else
            p.removeAsk(ask);
    }
    std::erase_if(m.asks, [&](const auto& entry) { return entry.second == owner; });
    // Its held pods too: the job's task slots may be another job's by now, so only the pods of
    // the remaining jobs stay.
    std::erase_if(held[app], [&](int32_t t) {
        const uint32_t of = state.tasks[uint32_t(t)].job;
        return std::find(m.jobs.begin(), m.jobs.end(), of) == m.jobs.end();
    });
    if (appJob[app] == int32_t(job)) appJob[app] = int32_t(m.jobs.front());
}

const PodMeta* ShimState::workloadMetaOf(uint32_t job) const {
    return job < jobMeta_.size() ? jobMeta_[job] : nullptr;
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
void ShimState::addPlaceholders(ClusterState& state, uint32_t app, uint32_t modelTask, double now,
                                uint32_t owner) {
    Partition& p = *partition_;
    for (size_t g = 0; g < p.apps[app].taskGroups.size(); ++g) {
        const uint32_t res = groupRes(p.apps[app].taskGroups[g].minResource);
        // Only the missing ones (PlaceholderManager.createAppPlaceholders): the input may hold some.
        const int64_t have = p.apps[app].placeholderData[g].count;
        for (int64_t m = have; m < p.apps[app].taskGroups[g].minMember; ++m) {
            Ask k;
            k.shapeTask = int32_t(modelTask);
            k.res = res;
            k.priority = state.tasks[modelTask].kubePriority;
            k.createTime = now;
            k.placeholder = true;
            k.taskGroup = int32_t(g);
            k.allowPreemptOther = !state.shapes[state.tasks[modelTask].shape].preemptNever;
            noteAsk(app, p.addAsk(app, std::move(k)), owner);
        }
    }
}

// The gang's pods are submitted once its placeholders all run (or it gave them up, Soft).
// Application.onReservationStateChange: every task group has its minMember placeholders bound.
bool ShimState::gangReserved(uint32_t app) const {
    const Partition& p = *partition_;
    const Application& a = p.apps[app];
    std::vector<int64_t> bound(a.taskGroups.size(), 0);
    for (uint32_t ask : a.allocations) {
        const Ask& k = p.asks[ask];
        if (k.placeholder && !k.released && !k.preempted && k.taskGroup >= 0) ++bound[size_t(k.taskGroup)];
    }
    for (size_t g = 0; g < a.taskGroups.size(); ++g)
        if (bound[g] < a.taskGroups[g].minMember) return false;
    return true;
}

void ShimState::submitHeld(ClusterState& state, uint32_t app, bool resumed) {
    Partition& p = *partition_;
    if (app >= held.size() || held[app].empty()) return;
    const Application& a = p.apps[app];
    // A Soft gang that gave its placeholders up runs as its core application does again.
    if (resumed ? a.state != AppState::Accepted || !isZero(a.allocatedPlaceholder) : !gangReserved(app))
        return;
    const std::vector<int32_t> tasks = std::move(held[app]);
    held[app].clear();
    for (int32_t t : tasks) {
        const uint32_t task = uint32_t(t);
        const uint32_t job = state.tasks[task].job;
        const bool input = isInput(state, task);
        const double created = input ? pods_[task].createTime : state.jobs[job].creationSeconds;
        Ask k = askFor(state, task, app, created);
        if (!input) {
            if (!workloadMetaOf(job)) k.taskGroup = 0; // the one group of a Gantry gang
            k.originator = task == state.jobs[job].tasks.front();
        }
        const uint32_t index = p.addAsk(app, std::move(k));
        askOfTask[task] = int32_t(index);
        noteAsk(app, index, input ? 0 : state.jobs[job].order);
    }
}

// The shim deletes a placeholder the core released; the core hears of it at once in a simulation.
void ShimState::releasePlaceholder(uint32_t ask) {
    Partition& p = *partition_;
    if (!p.asks[ask].allocated) return;
    p.removeAllocation(ask, false);
}

bool ShimState::interPodTerms(const ClusterState& state) {
    for (; shapesRead_ < state.shapes.size(); ++shapesRead_) {
        const PodShape& sh = state.shapes[shapesRead_];
        interPod_ |= !sh.podAffinity.empty() || !sh.podAntiAffinity.empty() || !sh.topologySpread.empty();
    }
    return interPod_;
}

void ShimState::assume(ClusterState& state, uint32_t t, uint32_t node) {
    const TaskRec& task = state.tasks[t];
    if (task.inK8sView) return;
    Assumed a{t, node, task.status, task.node, false};
    state.k8sAdd(t, node);
    // The inter-pod predicates read the node's pods: the assumed pod is put there, bound, while the
    // cycle runs.
    if (interPodTerms(state) && !(task.node >= 0 && occupiesNode(task.status))) {
        state.setTask(t, TaskStatus::Bound, int32_t(node));
        a.placed = true;
    }
    assumed_.push_back(a);
}

void ShimState::forgetAssumed(ClusterState& state) {
    for (auto it = assumed_.rbegin(); it != assumed_.rend(); ++it) {
        if (it->placed) state.setTask(it->task, it->status, it->formerNode);
        state.k8sRemove(it->task, it->node);
    }
    assumed_.clear();
}

void ShimState::afterDecision(ClusterState& state, const CycleDecision& d, bool simulated) {
    Partition& p = *partition_;
    auto onNode = [&](uint32_t ask, uint32_t node) {
        const Ask& k = p.asks[ask];
        if (k.task >= 0) assume(state, uint32_t(k.task), uint32_t(p.nodes[node].stateNode));
    };
    if (d.type == ResultType::Allocated || d.type == ResultType::AllocatedReserved ||
        d.type == ResultType::Replaced)
        onNode(d.ask, d.node);
    if (!simulated) {
        if (d.ask != kNone) submitHeld(state, p.asks[d.ask].app);
        return;
    }
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
    if (members_.erase(app)) {
        auto it = sharedApps_.find(p.apps[app].id);
        if (it != sharedApps_.end() && it->second == app) sharedApps_.erase(it);
    }
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
        leave(state, j, uint32_t(jobApp_[j]));
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
                if (task.status == TaskStatus::Pending && task.node < 0 && p.apps[app].taskGroups.empty() &&
                    !state.schedulingGated(t)) {
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
                noteAsk(app, index, state.jobs[j].order);
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
