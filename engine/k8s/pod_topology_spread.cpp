#include "k8s/pod_topology_spread.h"

#include "k8s/node_affinity.h"
#include "k8s/node_info.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace gantry::engine::k8s {

namespace {

const std::string kHostname = "kubernetes.io/hostname";

LabelSelector withMatchLabelKeys(const TopologySpreadConstraint& c, const Labels& podLabels, bool* has) {
    LabelSelector sel;
    *has = c.labelSelector.has_value();
    if (c.labelSelector) sel = *c.labelSelector;
    for (const auto& key : c.matchLabelKeys) {
        auto it = podLabels.find(key);
        if (it == podLabels.end()) continue;
        sel.matchExpressions.push_back(SelectorRequirement{key, SelectorOp::In, {it->second}});
        *has = true;
    }
    return sel;
}

int64_t countMatching(const ClusterState& s, uint32_t node, const LabelSelector& sel, bool has, uint32_t ns) {
    if (!has) return 0; // a nil selector selects nothing
    int64_t n = 0;
    forEachPod(s, node, [&](uint32_t t) {
        if (terminating(s, t) || s.tasks[t].ns != ns) return;
        if (matches(sel, s.shapeOf(t).labels)) ++n;
    });
    return n;
}

bool hasAllKeys(const Labels& labels, const std::vector<std::string>& keys) {
    for (const auto& k : keys)
        if (!labels.count(k)) return false;
    return true;
}

} // namespace

SpreadState spreadPreFilter(const ClusterState& s, uint32_t task) {
    SpreadState st;
    const auto& pod = s.shapeOf(task);
    std::vector<std::string> keys;
    for (const auto& c : pod.topologySpread) {
        if (!c.doNotSchedule) continue;
        SpreadState::Constraint k;
        k.maxSkew = c.maxSkew;
        k.key = c.topologyKey;
        k.selector = withMatchLabelKeys(c, pod.labels, &k.hasSelector);
        k.minDomains = c.minDomains.value_or(0);
        k.selfMatch = k.hasSelector && matches(k.selector, pod.labels);
        st.constraints.push_back(std::move(k));
        keys.push_back(c.topologyKey);
    }
    if (st.constraints.empty()) return st;
    st.skip = false;
    for (uint32_t n = 0; n < s.nodes.size(); ++n) {
        const auto& node = s.nodes[n];
        if (!passesNodeAffinity(pod, node, s.nodeName(n))) continue;
        if (!hasAllKeys(node.labels, keys)) continue;
        for (auto& c : st.constraints) {
            const std::string& v = node.labels.at(c.key);
            c.counts[v] += countMatching(s, n, c.selector, c.hasSelector, s.tasks[task].ns);
        }
    }
    for (auto& c : st.constraints) {
        int64_t min = std::numeric_limits<int64_t>::max();
        for (const auto& [v, n] : c.counts) min = std::min(min, n);
        if (c.counts.empty()) min = 0;
        if (c.minDomains > 0 && int64_t(c.counts.size()) < c.minDomains) min = 0;
        c.minMatch = min;
    }
    return st;
}

const char* spreadFilter(const ClusterState& s, const SpreadState& st, uint32_t node, Code* code) {
    if (st.skip) return nullptr;
    const auto& labels = s.nodes[node].labels;
    for (const auto& c : st.constraints) {
        auto it = labels.find(c.key);
        if (it == labels.end()) {
            *code = Code::UnschedulableAndUnresolvable;
            return kSpreadMissingLabel;
        }
        auto cnt = c.counts.find(it->second);
        const int64_t match = cnt == c.counts.end() ? 0 : cnt->second;
        const int64_t skew = match + (c.selfMatch ? 1 : 0) - c.minMatch;
        if (skew > c.maxSkew) {
            *code = Code::Unschedulable;
            return kSpreadSkew;
        }
    }
    return nullptr;
}

