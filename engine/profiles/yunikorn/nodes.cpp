#include "profiles/yunikorn/nodes.h"

#include <algorithm>
#include <cmath>

namespace gantry::engine::yunikorn {

bool Node::reservedFor(uint32_t ask) const {
    return std::find(reservations.begin(), reservations.end(), ask) != reservations.end();
}

void NodeCollection::setPolicy(bool binpacking, std::vector<std::pair<int, double>> weights) {
    binpacking_ = binpacking;
    weights_ = std::move(weights);
    sorted_.clear();
    for (uint32_t n = 0; n < nodes_.size(); ++n) {
        nodes_[n].score = scoreOf(nodes_[n]);
        sorted_.insert({nodes_[n].score, {nodes_[n].rank, n}});
    }
}

void NodeCollection::init(std::vector<Node> nodes) {
    nodes_ = std::move(nodes);
    std::vector<uint32_t> order(nodes_.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](uint32_t a, uint32_t b) { return nodes_[a].id < nodes_[b].id; });
    for (uint32_t r = 0; r < order.size(); ++r) nodes_[order[r]].rank = r;
    byId_.clear();
    for (uint32_t n = 0; n < nodes_.size(); ++n) {
        byId_.emplace(nodes_[n].id, n);
        auto& node = nodes_[n];
        node.available = node.total;
        node.available.subFrom(node.allocated);
        node.available.subFrom(node.occupied);
        node.available.prune();
    }
    setPolicy(binpacking_, weights_);
}

uint32_t NodeCollection::find(const std::string& id) const {
    auto it = byId_.find(id);
    return it == byId_.end() ? UINT32_MAX : it->second;
}

// absResourceUsage: the weighted mean of the used share of each weighted type the node has.
double NodeCollection::scoreOf(const Node& n) const {
    double usage = 0, totalWeight = 0;
    for (const auto& [dim, weight] : weights_) {
        if (weight == 0 || !n.total.has(dim)) continue;
        const double share = 1.0 - double(n.available.get(dim)) / double(n.total.get(dim));
        if (std::isnan(share)) continue;
        usage += share * weight;
        totalWeight += weight;
    }
    const double used = totalWeight == 0 ? 0.0 : usage / totalWeight;
    return binpacking_ ? 1.0 - used : used;
}

void NodeCollection::updated(uint32_t n) {
    Node& node = nodes_[n];
    node.available = node.total;
    node.available.subFrom(node.allocated);
    node.available.subFrom(node.occupied);
    node.available.prune();
    const double score = scoreOf(node);
    if (score == node.score) return;
    sorted_.erase({node.score, {node.rank, n}});
    node.score = score;
    sorted_.insert({node.score, {node.rank, n}});
}

} // namespace gantry::engine::yunikorn
