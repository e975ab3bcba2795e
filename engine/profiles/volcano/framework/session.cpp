#include "profiles/volcano/framework/session.h"

#include "profiles/volcano/framework/job_resources.h"
#include "profiles/volcano/framework/registry.h"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace gantry::engine {

bool SessionCache::covers(const SchedulerConf& conf) {
    return SessionPlan::settledJobsMayLeave(conf);
}

bool SessionCache::parks(const SchedulerConf& conf) {
    return SessionPlan::parkedJobsMayLeave(conf) && covers(conf);
}

Session::Session(ClusterState& st, const SchedulerConf& c, const SessionOptions& opts)
    : Session(st, nullptr, std::make_unique<const SessionPlan>(c), opts) {}

Session::Session(ClusterState& st, const SessionPlan& plan, const SessionOptions& opts)
    : Session(st, &plan, nullptr, opts) {}

Session::Session(ClusterState& st, const SessionPlan* plan, std::unique_ptr<const SessionPlan> own,
                 const SessionOptions& opts)
    : ownPlan_(std::move(own)), plan_(plan ? *plan : *ownPlan_),
      cache_(opts.cache && plan_.covers ? opts.cache : nullptr), state(st), conf(plan_.conf), options(opts),
      enabledActions(plan_.enabledActions), jobs(cache_ ? cache_->jobs : ownJobs_),
      reasons_(cache_ ? cache_->reasons : ownReasons_), slot_(cache_ ? cache_->slot : ownSlot_) {
    state.ensureIndexes();
    totalResource = state.totalAllocatable();
    if (cache_) {
        settled_ = &cache_->settled;
        if (plan_.evicts) settled_->keepVictimIndexes();
        settled_->refresh();
        // The cache is only passed when it covers the configuration (SessionCache::parks less covers).
        // A parked job may still pipeline pods in preempt or take them back in reclaim: with an
        // action that evicts, parked jobs stay in the session and only allocate passes them over.
        // Of what allocate's failed try leaves behind, those actions read only the nodes it found
        // unresolvable, to leave them out; a parked job's pods are not evaluated per node, so
        // their unresolvable failures come from the node's class alone (selectors, taints, GPU
        // model) and the predicates those actions ask reject the same nodes.
        parking_ = options.parkJobs && options.compactResult && plan_.parkingSafe;
        using Parked = SettledJobs::Parked;
        settled_->partition(!parking_      ? Parked::In
                            : plan_.evicts ? Parked::Summed
                                           : Parked::Out,
                            sessionJobs);
        if (jobs.size() < state.jobs.size()) jobs.resize(state.jobs.size());
        if (slot_.size() < state.jobs.size()) slot_.resize(state.jobs.size());
    } else {
        jobs.assign(state.jobs.size(), JobSession{});
        slot_.assign(state.jobs.size(), UINT32_MAX);
        for (uint32_t j = 0; j < state.jobs.size(); ++j) {
            jobs[j].phase = state.jobs[j].phase;
            if (state.jobs[j].queue >= 0 && !state.jobs[j].key.empty()) sessionJobs.push_back(j);
        }
    }
    for (uint32_t i = 0; i < sessionJobs.size(); ++i) {
        const uint32_t j = sessionJobs[i];
        jobs[j].inSession = true;
        jobs[j].phase = state.jobs[j].phase;
        slot_[j] = i;
    }
    // Jobs settled from the start are never listed: the first session of a cache checks them too.
    adjustTopology(cache_ && !std::exchange(cache_->topologyChecked, true));
    openPlugins();
}

Session::~Session() {
    if (!closed_) {
        rollback();
        releaseJobs();
    }
}

void Session::releaseJobs() {
    if (!settled_) return;
    for (uint32_t j : sessionJobs) jobs[j] = JobSession{};
}

std::optional<int32_t> Session::tierAllowed(uint32_t j, bool warn) {
    const auto& t = state.jobs[j].topology;
    if (t.highestTierAllowed || t.highestTierName.empty()) return t.highestTierAllowed;
    auto it = state.hyperNodeTierByName.find(t.highestTierName);
    if (it != state.hyperNodeTierByName.end()) return it->second;
    if (warn)
        warnings.push_back("PodGroup " + state.jobs[j].key + " names hypernode tier '" + t.highestTierName +
                           "', which no HyperNode has");
    return std::nullopt;
}

