#include "kubernetes/k8s_fields.h"

#include "model/go_text.h"

#include <cctype>
#include <cmath>
#include <cstdio>

namespace gantry {

SelectorRequirement readRequirement(const Y& node, bool nodeSelector) {
    node.checkKeys("selector requirement", {"key", "operator", "values"});
    SelectorRequirement r;
    r.key = node["key"].str();
    if (r.key.empty()) node.fail("selector requirement has no key");
    auto opNode = node["operator"];
    auto op = selectorOpFromString(opNode.str());
    if (!op)
        opNode.fail("unknown operator '" + opNode.str() + "' (expected In, NotIn, Exists, DoesNotExist" +
                    (nodeSelector ? ", Gt, Lt)" : ")"));
    if (!nodeSelector && (*op == SelectorOp::Gt || *op == SelectorOp::Lt))
        opNode.fail("operator '" + opNode.str() + "' is only valid in node selectors");
    r.op = *op;
    r.values = node["values"].strings();
    switch (r.op) {
    case SelectorOp::In:
    case SelectorOp::NotIn:
        if (r.values.empty()) node.fail("operator " + opNode.str() + " needs at least one value");
        break;
    case SelectorOp::Exists:
    case SelectorOp::DoesNotExist:
        if (!r.values.empty()) node["values"].fail("operator " + opNode.str() + " takes no values");
        break;
    case SelectorOp::Gt:
    case SelectorOp::Lt:
        if (r.values.size() != 1) node.fail("operator " + opNode.str() + " needs exactly one integer value");
        break;
    }
    return r;
}

LabelSelector readLabelSelector(const Y& node) {
    node.checkKeys("label selector", {"matchLabels", "matchExpressions"});
    LabelSelector s;
    s.matchLabels = node["matchLabels"].stringMap();
    for (const auto& r : node["matchExpressions"].items())
        s.matchExpressions.push_back(readRequirement(r, false));
    return s;
}

std::optional<LabelSelector> readOptionalLabelSelector(const Y& node) {
    if (!node.present()) return std::nullopt;
    return readLabelSelector(node);
}

NodeSelectorTerm readNodeSelectorTerm(const Y& node) {
    node.checkKeys("node selector term", {"matchExpressions", "matchFields"});
    NodeSelectorTerm t;
    for (const auto& r : node["matchExpressions"].items())
        t.matchExpressions.push_back(readRequirement(r, true));
    for (const auto& r : node["matchFields"].items()) {
        auto req = readRequirement(r, true);
        if (req.key != "metadata.name") r["key"].fail("matchFields supports only metadata.name");
        t.matchFields.push_back(std::move(req));
    }
    return t;
}

std::optional<NodeAffinity> readNodeAffinity(const Y& node) {
    if (!node.present()) return std::nullopt;
    node.checkKeys("nodeAffinity", {"requiredDuringSchedulingIgnoredDuringExecution",
                                    "preferredDuringSchedulingIgnoredDuringExecution"});
    NodeAffinity a;
    auto req = node["requiredDuringSchedulingIgnoredDuringExecution"];
    if (req.present()) {
        req.checkKeys("nodeAffinity", {"nodeSelectorTerms"});
        std::vector<NodeSelectorTerm> terms;
        for (const auto& t : req["nodeSelectorTerms"].items()) terms.push_back(readNodeSelectorTerm(t));
        a.required = std::move(terms);
    }
    for (const auto& p : node["preferredDuringSchedulingIgnoredDuringExecution"].items()) {
        p.checkKeys("nodeAffinity", {"weight", "preference"});
        PreferredSchedulingTerm term;
        term.weight = p["weight"].i32();
        if (term.weight < 1 || term.weight > 100) p["weight"].fail("weight must be in 1..100");
        term.preference = readNodeSelectorTerm(p["preference"]);
        a.preferred.push_back(std::move(term));
    }
    return a;
}

namespace {
PodAffinityTerm readPodAffinityTerm(const Y& node) {
    // matchLabelKeys / mismatchLabelKeys refine the selector with the incoming pod's own labels; they are
    // noted (not modelled) rather than silently dropped.
    node.checkKeys("pod affinity term", {"labelSelector", "namespaces", "namespaceSelector", "topologyKey"});
    PodAffinityTerm t;
    t.labelSelector = readOptionalLabelSelector(node["labelSelector"]);
    t.namespaces = node["namespaces"].strings();
    t.namespaceSelector = readOptionalLabelSelector(node["namespaceSelector"]);
    t.topologyKey = node["topologyKey"].str();
    if (t.topologyKey.empty()) node.fail("pod affinity term has no topologyKey");
    return t;
}
} // namespace

PodAffinity readPodAffinity(const Y& node) {
    PodAffinity a;
    if (!node.present()) return a;
    node.checkKeys("pod affinity", {"requiredDuringSchedulingIgnoredDuringExecution",
                                    "preferredDuringSchedulingIgnoredDuringExecution"});
    for (const auto& t : node["requiredDuringSchedulingIgnoredDuringExecution"].items())
        a.required.push_back(readPodAffinityTerm(t));
    for (const auto& p : node["preferredDuringSchedulingIgnoredDuringExecution"].items()) {
        p.checkKeys("pod affinity", {"weight", "podAffinityTerm"});
        WeightedPodAffinityTerm w;
        w.weight = p["weight"].i32();
        if (w.weight < 1 || w.weight > 100) p["weight"].fail("weight must be in 1..100");
        w.term = readPodAffinityTerm(p["podAffinityTerm"]);
        a.preferred.push_back(std::move(w));
    }
    return a;
}

TaintEffect readTaintEffect(const Y& node) {
    auto effect = taintEffectFromString(node.str());
    if (!effect)
        node.fail("unknown taint effect '" + node.str() +
                  "' (expected NoSchedule, PreferNoSchedule or NoExecute)");
    return *effect;
}

Taint readTaint(const Y& t) {
    t.checkKeys("taint", {"key", "value", "effect"}, {"timeAdded"});
    Taint taint;
    taint.key = t["key"].str();
    if (taint.key.empty()) t.fail("taint has no key");
    taint.value = t["value"].str();
    if (!t["effect"].present()) t.fail("taint has no effect");
    taint.effect = readTaintEffect(t["effect"]);
    return taint;
}

std::vector<Taint> readTaints(const Y& node) {
    std::vector<Taint> out;
    for (const auto& t : node.items()) out.push_back(readTaint(t));
    return out;
}

std::vector<Toleration> readTolerations(const Y& node) {
    std::vector<Toleration> out;
    for (const auto& t : node.items()) {
        t.checkKeys("toleration", {"key", "operator", "value", "effect", "tolerationSeconds"});
        Toleration tol;
        tol.key = t["key"].str();
        std::string op = t["operator"].str("Equal");
        if (op == "Exists")
            tol.exists = true;
        else if (op != "Equal")
            t["operator"].fail("unknown toleration operator '" + op + "' (expected Equal or Exists)");
        tol.value = t["value"].str();
        if (tol.exists && !tol.value.empty())
            t["value"].fail("a toleration with operator Exists takes no value");
        if (tol.key.empty() && !tol.exists) t.fail("a toleration without a key must use operator Exists");
        if (t["effect"].present() && !t["effect"].str().empty()) tol.effect = readTaintEffect(t["effect"]);
        tol.tolerationSeconds = t["tolerationSeconds"].optI64();
        out.push_back(std::move(tol));
    }
    return out;
}

std::vector<TopologySpreadConstraint> readTopologySpread(const Y& node) {
    std::vector<TopologySpreadConstraint> out;
    for (const auto& c : node.items()) {
        c.checkKeys("topology spread constraint", {"maxSkew", "topologyKey", "whenUnsatisfiable",
                                                   "labelSelector", "minDomains", "matchLabelKeys"});
        TopologySpreadConstraint t;
        t.maxSkew = c["maxSkew"].i32(0);
        if (t.maxSkew < 1) c["maxSkew"].fail("maxSkew must be at least 1");
        t.topologyKey = c["topologyKey"].str();
        if (t.topologyKey.empty()) c.fail("topology spread constraint has no topologyKey");
        std::string when = c["whenUnsatisfiable"].str();
        if (when == "DoNotSchedule")
            t.doNotSchedule = true;
        else if (when == "ScheduleAnyway")
            t.doNotSchedule = false;
        else
            c["whenUnsatisfiable"].fail("expected DoNotSchedule or ScheduleAnyway, got '" + when + "'");
        t.labelSelector = readOptionalLabelSelector(c["labelSelector"]);
        t.minDomains = c["minDomains"].optI32();
        if (t.minDomains && *t.minDomains < 1) c["minDomains"].fail("minDomains must be at least 1");
        t.matchLabelKeys = c["matchLabelKeys"].strings();
        out.push_back(std::move(t));
    }
    return out;
}

std::optional<int64_t> readTimestamp(const Y& node) {
    if (!node.present()) return std::nullopt;
    const std::string t = node.str();
    auto seconds = engine::parseRfc3339(t);
    if (!seconds) node.fail("expected an RFC 3339 time such as 2024-01-01T00:00:00Z, got '" + t + "'");
    return int64_t(std::floor(*seconds));
}

} // namespace gantry
