#include "sim/simulator.h"

#include "profile/registry.h"
#include "sim/frag_tracker.h"
#include "sim/reasons.h"
#include "sim/slot_set.h"
#include "sim/summary.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <queue>
#include <set>
#include <stdexcept>
#include <unordered_map>

namespace gantry::sim {

using engine::ClusterState;
using engine::TaskStatus;

namespace {

constexpr uint32_t kNone = UINT32_MAX;
constexpr double kInf = std::numeric_limits<double>::infinity();

// A job in the cluster.
struct Active {
    uint32_t job = kNone;      // index into the workload
    uint32_t stateJob = kNone; // index into the cluster state's jobs
    uint32_t epoch = 0;        // bumped when the job restarts: older events are stale
    int32_t need = 1;          // pods that must run for the gang to run
    int32_t running = 0;       // pods Running
    int32_t placed = 0;        // pods bound or running (not terminating)
    int32_t releasing = 0;     // pods terminating after an eviction
    int64_t placedGpuMilli = 0;
    double remaining = 0;    // seconds of work left from the last checkpoint; < 0 = runs forever
    double saved = 0;        // work done up to the last checkpoint
    double runStart = -1;    // the gang runs since (-1 = it does not)
    double firstPlaced = -1; // first pod placed in the current attempt
    uint32_t run = 0;        // bumped when the gang stops running: its completion event is stale
    bool everRan = false;
    uint32_t reason = 0; // reason class while waiting (0 = none)
    // The last reason text classified for it, and for which pod (most cycles repeat it).
    uint32_t reasonTask = UINT32_MAX;
    std::string reasonText;
    uint32_t reasonClass = 0;
};

// Release: evicted pods are gone (task: one pod, else every releasing pod of the job); Start: a bound
// pod runs; PodDone: a pod with its own run time succeeds; Complete: the job is done (task: the run
// it completes).
enum class EventKind : uint8_t { Release = 0, Start = 1, PodDone = 2, Complete = 3 };

struct Event {
    double time;
    uint64_t seq;
    EventKind kind;
    uint32_t slot;
    uint32_t epoch;
    uint32_t task;
    bool operator>(const Event& o) const {
        if (time != o.time) return time > o.time;
        if (kind != o.kind) return kind > o.kind;
        return seq > o.seq;
    }
};

class Simulator {
  public:
    Simulator(const Cluster& cluster, const SimWorkload& workload, const SimOptions& options,
              Diagnostics* warnings)
        : w_(workload), o_(options) {
        if (!(o_.cycleSeconds > 0)) throw std::invalid_argument("the cycle period must be positive");
        if (!(o_.sampleSeconds > 0)) throw std::invalid_argument("the sample period must be positive");
        if (o_.horizonSeconds < 0 || o_.evictionGraceSeconds < 0 || o_.podStartSeconds < 0)
            throw std::invalid_argument("horizon, eviction grace and pod start must not be negative");
        const engine::ProfileInfo* info = engine::findProfile(o_.profile);
        if (!info)
            throw std::invalid_argument("unknown scheduler profile '" + o_.profile + "' (" +
                                        engine::profileNames() + ")");
        Diagnostics policy;
        const Cluster withClaims = claimsOfTheWorkload(cluster);
        profile_ =
            info->make({withClaims.dra.empty() ? cluster : withClaims, o_.policies, o_.shortcuts}, &policy);
        if (warnings) warnings->insert(warnings->end(), policy.begin(), policy.end());
        if (!profile_)
            throw std::invalid_argument("the " + info->title + " policy cannot run (errors above)");
        build_ = profile_->buildOptions();
        // Resources the workload asks for must be dimensions of the state from the start.
        Cluster c = cluster;
        Node probe;
        probe.name = "\x01gantry-probe"; // not Ready: it only declares the dimensions
        probe.ready = false;
        for (const auto& k : w_.kinds)
            for (const auto& p : k.pods)
                for (const auto& [name, amount] : p.requests)
                    if (!probe.allocatable.has(name)) probe.allocatable.set(name, 0);
        for (const auto& k : w_.kinds)
            for (const auto& [name, amount] : k.group.minResources)
                if (!probe.allocatable.has(name)) probe.allocatable.set(name, 0);
        c.nodes.push_back(probe);
        st_ = engine::buildClusterState(c, warnings, build_);

        outcome_.assign(w_.jobs.size(), JobOutcome{});
        order_.resize(w_.jobs.size());
        for (uint32_t i = 0; i < order_.size(); ++i) order_[i] = i;
        std::stable_sort(order_.begin(), order_.end(),
                         [&](uint32_t a, uint32_t b) { return w_.jobs[a].arrival < w_.jobs[b].arrival; });
        countPhysicalGpus();
        queueGpuMilli_.assign(st_.queues.size(), 0);
        // Pods already holding resources (a snapshot's running pods).
        for (uint32_t t = 0; t < st_.tasks.size(); ++t) {
            const auto& task = st_.tasks[t];
            if (task.node >= 0 && engine::occupiesNode(task.status) && task.status != TaskStatus::Pipelined)
                account(t, +1);
        }
        if (o_.measureFragmentation) {
            frag_ = std::make_unique<FragTracker>(st_, w_, cluster.topologyLevels);
            const engine::ClaimGpus dra = profile_->claimGpus();
            claimGpus_ = dra.usable + dra.layout + dra.scattered + dra.held > 0;
            migSeries_ = frag_->hasMig() || (claimGpus_ && dra.mig);
        }
        result_.profile = info->name;
        result_.cycleSeconds = o_.cycleSeconds;
        result_.horizonSeconds = o_.horizonSeconds;
        result_.sampleSeconds = o_.sampleSeconds;
        result_.seed = o_.seed;
        result_.jobsTotal = int64_t(w_.jobs.size());
        result_.podsTotal = w_.podCount();
        result_.totalGpus = double(totalGpuMilli_) / 1000.0;
    }

