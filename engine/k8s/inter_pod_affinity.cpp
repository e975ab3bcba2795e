#include "k8s/inter_pod_affinity.h"

#include "k8s/node_info.h"

#include <algorithm>
#include <limits>

namespace gantry::engine::k8s {

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

} // namespace gantry::engine::k8s
