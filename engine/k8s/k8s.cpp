#include "k8s/k8s.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace gantry::engine::k8s {

namespace {

const std::string kHostname = "kubernetes.io/hostname";

template <class Fn> void forEachPod(const ClusterState& s, uint32_t node, Fn fn) {
    for (uint32_t t : s.nodeTasks[node])
        if (s.tasks[t].inK8sView) fn(t);
}

bool terminating(const ClusterState& s, uint32_t t) {
    return s.tasks[t].status == TaskStatus::Releasing;
}

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

std::string untoleratedTaintReason(const Taint& taint) {
    return "node(s) had untolerated taint {" + taint.key + ": " + taint.value + "}";
}

bool passesUnschedulable(const PodShape& pod, const NodeRec& node) {
    if (!node.unschedulable) return true;
    Taint t{"node.kubernetes.io/unschedulable", "", TaintEffect::NoSchedule};
    return std::any_of(pod.tolerations.begin(), pod.tolerations.end(),
                       [&](const Toleration& tol) { return tolerates(tol, t); });
}

bool passesNodeAffinity(const PodShape& pod, const NodeRec& node, const std::string& nodeName) {
    return matchesNodeSelectorAndAffinity(pod.nodeSelector, pod.nodeAffinity, node.labels, nodeName);
}

const Taint* firstUntolerated(const PodShape& pod, const NodeRec& node) {
    return firstUntoleratedTaint(node.taints, pod.tolerations);
}

bool termMatches(const ClusterState& s, const PodAffinityTerm& term, uint32_t ownerNs, uint32_t pod) {
    const uint32_t podNs = s.tasks[pod].ns;
    bool nsOk;
    if (term.namespaces.empty() && !term.namespaceSelector) {
        nsOk = podNs == ownerNs;
    } else {
        const std::string& ns = s.strings.str(podNs);
        nsOk = std::find(term.namespaces.begin(), term.namespaces.end(), ns) != term.namespaces.end();
        if (!nsOk && term.namespaceSelector) {
            auto it = s.namespaceLabels.find(ns);
            static const Labels none;
            nsOk = matches(*term.namespaceSelector, it == s.namespaceLabels.end() ? none : it->second);
        }
    }
    if (!nsOk || !term.labelSelector) return false;
    return matches(*term.labelSelector, s.shapeOf(pod).labels);
}

// ---------------------------------------------------------------- InterPodAffinity filter

AffinityState affinityPreFilter(const ClusterState& s, uint32_t task) {
    AffinityState st;
    const auto& pod = s.shapeOf(task);
    const auto& aff = pod.podAffinity.required;
    const auto& anti = pod.podAntiAffinity.required;
    for (uint32_t n = 0; n < s.nodes.size(); ++n) {
        const auto& labels = s.nodes[n].labels;
        forEachPod(s, n, [&](uint32_t x) {
            const auto& xs = s.shapeOf(x);
            for (const auto& term : xs.podAntiAffinity.required) {
                if (!termMatches(s, term, s.tasks[x].ns, task)) continue;
                auto it = labels.find(term.topologyKey);
                if (it != labels.end()) st.existingAnti[{term.topologyKey, it->second}] += 1;
            }
            if (!aff.empty()) {
                bool all = true;
                for (const auto& term : aff)
                    if (!termMatches(s, term, s.tasks[task].ns, x)) all = false;
                if (all)
                    for (const auto& term : aff) {
                        auto it = labels.find(term.topologyKey);
                        if (it != labels.end()) st.affinity[{term.topologyKey, it->second}] += 1;
                    }
            }
            for (const auto& term : anti) {
                if (!termMatches(s, term, s.tasks[task].ns, x)) continue;
                auto it = labels.find(term.topologyKey);
                if (it != labels.end()) st.anti[{term.topologyKey, it->second}] += 1;
            }
        });
    }
    st.skip = st.existingAnti.empty() && aff.empty() && anti.empty();
    return st;
}

void affinityUpdateWithPod(const ClusterState& s, AffinityState& st, uint32_t task, uint32_t pod,
                           uint32_t node, int64_t mult) {
    if (st.skip) return;
    const auto& labels = s.nodes[node].labels;
    auto bump = [&](std::map<std::pair<std::string, std::string>, int64_t>& m, const std::string& key) {
        auto it = labels.find(key);
        if (it == labels.end()) return;
        auto& v = m[{key, it->second}];
        v += mult;
        if (v == 0) m.erase({key, it->second});
    };
    const auto& ps = s.shapeOf(pod);
    for (const auto& term : ps.podAntiAffinity.required)
        if (termMatches(s, term, s.tasks[pod].ns, task)) bump(st.existingAnti, term.topologyKey);
    const auto& me = s.shapeOf(task);
    if (!me.podAffinity.required.empty()) {
        bool all = true;
        for (const auto& term : me.podAffinity.required)
            if (!termMatches(s, term, s.tasks[task].ns, pod)) all = false;
        if (all)
            for (const auto& term : me.podAffinity.required) bump(st.affinity, term.topologyKey);
    }
    for (const auto& term : me.podAntiAffinity.required)
        if (termMatches(s, term, s.tasks[task].ns, pod)) bump(st.anti, term.topologyKey);
}

const char* affinityFilter(const ClusterState& s, const AffinityState& st, uint32_t task, uint32_t node,
                           Code* code) {
    if (st.skip) return nullptr;
    const auto& labels = s.nodes[node].labels;
    const auto& pod = s.shapeOf(task);
    if (!st.existingAnti.empty())
        for (const auto& [k, v] : labels) {
            auto it = st.existingAnti.find({k, v});
            if (it != st.existingAnti.end() && it->second > 0) {
                *code = Code::Unschedulable;
                return kExistingAntiAffinity;
            }
        }
    bool podsExist = true;
    for (const auto& term : pod.podAffinity.required) {
        auto it = labels.find(term.topologyKey);
        if (it == labels.end()) {
            *code = Code::UnschedulableAndUnresolvable;
            return kAffinityNotMatch;
        }
        auto c = st.affinity.find({term.topologyKey, it->second});
        if (c == st.affinity.end() || c->second <= 0) podsExist = false;
    }
    if (!podsExist) {
        bool selfMatch = !pod.podAffinity.required.empty();
        for (const auto& term : pod.podAffinity.required)
            if (!termMatches(s, term, s.tasks[task].ns, task)) selfMatch = false;
        if (!(st.affinity.empty() && selfMatch)) {
            *code = Code::UnschedulableAndUnresolvable;
            return kAffinityNotMatch;
        }
    }
    for (const auto& term : pod.podAntiAffinity.required) {
        auto it = labels.find(term.topologyKey);
        if (it == labels.end()) continue;
        auto c = st.anti.find({term.topologyKey, it->second});
        if (c != st.anti.end() && c->second > 0) {
            *code = Code::Unschedulable;
            return kAntiAffinityNotMatch;
        }
    }
    return nullptr;
}

// ---------------------------------------------------------------- PodTopologySpread filter

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

// ---------------------------------------------------------------- scores

namespace {

int64_t podRequest(const ClusterState& s, uint32_t task, int dim, bool useRequested) {
    const auto& sh = s.shapeOf(task);
    if (!useRequested) {
        if (dim == kCpu && !sh.cpuRequested) return 100;
        if (dim == kMemory && !sh.memRequested) return 200LL * 1024 * 1024;
    }
    return dim < int(sh.request.size()) ? sh.request[size_t(dim)] : 0;
}

int64_t nodeRequested(const ClusterState& s, uint32_t node, int dim, bool useRequested) {
    if (!useRequested) {
        if (dim == kCpu) return s.nonZeroCpu[node];
        if (dim == kMemory) return s.nonZeroMem[node];
    }
    return s.nodeRow(s.k8sRequested, node)[dim];
}

// The shape's scores are 0..10, scaled by `scale` here.
int64_t brokenLinear(const std::vector<std::pair<int64_t, int64_t>>& shape, int64_t scale, int64_t p) {
    for (size_t i = 0; i < shape.size(); ++i) {
        if (p <= shape[i].first) {
            if (i == 0) return shape[0].second * scale;
            const int64_t from = shape[i - 1].second * scale, to = shape[i].second * scale;
            return from + (to - from) * (p - shape[i - 1].first) / (shape[i].first - shape[i - 1].first);
        }
    }
    return shape.empty() ? 0 : shape.back().second * scale;
}

} // namespace

int64_t fitScore(const ClusterState& s, const FitScorer& f, uint32_t task, uint32_t node) {
    int64_t nodeScore = 0, weightSum = 0;
    for (const auto& [dim, weight] : f.resources) {
        if (dim < 0) continue;
        const int64_t req = podRequest(s, task, dim, f.useRequested);
        if (req == 0 && dim > kMemory && dim != s.dims.find(std::string(res::EphemeralStorage))) continue;
        const int64_t alloc = s.nodeRow(s.allocatable, node)[dim];
        if (alloc == 0) continue;
        const int64_t requested = nodeRequested(s, node, dim, f.useRequested) + req;
        int64_t score = 0;
        switch (f.strategy) {
        case FitStrategy::LeastAllocated:
            score = requested > alloc ? 0 : (alloc - requested) * kMaxNodeScore / alloc;
            break;
        case FitStrategy::MostAllocated:
            score = (std::min(requested, alloc)) * kMaxNodeScore / alloc;
            break;
        case FitStrategy::RequestedToCapacityRatio:
            score =
                brokenLinear(f.shape, kMaxNodeScore / 10, requested > alloc ? 100 : requested * 100 / alloc);
            if (score <= 0) continue;
            break;
        }
        nodeScore += score * weight;
        weightSum += weight;
    }
    if (weightSum == 0) return 0;
    if (f.strategy == FitStrategy::RequestedToCapacityRatio)
        return int64_t(std::llround(double(nodeScore) / double(weightSum)));
    return nodeScore / weightSum;
}

bool balancedScore(const ClusterState& s, const std::vector<int>& dims, uint32_t task, uint32_t node,
                   int64_t* score) {
    bool any = false;
    for (int d : dims)
        if (d >= 0 && podRequest(s, task, d, true) != 0) any = true;
    if (!any) return false;
    double fractions[kMaxDims]; // scored per candidate node: no allocation
    size_t n = 0;
    double total = 0;
    for (int d : dims) {
        if (d < 0) continue;
        const int64_t req = podRequest(s, task, d, true);
        if (req == 0 && d > kMemory) continue;
        const int64_t alloc = s.nodeRow(s.allocatable, node)[d];
        if (alloc == 0) continue;
        double fr = double(s.nodeRow(s.k8sRequested, node)[d] + req) / double(alloc);
        if (fr > 1) fr = 1;
        total += fr;
        fractions[n++] = fr;
    }
    double std = 0;
    if (n == 2) {
        std = std::fabs((fractions[0] - fractions[1]) / 2);
    } else if (n > 2) {
        const double mean = total / double(n);
        double sum = 0;
        for (size_t i = 0; i < n; ++i) sum += (fractions[i] - mean) * (fractions[i] - mean);
        std = std::sqrt(sum / double(n));
    }
    *score = int64_t((1 - std) * double(kMaxNodeScore));
    return true;
}

int64_t nodeAffinityScore(const PodShape& pod, const NodeRec& node, const std::string& nodeName) {
    if (!pod.nodeAffinity) return 0;
    int64_t count = 0;
    for (const auto& p : pod.nodeAffinity->preferred) {
        if (p.weight == 0) continue;
        if (matches(p.preference, node.labels, nodeName)) count += p.weight;
    }
    return count;
}

int64_t intolerablePreferNoSchedule(const PodShape& pod, const NodeRec& node) {
    int64_t n = 0;
    for (const auto& taint : node.taints) {
        if (taint.effect != TaintEffect::PreferNoSchedule) continue;
        bool ok = false;
        for (const auto& t : pod.tolerations) {
            if (t.effect && *t.effect != TaintEffect::PreferNoSchedule) continue;
            if (tolerates(t, taint)) ok = true;
        }
        if (!ok) ++n;
    }
    return n;
}

void defaultNormalize(std::vector<int64_t>& scores, bool reverse) {
    int64_t max = 0;
    for (int64_t v : scores) max = std::max(max, v);
    if (max == 0) {
        if (reverse)
            for (auto& v : scores) v = kMaxNodeScore;
        return;
    }
    for (auto& v : scores) {
        int64_t sc = kMaxNodeScore * v / max;
        v = reverse ? kMaxNodeScore - sc : sc;
    }
}

AffinityScoreState affinityPreScore(const ClusterState& s, uint32_t task) {
    AffinityScoreState st;
    const auto& pod = s.shapeOf(task);
    const bool hasConstraints = !pod.podAffinity.preferred.empty() || !pod.podAntiAffinity.preferred.empty();
    auto add = [&](const std::string& key, const Labels& nodeLabels, int64_t w) {
        auto it = nodeLabels.find(key);
        if (it != nodeLabels.end()) st.topologyScore[{key, it->second}] += w;
    };
    for (uint32_t n = 0; n < s.nodes.size(); ++n) {
        const auto& labels = s.nodes[n].labels;
        if (labels.empty()) continue;
        forEachPod(s, n, [&](uint32_t x) {
            const auto& xs = s.shapeOf(x);
            const bool xHasAffinity = !xs.podAffinity.empty() || !xs.podAntiAffinity.empty();
            if (!hasConstraints && !xHasAffinity) return;
            for (const auto& w : pod.podAffinity.preferred)
                if (termMatches(s, w.term, s.tasks[task].ns, x)) add(w.term.topologyKey, labels, w.weight);
            for (const auto& w : pod.podAntiAffinity.preferred)
                if (termMatches(s, w.term, s.tasks[task].ns, x))
                    add(w.term.topologyKey, labels, -int64_t(w.weight));
            for (const auto& w : xs.podAffinity.preferred)
                if (termMatches(s, w.term, s.tasks[x].ns, task)) add(w.term.topologyKey, labels, w.weight);
            for (const auto& w : xs.podAntiAffinity.preferred)
                if (termMatches(s, w.term, s.tasks[x].ns, task))
                    add(w.term.topologyKey, labels, -int64_t(w.weight));
        });
    }
    st.skip = st.topologyScore.empty();
    return st;
}

int64_t affinityScore(const ClusterState& s, const AffinityScoreState& st, uint32_t node) {
    int64_t score = 0;
    const auto& labels = s.nodes[node].labels;
    for (const auto& [pair, v] : st.topologyScore) {
        auto it = labels.find(pair.first);
        if (it != labels.end() && it->second == pair.second) score += v;
    }
    return score;
}

void affinityNormalize(std::vector<int64_t>& scores) {
    if (scores.empty()) return;
    int64_t min = std::numeric_limits<int64_t>::max(), max = std::numeric_limits<int64_t>::min();
    for (int64_t v : scores) {
        min = std::min(min, v);
        max = std::max(max, v);
    }
    const int64_t diff = max - min;
    for (auto& v : scores) {
        double f = 0;
        if (diff > 0) f = double(kMaxNodeScore) * (double(v - min) / double(diff));
        v = int64_t(f);
    }
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