    SimResult run() {
        bool needSession = true; // the first cycle looks at the initial state
        uint64_t tick = 0;       // the first cycle not yet run or skipped: tick * period
        uint64_t sampleIndex = 0;
        const double horizon = o_.horizonSeconds > 0 ? o_.horizonSeconds : kInf;
        for (;;) {
            const double tArrival = next_ < order_.size() ? w_.jobs[order_[next_]].arrival : kInf;
            const double tEvent = events_.empty() ? kInf : events_.top().time;
            const double tTick = tickTime(tick);
            double tCycle = needSession || !o_.skipIdleCycles ? tTick : kInf;
            // The clock alone changes a cycle's answer when, say, an sla waiting time runs out.
            const double due = nextClockChange(tTick);
            if (due < kInf) tCycle = std::min(tCycle, tickTime(tickAtOrAfter(due)));
            if (tArrival == kInf && tEvent == kInf && !needSession && due == kInf)
                break; // nothing can change
            const double t = std::min({tArrival, tEvent, tCycle});
            if (t > horizon) break;
            // Samples before t see the state as it is now.
            while (tickSample(sampleIndex) < t) sample(tickSample(sampleIndex++));
            advance(t);
            while (!events_.empty() && events_.top().time <= t) {
                Event e = events_.top();
                events_.pop();
                needSession |= handle(e);
            }
            while (next_ < order_.size() && w_.jobs[order_[next_]].arrival <= t) {
                arrive(order_[next_++]);
                needSession = true;
            }
            // A cycle runs at its tick when something may have changed (or always, without skipping).
            const uint64_t k = std::max(tick, tickAtOrAfter(t));
            if (tickTime(k) == t) {
                if (needSession || !o_.skipIdleCycles || t == tCycle) needSession = cycle(t);
                tick = k + 1;
            } else {
                tick = k;
            }
        }
        const double end = o_.horizonSeconds > 0 ? o_.horizonSeconds : lastT_;
        while (tickSample(sampleIndex) <= end) sample(tickSample(sampleIndex++));
        advance(end);
        if (result_.time.empty() || result_.time.back() < end) sample(end);
        result_.endSeconds = end;
        finish(end);
        return std::move(result_);
    }

  private:
    // ---------------------------------------------------------------- clock

    double tickTime(uint64_t k) const { return double(k) * o_.cycleSeconds; }
    double tickSample(uint64_t k) const { return double(k) * o_.sampleSeconds; }
    // The first cycle whose time is at or after t.
    uint64_t tickAtOrAfter(double t) const {
        if (t <= 0) return 0;
        uint64_t k = uint64_t(std::ceil(t / o_.cycleSeconds));
        while (k > 0 && tickTime(k - 1) >= t) --k; // rounding of the division
        while (tickTime(k) < t) ++k;
        return k;
    }

    double nextClockChange(double from) {
        if (!profile_->decisionsDependOnClock()) return kInf;
        waitingJobs_.clear();
        if (profile_->clockChangeReadsWaitingJobs())
            waiting_.forEach([&](uint32_t slot) { waitingJobs_.push_back(active_[slot].stateJob); });
        return profile_->nextClockChange(st_, from, waitingJobs_);
    }

    // Integrals over time of what is constant between events.
    void advance(double t) {
        const double dt = t - lastT_;
        if (dt > 0) {
            allocatedMilliSeconds_ += allocatedGpuMilli() * dt;
            partialMilliSeconds_ += double(partialGpuMilli_) * dt;
            for (size_t c = 1; c < reasonWaiting_.size(); ++c)
                if (reasonWaiting_[c] > 0) reasons_.seconds[c] += double(reasonWaiting_[c]) * dt;
            lastT_ = t;
        }
    }

    void push(double time, EventKind kind, uint32_t slot, uint32_t epoch, uint32_t task = kNone) {
        events_.push(Event{time, seq_++, kind, slot, epoch, task});
    }

