// fairshare: within a queue, the namespaces that used less of a tracked resource lately go first.
// Usage is the resource's units times the seconds they ran, decayed with a half-life and kept for
// the life of the scheduler (and, with persistState, across restarts in a ConfigMap); optionally a
// namespace already running its max-min fair share of the queue is not enqueued
// (volcano-sh/volcano PR #5161 at ad781f25: pkg/scheduler/plugins/fairshare/fairshare.go).
#include "model/go_text.h"
#include "profiles/volcano/plugins/fairshare_history.h"
#include "profiles/volcano/plugins/plugins.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>

namespace gantry::engine::plugins {

namespace {

constexpr const char* kName = "fairshare";
constexpr double kUsageEpsilon = 1.0; // usages within one unit-second tie
constexpr double kDefaultHalfLifeMinutes = 240;

// One namespace in one targeted queue, for this session.
struct Tenant {
    uint32_t queue = 0;
    std::string ns;
    double usage = 0;   // the session's snapshot of the history
    double running = 0; // units allocated now, kept up to date by the session's events
    double demand = 0;  // units its pending pods ask for
    double share = 0;
    bool hasShare = false;
};

struct QueueRule {
    int dim = -1; // the tracked resource's dimension; -1: none of the cluster's
    double total = 0;
};

class Fairshare : public Plugin {
  public:
    explicit Fairshare(const PluginOption& o) {
        auto arg = [&](const std::string& key) { return trim(o.argument(key).value_or("")); };
        if (auto rk = arg("fairshare.resourceKey"); !rk.empty()) defaultKey_ = rk;
        const std::string queues = o.argument("fairshare.targetQueues").value_or("");
        if (!queues.empty()) {
            size_t from = 0;
            for (;;) {
                const size_t comma = queues.find(',', from);
                const std::string q =
                    trim(queues.substr(from, comma == std::string::npos ? comma : comma - from));
                if (!q.empty()) targets_.insert(q);
                if (comma == std::string::npos) break;
                from = comma + 1;
            }
        }
        targetAll_ = targets_.empty();
        // Per-queue keys are read for the listed queues only.
        for (const auto& q : targets_)
            if (auto rk = arg("fairshare.resourceKey." + q); !rk.empty()) queueKeys_[q] = rk;
        gate_ = lower(arg("fairshare.enableEnqueueGate")) == "true";
        halfLife_ = kDefaultHalfLifeMinutes * 60;
        if (auto v = arg("fairshare.halfLifeMinutes"); !v.empty()) {
            // strconv.Atoi and > 0, else the default (a warning upstream).
            if (auto m = parseGoInt(v); m && *m > 0)
                halfLife_ = double(*m) * 60;
            else
                badHalfLife_ = v;
        }
        persist_ = lower(arg("fairshare.persistState")) == "true";
        if (auto v = arg("fairshare.stateNamespace"); !v.empty()) stateNs_ = v;
        if (auto v = arg("fairshare.stateConfigMap"); !v.empty()) stateName_ = v;
    }

