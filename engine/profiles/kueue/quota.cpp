#include "profiles/kueue/quota.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace gantry::engine::kueue {

namespace {

void accumulate(World& w, int node) {
    QuotaNode& n = w.nodes[size_t(node)];
    const size_t size = n.nominal.size();
    for (size_t i = 0; i < size; ++i) n.subtree[i] = n.nominal[i];
    if (!n.clusterQueue) std::fill(n.usage.begin(), n.usage.end(), 0);
    auto fromChild = [&](int c) {
        QuotaNode& child = w.nodes[size_t(c)];
        QuotaNode& parent = w.nodes[size_t(node)];
        for (size_t i = 0; i < size; ++i) {
            const Amount local = localQuota(child, int(i));
            parent.subtree[i] = addAmount(parent.subtree[i], subAmount(child.subtree[i], local));
            parent.usage[i] =
                addAmount(parent.usage[i], std::max<Amount>(0, subAmount(child.usage[i], local)));
        }
    };
    for (int c : w.nodes[size_t(node)].childCohorts) {
        accumulate(w, c);
        fromChild(c);
    }
    for (int c : w.nodes[size_t(node)].childCqs) {
        QuotaNode& child = w.nodes[size_t(c)];
        for (size_t i = 0; i < size; ++i) child.subtree[i] = child.nominal[i];
        fromChild(c);
    }
}

} // namespace

void rebuildTree(World& w) {
    for (size_t i = 0; i < w.nodes.size(); ++i) {
        QuotaNode& n = w.nodes[i];
        if (n.parent >= 0) continue;
        if (n.clusterQueue)
            n.subtree = n.nominal;
        else
            accumulate(w, int(i));
    }
}

Amount localQuota(const QuotaNode& n, int fr) {
    const Amount lend = n.lendLimit[size_t(fr)];
    if (lend == kNoLimit) return 0;
    return std::max<Amount>(0, subAmount(n.subtree[size_t(fr)], lend));
}

Amount localAvailable(const QuotaNode& n, int fr) {
    return std::max<Amount>(0, subAmount(localQuota(n, fr), n.usage[size_t(fr)]));
}

Amount available(const World& w, int node, int fr) {
    const QuotaNode& n = w.nodes[size_t(node)];
    if (n.parent < 0) return subAmount(n.subtree[size_t(fr)], n.usage[size_t(fr)]);
    Amount parentAvailable = available(w, n.parent, fr);
    if (const Amount borrow = n.borrowLimit[size_t(fr)]; borrow != kNoLimit) {
        const Amount lq = localQuota(n, fr);
        const Amount storedInParent = subAmount(n.subtree[size_t(fr)], lq);
        const Amount usedInParent = std::max<Amount>(0, subAmount(n.usage[size_t(fr)], lq));
        const Amount withMax = addAmount(subAmount(storedInParent, usedInParent), borrow);
        parentAvailable = std::min(withMax, parentAvailable);
    }
    return addAmount(localAvailable(n, fr), parentAvailable);
}

Amount potentialAvailable(const World& w, int node, int fr) {
    const QuotaNode& n = w.nodes[size_t(node)];
    if (n.parent < 0) return n.subtree[size_t(fr)];
    Amount avail = addAmount(localQuota(n, fr), potentialAvailable(w, n.parent, fr));
    if (const Amount borrow = n.borrowLimit[size_t(fr)]; borrow != kNoLimit)
        avail = std::min(addAmount(n.subtree[size_t(fr)], borrow), avail);
    return avail;
}

void addUsage(World& w, int node, int fr, Amount v) {
    QuotaNode& n = w.nodes[size_t(node)];
    const Amount local = localAvailable(n, fr);
    n.usage[size_t(fr)] = addAmount(n.usage[size_t(fr)], v);
    if (n.parent >= 0 && v > local) addUsage(w, n.parent, fr, subAmount(v, local));
}

void removeUsage(World& w, int node, int fr, Amount v) {
    QuotaNode& n = w.nodes[size_t(node)];
    const Amount storedInParent = subAmount(n.usage[size_t(fr)], localQuota(n, fr));
    n.usage[size_t(fr)] = subAmount(n.usage[size_t(fr)], v);
    if (storedInParent <= 0 || n.parent < 0) return;
    removeUsage(w, n.parent, fr, std::min(v, storedInParent));
}

void addUsage(World& w, int cq, const Usage& u) {
    for (const auto& [fr, v] : u) addUsage(w, w.cqs[size_t(cq)].node, fr, v);
}