void Session::adjustTopology(bool warnEveryJob) {
    const int32_t maxTier = state.hyperNodes.empty() ? 1 : state.hyperNodes.back().tier;
    // The jobs a full session lists, in the same order, so that the warnings are the same.
    if (warnEveryJob)
        for (uint32_t j = 0; j < state.jobs.size(); ++j)
            if (state.jobs[j].queue >= 0 && !state.jobs[j].key.empty() &&
                state.jobs[j].topology.mode != NetworkTopologyConstraint::Mode::None)
                tierAllowed(j, true);
    for (uint32_t j : sessionJobs) {
        const auto& t = state.jobs[j].topology;
        auto& js = jobs[j];
        if (t.mode == NetworkTopologyConstraint::Mode::None) continue;
        const std::optional<int32_t> tier = tierAllowed(j, !warnEveryJob);
        // recoverAllocatedHyperNode: the lowest-tier hypernode holding every placed task.
        std::vector<int32_t> holding;
        bool first = true;
        for (uint32_t task : state.jobs[j].tasks) {
            const auto& tr = state.tasks[task];
            if (!allocatedStatus(tr.status) || tr.node < 0) continue;
            const auto& hs = state.nodes[size_t(tr.node)].hyperNodes;
            if (first) {
                holding = hs;
                first = false;
            } else {
                std::vector<int32_t> both;
                for (int32_t h : holding)
                    if (std::find(hs.begin(), hs.end(), h) != hs.end()) both.push_back(h);
                holding = std::move(both);
            }
        }
        int32_t lowest = -1;
        for (int32_t h : holding)
            if (lowest < 0 || state.hyperNodes[size_t(h)].tier < state.hyperNodes[size_t(lowest)].tier)
                lowest = h;
        js.allocatedHyperNode = lowest;
        js.subJobAllocatedHyperNode = lowest;
        js.softTopology = t.mode == NetworkTopologyConstraint::Mode::Soft;
        if (js.softTopology) {
            js.hardTopology = true;
            js.highestTierAllowed = maxTier;
        } else if (tier) {
            js.hardTopology = true;
            js.highestTierAllowed = *tier;
        }
    }
}

void Session::openPlugins() {
    for (const auto& name : plan_.ignoredPlugins)
        warnings.push_back("plugin '" + name + "' is not modelled by Gantry; it is ignored");
    pluginSlots.reserve(plan_.plugins.size());
    for (const auto& entry : plan_.plugins) {
        PluginSlot& slot = pluginSlots.emplace_back();
        slot.name = entry.descriptor->name;
        slot.option = entry.option;
        slot.tier = entry.tier;
        static_cast<PluginSwitches&>(slot) = entry.on;
    }
    // Create every plugin first (upstream builds then opens each in tier order).
    for (size_t i = 0; i < pluginSlots.size(); ++i)
        pluginSlots[i].plugin = plan_.plugins[i].descriptor->build(*pluginSlots[i].option);
    for (size_t i = 0; i < pluginSlots.size(); ++i) {
        current_ = int(i);
        pluginSlots[i].plugin->onSessionOpen(*this);
    }
    current_ = -1;
    for (const auto& slot : pluginSlots)
        if (slot.hyperNodeGradientOn && slot.hyperNodeGradient) hyperNodeGradient_ = true;
}

void Session::addEventHandler(TaskEventFn onAllocate, TaskEventFn onDeallocate) {
    handlers_.emplace_back(std::move(onAllocate), std::move(onDeallocate));
}

bool Session::hierarchyEnabled(const std::string& plugin) const {
    for (const auto& tier : conf.tiers)
        for (const auto& p : tier.plugins)
            if (p.name == plugin) return p.enabled("enableHierarchy");
    return false;
}

std::optional<std::string> Session::actionArgument(const std::string& action, const std::string& key) const {
    for (const auto& c : conf.configurations)
        if (c.name == action) {
            auto it = c.arguments.find(key);
            if (it != c.arguments.end()) return it->second;
            return std::nullopt;
        }
    return std::nullopt;
}

// ---------------------------------------------------------------- dispatchers

int Session::jobOrderCompare(uint32_t l, uint32_t r) {
    for (auto& s : pluginSlots) {
        if (!s.jobOrderOn || !s.jobOrder) continue;
        if (int c = s.jobOrder(l, r); c != 0) return c;
    }
    return 0;
}

