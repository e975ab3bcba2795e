#pragma once
// Quota arithmetic over the tree of ClusterQueues and cohorts, as Kueue's resource nodes do it:
// a node's subtree quota is its own nominal quota plus what its children lend (nominal minus the
// lending limit stays local); usage beyond a child's local quota is stored in its parent; what a
// ClusterQueue may still take is bounded by its borrowing limit on the way up.
#include "profiles/kueue/world.h"

#include <string>
#include <utility>
#include <vector>

namespace gantry::engine::kueue {

// Recomputes every subtree quota and every cohort's usage from the ClusterQueues' usage.
void rebuildTree(World& w);

// Capacity only this node's subtree sees (lending limit), and what of it is unused.
Amount localQuota(const QuotaNode& n, int fr);
Amount localAvailable(const QuotaNode& n, int fr);
// What the node can still take now (negative when over-admitted), and at most with no usage.
Amount available(const World& w, int node, int fr);
Amount potentialAvailable(const World& w, int node, int fr);
// Usage added or removed at a ClusterQueue, carried up to the cohorts past local quota.
void addUsage(World& w, int node, int fr, Amount v);
void removeUsage(World& w, int node, int fr, Amount v);

// A workload's quota usage: (flavor-resource, amount) pairs.
using Usage = std::vector<std::pair<int, Amount>>;
void addUsage(World& w, int cq, const Usage& u);
void removeUsage(World& w, int cq, const Usage& u);

// Whether the usage fits what the ClusterQueue can take now.
bool fits(const World& w, int cq, const Usage& u);
bool borrowingWith(const QuotaNode& n, int fr, Amount v); // usage + v above nominal (subtree for cohorts)
bool withinNominal(const QuotaNode& n, const std::vector<int>& frs);

// Height of the lowest subtree that can hold v more of fr (0: the ClusterQueue itself), and whether
// that subtree is smaller than the whole tree (a reclaim may then be possible).
std::pair<int, bool> lowestSubtreeThatFits(const World& w, int cq, int fr, Amount v);

// Dominant resource share of a node: how much it borrows past its subtree quota, per resource,
// against what the cohort tree could lend it, weighted.
struct Drs {
    double weight = 1;
    double ratio = 0; // unweighted, 0..1000 per mille
    std::string dominant;
    bool borrowing = false;
    std::vector<int> borrowed; // flavor-resources borrowed
    bool zero() const { return ratio == 0; }
    double weighted() const;
    bool zeroWeightBorrows() const { return weight == 0 && !zero(); }
    bool borrowingOn(const Usage& requested) const;
};
Drs dominantShare(const World& w, int node);
Drs negativeDrs();
int compareDrs(const Drs& a, const Drs& b); // -1: a preferred for admission (lower)

} // namespace gantry::engine::kueue
