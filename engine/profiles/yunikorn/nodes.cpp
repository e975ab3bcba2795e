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
        sorted_.insert(keyOf(n));
        refreshRoom(n);
    }
}

void NodeCollection::init(std::vector<Node> nodes) {
    nodes_ = std::move(nodes);
    ++grown_;
    ++opened_;
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
    int width = 1;
    for (const Node& node : nodes_) width = std::max(width, 64 - __builtin_clzll(node.total.mask() | 1));
    open_.reset(nodes_.size(), width);
    setPolicy(binpacking_, weights_);
    const size_t blocks = (nodes_.size() + kBlock - 1) / kBlock;
    blockTotal_.assign(blocks * size_t(width), 0);
    for (uint32_t b = 0; b < blocks; ++b) refreshBlock(b);
}

// Types at or above the width are in no node's total, so no available has them above 0.
void NodeCollection::refreshRoom(uint32_t n) {
    int64_t room[kMaxResDims];
    for (int k = 0; k < open_.width(); ++k) room[k] = std::max<int64_t>(0, nodes_[n].available.get(k));
    open_.update(n, keyOf(n), room, open(nodes_[n]));
}

void NodeCollection::refreshBlock(uint32_t b) {
    const int width = open_.width();
    int64_t* total = blockTotal_.data() + size_t(b) * size_t(width);
    std::fill(total, total + width, 0);
    const uint32_t end = std::min<uint32_t>(uint32_t(nodes_.size()), (b + 1) * kBlock);
    for (uint32_t n = b * kBlock; n < end; ++n) {
        if (!open(nodes_[n])) continue;
        for (int k = 0; k < width; ++k) total[k] = std::max(total[k], nodes_[n].total.get(k));
    }
}

bool NodeCollection::blockMayFit(uint32_t b, const Res& res) const {
    const int width = open_.width();
    const int64_t* row = blockTotal_.data() + size_t(b) * size_t(width);
    for (uint64_t m = res.mask(); m; m &= m - 1) {
        const int k = __builtin_ctzll(m);
        const int64_t want = res.get(k);
        if (want > 0 && (k >= width || want > row[k])) return false;
    }
    return true;
}

uint32_t NodeCollection::closestFit(const Res& res, uint32_t key) const {
    if (key >= noneLargeEnough_.size()) noneLargeEnough_.resize(key + 1, 0);
    if (noneLargeEnough_[key] == opened_) return kNoNode;
    uint32_t best = kNoNode;
    double bestScore = 0;
    const uint32_t blocks = uint32_t(blockTotal_.size() / size_t(open_.width()));
    for (uint32_t b = 0; b < blocks; ++b) {
        if (!blockMayFit(b, res)) continue;
        const uint32_t end = std::min<uint32_t>(uint32_t(nodes_.size()), (b + 1) * kBlock);
        for (uint32_t n = b * kBlock; n < end; ++n) {
            const Node& node = nodes_[n];
            if (!open(node) || !node.total.fitIn(res)) continue;
            const double score = res.fitInScore(node.available);
            if (best == kNoNode || score < bestScore || (score == bestScore && keyOf(n) < keyOf(best))) {
                best = n;
                bestScore = score;
            }
        }
    }
    if (best == kNoNode) noneLargeEnough_[key] = opened_;
    return best;
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

void NodeCollection::reservationsChanged(uint32_t n) {
    if (!nodes_[n].reserved()) {
        ++grown_;
        ++opened_;
    }
    refreshRoom(n);
    refreshBlock(n / kBlock);
}

void NodeCollection::updated(uint32_t n) {
    Node& node = nodes_[n];
    const Res before = node.available;
    node.available = node.total;
    node.available.subFrom(node.allocated);
    node.available.subFrom(node.occupied);
    node.available.prune();
    for (uint64_t m = node.available.mask(); m; m &= m - 1) {
        const int k = __builtin_ctzll(m);
        if (node.available.get(k) > before.get(k)) {
            ++grown_;
            break;
        }
    }
    const double score = scoreOf(node);
    if (score != node.score) {
        sorted_.erase(keyOf(n));
        node.score = score;
        sorted_.insert(keyOf(n));
    }
    refreshRoom(n);
}

} // namespace gantry::engine::yunikorn