bool Session::jobOrderLess(uint32_t l, uint32_t r) {
    if (int c = jobOrderCompare(l, r); c != 0) return c < 0;
    const auto &a = state.jobs[l], &b = state.jobs[r];
    if (a.creationSeconds != b.creationSeconds) return a.creationSeconds < b.creationSeconds;
    return a.key < b.key;
}

bool Session::queueOrderLess(uint32_t l, uint32_t r) {
    for (auto& s : pluginSlots) {
        if (!s.queueOrderOn || !s.queueOrder) continue;
        if (int c = s.queueOrder(l, r); c != 0) return c < 0;
    }
    return state.queues[l].name < state.queues[r].name;
}

bool Session::victimQueueOrderLess(uint32_t l, uint32_t r, uint32_t p) {
    for (auto& s : pluginSlots) {
        if (!s.victimQueueOrder) continue;
        if (int c = s.victimQueueOrder(l, r, p); c != 0) return c < 0;
    }
    return !queueOrderLess(l, r);
}

int Session::taskCompare(uint32_t l, uint32_t r) {
    for (auto& s : pluginSlots) {
        if (!s.taskOrderOn || !s.taskOrder) continue;
        if (int c = s.taskOrder(l, r); c != 0) return c;
    }
    return 0;
}

bool Session::taskOrderLess(uint32_t l, uint32_t r) {
    if (int c = taskCompare(l, r); c != 0) return c < 0;
    const auto &a = state.tasks[l], &b = state.tasks[r];
    if (a.nameIndex >= 0 && b.nameIndex >= 0 && a.nameIndex != b.nameIndex) return a.nameIndex < b.nameIndex;
    // Pods carry no creation time here; a job's pods count as created with the job.
    double ca = a.job == UINT32_MAX ? 0 : state.jobs[a.job].creationSeconds;
    double cb = b.job == UINT32_MAX ? 0 : state.jobs[b.job].creationSeconds;
    if (ca != cb) return ca < cb;
    return state.strings.str(a.uid) < state.strings.str(b.uid);
}

namespace {
std::vector<uint32_t> intersect(const std::vector<uint32_t>& victims,
                                const std::vector<uint32_t>& candidates) {
    std::vector<uint32_t> out;
    for (uint32_t v : victims)
        if (std::find(candidates.begin(), candidates.end(), v) != candidates.end()) out.push_back(v);
    return out;
}
} // namespace

// Upstream's Preemptable/Reclaimable: within a tier the plugins' victim sets are intersected (an
// empty intersection reads as "no decision yet", as Go's nil slice does), a plugin returning no
// victims ends the tier undecided, and the first tier with a decision wins.
std::vector<uint32_t> Session::tierVictims(bool reclaim, uint32_t task,
                                           const std::vector<uint32_t>& candidates) {
    size_t i = 0;
    while (i < pluginSlots.size()) {
        const int tier = pluginSlots[i].tier;
        std::optional<std::vector<uint32_t>> victims;
        for (; i < pluginSlots.size() && pluginSlots[i].tier == tier; ++i) {
            auto& s = pluginSlots[i];
            const EvictableFn& fn = reclaim ? s.reclaimable : s.preemptable;
            if (!(reclaim ? s.reclaimableOn : s.preemptableOn) || !fn) continue;
            int vote = 0;
            auto found = fn(task, candidates, &vote);
            if (vote == 0) continue;
            if (found.empty()) {
                victims.reset();
                while (i + 1 < pluginSlots.size() && pluginSlots[i + 1].tier == tier) ++i;
                continue;
            }
            if (!victims) {
                victims = std::move(found);
            } else {
                auto both = intersect(*victims, found);
                if (both.empty())
                    victims.reset();
                else
                    victims = std::move(both);
            }
        }
        if (victims) return *victims;
    }
    return {};
}

std::vector<uint32_t> Session::preemptableVictims(uint32_t preemptor,
                                                  const std::vector<uint32_t>& preemptees) {
    return tierVictims(false, preemptor, preemptees);
}

std::vector<uint32_t> Session::reclaimableVictims(uint32_t reclaimer,
                                                  const std::vector<uint32_t>& reclaimees) {
    return tierVictims(true, reclaimer, reclaimees);
}

bool Session::overused(uint32_t queue) {
    for (auto& s : pluginSlots)
        if (s.overusedOn && s.overused && s.overused(queue)) return true;
    return false;
}

