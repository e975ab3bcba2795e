#pragma once
// Volcano HyperNodes made from the nodes' topology labels: one tier per level, lowest first
// (NVLink domain, rack, block, zone). An inventory with `hyperNodes: true` describes its tree this
// way, and a planner that adds nodes to such a cluster makes the tree again the same way.
#include "model/node.h"
#include "model/topology.h"

#include <vector>

namespace gantry {

// `levels` are the levels to make tiers of (names nvlink, rack, block, zone; others are left out),
// in any order. A tier-1 HyperNode selects its nodes by label; a higher one holds the HyperNodes of
// the nearest lower level its nodes have, or the nodes themselves (by label) when they have none.
// Each HyperNode's source is that of the first node in it.
std::vector<HyperNode> hyperNodesFromLabels(const std::vector<Node>& nodes,
                                            const std::vector<TopologyLevel>& levels);

} // namespace gantry