    void onSessionOpen(Session& ssn) override {
        s_ = &ssn;
        const ClusterState& st = ssn.state;
        if (!badHalfLife_.empty())
            ssn.warnings.push_back("fairshare: fairshare.halfLifeMinutes '" + badHalfLife_ +
                                   "' is not a positive integer: the default, 240 minutes, is used");
        rules_.assign(st.queues.size(), QueueRule{});
        targeted_.assign(st.queues.size(), false);
        for (uint32_t q = 0; q < st.queues.size(); ++q) {
            const std::string& name = st.queues[q].name;
            if (!targetAll_ && !targets_.count(name)) continue;
            targeted_[q] = true;
            auto it = queueKeys_.find(name);
            const std::string& key = it == queueKeys_.end() ? defaultKey_ : it->second;
            QueueRule& r = rules_[q];
            r.dim = st.dims.find(key);
            // The queue's capability of the resource, else the cluster's total.
            const int64_t cap = st.queues[q].capability.get(key);
            r.total = cap > 0 ? double(cap) : (r.dim >= 0 ? ssn.totalResource.get(r.dim) : 0);
        }

        fairshare::History& h = ssn.memory().of<fairshare::History>(kName);
        if (persist_ && !h.loadTried) {
            h.loadTried = true;
            if (auto warning =
                    fairshare::loadState(h, st.fairshareStates, stateNs_, stateName_, st.epochUnix))
                ssn.warnings.push_back(*warning);
        }

        // The session's time: the simulator's clock; a single cycle runs at the input's newest
        // creation time or the persisted lastCycle, whichever is later.
        const bool simulated = ssn.options.nowSeconds < 1e17;
        const double now = simulated ? ssn.options.nowSeconds : std::max(0.0, h.lastCycle.value_or(0.0));

        // This session's tenants, and what each runs and asks for now.
        tenantOf_.assign(st.jobs.size(), -1);
        tenants_.clear();
        std::map<std::pair<uint32_t, uint32_t>, int32_t> index; // (queue, namespace id) -> tenant
        for (uint32_t j : ssn.sessionJobs) {
            const JobRec& job = st.jobs[j];
            if (job.queue < 0 || !targeted_[size_t(job.queue)]) continue;
            auto [it, fresh] = index.try_emplace({uint32_t(job.queue), job.ns}, int32_t(tenants_.size()));
            if (fresh) {
                Tenant t;
                t.queue = uint32_t(job.queue);
                t.ns = st.strings.str(job.ns);
                if (t.ns.empty()) t.ns = "_unknown";
                tenants_.push_back(std::move(t));
            }
            tenantOf_[j] = it->second;
            Tenant& t = tenants_[size_t(it->second)];
            const int dim = rules_[size_t(job.queue)].dim;
            if (dim < 0) continue;
            for (uint32_t task : job.tasks) {
                const TaskStatus status = st.tasks[task].status;
                if (allocatedStatus(status))
                    t.running += ssn.taskRes(task).get(dim);
                else if (status == TaskStatus::Pending)
                    t.demand += ssn.taskRes(task).get(dim);
            }
        }

        // Decay, then what ran since the last session (OnSessionOpen under globalMu).
        const double elapsed = h.lastCycle ? now - *h.lastCycle : 0;
        if (elapsed > 0) {
            fairshare::decayAll(h, fairshare::decayFactor(elapsed, halfLife_));
            if (h.lastFromState || !(ssn.options.periodSeconds > 0)) {
                // The first session after a restart adds what runs now for all the time since.
                for (const Tenant& t : tenants_)
                    if (t.running > 0) h.usage[st.queues[t.queue].name][t.ns] += t.running * elapsed;
            } else {
                // A simulation runs no session while nothing changes; the scheduler runs one every
                // period all the same, each decaying the history and adding what runs, times the
                // period. Those before this one saw what the last session left running; this one
                // sees what runs now.
                const int64_t sessions =
                    std::max<int64_t>(1, std::llround(elapsed / ssn.options.periodSeconds));
                const double period = elapsed / double(sessions);
                const double f = fairshare::decayFactor(period, halfLife_);
                for (const auto& [tenant, units] : h.running)
                    h.usage[tenant.first][tenant.second] +=
                        f * fairshare::accrued(units, period, sessions - 1, halfLife_);
                for (const Tenant& t : tenants_)
                    if (t.running > 0) h.usage[st.queues[t.queue].name][t.ns] += t.running * period;
            }
        }
        h.lastCycle = now;
        h.lastFromState = false;
        h.halfLifeSeconds = halfLife_;
        h.resourceKeys.clear();
        for (uint32_t q = 0; q < st.queues.size(); ++q)
            if (targeted_[q]) {
                auto it = queueKeys_.find(st.queues[q].name);
                h.resourceKeys[st.queues[q].name] = it == queueKeys_.end() ? defaultKey_ : it->second;
            }
        for (Tenant& t : tenants_) {
            auto q = h.usage.find(st.queues[t.queue].name);
            if (q == h.usage.end()) continue;
            auto u = q->second.find(t.ns);
            if (u != q->second.end()) t.usage = u->second;
        }

        // Each queue's max-min fair shares over its namespaces' running + pending demand.
        std::vector<std::map<std::string, double>> shares(st.queues.size());
        for (const Tenant& t : tenants_) shares[t.queue][t.ns] = t.running + t.demand;
        for (uint32_t q = 0; q < st.queues.size(); ++q)
            if (!shares[q].empty()) shares[q] = fairshare::fairShares(shares[q], rules_[q].total);
        for (Tenant& t : tenants_)
            if (auto it = shares[t.queue].find(t.ns); it != shares[t.queue].end()) {
                t.share = it->second;
                t.hasShare = true;
            }

        auto& self = ssn.self();
        self.jobOrder = [this](uint32_t l, uint32_t r) {
            const int32_t lt = tenantOf_[l], rt = tenantOf_[r];
            // Only two jobs of one targeted queue are compared; other plugins decide the rest.
            if (lt < 0 || rt < 0) return 0;
            const Tenant &a = tenants_[size_t(lt)], &b = tenants_[size_t(rt)];
            if (a.queue != b.queue) return 0;
            if (a.usage < b.usage - kUsageEpsilon) return -1;
            if (a.usage > b.usage + kUsageEpsilon) return 1;
            if (a.running < b.running) return -1;
            if (a.running > b.running) return 1;
            return 0;
        };
        if (gate_)
            self.jobEnqueueable = [this](uint32_t j) {
                const int32_t ti = tenantOf_[j];
                if (ti < 0) return 0;
                const Tenant& t = tenants_[size_t(ti)];
                if (!t.hasShare) return 0;
                const int dim = rules_[t.queue].dim;
                double jobUnits = 0;
                if (dim >= 0)
                    for (uint32_t task : s_->state.jobs[j].tasks)
                        if (s_->state.tasks[task].status != TaskStatus::NotCreated)
                            jobUnits += s_->taskRes(task).get(dim);
                return t.running >= t.share && jobUnits > 0 ? -1 : 0;
            };
        // Allocations during the session change the live running units only; the history takes
        // them at the next session, with the time they ran.
        ssn.addEventHandler([this](uint32_t task) { onEvent(task, +1); },
                            [this](uint32_t task) { onEvent(task, -1); });
    }