bool Session::preemptive(uint32_t queue, const std::vector<uint32_t>& tasks) {
    for (auto& s : pluginSlots)
        if (s.preemptiveOn && s.preemptive && !s.preemptive(queue, tasks)) return false;
    return true;
}

bool Session::allocatable(uint32_t queue, uint32_t task) {
    for (auto& s : pluginSlots)
        if (s.allocatableOn && s.allocatable && !s.allocatable(queue, task)) return false;
    return true;
}

bool Session::jobReady(uint32_t job) {
    for (auto& s : pluginSlots)
        if (s.jobReadyOn && s.jobReady && !s.jobReady(job)) return false;
    return true;
}

namespace {
// Tier voting (JobPipelined, JobEnqueueable): a reject ends it; a permit ends it at the end of its
// tier; no vote at all permits.
template <class Vote> bool tierVote(const std::vector<PluginSlot>& slots, Vote vote) {
    bool permitted = false;
    int tier = slots.empty() ? 0 : slots[0].tier;
    for (const auto& s : slots) {
        if (s.tier != tier) {
            if (permitted) return true;
            tier = s.tier;
        }
        const int res = vote(s);
        if (res < 0) return false;
        if (res > 0) permitted = true;
    }
    return true;
}
} // namespace

bool Session::jobPipelined(uint32_t job) {
    return tierVote(pluginSlots, [&](const PluginSlot& s) {
        return s.jobPipelinedOn && s.jobPipelined ? s.jobPipelined(job) : 0;
    });
}

bool Session::jobStarving(uint32_t job) {
    bool found = false;
    int tier = pluginSlots.empty() ? 0 : pluginSlots[0].tier;
    for (auto& s : pluginSlots) {
        if (s.tier != tier) {
            if (found) return true;
            tier = s.tier;
        }
        if (!s.jobStarvingOn || !s.jobStarving) continue;
        found = true;
        if (!s.jobStarving(job)) return false;
    }
    return found;
}

std::optional<ValidateResult> Session::jobValid(uint32_t job) {
    for (auto& s : pluginSlots) {
        if (!s.jobValid) continue;
        if (auto vr = s.jobValid(job); vr && !vr->pass) return vr;
    }
    return std::nullopt;
}

bool Session::jobEnqueueable(uint32_t job) {
    return tierVote(pluginSlots, [&](const PluginSlot& s) {
        return s.jobEnqueuedOn && s.jobEnqueueable ? s.jobEnqueueable(job) : 0;
    });
}

void Session::jobEnqueued(uint32_t job) {
    for (auto& s : pluginSlots)
        if (s.jobEnqueuedOn && s.jobEnqueued) s.jobEnqueued(job);
}

std::optional<std::string> Session::prePredicate(uint32_t task) {
    for (auto& s : pluginSlots) {
        if (!s.predicateOn || !s.prePredicate) continue;
        if (auto err = s.prePredicate(task)) return err;
    }
    return std::nullopt;
}

void Session::predicate(uint32_t task, uint32_t node, FitResult& out) {
    for (auto& s : pluginSlots) {
        if (!s.predicateOn || !s.predicate) continue;
        s.predicate(task, node, out);
        if (!out.ok()) return;
    }
}

void Session::simulateBegin(uint32_t preemptor) {
    for (auto& s : pluginSlots)
        if (s.simulateBegin) s.simulateBegin(preemptor);
}

void Session::simulateTask(uint32_t preemptor, uint32_t task, uint32_t node, int sign) {
    for (auto& s : pluginSlots)
        if ((s.preemptableOn || s.allocatableOn) && s.simulateTask)
            s.simulateTask(preemptor, task, node, sign);
}

bool Session::simulateAllocatable(uint32_t queue, uint32_t task) {
    for (auto& s : pluginSlots)
        if (s.allocatableOn && s.simulateAllocatable && !s.simulateAllocatable(queue, task)) return false;
    return true;
}

void Session::simulatePredicate(uint32_t task, uint32_t node, FitResult& out) {
    for (auto& s : pluginSlots) {
        if (!s.predicateOn || !s.simulatePredicate) continue;
        s.simulatePredicate(task, node, out);
        if (!out.ok()) return;
    }
}

double Session::nodeOrderScore(uint32_t task, uint32_t node) {
    double score = 0;
    for (auto& s : pluginSlots)
        if (s.nodeOrderOn && s.nodeOrder) score += s.nodeOrder(task, node);
    return score;
}

