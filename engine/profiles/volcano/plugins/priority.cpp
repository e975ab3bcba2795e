// priority: higher-priority tasks and jobs first; a job may preempt only lower-priority jobs (and,
// within one job, lower-priority tasks); a job is starving while any of its tasks is not placed.
#include "profiles/volcano/plugins/plugins.h"

namespace gantry::engine::plugins {

namespace {

class Priority : public Plugin {
  public:
    explicit Priority(const PluginOption&) {}

    void onSessionOpen(Session& ssn) override {
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
        self.jobStarving = [s](uint32_t j) {
            return s->readyTaskNum(j) + s->waitingTaskNum(j) < s->taskCount(j);
        };
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
