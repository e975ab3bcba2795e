#pragma once
// PodTopologySpread: DoNotSchedule constraints filter; ScheduleAnyway ones score.
#include "k8s/status.h"
#include "model/scheduler_conf.h"
#include "state/cluster_state.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gantry::engine::k8s {

inline constexpr const char* kSpreadMissingLabel =
    "node(s) didn't match pod topology spread constraints (missing required label)";
inline constexpr const char* kSpreadSkew = "node(s) didn't match pod topology spread constraints";

// One constraint as both phases keep it: its skew, key and selector, and the matching pods per
// domain value (the score's hostname domains are node names).
struct SpreadConstraint {
    int32_t maxSkew = 1;
    std::string key;
    LabelSelector selector;
    bool hasSelector = false;
    std::map<std::string, int64_t> counts;
};

// PodTopologySpread's PreFilter state (hard constraints).
struct SpreadState {
    bool skip = true;
    struct Constraint : SpreadConstraint {
        int32_t minDomains = 0;
        int64_t minMatch = 0;
        bool selfMatch = false;
    };
    std::vector<Constraint> constraints;
};
SpreadState spreadPreFilter(const ClusterState& s, uint32_t task);
const char* spreadFilter(const ClusterState& s, const SpreadState& st, uint32_t node, Code* code);

struct SpreadScoreState {
    bool skip = true;
    struct Constraint : SpreadConstraint {
        double weight = 0;
    };
    std::vector<Constraint> constraints;
};
// nodes: the candidate nodes being scored.
SpreadScoreState spreadPreScore(const ClusterState& s, uint32_t task, const std::vector<uint32_t>& nodes);
int64_t spreadScore(const ClusterState& s, const SpreadScoreState& st, uint32_t node, bool* ignored);
void spreadNormalize(std::vector<int64_t>& scores, const std::vector<bool>& ignored);

} // namespace gantry::engine::k8s