void Session::batchNodeOrder(uint32_t task, const uint32_t* nodes, const uint32_t* counts, size_t n,
                             double* scores) {
    for (auto& s : pluginSlots)
        if (s.nodeOrderOn && s.batchNodeOrder) s.batchNodeOrder(task, nodes, counts, n, scores);
}

bool Session::nodeScoresAlone(uint32_t task) {
    for (auto& s : pluginSlots)
        if (s.nodeOrderOn && s.batchNodeOrder && !(s.batchNodeOrderAlone && s.batchNodeOrderAlone(task)))
            return false;
    return true;
}

std::map<int32_t, double> Session::hyperNodeOrder(uint32_t job, const std::vector<int32_t>& candidates) {
    std::map<int32_t, double> total;
    for (int32_t h : candidates) total[h] = 0;
    for (auto& s : pluginSlots) {
        if (!s.hyperNodeOrderOn || !s.hyperNodeOrder) continue;
        for (const auto& [h, v] : s.hyperNodeOrder(job, candidates)) total[h] += v;
    }
    return total;
}

std::vector<std::vector<int32_t>> Session::hyperNodeGradient(uint32_t job, int32_t hn, Purpose purpose,
                                                             bool forSubJob) {
    for (auto& s : pluginSlots) {
        if (!s.hyperNodeGradientOn || !s.hyperNodeGradient) continue;
        return s.hyperNodeGradient(job, hn, purpose, forSubJob);
    }
    return {{hn}};
}

bool Session::victimLess(uint32_t l, uint32_t r, uint32_t preemptor) {
    const uint32_t lj = state.tasks[l].job, rj = state.tasks[r].job;
    if (lj == rj) return !taskOrderLess(l, r);
    const bool lf = lj != UINT32_MAX && inSession(lj), rf = rj != UINT32_MAX && inSession(rj);
    if (!lf || !rf) {
        if (!lf && !rf) return !taskOrderLess(l, r);
        return !lf;
    }
    auto jobThenTask = [&] {
        if (int c = jobOrderCompare(lj, rj); c != 0) return c > 0;
        return !taskOrderLess(l, r);
    };
    const uint32_t pj = state.tasks[preemptor].job;
    if (pj == UINT32_MAX || !inSession(pj)) return jobThenTask();
    if (state.jobs[lj].queue != state.jobs[rj].queue)
        return victimQueueOrderLess(queueOf(lj), queueOf(rj), queueOf(pj));
    return jobThenTask();
}

void Session::sortVictims(std::vector<uint32_t>& victims, uint32_t preemptor) {
    // A heap pops equal elements in no fixed order; Gantry orders them by pod UID.
    std::stable_sort(victims.begin(), victims.end(), [&](uint32_t a, uint32_t b) {
        if (victimLess(a, b, preemptor)) return true;
        if (victimLess(b, a, preemptor)) return false;
        return state.strings.str(state.tasks[a].uid) < state.strings.str(state.tasks[b].uid);
    });
}

// ---------------------------------------------------------------- primitives

void Session::setStatus(uint32_t task, TaskStatus status, int32_t node) {
    const auto& t = state.tasks[task];
    undo_.push_back(Undo{task, t.status, t.node, t.inK8sView});
    state.setTask(task, status, node);
}

void Session::k8sAdd(uint32_t task, uint32_t node) {
    const auto& t = state.tasks[task];
    undo_.push_back(Undo{task, t.status, t.node, t.inK8sView});
    state.k8sAdd(task, node);
    state.reindexNode(node);
}

void Session::k8sRemove(uint32_t task, uint32_t node) {
    const auto& t = state.tasks[task];
    undo_.push_back(Undo{task, t.status, t.node, t.inK8sView});
    state.k8sRemove(task, node);
    state.reindexNode(node);
}

void Session::fireAllocate(uint32_t task) {
    for (auto& h : handlers_)
        if (h.first) h.first(task);
}

void Session::fireDeallocate(uint32_t task) {
    for (auto& h : handlers_)
        if (h.second) h.second(task);
}

void Session::bind(uint32_t task) {
    const auto& t = state.tasks[task];
    bindings[state.taskKey(task)] = state.nodeName(uint32_t(t.node));
    boundTasks.emplace_back(task, uint32_t(t.node));
    setStatus(task, TaskStatus::Binding);
}