SpreadScoreState spreadPreScore(const ClusterState& s, uint32_t task, const std::vector<uint32_t>& nodes) {
    SpreadScoreState st;
    const auto& pod = s.shapeOf(task);
    std::vector<std::string> keys;
    for (const auto& c : pod.topologySpread) {
        if (c.doNotSchedule) continue;
        SpreadScoreState::Constraint k;
        k.maxSkew = c.maxSkew;
        k.key = c.topologyKey;
        k.selector = withMatchLabelKeys(c, pod.labels, &k.hasSelector);
        st.constraints.push_back(std::move(k));
        keys.push_back(c.topologyKey);
    }
    if (st.constraints.empty()) return st;
    st.skip = false;
    std::vector<std::set<std::string>> domains(st.constraints.size());
    size_t ignored = 0;
    for (uint32_t n : nodes) {
        const auto& labels = s.nodes[n].labels;
        if (!hasAllKeys(labels, keys)) {
            ++ignored;
            continue;
        }
        for (size_t i = 0; i < st.constraints.size(); ++i) {
            auto& c = st.constraints[i];
            if (c.key == kHostname) {
                // per-node counts, keyed apart from domain values
                c.counts["\x01" + s.nodeName(n)] =
                    countMatching(s, n, c.selector, c.hasSelector, s.tasks[task].ns);
                continue;
            }
            domains[i].insert(labels.at(c.key));
        }
    }
    for (size_t i = 0; i < st.constraints.size(); ++i) {
        auto& c = st.constraints[i];
        size_t size = c.key == kHostname ? nodes.size() - ignored : domains[i].size();
        c.weight = std::log(double(size + 2));
        for (const auto& d : domains[i]) c.counts[d] = 0;
    }
    for (uint32_t n = 0; n < s.nodes.size(); ++n) {
        const auto& labels = s.nodes[n].labels;
        if (!passesNodeAffinity(pod, s.nodes[n], s.nodeName(n))) continue;
        if (!hasAllKeys(labels, keys)) continue;
        for (auto& c : st.constraints) {
            if (c.key == kHostname) continue;
            auto it = c.counts.find(labels.at(c.key));
            if (it == c.counts.end()) continue;
            it->second += countMatching(s, n, c.selector, c.hasSelector, s.tasks[task].ns);
        }
    }
    return st;
}

int64_t spreadScore(const ClusterState& s, const SpreadScoreState& st, uint32_t node, bool* ignored) {
    const auto& labels = s.nodes[node].labels;
    *ignored = false;
    for (const auto& c : st.constraints)
        if (!labels.count(c.key)) *ignored = true;
    if (*ignored) return 0;
    double score = 0;
    for (const auto& c : st.constraints) {
        auto it = labels.find(c.key);
        if (it == labels.end()) continue;
        int64_t cnt = 0;
        if (c.key == kHostname) {
            auto ci = c.counts.find("\x01" + s.nodeName(node));
            cnt = ci == c.counts.end() ? 0 : ci->second;
        } else {
            auto ci = c.counts.find(it->second);
            cnt = ci == c.counts.end() ? 0 : ci->second;
        }
        score += double(cnt) * c.weight + double(c.maxSkew - 1);
    }
    return int64_t(std::llround(score));
}

void spreadNormalize(std::vector<int64_t>& scores, const std::vector<bool>& ignored) {
    int64_t min = std::numeric_limits<int64_t>::max(), max = 0;
    for (size_t i = 0; i < scores.size(); ++i) {
        if (ignored[i]) continue;
        min = std::min(min, scores[i]);
        max = std::max(max, scores[i]);
    }
    for (size_t i = 0; i < scores.size(); ++i) {
        if (ignored[i]) {
            scores[i] = 0;
            continue;
        }
        if (max == 0) {
            scores[i] = kMaxNodeScore;
            continue;
        }
        scores[i] = kMaxNodeScore * (max + min - scores[i]) / max;
    }
}

} // namespace gantry::engine::k8s
