// sla: a job that has waited longer than its sla-waiting-time (PodGroup annotation, or the plugin's
// argument) goes first, and is enqueued and may be pipelined regardless of the other plugins'
// abstentions. Time is the session's clock; objects without a creation time count as created
// long ago, as upstream's zero timestamps do.
#include "model/go_text.h"
#include "profiles/volcano/plugins/plugins.h"

namespace gantry::engine::plugins {

namespace {

class Sla : public Plugin {
  public:
    explicit Sla(const PluginOption& o) {
        if (auto v = o.argument("sla-waiting-time")) {
            auto d = parseGoDuration(trim(*v));
            if (d && *d > 0) wait_ = *d;
        }
    }

    void onSessionOpen(Session& ssn) override {
        s_ = &ssn;
        auto& self = ssn.self();
        self.jobOrder = [this](uint32_t l, uint32_t r) {
            auto lw = waiting(l), rw = waiting(r);
            if (!lw) return rw ? 1 : 0;
            if (!rw) return -1;
            const double ld = s_->state.jobs[l].creationSeconds + *lw,
                         rd = s_->state.jobs[r].creationSeconds + *rw;
            if (ld < rd) return -1;
            if (ld > rd) return 1;
            return 0;
        };
        auto permit = [this](uint32_t j) {
            auto w = waiting(j);
            if (!w) return 0;
            if (s_->options.nowSeconds - s_->state.jobs[j].creationSeconds < *w) return 0;
            return 1;
        };
        self.jobEnqueueable = permit;
        self.jobPipelined = permit;
    }

  private:
    std::optional<double> waiting(uint32_t j) const {
        if (auto w = s_->state.jobs[j].slaWaitingSeconds) return w;
        return wait_;
    }

    Session* s_ = nullptr;
    std::optional<double> wait_;
};

} // namespace

PluginDescriptor slaPlugin() {
    PluginTraits t;
    // It looks only at the jobs it is asked about (or at the settled jobs' totals).
    t.allowsSettledJobsOut = [](const PluginOption&) { return true; };
    // It may pipeline a job that gang would not.
    t.readiness = [](const PluginOption&) { return PluginTraits::Readiness::Wider; };
    return {"sla", [](const PluginOption& option) { return std::make_unique<Sla>(option); }, std::move(t)};
}

} // namespace gantry::engine::plugins