void Session::evict(uint32_t task) {
    evictions.push_back(state.taskKey(task));
    evictedTasks.push_back(task);
}

void Session::allocate(uint32_t task, uint32_t node) {
    setStatus(task, TaskStatus::Allocated, int32_t(node));
    fireAllocate(task);
    const uint32_t job = state.tasks[task].job;
    if (jobReady(job))
        for (uint32_t t : tasksWithStatus(job, TaskStatus::Allocated)) bind(t);
}

void Session::rollback() {
    for (auto it = undo_.rbegin(); it != undo_.rend(); ++it) {
        auto& t = state.tasks[it->task];
        if (t.inK8sView != it->inK8s) {
            // The view entry belongs to the node the task is on at this point of the log.
            const int32_t viewNode = it->inK8s ? it->node : t.node;
            if (viewNode >= 0) {
                if (it->inK8s)
                    state.k8sAdd(it->task, uint32_t(viewNode));
                else
                    state.k8sRemove(it->task, uint32_t(viewNode));
                state.reindexNode(uint32_t(viewNode));
            }
        }
        if (t.status != it->status || t.node != it->node) state.setTask(it->task, it->status, it->node);
    }
    undo_.clear();
}

// ---------------------------------------------------------------- job views

const std::vector<uint32_t>& Session::pendingShapeTasks(uint32_t j) {
    shapeTasks_.clear();
    shapesSeen_.clear();
    for (uint32_t t : state.jobs[j].tasks) {
        const auto& task = state.tasks[t];
        if (task.status != TaskStatus::Pending || !task.ours || state.schedulingGated(t)) continue;
        if (std::find(shapesSeen_.begin(), shapesSeen_.end(), task.shape) != shapesSeen_.end()) continue;
        shapesSeen_.push_back(task.shape);
        shapeTasks_.push_back(t);
    }
    return shapeTasks_;
}

int32_t Session::readyTaskNum(uint32_t j) const {
    return count(j, TaskStatus::Bound) + count(j, TaskStatus::Binding) + count(j, TaskStatus::Running) +
           count(j, TaskStatus::Allocated) + count(j, TaskStatus::Succeeded);
}

int32_t Session::validTaskNum(uint32_t j) const {
    int32_t n = 0;
    for (int s = 0; s < kStatusCount; ++s) {
        auto st = TaskStatus(s);
        if (allocatedStatus(st) || st == TaskStatus::Succeeded || st == TaskStatus::Pipelined ||
            st == TaskStatus::Pending)
            n += count(j, st);
    }
    return n;
}

int32_t Session::scheduledTaskNum(uint32_t j) const {
    int32_t n = 0;
    for (int s = 0; s < kStatusCount; ++s)
        if (scheduledStatus(TaskStatus(s))) n += count(j, TaskStatus(s));
    return n;
}

int32_t Session::allocatedTaskNum(uint32_t j) const {
    int32_t n = 0;
    for (int s = 0; s < kStatusCount; ++s)
        if (allocatedStatus(TaskStatus(s))) n += count(j, TaskStatus(s));
    return n;
}

bool Session::isReady(uint32_t j) const {
    return readyTaskNum(j) + pendingBestEffortTaskNum(j) >= state.jobs[j].minAvailable;
}
bool Session::isPipelined(uint32_t j) const {
    return waitingTaskNum(j) + readyTaskNum(j) + pendingBestEffortTaskNum(j) >= state.jobs[j].minAvailable;
}
bool Session::isStarving(uint32_t j) const {
    return waitingTaskNum(j) + readyTaskNum(j) < state.jobs[j].minAvailable;
}
bool Session::isPending(uint32_t j) const {
    return jobs[j].phase == PodGroupPhase::Pending || jobs[j].phase == PodGroupPhase::None;
}

namespace {
template <class Pred> std::vector<int32_t> roleCounts(const ClusterState& s, uint32_t job, Pred pred) {
    std::vector<int32_t> counts(s.roles.size(), 0);
    for (uint32_t t : s.jobs[job].tasks)
        if (pred(s.tasks[t])) counts[s.tasks[t].role]++;
    return counts;
}

// Whether each role of the job has its minimum of pods that pass pred (counted role by role: a
// job names few roles, the cluster many).
template <class Pred> bool rolesAtMinimum(const ClusterState& s, uint32_t job, Pred pred) {
    const auto& jr = s.jobs[job];
    for (const auto& [role, min] : jr.minTaskMember) {
        if (min <= 0) continue;
        int32_t n = 0;
        for (uint32_t t : jr.tasks) n += s.tasks[t].role == role && pred(s.tasks[t]);
        if (n < min) return false;
    }
    return true;
}
} // namespace