    // ---------------------------------------------------------------- accounting

    int64_t taskGpuMilli(uint32_t t) const {
        const auto& g = st_.shapeOf(t).gpu;
        return g.count > 0 ? g.totalMilli() : 0;
    }

    int32_t queueOfTask(uint32_t t) const {
        const uint32_t j = st_.tasks[t].job;
        return j == UINT32_MAX ? -1 : st_.jobs[j].queue;
    }

    // The GPUs the allocation percentage counts: physical GPUs, a GPU split into MIG instances and a
    // GPU only DRA devices publish alike (GpuDevices::physicalGpus).
    void countPhysicalGpus() {
        migDims_ = frag::migDims(st_);
        singleSlices_.assign(st_.nodes.size(), 0);
        for (uint32_t n = 0; n < st_.nodes.size(); ++n) {
            totalGpuMilli_ += int64_t(st_.nodes[n].gpus.physicalGpus()) * 1000;
            singleSlices_[n] = int8_t(frag::singleStrategySlices(st_, n));
        }
    }

    // The physical GPU compute a task holds through extended resources, in sevenths of a milli-GPU
    // (a MIG compute slice is a seventh of a GPU, so every share is a whole number): its GPUs (on a
    // node of the device plugin's single MIG strategy, instances: their compute slices) and its
    // nvidia.com/mig-<profile> instances, likewise.
    int64_t physicalGpuSevenths(uint32_t t) const {
        const auto& task = st_.tasks[t];
        int64_t g = task.gpuMask ? taskGpuMilli(t) : 0;
        const int8_t single = task.node >= 0 ? singleSlices_[size_t(task.node)] : 0;
        g *= single > 0 ? single : 7;
        if (!migDims_.empty()) {
            const auto& request = st_.shapeOf(t).request;
            for (const auto& m : migDims_) g += request[size_t(m.dim)] * m.computeSlices;
        }
        return g;
    }
    // What the allocation percentage counts as allocated, in milli-GPU.
    double allocatedGpuMilli() const { return double(allocatedSevenths_) / 7.0 + double(claimGpuMilli_); }

    // A task starts (+1) or stops (-1) holding resources on its node.
    void account(uint32_t t, int sign) {
        const int64_t g = taskGpuMilli(t);
        allocatedSevenths_ += sign * physicalGpuSevenths(t);
        const int32_t q = queueOfTask(t);
        if (q >= 0) queueGpuMilli_[size_t(q)] += sign * g;
        if (frag_ && st_.tasks[t].node >= 0) frag_->touch(uint32_t(st_.tasks[t].node));
    }

    int64_t partialContribution(const Active& a) const { return a.runStart < 0 ? a.placedGpuMilli : 0; }

    template <class Change> void update(Active& a, Change change) {
        partialGpuMilli_ -= partialContribution(a);
        change();
        partialGpuMilli_ += partialContribution(a);
    }

    uint32_t classOf(Active& a, const std::string& text, uint32_t task) {
        if (task == a.reasonTask && text == a.reasonText) return a.reasonClass;
        a.reasonTask = task;
        a.reasonText = text;
        a.reasonClass = reasons_.classify(text, st_.taskKey(task), st_.jobs[a.stateJob].key);
        return a.reasonClass;
    }

    void setReason(Active& a, uint32_t cls) {
        if (a.reason == cls) return;
        if (a.reason) --reasonWaiting_[a.reason];
        a.reason = cls;
        if (cls) {
            if (reasonWaiting_.size() <= cls) reasonWaiting_.resize(cls + 1, 0);
            ++reasonWaiting_[cls];
            ++reasons_.entries[cls];
        }
    }

    // A profile that allocates DRA claims reads each pod's claims from its setup's cluster: the
    // pods the workload will create join it there. An empty cluster when nothing uses claims.
    Cluster claimsOfTheWorkload(const Cluster& cluster) const {
        Cluster out;
        if (cluster.dra.empty()) return out;
        std::vector<uint8_t> claimKind(w_.kinds.size(), 0);
        bool any = false;
        for (size_t k = 0; k < w_.kinds.size(); ++k)
            for (const auto& pod : w_.kinds[k].pods)
                if (!pod.resourceClaims.empty()) claimKind[k] = 1, any = true;
        if (!any) return out;
        out = cluster;
        for (size_t j = 0; j < w_.jobs.size(); ++j)
            if (claimKind[w_.jobs[j].kind])
                for (auto& pod : w_.jobPods(j))
                    if (!pod.resourceClaims.empty()) out.pods.push_back(std::move(pod));
        return out;
    }

    // ---------------------------------------------------------------- events

