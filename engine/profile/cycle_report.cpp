// The pod-level form of a cycle's decisions that `gantry cycle` prints for pod schedulers.
#include "profile/scheduler_profile.h"

#include <iomanip>
#include <nlohmann/json.hpp>

namespace gantry::engine {

nlohmann::ordered_json SchedulerProfile::cycleJson(const CycleResult& r, const CycleOptions& options) const {
    nlohmann::ordered_json out;
    out["bindings"] = nlohmann::ordered_json::object();
    for (const auto& [pod, node] : r.bindings) out["bindings"][pod] = node;
    out["evicted"] = nlohmann::ordered_json::array();
    for (const auto& pod : r.evicted) out["evicted"].push_back(pod);
    out["pipelined"] = nlohmann::ordered_json::object();
    for (const auto& [pg, nodes] : r.pipelined) out["pipelined"][pg] = nodes;
    out["podgroup_phase"] = nlohmann::ordered_json::object();
    for (const auto& [pg, phase] : r.podGroupPhase) out["podgroup_phase"][pg] = toString(phase);
    out["pending"] = nlohmann::ordered_json::object();
    for (const auto& [pod, why] : r.pending) out["pending"][pod] = why;
    if (options.computeScores) {
        out["scores"] = nlohmann::ordered_json::object();
        for (const auto& [pod, row] : r.scores) {
            auto& o = out["scores"][pod];
            o = nlohmann::ordered_json::object();
            for (const auto& [node, s] : row) o[node] = s;
        }
    }
    return out;
}

void addNotCreated(const ClusterState& state, CycleResult& result) {
    for (uint32_t j = 0; j < state.jobs.size(); ++j) {
        if (!state.jobAlive(j) || state.jobs[j].gates.empty()) continue;
        for (uint32_t t : state.jobs[j].tasks)
            if (state.tasks[t].status == TaskStatus::NotCreated) {
                // A profile that creates pods within its cycle (kube-scheduler admitting a leader's
                // followers) may have bound some: the state it left has them not created again.
                const std::string key = state.taskKey(t);
                if (!result.bindings.count(key)) result.pending.try_emplace(key, state.whyNotCreated(t));
            }
    }
}

void SchedulerProfile::printCycle(std::ostream& out, const CycleResult& r,
                                  const CycleOptions& options) const {
    auto section = [&](const std::string& title, size_t n) { out << title << " (" << n << ")\n"; };
    section("Bindings", r.bindings.size());
    for (const auto& [pod, node] : r.bindings)
        out << "  " << std::left << std::setw(40) << pod << node << '\n';
    section("Evicted", r.evicted.size());
    for (const auto& pod : r.evicted) out << "  " << pod << '\n';
    section("Pipelined", r.pipelined.size());
    for (const auto& [pg, nodes] : r.pipelined) {
        out << "  " << std::left << std::setw(40) << pg;
        for (size_t i = 0; i < nodes.size(); ++i) out << (i ? ", " : "") << nodes[i];
        out << '\n';
    }
    section("PodGroups", r.podGroupPhase.size());
    for (const auto& [pg, phase] : r.podGroupPhase) {
        out << "  " << std::left << std::setw(40) << pg << std::setw(10) << toString(phase);
        auto g = r.gangs.find(pg);
        if (g != r.gangs.end() && !g->second.reason.empty()) out << g->second.reason;
        out << '\n';
    }
    section("Pending", r.pending.size());
    for (const auto& [pod, why] : r.pending) out << "  " << std::left << std::setw(40) << pod << why << '\n';
    if (options.computeScores) {
        section("Scores", r.scores.size());
        for (const auto& [pod, row] : r.scores) {
            out << "  " << pod << '\n';
            for (const auto& [node, s] : row)
                out << "    " << std::left << std::setw(36) << node << s << '\n';
        }
    }
    for (const auto& w : r.warnings) out << "note: " << w << '\n';
}

} // namespace gantry::engine
