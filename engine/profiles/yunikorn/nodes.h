#pragma once
// The partition's nodes (yunikorn-core objects.Node and the node collection): capacity, what
// YuniKorn allocated, what other schedulers' pods occupy, reservations, and the order the node
// sorting policy gives them (fair: least used first; binpacking: most used first; ties by node
// id), kept sorted as usage changes. Scans for an ask visit only the nodes it can fit: runs of
// open nodes in order keep their largest free resources (NodeRuns), so nodes without room are
// passed over run by run instead of node by node; and where no open node fitted a resource, none
// does until some node grows (frees resources or opens), so the scan is not repeated.
#include "profiles/yunikorn/node_runs.h"
#include "profiles/yunikorn/resource.h"

#include <algorithm>
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
    // Its reservations changed (a reserved node is open only to the asks that reserved it).
    void reservationsChanged(uint32_t n);
    // Nodes in sort order; f returns false to stop.
    template <class F> void forEach(F f) const {
        for (const auto& [score, rankAndNode] : sorted_)
            if (!f(rankAndNode.second)) return;
    }
    // Open nodes (schedulable, not reserved) where `res` fits the available resource, in sort order;
    // f returns false to stop, and may change nodes only when it stops. The same nodes forEach gives
    // when filtered so. `key` names the resource (equal keys, equal resources) for the memo of
    // resources no node fits.
    template <class F> void forEachFitting(const Res& res, uint32_t key, F f) const {
        if (key >= nothingFits_.size()) nothingFits_.resize(key + 1, 0);
        if (nothingFits_[key] == grown_) return;
        bool some = false;
        auto visit = [&](uint32_t n) {
            some = true;
            return f(n);
        };
        if (!open_.forEachFitting(res, visit) && !some) nothingFits_[key] = grown_;
    }
    // The open node whose total holds `res` and whose available comes closest to holding it (Resource
    // FitInScore, ties to the first in sort order): the node the core reserves for an ask no node
    // takes. kNoNode when no open node is large enough. `key` as for forEachFitting.
    uint32_t closestFit(const Res& res, uint32_t key) const;
    static constexpr uint32_t kNoNode = UINT32_MAX;
    // Counts the times a node grew (freed resources or opened): between two equal counts, every
    // node kept or lost room and none opened.
    uint64_t growths() const { return grown_; }

  private:
    using Key = NodeRuns::Key;
    static constexpr uint32_t kBlock = 64;
    static bool open(const Node& n) { return n.schedulable && !n.reserved(); }
    Key keyOf(uint32_t n) const { return {nodes_[n].score, {nodes_[n].rank, n}}; }
    // The node's free resources and place in the order, as the open nodes' order reads them.
    void refreshRoom(uint32_t n);
    double scoreOf(const Node& n) const;
    void refreshBlock(uint32_t b);
    // Whether some open node of block b may hold res (by its largest total).
    bool blockMayFit(uint32_t b, const Res& res) const;
    std::vector<Node> nodes_;
    std::unordered_map<std::string, uint32_t> byId_;
    std::set<Key> sorted_;
    // The open nodes alone, in the same order: reserved nodes keep their usage, and with it often
    // the first places of the order, where a scan for an ask would pass them again and again.
    NodeRuns open_;
    bool binpacking_ = false;
    std::vector<std::pair<int, double>> weights_;
    // Per block of kBlock nodes (by index), per resource type below open_.width(): the largest
    // total of its open nodes.
    std::vector<int64_t> blockTotal_;
    // Counts the times a node grew; per resource key, the count at which no open node fitted it.
    uint64_t grown_ = 1;
    mutable std::vector<uint64_t> nothingFits_;
    // Totals never change, so no open node is large enough for a resource until some node opens:
    // counts the times one did; per resource key, the count at which none was large enough.
    uint64_t opened_ = 1;
    mutable std::vector<uint64_t> noneLargeEnough_;
};

} // namespace gantry::engine::yunikorn