    void arrive(uint32_t j) {
        ++result_.jobsArrived;
        PodGroup g = w_.jobGroup(j);
        std::vector<Pod> pods = w_.jobPods(j);
        const uint32_t sj = st_.addJob(g, pods, build_);
        uint32_t slot;
        if (!freeSlots_.empty()) {
            slot = freeSlots_.back();
            freeSlots_.pop_back();
        } else {
            slot = uint32_t(active_.size());
            active_.emplace_back();
        }
        Active& a = active_[slot];
        a = Active{};
        a.job = j;
        a.stateJob = sj;
        a.need = std::max(1, st_.jobs[sj].minAvailable);
        a.remaining = w_.jobs[j].duration > 0 ? w_.jobs[j].duration : -1;
        if (slotOfStateJob_.size() < st_.jobs.size()) slotOfStateJob_.resize(st_.jobs.size(), kNone);
        slotOfStateJob_[sj] = slot;
        waiting_.insert(slot);
        auto& out = outcome_[j];
        out.active = slot;
        out.arrived = true;
        out.queue = st_.jobs[sj].queue;
        out.priority = st_.jobs[sj].priority;
    }

    bool handle(const Event& e) {
        Active& a = active_[e.slot];
        if (a.job == kNone || a.epoch != e.epoch) return false; // stale
        switch (e.kind) {
        case EventKind::Release:
            if (e.task == kNone)
                release(a);
            else
                releasePod(a, e.task, e.time);
            return true;
        case EventKind::Start: {
            const auto& task = st_.tasks[e.task];
            if (task.status != TaskStatus::Bound) return false;
            st_.setTask(e.task, TaskStatus::Running, -1);
            started(a, e.task, e.time);
            createDependents(a.stateJob);
            maybeRun(a, e.time);
            openGates(a);
            return true;
        }
        case EventKind::PodDone: {
            const auto& task = st_.tasks[e.task];
            const double seconds = st_.roleSeconds(a.stateJob, task.role);
            // Evicted and started again since: a later event is its own.
            if (task.status != TaskStatus::Running || e.time + 1e-9 < task.startSeconds + seconds)
                return false;
            update(a, [&] {
                --a.placed;
                a.placedGpuMilli -= taskGpuMilli(e.task);
            });
            unplace(e.task);
            openGates(a);
            return true;
        }
        case EventKind::Complete:
            if (e.task != a.run) return false;
            complete(a, e.time);
            return true;
        }
        return false;
    }

    void place(uint32_t t, uint32_t node, double now) {
        const bool start = o_.podStartSeconds <= 0;
        st_.setTask(t, start ? TaskStatus::Running : TaskStatus::Bound, int32_t(node));
        st_.k8sAdd(t, node);
        st_.reindexNode(node);
        st_.tasks[t].startSeconds = now;
        st_.tasks[t].nominatedNode = -1;
        account(t, +1);
        const uint32_t sj = st_.tasks[t].job;
        const uint32_t slot = sj == UINT32_MAX || sj >= slotOfStateJob_.size() ? kNone : slotOfStateJob_[sj];
        if (slot == kNone) return; // a pod of the initial cluster: it runs for ever
        Active& a = active_[slot];
        update(a, [&] {
            ++a.placed;
            a.placedGpuMilli += taskGpuMilli(t);
        });
        if (a.firstPlaced < 0) a.firstPlaced = now;
        if (start) {
            started(a, t, now);
            createDependents(sj);
            maybeRun(a, now);
        } else {
            push(now + o_.podStartSeconds, EventKind::Start, slot, a.epoch, t);
        }
        openGates(a);
    }

    // A pod of the job runs: it counts for the gang, or, when its role has a run time of its own
    // (a JobSet's initializer), it succeeds after that time instead.
    void started(Active& a, uint32_t t, double now) {
        const double seconds = st_.roleSeconds(a.stateJob, st_.tasks[t].role);
        if (seconds < 0) {
            update(a, [&] { ++a.running; });
            return;
        }
        st_.tasks[t].startSeconds = now;
        push(now + seconds, EventKind::PodDone, uint32_t(&a - active_.data()), a.epoch, t);
    }

    // The job's controller creates the pods whose conditions now hold (creation gates).
    void openGates(Active& a) {
        if (!st_.jobs[a.stateJob].gates.empty()) st_.openGates(a.stateJob);
    }

    // The job's controller makes the pods of a dependent task once the tasks it waits for run.
    void createDependents(uint32_t sj) {
        if (!st_.jobs[sj].dependents.empty()) st_.createReadyDependents(sj, build_);
    }

    // The gang runs once `need` pods run: the clock of the job starts.
    void maybeRun(Active& a, double now) {
        if (a.runStart >= 0 || a.running < a.need || a.releasing > 0) return;
        auto& out = outcome_[a.job];
        update(a, [&] { a.runStart = now; });
        waiting_.erase(uint32_t(&a - active_.data()));
        setReason(a, 0);
        if (out.firstStart < 0) {
            out.firstStart = now;
            ++result_.jobsStarted;
            if (a.need > 1) out.gangWait = now - a.firstPlaced;
            queueWaits_[out.queue].push_back(now - w_.jobs[a.job].arrival);
        }
        a.everRan = true;
        if (a.remaining >= 0)
            push(now + a.remaining, EventKind::Complete, uint32_t(&a - active_.data()), a.epoch, a.run);
    }