bool Session::checkTaskValid(uint32_t j) const {
    const auto& job = state.jobs[j];
    if (job.minAvailable < job.taskMinAvailableTotal) return true;
    return rolesAtMinimum(state, j, [](const TaskRec& t) {
        return allocatedStatus(t.status) || t.status == TaskStatus::Succeeded ||
               t.status == TaskStatus::Pipelined || t.status == TaskStatus::Pending;
    });
}

bool Session::checkTaskReady(uint32_t j) const {
    const auto& job = state.jobs[j];
    if (job.minAvailable < job.taskMinAvailableTotal) return true;
    return rolesAtMinimum(state, j, [](const TaskRec& t) {
        return allocatedStatus(t.status) || t.status == TaskStatus::Succeeded;
    });
}

bool Session::checkTaskPipelined(uint32_t j) const {
    const auto& job = state.jobs[j];
    if (job.minAvailable < job.taskMinAvailableTotal) return true;
    return rolesAtMinimum(state, j, [&](const TaskRec& t) {
        if (allocatedStatus(t.status) || t.status == TaskStatus::Succeeded ||
            t.status == TaskStatus::Pipelined)
            return true;
        return t.status == TaskStatus::Pending && state.shapes[t.shape].vres.isEmpty();
    });
}

bool Session::taskHasFitErrors(uint32_t j, uint32_t task) const {
    const uint16_t role = state.tasks[task].role;
    if (state.roles[role].empty()) return false;
    for (const auto& [t, fe] : jobs[j].nodesFitErrors)
        if (state.tasks[t].role == role) return true;
    return false;
}

bool Session::cannotStart(uint32_t j) {
    if (!parking_ || !settled_->parked(j)) return false;
    // Preempt and reclaim look for nodes over the whole cluster, topology or not.
    return startsShort(j, state.fitCount(state.tasks[state.jobs[j].tasks[0]].shape));
}

bool Session::startsShort(uint32_t j, int64_t fit) {
    // Its pending pods are all of one shape; no more of them than fit by request could be placed.
    return readyTaskNum(j) + waitingTaskNum(j) + pendingBestEffortTaskNum(j) + fit <
           state.jobs[j].minAvailable;
}

bool Session::noneFits(uint32_t j) const {
    return settled_ && settled_->parked(j) && state.fitCount(state.tasks[state.jobs[j].tasks[0]].shape) == 0;
}

bool Session::parkedNow(uint32_t j) {
    if (!parking_ || !settled_->parked(j)) return false;
    const uint32_t shape = state.tasks[state.jobs[j].tasks[0]].shape;
    const JobSession& js = jobs[j];
    // A hard-topology gang (parked: its tier resolves, every pod pending, so no hypernode is
    // recovered for it) goes to allocateForJob. The gradient (network-topology-aware, the only
    // plugin with one) offers hypernodes of tier <= its highest allowed tier, the virtual top
    // among them when allowed, and for each, sub-job gradients inside it; allocateForTasks asks
    // only that hypernode's nodes, and each pod it places takes its request off a node's future
    // idle. So one try places at most that hypernode's fitCount, and a try is kept only when the
    // job is then ready or pipelined, counted as cannotStart counts (sub-job tries likewise keep
    // nothing short of that, so hyperNodeOrder and the decisions are never reached). The largest
    // count over the allowed hypernodes bounds every try; when it is short, every try is
    // discarded. What a failed try leaves behind is the job's own fit errors and the hypernode
    // its tasks were scored against (taskJobHyperNode), which only allocate's later tries of the
    // same job read: preempt never takes a topology preemptor and backfill only takes
    // best-effort pods, which a parked job has none of. Without the gradient, the job is tried
    // in the virtual top alone: the cluster's fitCount.
    const bool withinHyperNodes = hyperNodeGradient_ && js.hardTopology && !js.softTopology &&
                                  js.allocatedHyperNode < 0 && js.subJobAllocatedHyperNode < 0;
    const int64_t fit =
        withinHyperNodes ? state.fitCountWithin(shape, js.highestTierAllowed) : state.fitCount(shape);
    if (!startsShort(j, fit)) return false;
    jobs[j].parked = true;
    return true;
}