    // What runs as the session leaves it accrues until the next one.
    void onSessionClose(Session& ssn) override {
        fairshare::History& h = ssn.memory().of<fairshare::History>(kName);
        h.running.clear();
        for (const Tenant& t : tenants_)
            if (t.running > 0) h.running[{ssn.state.queues[t.queue].name, t.ns}] = t.running;
    }

  private:
    static std::string lower(std::string s) {
        for (auto& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
        return s;
    }

    void onEvent(uint32_t task, int sign) {
        const uint32_t j = s_->jobOf(task);
        if (j >= tenantOf_.size() || tenantOf_[j] < 0) return;
        Tenant& t = tenants_[size_t(tenantOf_[j])];
        const int dim = rules_[t.queue].dim;
        if (dim < 0) return;
        t.running += sign * s_->taskRes(task).get(dim);
        if (t.running < 0) t.running = 0;
    }

    std::string defaultKey_ = "nvidia.com/gpu";
    std::set<std::string> targets_;
    bool targetAll_ = true;
    std::map<std::string, std::string> queueKeys_;
    bool gate_ = false;
    double halfLife_ = kDefaultHalfLifeMinutes * 60;
    std::string badHalfLife_;
    bool persist_ = false;
    std::string stateNs_ = "volcano-system", stateName_ = "fairshare-usage-state";

    Session* s_ = nullptr;
    std::vector<QueueRule> rules_;
    std::vector<bool> targeted_;
    std::vector<Tenant> tenants_;
    std::vector<int32_t> tenantOf_;
};

} // namespace

PluginDescriptor fairsharePlugin() {
    PluginTraits t;
    // It reads every job's running pods for the usage that accrues: settled jobs stay in the session
    // (allowsSettledJobsOut unset). Its order abstains across queues: no queue couples another.
    return {kName, [](const PluginOption& option) { return std::make_unique<Fairshare>(option); },
            std::move(t)};
}

} // namespace gantry::engine::plugins