    // Takes a task off its node for good (job finished).
    void unplace(uint32_t t) {
        auto& task = st_.tasks[t];
        if (task.node < 0 || !engine::occupiesNode(task.status)) return;
        const uint32_t node = uint32_t(task.node);
        if (task.status != TaskStatus::Pipelined) account(t, -1);
        if (task.inK8sView) st_.k8sRemove(t, node);
        st_.setTask(t, TaskStatus::Succeeded, -1);
        st_.reindexNode(node);
    }

    void complete(Active& a, double now) {
        auto& out = outcome_[a.job];
        out.end = now;
        ++result_.jobsCompleted;
        setReason(a, 0);
        update(a, [&] { a.placedGpuMilli = 0; });
        for (uint32_t t : st_.jobs[a.stateJob].tasks) unplace(t);
        retire(a);
    }

    // The scheduler gave the job up: its pods leave, it never completes.
    void fail(Active& a, const std::string& why) {
        ++result_.jobsFailed;
        result_.failedJobs.emplace_back(st_.jobs[a.stateJob].key, why);
        setReason(a, 0);
        update(a, [&] { a.placedGpuMilli = 0; });
        for (uint32_t t : st_.jobs[a.stateJob].tasks) unplace(t);
        retire(a);
    }

    void retire(Active& a) {
        const uint32_t slot = uint32_t(&a - active_.data());
        outcome_[a.job].active = kNone;
        slotOfStateJob_[a.stateJob] = kNone;
        waiting_.erase(slot);
        st_.removeJob(a.stateJob);
        a = Active{};
        freeSlots_.push_back(slot);
    }

    // The gang stops running: the work since its last checkpoint is lost.
    void stopRun(Active& a, double now) {
        auto& out = outcome_[a.job];
        if (a.runStart >= 0) {
            const double done = a.saved + (now - a.runStart);
            const double every = w_.kinds[w_.jobs[a.job].kind].checkpointSeconds;
            const double kept = every > 0 ? std::floor(done / every) * every : 0.0;
            out.lostGpuSeconds += (done - kept) * double(a.placedGpuMilli) / 1000.0;
            a.saved = kept;
            if (a.remaining >= 0) a.remaining = std::max(0.0, w_.jobs[a.job].duration - kept);
        }
        ++out.restarts;
        ++result_.jobRestarts;
        ++a.run;
    }

    // A running (or partly placed) job loses pods: all of it stops and restarts later.
    void restart(Active& a, double now, int evicted) {
        result_.podEvictions += evicted;
        stopRun(a, now);
        update(a, [&] {
            a.runStart = -1;
            a.running = 0;
            a.placed = 0;
            a.placedGpuMilli = 0;
        });
        a.firstPlaced = -1;
        ++a.epoch;
        waiting_.insert(uint32_t(&a - active_.data()));
        for (uint32_t t : st_.jobs[a.stateJob].tasks) {
            const auto status = st_.tasks[t].status;
            if (st_.tasks[t].node >= 0 && engine::occupiesNode(status) && status != TaskStatus::Pipelined &&
                status != TaskStatus::Releasing) {
                st_.setTask(t, TaskStatus::Releasing, -1);
                ++a.releasing;
                if (frag_) frag_->touch(uint32_t(st_.tasks[t].node));
            }
        }
        push(now + o_.evictionGraceSeconds, EventKind::Release, uint32_t(&a - active_.data()), a.epoch);
    }

    // kube-scheduler's victims: only these pods stop (each holds its resources for the grace
    // period, then its controller recreates it); the gang stops running if too few pods are left.
    void evictPods(Active& a, double now, const std::vector<uint32_t>& victims) {
        const uint32_t slot = uint32_t(&a - active_.data());
        int32_t running = a.running;
        for (uint32_t t : victims)
            if (st_.tasks[t].status == TaskStatus::Running &&
                st_.roleSeconds(a.stateJob, st_.tasks[t].role) < 0)
                --running;
        if (a.runStart >= 0 && running < a.need) {
            stopRun(a, now);
            update(a, [&] { a.runStart = -1; });
            waiting_.insert(slot);
        }
        for (uint32_t t : victims) {
            const TaskStatus status = st_.tasks[t].status;
            if (st_.tasks[t].node < 0 || !engine::occupiesNode(status) || status == TaskStatus::Pipelined ||
                status == TaskStatus::Releasing)
                continue;
            ++result_.podEvictions;
            const bool counted =
                status == TaskStatus::Running && st_.roleSeconds(a.stateJob, st_.tasks[t].role) < 0;
            update(a, [&] {
                --a.placed;
                a.placedGpuMilli -= taskGpuMilli(t);
                if (counted) --a.running;
            });
            st_.setTask(t, TaskStatus::Releasing, -1);
            ++a.releasing;
            if (frag_) frag_->touch(uint32_t(st_.tasks[t].node));
            push(now + o_.evictionGraceSeconds, EventKind::Release, slot, a.epoch, t);
        }
    }

