#pragma once
// Network topology: a tree zone > block/spine > rack > node (plus NVLink domains), given either by
// node labels (TopologyLevel) or by Volcano HyperNodes / a Kueue Topology.
#include "model/diagnostic.h"
#include "model/selectors.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gantry {

// One level of the label-defined tree, from the top (zone) down. tier is Volcano's numbering:
// 1 = the level just above nodes.
struct TopologyLevel {
    std::string name;      // "zone", "block", "rack", "nvlink"
    std::string nodeLabel; // e.g. "topology.kubernetes.io/zone"
    bool operator==(const TopologyLevel&) const = default;
};

// Volcano topology.volcano.sh/v1alpha1 HyperNode.
struct HyperNodeMember {
    enum class Type { Node, HyperNode };
    enum class Match { Exact, Regex, Label };
    Type type = Type::Node;
    Match match = Match::Exact;
    std::string value;      // name (Exact) or pattern (Regex)
    LabelSelector selector; // Label match (Node members only)
    bool operator==(const HyperNodeMember&) const = default;
};

struct HyperNode {
    std::string name;
    int32_t tier = 1;
    std::string tierName;
    std::vector<HyperNodeMember> members;
    SourceRef source;
    bool operator==(const HyperNode& o) const {
        return name == o.name && tier == o.tier && tierName == o.tierName && members == o.members;
    }
};

// Kueue kueue.x-k8s.io Topology: ordered node labels, top level first.
struct KueueTopology {
    std::string name;
    std::vector<std::string> levels;
    SourceRef source;
    bool operator==(const KueueTopology& o) const { return name == o.name && levels == o.levels; }
};

} // namespace gantry
