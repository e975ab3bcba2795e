// conformance: never evict critical pods (system-cluster-critical, system-node-critical) or pods
// of kube-system.
#include "profiles/volcano/plugins/plugins.h"

namespace gantry::engine::plugins {

namespace {

class Conformance : public Plugin {
  public:
    explicit Conformance(const PluginOption&) {}

    void onSessionOpen(Session& ssn) override {
        Session* s = &ssn;
        auto evictable = [s](uint32_t, const std::vector<uint32_t>& evictees, int* vote) {
            *vote = 1;
            std::vector<uint32_t> victims;
            for (uint32_t t : evictees) {
                const auto& sh = s->state.shapeOf(t);
                if (sh.priorityClassName == "system-cluster-critical" ||
                    sh.priorityClassName == "system-node-critical" ||
                    s->state.strings.str(s->state.tasks[t].ns) == "kube-system")
                    continue;
                victims.push_back(t);
            }
            return victims;
        };
        ssn.self().preemptable = evictable;
        ssn.self().reclaimable = evictable;
    }
};

} // namespace

PluginDescriptor conformancePlugin() {
    PluginTraits t;
    // It looks only at the jobs it is asked about (or at the settled jobs' totals).
    t.allowsSettledJobsOut = [](const PluginOption&) { return true; };
    return {"conformance", [](const PluginOption& option) { return std::make_unique<Conformance>(option); },
            std::move(t)};
}

} // namespace gantry::engine::plugins
