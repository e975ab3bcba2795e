#include "model/selectors.h"

#include <algorithm>
#include <charconv>

namespace gantry {

const char* toString(SelectorOp op) {
    switch (op) {
    case SelectorOp::In:
        return "In";
    case SelectorOp::NotIn:
        return "NotIn";
    case SelectorOp::Exists:
        return "Exists";
    case SelectorOp::DoesNotExist:
        return "DoesNotExist";
    case SelectorOp::Gt:
        return "Gt";
    case SelectorOp::Lt:
        return "Lt";
    }
    return "In";
}

std::optional<SelectorOp> selectorOpFromString(const std::string& text) {
    for (auto op : {SelectorOp::In, SelectorOp::NotIn, SelectorOp::Exists, SelectorOp::DoesNotExist,
                    SelectorOp::Gt, SelectorOp::Lt})
        if (text == toString(op)) return op;
    return std::nullopt;
}

const char* toString(TaintEffect effect) {
    switch (effect) {
    case TaintEffect::NoSchedule:
        return "NoSchedule";
    case TaintEffect::PreferNoSchedule:
        return "PreferNoSchedule";
    case TaintEffect::NoExecute:
        return "NoExecute";
    }
    return "NoSchedule";
}

std::optional<TaintEffect> taintEffectFromString(const std::string& text) {
    for (auto e : {TaintEffect::NoSchedule, TaintEffect::PreferNoSchedule, TaintEffect::NoExecute})
        if (text == toString(e)) return e;
    return std::nullopt;
}

namespace {
std::optional<int64_t> toInt(const std::string& s) {
    int64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
    return v;
}

bool matchesValue(const SelectorRequirement& req, bool present, const std::string& value) {
    auto in = [&] { return std::find(req.values.begin(), req.values.end(), value) != req.values.end(); };
    switch (req.op) {
    case SelectorOp::In:
        return present && in();
    case SelectorOp::NotIn:
        return !present || !in();
    case SelectorOp::Exists:
        return present;
    case SelectorOp::DoesNotExist:
        return !present;
    case SelectorOp::Gt:
    case SelectorOp::Lt: {
        if (!present || req.values.size() != 1) return false;
        auto have = toInt(value), want = toInt(req.values[0]);
        if (!have || !want) return false;
        return req.op == SelectorOp::Gt ? *have > *want : *have < *want;
    }
    }
    return false;
}
} // namespace

bool matches(const SelectorRequirement& req, const Labels& labels) {
    auto it = labels.find(req.key);
    return matchesValue(req, it != labels.end(), it != labels.end() ? it->second : std::string());
}

bool matches(const LabelSelector& selector, const Labels& labels) {
    for (const auto& [k, v] : selector.matchLabels) {
        auto it = labels.find(k);
        if (it == labels.end() || it->second != v) return false;
    }
    return std::all_of(selector.matchExpressions.begin(), selector.matchExpressions.end(),
                       [&](const SelectorRequirement& r) { return matches(r, labels); });
}

bool matches(const NodeSelectorTerm& term, const Labels& nodeLabels, const std::string& nodeName) {
    // An empty term matches no objects (k8s nodeaffinity semantics).
    if (term.matchExpressions.empty() && term.matchFields.empty()) return false;
    for (const auto& r : term.matchExpressions)
        if (!matches(r, nodeLabels)) return false;
    for (const auto& r : term.matchFields) {
        if (r.key != "metadata.name") return false;
        if (!matchesValue(r, true, nodeName)) return false;
    }
    return true;
}

bool matchesNodeSelectorAndAffinity(const Labels& nodeSelector, const std::optional<NodeAffinity>& affinity,
                                    const Labels& nodeLabels, const std::string& nodeName) {
    for (const auto& [k, v] : nodeSelector) {
        auto it = nodeLabels.find(k);
        if (it == nodeLabels.end() || it->second != v) return false;
    }
    if (!affinity || !affinity->required) return true;
    const auto& terms = *affinity->required;
    return std::any_of(terms.begin(), terms.end(),
                       [&](const NodeSelectorTerm& t) { return matches(t, nodeLabels, nodeName); });
}

bool tolerates(const Toleration& t, const Taint& taint) {
    if (t.effect && *t.effect != taint.effect) return false;
    if (!t.key.empty() && t.key != taint.key) return false;
    if (t.exists) return true;
    return t.value == taint.value;
}

const Taint* firstUntoleratedTaint(const std::vector<Taint>& taints,
                                   const std::vector<Toleration>& tolerations) {
    for (const auto& taint : taints) {
        if (taint.effect == TaintEffect::PreferNoSchedule) continue;
        bool ok = std::any_of(tolerations.begin(), tolerations.end(),
                              [&](const Toleration& t) { return tolerates(t, taint); });
        if (!ok) return &taint;
    }
    return nullptr;
}

} // namespace gantry