void removeUsage(World& w, int cq, const Usage& u) {
    for (const auto& [fr, v] : u) removeUsage(w, w.cqs[size_t(cq)].node, fr, v);
}

bool fits(const World& w, int cq, const Usage& u) {
    for (const auto& [fr, v] : u)
        if (std::max<Amount>(0, available(w, w.cqs[size_t(cq)].node, fr)) < v) return false;
    return true;
}

bool borrowingWith(const QuotaNode& n, int fr, Amount v) {
    const Amount quota = n.clusterQueue ? n.nominal[size_t(fr)] : n.subtree[size_t(fr)];
    return quota < addAmount(n.usage[size_t(fr)], v);
}

bool withinNominal(const QuotaNode& n, const std::vector<int>& frs) {
    for (int fr : frs)
        if (n.subtree[size_t(fr)] < n.usage[size_t(fr)]) return false;
    return true;
}

namespace {

int nodeHeight(const World& w, int cohort) {
    const QuotaNode& n = w.nodes[size_t(cohort)];
    int h = std::min<int>(int(n.childCqs.size() + n.childCohorts.size()), 1);
    for (int c : n.childCohorts) h = std::max(h, nodeHeight(w, c) + 1);
    return h;
}

} // namespace

std::pair<int, bool> lowestSubtreeThatFits(const World& w, int cq, int fr, Amount v) {
    const int node = w.cqs[size_t(cq)].node;
    const QuotaNode& n = w.nodes[size_t(node)];
    if (!borrowingWith(n, fr, v) || n.parent < 0) return {0, n.parent >= 0};
    Amount remaining = subAmount(v, localAvailable(n, fr));
    for (int t = n.parent; t >= 0; t = w.nodes[size_t(t)].parent) {
        const QuotaNode& tn = w.nodes[size_t(t)];
        if (!borrowingWith(tn, fr, remaining)) return {nodeHeight(w, t), tn.parent >= 0};
        remaining = subAmount(remaining, localAvailable(tn, fr));
    }
    return {nodeHeight(w, w.root(node)), false};
}

double Drs::weighted() const {
    if (zero()) return 0.0;
    if (weight == 0) return INFINITY;
    return ratio / weight;
}

bool Drs::borrowingOn(const Usage& requested) const {
    for (int fr : borrowed)
        for (const auto& [rfr, v] : requested)
            if (rfr == fr && v > 0) return true;
    return false;
}

Drs negativeDrs() {
    Drs d;
    d.ratio = -1;
    return d;
}

int compareDrs(const Drs& a, const Drs& b) {
    auto cmp = [](double x, double y) { return x < y ? -1 : x > y ? 1 : 0; };
    if (a.zeroWeightBorrows() && b.zeroWeightBorrows()) return cmp(a.ratio, b.ratio);
    if (a.zeroWeightBorrows()) return 1;
    if (b.zeroWeightBorrows()) return -1;
    return cmp(a.weighted(), b.weighted());
}

Drs dominantShare(const World& w, int node) {
    const QuotaNode& n = w.nodes[size_t(node)];
    Drs d;
    d.weight = n.weight;
    if (n.parent < 0) return d;
    std::map<int, Amount> borrowing; // resource -> borrowed amount
    for (size_t fr = 0; fr < n.subtree.size(); ++fr) {
        const Amount b = subAmount(n.usage[fr], n.subtree[fr]);
        if (b > 0) {
            borrowing[w.resourceOf(int(fr))] = addAmount(borrowing[w.resourceOf(int(fr))], b);
            d.borrowed.push_back(int(fr));
        }
    }
    if (borrowing.empty()) return d;
    d.borrowing = true;
    // What the whole tree could lend the node, per resource.
    std::vector<Amount> lendable(size_t(w.R()), 0);
    for (size_t fr = 0; fr < n.subtree.size(); ++fr) {
        const int r = w.resourceOf(int(fr));
        if (borrowing.count(r))
            lendable[size_t(r)] = addAmount(lendable[size_t(r)], potentialAvailable(w, n.parent, int(fr)));
    }
    for (const auto& [r, b] : borrowing) {
        const Amount lr = lendable[size_t(r)];
        if (lr <= 0) continue;
        const double ratio = double(b) * 1000.0 / double(lr);
        const std::string& name = w.resources[size_t(r)];
        if (ratio > d.ratio || (ratio == d.ratio && name < d.dominant)) {
            d.ratio = ratio;
            d.dominant = name;
        }
    }
    return d;
}

} // namespace gantry::engine::kueue