bool Session::needContinueAllocating(uint32_t j) const {
    const auto& job = state.jobs[j];
    const int32_t ntasks = int32_t(job.tasks.size());
    if (job.minAvailable == ntasks) return false;
    if (job.minAvailable >= ntasks) return false; // the default sub-job's own check
    std::vector<bool> failed(state.roles.size(), false);
    for (const auto& [t, fe] : jobs[j].nodesFitErrors) failed[state.tasks[t].role] = true;
    if (job.minAvailable < job.taskMinAvailableTotal) {
        int32_t left = 0;
        for (uint32_t t : job.tasks)
            if (state.tasks[t].status == TaskStatus::Pending && !failed[state.tasks[t].role]) ++left;
        return readyTaskNum(j) + left >= job.minAvailable;
    }
    auto allocated = roleCounts(state, j, [](const TaskRec& t) {
        return allocatedStatus(t.status) || t.status == TaskStatus::Succeeded;
    });
    for (size_t role = 0; role < failed.size(); ++role) {
        if (!failed[role]) continue;
        int32_t min = 0;
        for (const auto& [r, m] : job.minTaskMember)
            if (r == role) min = m;
        if (min == 0) continue;
        if (allocated[role] < min) return false;
    }
    return true;
}

VResource Session::jobAllocated(uint32_t j) const {
    return engine::jobAllocated(state, j);
}

VResource Session::inqueueResource(uint32_t j, const VResource& allocated) const {
    return engine::inqueueResource(state, j, allocated);
}

VResource Session::elasticResource(uint32_t j) const {
    return engine::elasticResource(state, j);
}

std::vector<uint32_t> Session::tasksWithStatus(uint32_t j, TaskStatus s) const {
    std::vector<uint32_t> out;
    for (uint32_t t : state.jobs[j].tasks)
        if (state.tasks[t].status == s) out.push_back(t);
    return out;
}

// ---------------------------------------------------------------- reasons

uint32_t Session::reasonId(const std::string& text) {
    auto it = reasons_.ids.find(text);
    if (it != reasons_.ids.end()) return it->second;
    uint32_t id = uint32_t(reasons_.texts.size());
    reasons_.texts.push_back(text);
    reasons_.ids.emplace(text, id);
    return id;
}

std::string Session::fitErrorMessage(const FitErrors& fe) const {
    std::string err =
        fe.error.empty() ? "0/" + std::to_string(fe.nodes) + " nodes are unavailable" : fe.error;
    if (fe.nodes == 0) return err;
    std::vector<std::string> parts;
    for (const auto& [id, n] : fe.reasons) parts.push_back(std::to_string(n) + " " + reasons_.texts[id]);
    std::sort(parts.begin(), parts.end());
    std::string msg = err + ": ";
    for (size_t i = 0; i < parts.size(); ++i) msg += (i ? ", " : "") + parts[i];
    msg += ".";
    if (!fe.hyperNode.empty()) msg = "In hyperNode " + fe.hyperNode + ": " + msg;
    return msg;
}

TaskTx Session::lastTx(uint32_t task) const {
    auto it = lastTx_.find(task);
    if (it != lastTx_.end()) return it->second;
    return TaskTx{state.tasks[task].status, state.tasks[task].node};
}

int32_t Session::lcaHyperNode(int32_t a, int32_t b) const {
    if (a < 0) return b;
    if (b < 0) return a;
    std::vector<int32_t> ancestors;
    for (int32_t h = a; h >= 0; h = state.hyperNodes[size_t(h)].parent) ancestors.push_back(h);
    for (int32_t h = b; h >= 0; h = state.hyperNodes[size_t(h)].parent)
        if (std::find(ancestors.begin(), ancestors.end(), h) != ancestors.end()) return h;
    return -1;
}

int32_t Session::lowestHyperNodeOf(uint32_t node) const {
    // FindHyperNodeForNode: the hypernode of the lowest tier that contains the node.
    const auto& hs = state.nodes[node].hyperNodes;
    if (hs.empty() || state.hyperNodeTiers.empty()) return -1;
    const int32_t lowest = state.hyperNodeTiers.front();
    for (int32_t h : hs)
        if (state.hyperNodes[size_t(h)].tier == lowest) return h;
    return -1;
}

} // namespace gantry::engine
