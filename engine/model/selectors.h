#pragma once
// Kubernetes label selectors, node affinity, pod (anti-)affinity, taints and tolerations,
// with the matching rules of k8s.io/apimachinery and k8s.io/component-helpers.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gantry {

using Labels = std::map<std::string, std::string>;

enum class SelectorOp { In, NotIn, Exists, DoesNotExist, Gt, Lt };
const char* toString(SelectorOp op);
std::optional<SelectorOp> selectorOpFromString(const std::string& text);

struct SelectorRequirement {
    std::string key;
    SelectorOp op = SelectorOp::In;
    std::vector<std::string> values;
    bool operator==(const SelectorRequirement&) const = default;
};

// metav1.LabelSelector: matchLabels AND matchExpressions. An empty selector matches everything.
struct LabelSelector {
    Labels matchLabels;
    std::vector<SelectorRequirement> matchExpressions;
    bool empty() const { return matchLabels.empty() && matchExpressions.empty(); }
    bool operator==(const LabelSelector&) const = default;
};

// v1.NodeSelectorTerm: requirements are ANDed. matchFields supports metadata.name only.
struct NodeSelectorTerm {
    std::vector<SelectorRequirement> matchExpressions;
    std::vector<SelectorRequirement> matchFields;
    bool operator==(const NodeSelectorTerm&) const = default;
};

struct PreferredSchedulingTerm {
    int32_t weight = 0;
    NodeSelectorTerm preference;
    bool operator==(const PreferredSchedulingTerm&) const = default;
};

struct NodeAffinity {
    // requiredDuringSchedulingIgnoredDuringExecution: terms are ORed; absent = no constraint.
    std::optional<std::vector<NodeSelectorTerm>> required;
    std::vector<PreferredSchedulingTerm> preferred;
    bool operator==(const NodeAffinity&) const = default;
};

struct PodAffinityTerm {
    std::optional<LabelSelector> labelSelector; // absent selects no pods
    std::vector<std::string> namespaces;        // empty with no namespaceSelector = the pod's own
    std::optional<LabelSelector> namespaceSelector;
    std::string topologyKey;
    bool operator==(const PodAffinityTerm&) const = default;
};

struct WeightedPodAffinityTerm {
    int32_t weight = 0;
    PodAffinityTerm term;
    bool operator==(const WeightedPodAffinityTerm&) const = default;
};

struct PodAffinity {
    std::vector<PodAffinityTerm> required;
    std::vector<WeightedPodAffinityTerm> preferred;
    bool empty() const { return required.empty() && preferred.empty(); }
    bool operator==(const PodAffinity&) const = default;
};

enum class TaintEffect { NoSchedule, PreferNoSchedule, NoExecute };
const char* toString(TaintEffect effect);
std::optional<TaintEffect> taintEffectFromString(const std::string& text);

struct Taint {
    std::string key;
    std::string value;
    TaintEffect effect = TaintEffect::NoSchedule;
    bool operator==(const Taint&) const = default;
};

struct Toleration {
    std::string key;     // empty with Exists tolerates every key
    bool exists = false; // operator: Exists (true) or Equal (false)
    std::string value;
    std::optional<TaintEffect> effect; // absent tolerates all effects
    std::optional<int64_t> tolerationSeconds;
    bool operator==(const Toleration&) const = default;
};

struct TopologySpreadConstraint {
    int32_t maxSkew = 1;
    std::string topologyKey;
    bool doNotSchedule = true; // whenUnsatisfiable: DoNotSchedule (true) or ScheduleAnyway
    std::optional<LabelSelector> labelSelector;
    std::optional<int32_t> minDomains;
    std::vector<std::string> matchLabelKeys;
    bool operator==(const TopologySpreadConstraint&) const = default;
};

bool matches(const SelectorRequirement& req, const Labels& labels);
bool matches(const LabelSelector& selector, const Labels& labels);
// nodeName is used for matchFields on metadata.name.
bool matches(const NodeSelectorTerm& term, const Labels& nodeLabels, const std::string& nodeName);
// Required node affinity plus the plain nodeSelector map, as NodeAffinity's Filter does.
bool matchesNodeSelectorAndAffinity(const Labels& nodeSelector, const std::optional<NodeAffinity>& affinity,
                                    const Labels& nodeLabels, const std::string& nodeName);
bool tolerates(const Toleration& toleration, const Taint& taint);
// The first NoSchedule/NoExecute taint not tolerated, or nullptr.
const Taint* firstUntoleratedTaint(const std::vector<Taint>& taints,
                                   const std::vector<Toleration>& tolerations);

} // namespace gantry
