// gang: all-or-nothing. A job is valid only with enough pods, ready when minAvailable tasks (and
// each role's minTaskMember) are placed, pipelined when they are placed or waiting for evicted
// resources; ready jobs sort after unready ones; victims never break a running gang.
#include "profiles/volcano/plugins/plugins.h"

namespace gantry::engine::plugins {

namespace {

class Gang : public Plugin {
  public:
    explicit Gang(const PluginOption&) {}

    void onSessionOpen(Session& ssn) override {
        auto& self = ssn.self();
        Session* s = &ssn;
        self.jobValid = [s](uint32_t j) -> std::optional<ValidateResult> {
            if (!s->checkTaskValid(j))
                return ValidateResult{false, "NotEnoughPodsOfTask",
                                      "Not enough valid pods of each task for gang-scheduling"};
            const int32_t vtn = s->validTaskNum(j);
            const int32_t min = s->state.jobs[j].minAvailable;
            if (vtn < min)
                return ValidateResult{false, "NotEnoughTasks",
                                      "Not enough valid tasks for gang-scheduling, valid: " +
                                          std::to_string(vtn) + ", min: " + std::to_string(min)};
            return std::nullopt;
        };
        auto evictable = [s](uint32_t, const std::vector<uint32_t>& preemptees, int* vote) {
            std::vector<uint32_t> victims;
            std::unordered_map<uint32_t, int32_t> occupied;
            for (uint32_t t : preemptees) {
                const uint32_t j = s->state.tasks[t].job;
                if (j == UINT32_MAX || !s->inSession(j)) continue;
                auto it = occupied.find(j);
                if (it == occupied.end()) it = occupied.emplace(j, s->readyTaskNum(j)).first;
                if (it->second > s->state.jobs[j].minAvailable) {
                    it->second--;
                    victims.push_back(t);
                }
            }
            *vote = 1;
            return victims;
        };
        self.preemptable = evictable;
        self.reclaimable = evictable;
        // Victims come from jobs with more pods ready than minAvailable. Which queues hold such a
        // job is found when first asked; a pod allocated since may add its job's queue, and one
        // leaving only lowers a job's ready count (the queue stays a bound).
        ssn.addEventHandler(
            [this, s](uint32_t t) {
                const uint32_t j = s->state.tasks[t].job;
                if (elastic_.empty() || j == UINT32_MAX || !s->inSession(j)) return;
                if (s->readyTaskNum(j) > s->state.jobs[j].minAvailable) elastic_[s->queueOf(j)] = 1;
            },
            nullptr);
        self.reclaimsFrom = [this, s](uint32_t q) { return elastic(*s, q); };
        self.preemptsFor = [this, s](uint32_t preemptor, bool sameJob) {
            const uint32_t pj = s->state.tasks[preemptor].job;
            if (pj == UINT32_MAX || !s->inSession(pj)) return false;
            if (sameJob) return s->readyTaskNum(pj) > s->state.jobs[pj].minAvailable;
            return elastic(*s, s->queueOf(pj));
        };
        // A pod is a victim only if its job has more pods ready than minAvailable (the count only
        // falls while evictable walks the job's pods).
        self.reclaimsTask = [s](uint32_t, uint32_t t) {
            const uint32_t j = s->state.tasks[t].job;
            return j != UINT32_MAX && s->inSession(j) && s->readyTaskNum(j) > s->state.jobs[j].minAvailable;
        };
        self.jobOrder = [s](uint32_t l, uint32_t r) {
            const bool lr = s->isReady(l), rr = s->isReady(r);
            if (lr && rr) return 0;
            if (lr) return 1;
            if (rr) return -1;
            return 0;
        };
        self.jobReady = [s](uint32_t j) { return s->checkTaskReady(j) && s->isReady(j); };
        self.jobPipelined = [s](uint32_t j) {
            return s->checkTaskPipelined(j) && s->isPipelined(j) ? 1 : -1;
        };
        self.jobStarving = [s](uint32_t j) { return s->isStarving(j); };
    }

  private:
    std::vector<uint8_t> elastic_; // by queue; empty = to be found

    bool elastic(const Session& s, uint32_t q) {
        if (elastic_.empty()) {
            elastic_.assign(s.state.queues.size(), 0);
            if (const SettledJobs* settled = s.settled())
                for (uint32_t i = 0; i < elastic_.size(); ++i)
                    elastic_[i] = !settled->keepsVictimIndexes() || settled->elasticSettled(i) > 0;
            for (uint32_t j : s.sessionJobs)
                if (s.readyTaskNum(j) > s.state.jobs[j].minAvailable) elastic_[s.queueOf(j)] = 1;
        }
        return elastic_[q] != 0;
    }
};

} // namespace

PluginDescriptor gangPlugin() {
    PluginTraits t;
    // It looks only at the jobs it is asked about (or at the settled jobs' totals).
    t.allowsSettledJobsOut = [](const PluginOption&) { return true; };
    t.readiness = [](const PluginOption& o) {
        return o.enabled("enableJobReady") && o.enabled("enableJobPipelined") ? PluginTraits::Readiness::Gang
                                                                              : PluginTraits::Readiness::None;
    };
    return {"gang", [](const PluginOption& option) { return std::make_unique<Gang>(option); }, std::move(t)};
}

} // namespace gantry::engine::plugins