    // One evicted pod is gone: its controller recreates it, pending.
    void releasePod(Active& a, uint32_t t, double now) {
        auto& task = st_.tasks[t];
        if (task.status != TaskStatus::Releasing) return;
        const uint32_t node = uint32_t(task.node);
        account(t, -1);
        if (task.inK8sView) st_.k8sRemove(t, node);
        st_.setTask(t, TaskStatus::Pending, -1);
        st_.reindexNode(node);
        task.nominatedNode = -1;
        --a.releasing;
        maybeRun(a, now);
    }

    // Evicted pods are gone: they are pending again and the PodGroup goes back to its queue.
    void release(Active& a) {
        for (uint32_t t : st_.jobs[a.stateJob].tasks) {
            auto& task = st_.tasks[t];
            if (task.status != TaskStatus::Releasing) continue;
            const uint32_t node = uint32_t(task.node);
            account(t, -1);
            if (task.inK8sView) st_.k8sRemove(t, node);
            st_.setTask(t, TaskStatus::Pending, -1);
            st_.reindexNode(node);
        }
        a.releasing = 0;
        st_.setJobPhase(a.stateJob, PodGroupPhase::Pending);
        // The controller makes the job's pods again, a dependent task's once its dependencies run.
        if (!st_.jobs[a.stateJob].dependents.empty()) st_.withdrawDependents(a.stateJob);
    }

    // ---------------------------------------------------------------- cycles

    // Runs one session; returns whether it changed the state.
    bool cycle(double now) {
        ++result_.sessions;
        engine::CycleOptions co;
        co.nowSeconds = now;
        co.periodSeconds = o_.cycleSeconds;
        co.compact = true;
        engine::CycleResult r = profile_->cycle(st_, co);
        claimGpuMilli_ = profile_->gpuMilliHeldThroughClaims();
        for (const auto& wmsg : r.warnings)
            if (warned_.insert(wmsg).second) result_.warnings.push_back(wmsg);
        bool changed = false;
        for (const auto& [t, node] : r.boundTasks) {
            if (st_.tasks[t].status != TaskStatus::Pending) continue;
            place(t, node, now);
            changed = true;
        }
        std::map<uint32_t, std::vector<uint32_t>> evictedBySlot;
        for (uint32_t t : r.evictedTasks) {
            const uint32_t sj = st_.tasks[t].job;
            const uint32_t slot =
                sj == UINT32_MAX || sj >= slotOfStateJob_.size() ? kNone : slotOfStateJob_[sj];
            if (slot == kNone) {
                // A pod of the initial cluster: it is gone for good.
                unplace(t);
                ++result_.podEvictions;
            } else {
                evictedBySlot[slot].push_back(t);
            }
            changed = true;
        }
        for (const auto& [slot, victims] : evictedBySlot) {
            if (profile_->evictionsRestartJobs())
                restart(active_[slot], now, int(victims.size()));
            else
                evictPods(active_[slot], now, victims);
        }
        for (const auto& [t, node] : r.nominations) {
            if (st_.tasks[t].nominatedNode == node) continue;
            st_.tasks[t].nominatedNode = node;
            changed = true;
        }
        for (const auto& [j, why] : r.failedJobs) {
            const uint32_t slot = j < slotOfStateJob_.size() ? slotOfStateJob_[j] : kNone;
            if (slot == kNone) continue;
            fail(active_[slot], why);
            changed = true;
        }
        for (const auto& [j, phase] : r.phaseChanges) {
            st_.setJobPhase(j, phase);
            changed = true;
        }
        // Why the jobs still waiting wait: the reason of each one's first pending pod.
        std::unordered_map<uint32_t, const std::string*> reasonOf;
        for (const auto& [j, reason] : r.jobReasons) reasonOf.emplace(j, &reason);
        // Parked jobs were not tried: they keep the reason of the last session that tried them.
        ++parkStamp_;
        result_.parkedJobSessions += int64_t(r.parkedJobs.size());
        for (uint32_t j : r.parkedJobs) {
            if (parkedIn_.size() <= j) parkedIn_.resize(j + 1, 0);
            parkedIn_[j] = parkStamp_;
        }
        waiting_.forEach([&](uint32_t slot) {
            Active& a = active_[slot];
            if (a.stateJob < parkedIn_.size() && parkedIn_[a.stateJob] == parkStamp_) return;
            const auto& job = st_.jobs[a.stateJob];
            uint32_t cls = 0;
            if (auto it = reasonOf.find(a.stateJob); it != reasonOf.end()) {
                for (uint32_t t : job.tasks)
                    if (st_.tasks[t].status == TaskStatus::Pending) {
                        cls = classOf(a, *it->second, t);
                        break;
                    }
            }
            // No pod of it pending: it may wait for its controller to create the rest.
            if (cls == 0 && !job.gates.empty())
                for (uint32_t t : job.tasks)
                    if (st_.tasks[t].status == TaskStatus::NotCreated) {
                        cls = classOf(a, st_.whyNotCreated(t), t);
                        break;
                    }
            setReason(a, cls);
        });
        return changed;
    }

