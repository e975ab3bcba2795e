#include "profiles/yunikorn/yunikorn_profile.h"

#include "k8s/claim_tasks.h"
#include "k8s/k8s.h"
#include "profiles/yunikorn/config.h"
#include "profiles/yunikorn/controllers.h"
#include "profiles/yunikorn/shim_state.h"
#include "profiles/yunikorn/validate.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <iomanip>
#include <memory>
#include <nlohmann/json.hpp>

namespace gantry::engine::yunikorn {

namespace {

// `gantry cycle` runs with the clock far in the future (every wait has elapsed); the core's
// arithmetic then needs a time where adding seconds still counts.
constexpr double kFarFuture = 1e9;

// One `gantry cycle` (or one simulator tick) in YuniKorn's terms.
struct Report {
    std::vector<std::pair<uint32_t, uint32_t>> order; // (ask, node) allocations in order
    std::vector<uint32_t> preempted;                  // victims in order
    std::map<uint32_t, uint32_t> nominated;           // preemptor ask -> node
    std::vector<uint32_t> released;                   // placeholders given up
    std::vector<uint32_t> failedApps;
};

class YuniKornProfile : public SchedulerProfile {
  public:
    YuniKornProfile(PartitionConfig config, std::vector<InputPod> pods,
                    std::vector<std::pair<std::string, std::string>> queuePaths,
                    std::vector<std::string> notes)
        : shim_(std::move(config), std::move(pods), std::move(queuePaths)), notes_(std::move(notes)) {
        shim_.workloadMeta = std::make_shared<std::map<std::string, PodMeta>>();
    }

    BuildOptions buildOptions() const override {
        BuildOptions o;
        o.schedulerNames = {"yunikorn"};
        o.everyResource = true;
        o.anyQueue = true;
        o.readWorkload = [metas = shim_.workloadMeta](const PodGroup& g,
                                                      const std::vector<const Pod*>& pods) {
            return readWorkload(g, pods, metas.get());
        };
        // The admission controller (pkg/admission, enabled by the Helm chart) gives every new pod to
        // YuniKorn, bypassing ^kube-system$ by default (pkg/admission/conf/am_conf.go).
        o.admissionTakesEveryPod = true;
        o.admissionBypassNamespaces = {"kube-system"};
        return o;
    }

    void setNamespaceTags(std::map<std::string, NamespaceTags> tags) {
        shim_.namespaceTags = std::move(tags);
    }

    bool decisionsDependOnClock() const override { return true; }
    // The partition changes only in cycle(): between two cycles the earliest change after `from`
    // is still the one found for an earlier `from` until the clock reaches it.
    double nextClockChange(const ClusterState&, double from, const std::vector<uint32_t>&) const override {
        if (!shim_.attached()) return from;
        if (from < clockFrom_ || from >= clockNext_) {
            clockFrom_ = from;
            clockNext_ = shim_.partition().nextClockChange(from);
        }
        return clockNext_;
    }
    bool clockChangeReadsWaitingJobs() const override { return false; }

    CycleResult cycle(ClusterState& state, const CycleOptions& options) override;
    nlohmann::ordered_json cycleJson(const CycleResult& result, const CycleOptions& options) const override;
    void printCycle(std::ostream& out, const CycleResult& result, const CycleOptions& options) const override;
    void sample(const ClusterState& state, double t) override;
    std::vector<ObjectSeries> objectSeries() const override;

    // The shim's allocation predicates include kube-scheduler's DynamicResources Filter, but it runs
    // no Reserve or PreBind: claims are checked against the devices, never allocated by YuniKorn.
    void useClaims(const Cluster& cluster, Diagnostics* warnings) {
        if (std::none_of(cluster.pods.begin(), cluster.pods.end(),
                         [](const Pod& p) { return !p.resourceClaims.empty(); }))
            return;
        dra_ = std::make_unique<k8s::DraAllocator>(cluster, warnings);
        claims_ = std::make_unique<k8s::ClaimTasks>(*dra_, false);
    }

  private:
    void attach(ClusterState& state, double now);
    bool predicate(const ClusterState& state, const Ask& ask, uint32_t node, bool allocate,
                   std::string* why) const;
    std::string pendingReason(const ClusterState& state, uint32_t task) const;
    std::string podKey(const ClusterState& state, uint32_t ask) const;

