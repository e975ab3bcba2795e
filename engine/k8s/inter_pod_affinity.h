#pragma once
// InterPodAffinity: required pod affinity and anti-affinity filter (with the existing pods'
// anti-affinity); the preferred terms score.
#include "k8s/status.h"
#include "model/scheduler_conf.h"
#include "state/cluster_state.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace gantry::engine::k8s {

inline constexpr const char* kExistingAntiAffinity =
    "node(s) didn't satisfy existing pods anti-affinity rules";
inline constexpr const char* kAffinityNotMatch = "node(s) didn't match pod affinity rules";
inline constexpr const char* kAntiAffinityNotMatch = "node(s) didn't match pod anti-affinity rules";

// InterPodAffinity's PreFilter state for one incoming pod.
struct AffinityState {
    bool skip = true;
    std::map<std::pair<std::string, std::string>, int64_t> existingAnti, affinity, anti;
};
AffinityState affinityPreFilter(const ClusterState& s, uint32_t task);
// Returns nullptr when the node passes, else the reason text and its code.
const char* affinityFilter(const ClusterState& s, const AffinityState& st, uint32_t task, uint32_t node,
                           Code* code);
// preFilterState.updateWithPod: `pod` joins (mult +1) or leaves (-1) `node` in the state of `task`.
void affinityUpdateWithPod(const ClusterState& s, AffinityState& st, uint32_t task, uint32_t pod,
                           uint32_t node, int64_t mult);

// Pods of the k8s view that an affinity term selects.
bool termMatches(const ClusterState& s, const PodAffinityTerm& term, uint32_t termOwnerNs, uint32_t pod);

struct AffinityScoreState {
    bool skip = true;
    std::map<std::pair<std::string, std::string>, int64_t> topologyScore;
};
AffinityScoreState affinityPreScore(const ClusterState& s, uint32_t task);
int64_t affinityScore(const ClusterState& s, const AffinityScoreState& st, uint32_t node);
void affinityNormalize(std::vector<int64_t>& scores);

} // namespace gantry::engine::k8s