    // ---------------------------------------------------------------- metrics

    void sample(double t) {
        result_.time.push_back(t);
        result_.gpuAllocationPct.push_back(
            totalGpuMilli_ > 0 ? 100.0 * allocatedGpuMilli() / double(totalGpuMilli_) : 0.0);
        if (o_.keepPeakPlacements && result_.gpuAllocationPct.back() > peakPct_) {
            peakPct_ = result_.gpuAllocationPct.back();
            result_.peakSeconds = t;
            recordPlacements(st_, result_.peakPlacements, result_.peakJobNames);
        }
        if (frag_ && (frag_->measured() || frag_->hasMig() || claimGpus_)) {
            auto f = frag_->measure();
            if (frag_->measured()) {
                result_.fragmentationPct.push_back(f.fragOverTotalPct());
                result_.fragOverIdlePct.push_back(f.fragOverIdlePct());
            }
            const frag::IdleBreakdown& idle = frag_->idle();
            // MIG instances a pod of the workload can take are usable; the others are the layout's.
            const frag::MigIdle mig = frag_->hasMig() ? frag_->migIdle() : frag::MigIdle{};
            // DRA devices, which no extended resource counts: the profile's ledger says.
            const engine::ClaimGpus dra = claimGpus_ ? profile_->claimGpus() : engine::ClaimGpus{};
            result_.idle.stranded.push_back(double(idle.stranded) / 1000.0);
            result_.idle.fractional.push_back(double(idle.fractional) / 1000.0);
            result_.idle.scattered.push_back(double(idle.scattered + dra.scattered) / 1000.0);
            result_.idle.usable.push_back(double(idle.usable + mig.usable + dra.usable) / 1000.0);
            if (migSeries_) result_.idle.migLayout.push_back(double(mig.layout + dra.layout) / 1000.0);
        }
        int32_t pending = 0, running = 0, partial = 0, pendingPods = 0;
        for (const auto& a : active_) {
            if (a.job == kNone) continue;
            if (a.runStart >= 0) {
                ++running;
                continue;
            }
            ++pending;
            if (a.placed > 0) ++partial;
            pendingPods += st_.jobs[a.stateJob].statusCount[int(TaskStatus::Pending)];
        }
        result_.pendingJobs.push_back(pending);
        result_.runningJobs.push_back(running);
        result_.partialJobs.push_back(partial);
        result_.pendingPods.push_back(pendingPods);
        // Queue usage including descendants.
        std::vector<int64_t> used(st_.queues.size(), 0);
        for (size_t q = 0; q < st_.queues.size(); ++q) {
            int guard = 0;
            for (int32_t p = int32_t(q); p >= 0 && guard < 64; p = st_.queues[size_t(p)].parent, ++guard)
                used[size_t(p)] += queueGpuMilli_[q];
        }
        queueUsed_.push_back(std::move(used));
        profile_->sample(st_, t);
    }

