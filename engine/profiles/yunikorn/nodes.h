#pragma once
// The partition's nodes (yunikorn-core objects.Node and the node collection): capacity, what
// YuniKorn allocated, what other schedulers' pods occupy, reservations, and the order the node
// sorting policy gives them (fair: least used first; binpacking: most used first; ties by node
// id), kept sorted as usage changes.
#include "profiles/yunikorn/resource.h"

#include <cstdint>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gantry::engine::yunikorn {

struct Node {
    std::string id;
    int32_t stateNode = -1; // the cluster state's node
    uint32_t rank = 0;      // position in node id order
    Res total, allocated = Res::empty(), occupied = Res::empty(), available;
    bool schedulable = true;
    std::vector<uint32_t> reservations; // asks that reserved it, in order
    double score = 0;
    bool reserved() const { return !reservations.empty(); }
    bool reservedFor(uint32_t ask) const;
};

class NodeCollection {
  public:
    // weights: (dimension, weight); binpacking sorts most used first.
    void setPolicy(bool binpacking, std::vector<std::pair<int, double>> weights);
    bool binpacking() const { return binpacking_; }
    // Adds every node at once (ranks follow the ids).
    void init(std::vector<Node> nodes);
    size_t size() const { return nodes_.size(); }
    Node& operator[](uint32_t n) { return nodes_[n]; }
    const Node& operator[](uint32_t n) const { return nodes_[n]; }
    uint32_t find(const std::string& id) const; // UINT32_MAX when unknown
    // Usage changed: recompute the available resource and the node's place in the order.
    void updated(uint32_t n);
    // Nodes in sort order; f returns false to stop.
    template <class F> void forEach(F f) const {
        for (const auto& [score, rankAndNode] : sorted_)
            if (!f(rankAndNode.second)) return;
    }

  private:
    double scoreOf(const Node& n) const;
    std::vector<Node> nodes_;
    std::unordered_map<std::string, uint32_t> byId_;
    std::set<std::pair<double, std::pair<uint32_t, uint32_t>>> sorted_; // (score, (rank, node))
    bool binpacking_ = false;
    std::vector<std::pair<int, double>> weights_;
};

} // namespace gantry::engine::yunikorn
