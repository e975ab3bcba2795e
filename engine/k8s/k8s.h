#pragma once
// The kube-scheduler filter and score plugins that Volcano's predicates and nodeorder plugins wrap
// (NodeUnschedulable, NodeAffinity, TaintToleration, InterPodAffinity, PodTopologySpread,
// NodeResourcesFit, NodeResourcesBalancedAllocation), over the compiled cluster state. The k8s
// NodeInfo view of a node holds the pods counted in ClusterState::k8s* (evicted pods leave it,
// pipelined ones join it, as Volcano's event handlers do).
#include "state/cluster_state.h"
#include "k8s/status.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace gantry::engine::k8s {

inline constexpr int64_t kMaxNodeScore = 100;

// Reason texts, as kube-scheduler words them.
inline constexpr const char* kUnschedulable = "node(s) were unschedulable";
inline constexpr const char* kNodeAffinity = "node(s) didn't match Pod's node affinity/selector";
inline constexpr const char* kExistingAntiAffinity =
    "node(s) didn't satisfy existing pods anti-affinity rules";
inline constexpr const char* kAffinityNotMatch = "node(s) didn't match pod affinity rules";
inline constexpr const char* kAntiAffinityNotMatch = "node(s) didn't match pod anti-affinity rules";
inline constexpr const char* kSpreadMissingLabel =
    "node(s) didn't match pod topology spread constraints (missing required label)";
inline constexpr const char* kSpreadSkew = "node(s) didn't match pod topology spread constraints";
std::string untoleratedTaintReason(const Taint& taint);

bool passesUnschedulable(const PodShape& pod, const NodeRec& node);
bool passesNodeAffinity(const PodShape& pod, const NodeRec& node, const std::string& nodeName);
const Taint* firstUntolerated(const PodShape& pod, const NodeRec& node); // NoSchedule / NoExecute

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

// PodTopologySpread's PreFilter state (hard constraints).
struct SpreadState {
    bool skip = true;
    struct Constraint {
        int32_t maxSkew = 1;
        std::string key;
        LabelSelector selector;
        bool hasSelector = false;
        int32_t minDomains = 0;
        int64_t minMatch = 0;
        bool selfMatch = false;
        std::map<std::string, int64_t> counts; // domain value -> matching pods
    };
    std::vector<Constraint> constraints;
};
SpreadState spreadPreFilter(const ClusterState& s, uint32_t task);
const char* spreadFilter(const ClusterState& s, const SpreadState& st, uint32_t node, Code* code);

// Pods of the k8s view that an affinity term selects.
bool termMatches(const ClusterState& s, const PodAffinityTerm& term, uint32_t termOwnerNs, uint32_t pod);

// --- scores (raw per node, before normalization) ---
enum class FitStrategy { LeastAllocated, MostAllocated, RequestedToCapacityRatio };
struct FitScorer {
    FitStrategy strategy = FitStrategy::LeastAllocated;
    std::vector<std::pair<int, int64_t>> resources; // (dim, weight)
    std::vector<std::pair<int64_t, int64_t>> shape; // RequestedToCapacityRatio points, score 0..10
    bool useRequested = false; // false = NonZeroRequested for cpu/memory (NodeResourcesFit)
};
int64_t fitScore(const ClusterState& s, const FitScorer& f, uint32_t task, uint32_t node);
// BalancedAllocation; returns false when the pod requests nothing (the plugin skips it).
bool balancedScore(const ClusterState& s, const std::vector<int>& dims, uint32_t task, uint32_t node,
                   int64_t* score);
int64_t nodeAffinityScore(const PodShape& pod, const NodeRec& node, const std::string& nodeName);
int64_t intolerablePreferNoSchedule(const PodShape& pod, const NodeRec& node);
// helper.DefaultNormalizeScore
void defaultNormalize(std::vector<int64_t>& scores, bool reverse);

struct AffinityScoreState {
    bool skip = true;
    std::map<std::pair<std::string, std::string>, int64_t> topologyScore;
};
AffinityScoreState affinityPreScore(const ClusterState& s, uint32_t task);
int64_t affinityScore(const ClusterState& s, const AffinityScoreState& st, uint32_t node);
void affinityNormalize(std::vector<int64_t>& scores);

struct SpreadScoreState {
    bool skip = true;
    struct Constraint {
        int32_t maxSkew = 1;
        std::string key;
        LabelSelector selector;
        bool hasSelector = false;
        double weight = 0;
        std::map<std::string, int64_t> counts; // domain -> pods (hostname: node name)
    };
    std::vector<Constraint> constraints;
};
// nodes: the candidate nodes being scored.
SpreadScoreState spreadPreScore(const ClusterState& s, uint32_t task, const std::vector<uint32_t>& nodes);
int64_t spreadScore(const ClusterState& s, const SpreadScoreState& st, uint32_t node, bool* ignored);
void spreadNormalize(std::vector<int64_t>& scores, const std::vector<bool>& ignored);

} // namespace gantry::engine::k8s