    void finish(double end) {
        // Pending reasons in full, from a session on the final state (not applied).
        lastPending_.clear();
        if (anyWaiting()) cycleReadOnly(end);
        result_.allocatedGpuHours = allocatedMilliSeconds_ / 1000.0 / 3600.0;
        result_.partialHoldGpuHours = partialMilliSeconds_ / 1000.0 / 3600.0;
        result_.meanGpuAllocationPct = end > 0 && totalGpuMilli_ > 0
                                           ? 100.0 * allocatedMilliSeconds_ / (double(totalGpuMilli_) * end)
                                           : 0.0;
        result_.allocatedGpusAtEnd = allocatedGpuMilli() / 1000.0;
        result_.cyclesSkipped = int64_t(std::floor(end / o_.cycleSeconds)) + 1 - result_.sessions;
        if (result_.cyclesSkipped < 0) result_.cyclesSkipped = 0;

        for (size_t j = 0; j < outcome_.size(); ++j) {
            auto& out = outcome_[j];
            out.waitingAtEnd = out.active != kNone && active_[out.active].runStart < 0;
        }
        summarizeJobs(outcome_, w_, st_, queueUsed_, queueWaits_, result_);

        // Jobs at the end, and why those still waiting wait.
        for (const auto& a : active_) {
            if (a.job == kNone) continue;
            if (a.runStart >= 0) {
                ++result_.jobsRunningAtEnd;
                continue;
            }
            ++result_.jobsPendingAtEnd;
            if (a.placed > 0) ++result_.jobsPartialAtEnd;
        }
        std::vector<uint32_t> waiting;
        for (uint32_t s = 0; s < active_.size(); ++s)
            if (active_[s].job != kNone && active_[s].runStart < 0) waiting.push_back(s);
        std::sort(waiting.begin(), waiting.end(), [&](uint32_t x, uint32_t y) {
            const auto &a = w_.jobs[active_[x].job], &b = w_.jobs[active_[y].job];
            if (a.arrival != b.arrival) return a.arrival < b.arrival;
            return active_[x].job < active_[y].job;
        });
        for (uint32_t s : waiting) {
            const Active& a = active_[s];
            const auto& job = st_.jobs[a.stateJob];
            PendingJob p;
            p.job = job.key;
            p.queue = job.queue >= 0 ? st_.queues[size_t(job.queue)].name : "";
            p.pods = int32_t(job.tasks.size());
            p.minMember = job.minAvailable;
            p.placed = a.placed;
            p.priority = job.priority;
            for (uint32_t t : job.tasks) p.gpus += double(taskGpuMilli(t)) / 1000.0;
            p.waitingSeconds = end - w_.jobs[a.job].arrival;
            for (uint32_t t : job.tasks) {
                if (st_.tasks[t].status != TaskStatus::Pending) continue;
                auto it = lastPending_.find(st_.taskKey(t));
                if (it != lastPending_.end()) {
                    p.reason = it->second;
                    break;
                }
            }
            if (p.reason.empty() && !job.gates.empty())
                for (uint32_t t : job.tasks)
                    if (st_.tasks[t].status == TaskStatus::NotCreated) {
                        p.reason = st_.whyNotCreated(t);
                        break;
                    }
            if (p.reason.empty() && a.releasing > 0)
                p.reason = "restarting: its evicted pods are terminating";
            if (p.reason.empty() && a.placed > 0) p.reason = "its pods are starting";
            result_.pendingAtEnd.push_back(std::move(p));
        }
        recordEndState(st_, result_);
        result_.pendingReasons = reasons_.table();
        result_.objects = profile_->objectSeries();
        result_.fragmentationMeasured = frag_ && frag_->measured();
        if (frag_ && frag_->measured()) {
            result_.targetWorkload = frag_->describeTarget();
            result_.topologySlots = frag_->topologySlots();
        }
    }

    bool anyWaiting() const { return !waiting_.empty(); }

    // A full cycle (not compact, nothing carried): every waiting job's reason, in full.
    void cycleReadOnly(double now) {
        engine::CycleOptions co;
        co.nowSeconds = now;
        co.periodSeconds = o_.cycleSeconds;
        engine::CycleResult r = profile_->cycle(st_, co);
        engine::addNotCreated(st_, r);
        lastPending_ = std::move(r.pending);
    }

    const SimWorkload& w_;
    SimOptions o_;
    engine::BuildOptions build_;
    ClusterState st_;
    // After the state: a profile may keep state bound to it, so it goes first.
    std::unique_ptr<engine::SchedulerProfile> profile_;
    std::vector<JobOutcome> outcome_;
    std::vector<uint32_t> order_;
    size_t next_ = 0;
    std::vector<Active> active_;
    std::vector<uint32_t> freeSlots_;
    std::vector<uint32_t> slotOfStateJob_;
    SlotSet waiting_;                // slots of jobs in the cluster whose gang does not run
    std::vector<uint64_t> parkedIn_; // state job -> the session that last parked it (parkStamp_)
    uint64_t parkStamp_ = 0;
    std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
    uint64_t seq_ = 0;
    double lastT_ = 0;
    int64_t totalGpuMilli_ = 0, allocatedSevenths_ = 0, partialGpuMilli_ = 0;
    double peakPct_ = 0;                         // with keepPeakPlacements: the highest allocation sampled
    bool claimGpus_ = false, migSeries_ = false; // DRA GPU devices; MIG instances of either kind
    int64_t claimGpuMilli_ = 0; // held through DRA claims (the profile's ledger), as of the last cycle
    std::vector<frag::MigDim> migDims_; // nvidia.com/mig-<profile> dimensions of the state
    std::vector<int8_t> singleSlices_;  // per node of the single MIG strategy: its profile's compute slices
    double allocatedMilliSeconds_ = 0, partialMilliSeconds_ = 0;
    std::vector<int64_t> queueGpuMilli_;
    std::vector<std::vector<int64_t>> queueUsed_;
    std::map<int32_t, std::vector<double>> queueWaits_;
    std::unique_ptr<FragTracker> frag_;
    std::vector<uint32_t> waitingJobs_; // scratch for nextClockChange
    ReasonBook reasons_;
    std::vector<int64_t> reasonWaiting_{0};
    std::map<std::string, std::string> lastPending_;
    std::set<std::string> warned_;
    SimResult result_;
};

} // namespace

SimResult simulate(const Cluster& cluster, const SimWorkload& workload, const SimOptions& options,
                   Diagnostics* warnings) {
    Simulator s(cluster, workload, options, warnings);
    return s.run();
}

} // namespace gantry::sim