    ShimState shim_;
    std::vector<std::string> notes_;
    std::unique_ptr<k8s::DraAllocator> dra_;
    std::unique_ptr<k8s::ClaimTasks> claims_;
    const ClusterState* state_ = nullptr;
    Report last_;
    mutable double clockFrom_ = 0, clockNext_ = 0; // the last nextClockChange, until the next cycle
    std::vector<std::string> lastKeys_;            // ask -> pod key, filled for the JSON of the last cycle
    // State job -> (its requeuedAt, how many of its first tasks were not pending) at its last
    // reason: while requeuedAt stays, none of them is pending again, so the next reason need not
    // walk a large job's running tasks again.
    std::vector<std::pair<uint64_t, uint32_t>> runningPrefix_;
    // State jobs with a pending task, as a bitmap by job index: a compact cycle reports reasons for
    // these only instead of walking every job slot (most jobs run). Kept from the jobs the shim's
    // sync() saw change: a job's pending count and existence change only with its tasks, which
    // lists it in ClusterState::changedJobs.
    std::vector<uint64_t> pendingJobs_;
    void notePending(const ClusterState& state, uint32_t job);
    // Over a simulation, per queue path (a column each, found by path as the output finds it),
    // from the path's first sample on (earlier samples read as zeros): usage and pending as the
    // partition keeps them (divided by the unit only for the output), the fair share, and the
    // guaranteed and max amounts as runs, since they change only when queues are created.
    struct QueueColumns {
        uint32_t first = 0;
        std::vector<int64_t> usage, pending;
        std::vector<double> fair;
        std::vector<std::pair<uint32_t, double>> guaranteed, max; // (from sample, value)
    };
    uint32_t samples_ = 0;
    std::vector<int32_t> columnOf_; // queue -> its path's column (-1: not sampled yet)
    std::map<std::string, uint32_t> columnByPath_;
    std::vector<QueueColumns> columns_;
    int gpuDim_ = -2;
};

std::string YuniKornProfile::podKey(const ClusterState& state, uint32_t ask) const {
    const Ask& k = shim_.partition().asks[ask];
    if (k.task >= 0) return state.taskKey(uint32_t(k.task));
    // A placeholder the shim made: GeneratePlaceholderName's "tg-<app id>-<task group>-<nonce>",
    // the random nonce of 10 base-36 characters made of the ask's creation order here.
    const Application& a = shim_.partition().apps[k.app];
    const std::string group = k.taskGroup >= 0 && size_t(k.taskGroup) < a.taskGroups.size()
                                  ? a.taskGroups[size_t(k.taskGroup)].name
                                  : "";
    std::string nonce(10, '0');
    for (uint32_t n = k.order, i = 10; n > 0 && i > 0; n /= 36)
        nonce[--i] = "0123456789abcdefghijklmnopqrstuvwxyz"[n % 36];
    const std::string name = "tg-" + a.id.substr(0, 28) + "-" + group.substr(0, 20) + "-" + nonce;
    return a.tags.count("namespace") ? a.tags.at("namespace") + "/" + name : name;
}

bool YuniKornProfile::predicate(const ClusterState& state, const Ask& ask, uint32_t node, bool allocate,
                                std::string* why) const {
    if (ask.shapeTask < 0) return true;
    const uint32_t task = uint32_t(ask.shapeTask);
    const PodShape& shape = state.shapeOf(task);
    const uint32_t n = uint32_t(shim_.partition().nodes[node].stateNode);
    const NodeRec& rec = state.nodes[n];
    if (!k8s::passesUnschedulable(shape, rec)) {
        *why = k8s::kUnschedulable;
        return false;
    }
    if (const Taint* t = k8s::firstUntolerated(shape, rec)) {
        *why = k8s::untoleratedTaintReason(*t);
        return false;
    }
    if (!k8s::passesNodeAffinity(shape, rec, state.nodeName(n))) {
        *why = k8s::kNodeAffinity;
        return false;
    }
    // kube-scheduler's default filter order, which the shim's predicate manager keeps:
    // PodTopologySpread before InterPodAffinity.
    if (!shape.topologySpread.empty()) {
        k8s::SpreadState st = k8s::spreadPreFilter(state, task);
        Code code;
        if (const char* r = k8s::spreadFilter(state, st, n, &code)) {
            *why = r;
            return false;
        }
    }
    if (!shape.podAffinity.empty() || !shape.podAntiAffinity.empty() || state.podsWithAffinity > 0) {
        k8s::AffinityState st = k8s::affinityPreFilter(state, task);
        Code code;
        if (const char* r = k8s::affinityFilter(state, st, task, n, &code)) {
            *why = r;
            return false;
        }
    }
    // DynamicResources, in the allocation phase only (the reservation phase runs the simpler filters).
    if (allocate && claims_ && claims_->uses(state, task)) {
        if (const std::string* unusable = claims_->unusable(state, task)) {
            *why = *unusable;
            return false;
        }
        if (const char* r = claims_->filter(state, task, n)) {
            *why = r;
            return false;
        }
    }
    return true;
}

void YuniKornProfile::attach(ClusterState& state, double now) {
    shim_.attach(state, now);
    shim_.partition().predicate = [this, &state](const Ask& ask, uint32_t node, bool allocate,
                                                 std::string* why) {
        return predicate(state, ask, node, allocate, why);
    };
}

CycleResult YuniKornProfile::cycle(ClusterState& state, const CycleOptions& options) {
    const bool simulated = options.nowSeconds < kFarFuture;
    const double now = simulated ? options.nowSeconds : kFarFuture;
    state_ = &state;
    clockFrom_ = clockNext_ = 0;
    CycleResult result;
    if (!shim_.attached()) {
        attach(state, now);
        result.warnings = notes_;
        pendingJobs_.assign((state.jobs.size() + 63) / 64, 0);
        for (uint32_t j = 0; j < state.jobs.size(); ++j) notePending(state, j);
    } else {
        shim_.sync(state, now);
        if (pendingJobs_.size() * 64 < state.jobs.size())
            pendingJobs_.resize((state.jobs.size() + 63) / 64, 0);
        for (uint32_t j : shim_.syncedJobs) notePending(state, j);
    }
    Partition& p = shim_.partition();
    last_ = Report{};
    // Timers first (the core's run asynchronously; a simulation's clock makes them due).
    if (simulated) {
        std::vector<uint32_t> released, failed;
        p.fireTimers(now, &released, &failed);
        for (uint32_t ph : released) {
            last_.released.push_back(ph);
            shim_.releasePlaceholder(ph);
        }
        // A Soft gang that gave its placeholders up runs without them: the shim submits its pods.
        for (uint32_t ph : released) shim_.submitHeld(state, p.asks[ph].app, true);
        last_.failedApps = failed;
    }
    const int limit = options.passes > 0 ? options.passes : std::numeric_limits<int>::max();
    int guard = 4 * int(p.nextAskOrder) + 64; // every ask ever made (slots are reused)
    for (int pass = 0; pass < limit; ++pass) {
        CycleDecision d = p.schedule(now);
        if (!d.activity()) {
            if (options.passes > 0) continue;
            break;
        }
        if (d.type == ResultType::Allocated || d.type == ResultType::AllocatedReserved ||
            d.type == ResultType::Replaced) {
            last_.order.emplace_back(d.ask, d.node);
            last_.nominated.erase(d.ask);
        }
        if (d.type == ResultType::Reserved && d.byPreemption) last_.nominated[d.ask] = d.node;
        for (uint32_t v : d.preempted) last_.preempted.push_back(v);
        for (uint32_t r : d.released) last_.released.push_back(r);
        if (d.type == ResultType::Replaced) last_.released.push_back(d.replaced);
        shim_.afterDecision(state, d, simulated);
        if (options.passes == 0 && --guard <= 0) {
            result.warnings.push_back("YuniKorn cycles stopped after " + std::to_string(pass + 1) +
                                      " decisions without settling");
            break;
        }
    }
    // The cycle leaves the state as it found it: the caller applies the decisions.
    shim_.forgetAssumed(state);

    // Decisions by pod and by index.
    for (const auto& [ask, node] : last_.order) {
        const Ask& k = p.asks[ask];
        if (k.task < 0) continue;
        const uint32_t n = uint32_t(p.nodes[node].stateNode);
        result.boundTasks.emplace_back(uint32_t(k.task), n);
        if (!options.compact) result.bindings[state.taskKey(uint32_t(k.task))] = state.nodeName(n);
    }
    for (uint32_t v : last_.preempted) {
        const Ask& k = p.asks[v];
        if (k.task < 0) continue;
        result.evictedTasks.push_back(uint32_t(k.task));
        if (!options.compact) result.evicted.push_back(state.taskKey(uint32_t(k.task)));
    }
    if (simulated)
        for (uint32_t r : last_.released) {
            const Ask& k = p.asks[r];
            if (k.task >= 0 && state.tasks[uint32_t(k.task)].job == UINT32_MAX)
                result.evictedTasks.push_back(uint32_t(k.task));
        }
    for (uint32_t app : last_.failedApps)
        for (uint32_t job : shim_.jobsOf(app))
            result.failedJobs.emplace_back(job, "YuniKorn: the gang's placeholders timed out (Hard style)");
    for (const auto& [job, why] : shim_.rejectedJobs)
        result.failedJobs.emplace_back(job, "YuniKorn rejected the application: " + why);
    shim_.rejectedJobs.clear();
    // Why the rest waits: by pod for `gantry cycle`, by job (its first waiting pod) for a simulation.
    std::vector<uint32_t> bound;
    for (const auto& [t, n] : result.boundTasks) bound.push_back(t);
    std::sort(bound.begin(), bound.end());
    auto waits = [&](uint32_t t) {
        return state.tasks[t].status == TaskStatus::Pending &&
               !std::binary_search(bound.begin(), bound.end(), t);
    };
    if (!options.compact) {
        for (uint32_t t = 0; t < state.tasks.size(); ++t)
            if (state.tasks[t].ours && waits(t)) result.pending[state.taskKey(t)] = pendingReason(state, t);
    } else {
        runningPrefix_.resize(state.jobs.size());
#ifdef GANTRY_YK_VERIFY
        // The bitmap against the walk of every job slot it replaces.
        for (uint32_t j = 0; j < state.jobs.size(); ++j) {
            const bool pending = state.jobAlive(j) && state.jobs[j].statusCount[int(TaskStatus::Pending)] > 0;
            if (pending != bool((pendingJobs_[j / 64] >> (j % 64)) & 1u)) std::abort();
        }
#endif
        for (size_t w = 0; w < pendingJobs_.size(); ++w)
            for (uint64_t bits = pendingJobs_[w]; bits; bits &= bits - 1) {
                const uint32_t j = uint32_t(w * 64 + size_t(std::countr_zero(bits)));
                const std::vector<uint32_t>& tasks = state.jobs[j].tasks;
                auto& [seen, from] = runningPrefix_[j];
                if (seen != state.jobs[j].requeuedAt) {
                    seen = state.jobs[j].requeuedAt;
                    from = 0;
                }
                while (from < tasks.size() && state.tasks[tasks[from]].status != TaskStatus::Pending) ++from;
                for (size_t i = from; i < tasks.size(); ++i)
                    if (waits(tasks[i])) {
                        result.jobReasons.emplace_back(j, pendingReason(state, tasks[i]));
                        break;
                    }
            }
    }
    // Pod names for `gantry cycle`'s output only: a simulation asks for none.
    lastKeys_.clear();
    if (!options.compact) {
        lastKeys_.resize(p.asks.size());
        for (uint32_t a = 0; a < p.asks.size(); ++a)
            if (p.asks[a].app != kNone) lastKeys_[a] = podKey(state, a);
    }
    return result;
}

void YuniKornProfile::notePending(const ClusterState& state, uint32_t job) {
    const uint64_t bit = uint64_t(1) << (job % 64);
    if (state.jobAlive(job) && state.jobs[job].statusCount[int(TaskStatus::Pending)] > 0)
        pendingJobs_[job / 64] |= bit;
    else
        pendingJobs_[job / 64] &= ~bit;
}

std::string YuniKornProfile::pendingReason(const ClusterState& state, uint32_t task) const {
    const Partition& p = shim_.partition();
    const int32_t askIndex = task < shim_.askOfTask.size() ? shim_.askOfTask[task] : -1;
    if (askIndex < 0) {
        // The shim's event for a gated pod (Context.updateYuniKornPod): the gates joined by commas.
        if (state.schedulingGated(task)) {
            std::string gates;
            for (const auto& g : state.shapeOf(task).schedulingGates) gates += (gates.empty() ? "" : ",") + g;
            return "waiting for scheduling gates: " + gates;
        }
        // Rejected, or held back while the gang's placeholders are placed.
        if (const std::string* why = shim_.rejectionOf(state, task))
            return "YuniKorn rejected the application: " + *why;
        return "waiting for the placeholders of its gang";
    }
    const Ask& k = p.asks[uint32_t(askIndex)];
    const Application& a = p.apps[k.app];
    if (a.state == AppState::Accepted && (!a.runnableInQueue || !a.runnableByUserLimit))
        return !a.runnableInQueue
                   ? "application waits: the queue runs its maximum number of applications"
                   : "application waits: the user or group runs its maximum number of applications";
    const std::string log = allocationLog(k);
    for (const auto& r : a.reservations)
        if (r.ask == uint32_t(askIndex)) {
            const std::string node = p.nodes[r.node].id;
            return k.triggeredPreemption ? "waiting for preempted pods to leave node " + node
                                         : "node " + node + " is reserved for it: " +
                                               (log.empty() ? std::string("it does not fit yet") : log);
        }
    if (!log.empty()) return log;
    return "not tried yet";
}

// ---------------------------------------------------------------- output

nlohmann::ordered_json YuniKornProfile::cycleJson(const CycleResult& result, const CycleOptions&) const {
    nlohmann::ordered_json out;
    const Partition& p = shim_.partition();
    auto key = [&](uint32_t ask) { return ask < lastKeys_.size() ? lastKeys_[ask] : std::string(); };
    // The pods of the input; the placeholders the shim made apart, in the order allocated.
    out["allocations"] = nlohmann::ordered_json::object();
    out["order"] = nlohmann::ordered_json::array();
    out["placeholders"] = nlohmann::ordered_json::object();
    for (const auto& [ask, node] : last_.order) {
        if (p.asks[ask].task < 0) {
            out["placeholders"][key(ask)] = p.nodes[node].id;
            continue;
        }
        out["allocations"][key(ask)] = p.nodes[node].id;
        out["order"].push_back(key(ask));
    }
    out["pending"] = nlohmann::ordered_json::array();
    for (const auto& [pod, why] : result.pending) out["pending"].push_back(pod);
    out["preempted"] = nlohmann::ordered_json::array();
    for (uint32_t v : last_.preempted) out["preempted"].push_back(key(v));
    out["nominated"] = nlohmann::ordered_json::object();
    for (const auto& [ask, node] : last_.nominated) out["nominated"][key(ask)] = p.nodes[node].id;
    out["released"] = nlohmann::ordered_json::array();
    for (uint32_t r : last_.released) out["released"].push_back(key(r));
    out["pending_reasons"] = nlohmann::ordered_json::object();
    for (const auto& [pod, why] : result.pending) out["pending_reasons"][pod] = why;
    return out;
}

void YuniKornProfile::printCycle(std::ostream& out, const CycleResult& result, const CycleOptions&) const {
    const Partition& p = shim_.partition();
    auto key = [&](uint32_t ask) { return ask < lastKeys_.size() ? lastKeys_[ask] : std::string(); };
    auto section = [&](const std::string& title, size_t n) { out << title << " (" << n << ")\n"; };
    size_t made = 0;
    for (const auto& [ask, node] : last_.order) made += p.asks[ask].task < 0;
    section("Allocations, in order", last_.order.size() - made);
    for (const auto& [ask, node] : last_.order)
        if (p.asks[ask].task >= 0)
            out << "  " << std::left << std::setw(40) << key(ask) << p.nodes[node].id << '\n';
    if (made > 0) {
        section("Placeholders the shim made, allocated", made);
        for (const auto& [ask, node] : last_.order)
            if (p.asks[ask].task < 0)
                out << "  " << std::left << std::setw(40) << key(ask) << p.nodes[node].id << '\n';
    }
    section("Preempted", last_.preempted.size());
    for (uint32_t v : last_.preempted) out << "  " << key(v) << '\n';
    section("Nominated", last_.nominated.size());
    for (const auto& [ask, node] : last_.nominated)
        out << "  " << std::left << std::setw(40) << key(ask) << p.nodes[node].id << '\n';
    section("Released placeholders", last_.released.size());
    for (uint32_t r : last_.released) out << "  " << key(r) << '\n';
    section("Pending", result.pending.size());
    for (const auto& [pod, why] : result.pending)
        out << "  " << std::left << std::setw(40) << pod << why << '\n';
    for (const auto& w : result.warnings) out << "note: " << w << '\n';
}

// ---------------------------------------------------------------- over a simulation

void YuniKornProfile::sample(const ClusterState&, double) {
    if (!shim_.attached()) return;
    const Partition& p = shim_.partition();
    if (gpuDim_ == -2) {
        gpuDim_ = -1;
        for (const char* name : {"nvidia.com/gpu", "amd.com/gpu", "vcore"})
            if (int d = p.dims.find(name); d >= 0) {
                gpuDim_ = d;
                break;
            }
    }
    const uint32_t i = samples_++;
    const double unit = gpuDim_ >= 0 ? 1000.0 : 1.0;
    auto amount = [&](const Res& r) {
        return gpuDim_ >= 0 && r.has(gpuDim_) ? double(r.get(gpuDim_)) / unit : std::nan("");
    };
    // A run starts where the value changes (bit for bit: NaN for an amount not set).
    auto record = [&](std::vector<std::pair<uint32_t, double>>& runs, double v) {
        if (runs.empty() || std::bit_cast<uint64_t>(runs.back().second) != std::bit_cast<uint64_t>(v))
            runs.emplace_back(i, v);
    };
    if (columnOf_.size() < p.queues.size()) columnOf_.resize(p.queues.size(), -1);
    for (uint32_t q = 0; q < p.queues.size(); ++q) {
        const Queue& queue = p.queues[q];
        if (columnOf_[q] < 0) {
            auto [it, added] = columnByPath_.try_emplace(queue.path, uint32_t(columns_.size()));
            if (added) columns_.emplace_back().first = i;
            columnOf_[q] = int32_t(it->second);
        }
        QueueColumns& c = columns_[size_t(columnOf_[q])];
        if (c.first + c.usage.size() > i) {
            // A second queue with the same path: its row replaces the first one's, as before.
            c.usage.pop_back();
            c.pending.pop_back();
            c.fair.pop_back();
            for (auto* runs : {&c.guaranteed, &c.max})
                if (!runs->empty() && runs->back().first == i) runs->pop_back();
        }
        c.usage.push_back(gpuDim_ >= 0 ? queue.allocated.get(gpuDim_) : 0);
        c.pending.push_back(gpuDim_ >= 0 ? queue.pending.get(gpuDim_) : 0);
        c.fair.push_back(fairShare(queue.allocated, queue.guaranteed, p.fairMaxOf(q)));
        record(c.guaranteed, amount(queue.guaranteed));
        record(c.max, amount(p.maxResourceOf(q)));
    }
}

std::vector<ObjectSeries> YuniKornProfile::objectSeries() const {
    std::vector<ObjectSeries> out;
    if (!shim_.attached()) return out;
    const Partition& p = shim_.partition();
    const std::string unit = gpuDim_ >= 0 && p.dims.names[size_t(gpuDim_)] == "vcore" ? "vcores" : "gpus";
    const double divisor = gpuDim_ >= 0 ? 1000.0 : 1.0;
    for (const auto& queue : p.queues) {
        auto it = columnByPath_.find(queue.path);
        if (it == columnByPath_.end()) continue;
        const QueueColumns& c = columns_[it->second];
        ObjectSeries s;
        s.kind = "queue";
        s.name = queue.path;
        auto column = [&](auto valueAt) {
            std::vector<double> values(samples_, 0.0);
            for (uint32_t i = c.first; i < samples_; ++i) values[i] = valueAt(i - c.first);
            return values;
        };
        auto amounts = [&](const std::vector<int64_t>& raw) {
            return column([&](uint32_t k) { return gpuDim_ >= 0 ? double(raw[k]) / divisor : 0; });
        };
        auto runs = [&](const std::vector<std::pair<uint32_t, double>>& list) {
            std::vector<double> values(samples_, 0.0);
            for (size_t r = 0; r < list.size(); ++r) {
                const uint32_t end = r + 1 < list.size() ? list[r + 1].first : samples_;
                for (uint32_t i = list[r].first; i < end; ++i) values[i] = list[r].second;
            }
            return values;
        };
        s.series.emplace_back("usage_" + unit, amounts(c.usage));
        s.series.emplace_back("guaranteed_" + unit, runs(c.guaranteed));
        s.series.emplace_back("max_" + unit, runs(c.max));
        s.series.emplace_back("fair_share", column([&](uint32_t k) { return c.fair[k]; }));
        s.series.emplace_back("pending_" + unit, amounts(c.pending));
        out.push_back(std::move(s));
    }
    return out;
}

// ---------------------------------------------------------------- the profile

std::unique_ptr<SchedulerProfile> make(const ProfileSetup& setup, Diagnostics* diagnostics) {
    const Cluster& cluster = setup.cluster;
    std::optional<PartitionConfig> config;
    std::vector<std::pair<std::string, std::string>> paths;
    std::vector<std::string> notes;
    if (setup.policies.yunikorn) {
        config = partitionConfigOf(setup.policies.yunikorn->partition, setup.policies.yunikorn->queues);
    } else if (auto own = yunikornConfigOf(cluster)) {
        config = std::move(own);
    } else if (cluster.queues.empty()) {
        // No queue tree of any scheduler to map: what YuniKorn itself runs without yunikorn-configs.
        config = builtInPartitionConfig();
        notes.push_back("no yunikorn-configs: YuniKorn's built-in configuration (placement rule tag "
                        "namespace, create: applications land in root.<namespace>)");
    }
    if (config) {
        Diagnostics problems = validateConfig(*config);
        bool errors = false;
        for (const auto& d : problems) errors |= d.severity == Severity::Error;
        if (diagnostics) diagnostics->insert(diagnostics->end(), problems.begin(), problems.end());
        if (errors) return nullptr;
    } else {
        Mapping m = mapToYuniKorn(cluster, namespaceQueues(cluster, {}));
        for (size_t k = 0; k < m.tree.nodes.size(); ++k)
            paths.emplace_back(m.tree.nodes[k].queue->name, m.paths[k]);
        for (const auto& l : m.log.losses)
            notes.push_back("as exported to YuniKorn: " + l.what + " " + l.name +
                            (l.field.empty() ? "" : ", " + l.field) + ": " + l.message);
        config = std::move(m.config);
    }
    // Quota preemption (yunikorn-core 1.7: a queue whose usage a lowered max leaves above it has
    // pods preempted down to it) is read and exported, not emulated.
    if (config->quotaPreemptionEnabled && *config->quotaPreemptionEnabled)
        notes.push_back("quota preemption (preemption.quotapreemptionenabled) is on: Gantry does not emulate "
                        "it, so a queue above a lowered max keeps its pods");
    // The shim's view of the input pods (the cluster state numbers its first tasks in this order).
    std::vector<InputPod> pods;
    pods.reserve(cluster.pods.size());
    int64_t newest = INT64_MIN;
    for (const auto& pod : cluster.pods)
        if (pod.creationTimestamp) newest = std::max(newest, *pod.creationTimestamp);
    for (const auto& pod : cluster.pods) {
        InputPod ip;
        ip.key = pod.key();
        ip.uid = pod.uid.empty() ? pod.ns + "-" + pod.name : pod.uid;
        ip.ownerUid = pod.ownerUid;
        ip.meta = readPodMeta(pod, diagnostics);
        ip.createTime = pod.creationTimestamp ? double(*pod.creationTimestamp - newest) : -1e6;
        pods.push_back(std::move(ip));
    }
    auto profile = std::make_unique<YuniKornProfile>(std::move(*config), std::move(pods), std::move(paths),
                                                     std::move(notes));
    profile->setNamespaceTags(readNamespaceTags(cluster.namespaces, diagnostics));
    profile->useClaims(cluster, diagnostics);
    return profile;
}

} // namespace

ProfileInfo profileInfo() {
    ProfileInfo info;
    info.name = "yunikorn";
    info.title = "YuniKorn";
    info.summary = "queue tree, fair sorting, user limits, placeholders, preemption laws";
    info.configFormat = ConfigFormat::YuniKornQueues;
    info.takesPasses = true;
    info.make = make;
    info.claimsCaveat =
        "checks them as its shim does (kube-scheduler's DynamicResources Filter) but never "
        "allocates them: the upstream shim runs no Reserve or PreBind, so its pods bind with their "
        "claims unallocated, and several may count on the same device";
    info.describe = [](const SchedulerPolicies& policies) {
        return std::string("YuniKorn") + (policies.yunikorn ? " (queues.yaml)" : "");
    };
    return info;
}

} // namespace gantry::engine::yunikorn
