// priority: higher-priority tasks and jobs first; a job may preempt only lower-priority jobs (and,
// within one job, lower-priority tasks); a job is starving while any of its tasks is not placed.
#include "profiles/volcano/framework/settled_jobs.h"
#include "profiles/volcano/plugins/plugins.h"

#include <algorithm>
#include <climits>

namespace gantry::engine::plugins {

namespace {

class Priority : public Plugin {
  public:
    explicit Priority(const PluginOption&) {}

    void onSessionOpen(Session& ssn) override {
        lowest_.clear();
        auto& self = ssn.self();
        Session* s = &ssn;
        self.taskOrder = [s](uint32_t l, uint32_t r) {
            const int32_t lp = s->state.tasks[l].priority, rp = s->state.tasks[r].priority;
            if (lp == rp) return 0;
            return lp > rp ? -1 : 1;
        };
        self.jobOrder = [s](uint32_t l, uint32_t r) {
            const int32_t lp = s->state.jobs[l].priority, rp = s->state.jobs[r].priority;
            if (lp > rp) return -1;
            if (lp < rp) return 1;
            return 0;
        };
        self.preemptable = [s](uint32_t preemptor, const std::vector<uint32_t>& preemptees, int* vote) {
            *vote = 1;
            std::vector<uint32_t> victims;
            const uint32_t pj = s->state.tasks[preemptor].job;
            if (pj == UINT32_MAX || !s->inSession(pj)) return victims;
            for (uint32_t t : preemptees) {
                const uint32_t j = s->state.tasks[t].job;
                if (j == UINT32_MAX || !s->inSession(j)) continue;
                if (j != pj) {
                    if (s->state.jobs[j].priority < s->state.jobs[pj].priority) victims.push_back(t);
                } else if (s->state.tasks[t].priority < s->state.tasks[preemptor].priority) {
                    victims.push_back(t);
                }
            }
            return victims;
        };
        // It names a pod of another job only when that job has a lower priority, and one of its own
        // job only when the pod has a lower task priority. The lowest priority of a job with pods
        // preempt may take (Bound or Running), per queue, is found when first asked; a pod allocated
        // since may only lower it, and one leaving keeps it a bound.
        self.preemptsFor = [this, s](uint32_t preemptor, bool sameJob) {
            const uint32_t pj = s->state.tasks[preemptor].job;
            if (pj == UINT32_MAX || !s->inSession(pj)) return false;
            if (sameJob) {
                for (uint32_t t : s->state.jobs[pj].tasks)
                    if (preemptableStatus(s->state.tasks[t].status) &&
                        s->state.tasks[t].priority < s->state.tasks[preemptor].priority)
                        return true;
                return false;
            }
            if (lowest_.empty()) findLowest(*s);
            return lowest_[s->queueOf(pj)] < s->state.jobs[pj].priority;
        };
        ssn.addEventHandler(
            [this, s](uint32_t t) {
                const uint32_t j = s->state.tasks[t].job;
                if (lowest_.empty() || j == UINT32_MAX || !s->inSession(j)) return;
                int32_t& low = lowest_[s->queueOf(j)];
                low = std::min(low, s->state.jobs[j].priority);
            },
            nullptr);
        self.jobStarving = [s](uint32_t j) {
            return s->readyTaskNum(j) + s->waitingTaskNum(j) < s->taskCount(j);
        };
    }

  private:
    std::vector<int32_t> lowest_; // by queue; empty: not found yet in this session

    void findLowest(const Session& ssn) {
        lowest_.assign(ssn.state.queues.size(), INT32_MAX);
        if (const SettledJobs* settled = ssn.settled())
            for (uint32_t q = 0; q < lowest_.size(); ++q)
                lowest_[q] = settled->keepsVictimIndexes() ? settled->lowestSettledPriority(q) : INT32_MIN;
        for (uint32_t j : ssn.sessionJobs) {
            if (ssn.count(j, TaskStatus::Running) + ssn.count(j, TaskStatus::Bound) == 0) continue;
            int32_t& low = lowest_[ssn.queueOf(j)];
            low = std::min(low, ssn.state.jobs[j].priority);
        }
    }
};

} // namespace

PluginDescriptor priorityPlugin() {
    PluginTraits t;
    // It looks only at the jobs it is asked about (or at the settled jobs' totals).
    t.allowsSettledJobsOut = [](const PluginOption&) { return true; };
    return {"priority", [](const PluginOption& option) { return std::make_unique<Priority>(option); },
            std::move(t)};
}

} // namespace gantry::engine::plugins
