#include "plan/node_change.h"

#include "model/layout_hypernodes.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <stdexcept>
#include <unordered_set>

namespace gantry::plan {

namespace {

constexpr const char* kHostname = "kubernetes.io/hostname";

std::vector<TopologyLevel> effectiveLevels(const Cluster& c) {
    return c.topologyLevels.empty() ? defaultTopologyLevels() : c.topologyLevels;
}

// Zones are where the provider's capacity is; a plan spreads over the pool's zones, never adds one.
bool isZoneLevel(const TopologyLevel& level) {
    return level.name == "zone" || level.nodeLabel == "topology.kubernetes.io/zone";
}

bool belongs(const Node& n, const NodeType& type) {
    return !type.templateNode && nodePoolOf(n) == type.name;
}

// "us-east-1a-rack-07" -> ("us-east-1a-rack-", 7, width 2); no trailing digits -> (text + "-", none).
struct NumberedName {
    std::string stem;
    std::optional<int64_t> number;
    int width = 0;
};
NumberedName splitNumber(const std::string& s) {
    size_t end = s.size();
    while (end > 0 && std::isdigit(static_cast<unsigned char>(s[end - 1]))) --end;
    if (end == s.size() || s.size() - end > 15) return {s + "-", std::nullopt, 0};
    return {s.substr(0, end), int64_t(std::stoll(s.substr(end))), int(s.size() - end)};
}

std::string padded(int64_t n, int width) {
    std::string s = std::to_string(n);
    return std::string(size_t(std::max(0, width - int(s.size()))), '0') + s;
}

// The next name in the model's series that no existing name has: one past the highest number with
// the same stem, at the model's width.
std::string nextInSeries(const std::string& model, const std::unordered_set<std::string>& used) {
    const NumberedName m = splitNumber(model);
    int64_t highest = 0;
    for (const auto& u : used) {
        if (u.size() <= m.stem.size() || u.compare(0, m.stem.size(), m.stem) != 0) continue;
        const std::string tail = u.substr(m.stem.size());
        if (tail.size() > 15 || !std::all_of(tail.begin(), tail.end(), [](char c) {
                return std::isdigit(static_cast<unsigned char>(c));
            }))
            continue;
        highest = std::max<int64_t>(highest, std::stoll(tail));
    }
    if (m.number) highest = std::max(highest, *m.number);
    for (int64_t n = highest + 1;; ++n) {
        std::string candidate = m.stem + padded(n, m.width);
        if (!used.count(candidate)) return candidate;
    }
}

// The pool's nodes as a tree over the topology levels it uses: root > zone > block > rack > nvlink
// > nodes. Each level's groups hold at most as many children (or, at the lowest level, nodes) as the
// fullest group of that level in the pool.
class Layout {
  public:
    Layout(const Cluster& cluster, const std::vector<size_t>& poolNodes) {
        for (const auto& level : effectiveLevels(cluster)) {
            const bool used = std::any_of(poolNodes.begin(), poolNodes.end(), [&](size_t i) {
                return cluster.nodes[i].labels.count(level.nodeLabel) > 0;
            });
            if (used) levels_.push_back(level);
        }
        values_.resize(levels_.size());
        for (const auto& n : cluster.nodes)
            for (size_t l = 0; l < levels_.size(); ++l)
                if (auto it = n.labels.find(levels_[l].nodeLabel); it != n.labels.end())
                    values_[l].insert(it->second);
        groups_.push_back({});
        for (size_t i : poolNodes) insert(cluster.nodes[i]);
        capacity_.assign(levels_.size(), 0);
        for (size_t g = 1; g < groups_.size(); ++g) {
            const Group& x = groups_[g];
            const bool lowest = size_t(x.level) + 1 == levels_.size();
            capacity_[size_t(x.level)] =
                std::max(capacity_[size_t(x.level)], lowest ? x.direct : int64_t(x.children.size()));
        }
    }

    const std::vector<TopologyLevel>& levels() const { return levels_; }

    // Places one more node; returns its value at each level ("" = the label is not set).
    std::vector<std::string> place() {
        std::vector<std::string> path;
        size_t g = 0;
        for (size_t l = 0; l < levels_.size(); ++l) {
            g = chooseChild(g, l);
            path.push_back(groups_[g].value);
        }
        for (size_t x = g; x != npos; x = groups_[x].parent) ++groups_[x].nodes;
        ++groups_[g].direct;
        return path;
    }

    // Takes one node out of the layout's counts.
    void remove(const Node& n) {
        size_t g = 0;
        for (size_t l = 0; l < levels_.size(); ++l) g = find(g, valueOf(n, l));
        if (g == npos) return;
        for (size_t x = g; x != npos; x = groups_[x].parent) --groups_[x].nodes;
        --groups_[g].direct;
    }

    // The value of the top level where nodes should leave from: the group with the most nodes (the
    // last on ties); "" when the pool has no levels.
    std::string fullestTop() const {
        if (levels_.empty()) return {};
        size_t best = npos;
        for (size_t c : groups_[0].children)
            if (best == npos || groups_[c].nodes >= groups_[best].nodes) best = c;
        return best == npos ? std::string() : groups_[best].value;
    }

    std::string topValueOf(const Node& n) const { return levels_.empty() ? std::string() : valueOf(n, 0); }

  private:
    static constexpr size_t npos = std::numeric_limits<size_t>::max();
    struct Group {
        std::string value;
        int level = -1;
        size_t parent = npos;
        std::vector<size_t> children; // in order of appearance
        int64_t nodes = 0;            // in the whole subtree
        int64_t direct = 0;           // nodes right in it (lowest level)
    };

    std::string valueOf(const Node& n, size_t level) const {
        auto it = n.labels.find(levels_[level].nodeLabel);
        return it == n.labels.end() ? std::string() : it->second;
    }

    size_t find(size_t parent, const std::string& value) const {
        if (parent == npos) return npos;
        for (size_t c : groups_[parent].children)
            if (groups_[c].value == value) return c;
        return npos;
    }

    size_t addGroup(size_t parent, std::string value) {
        Group x;
        x.value = std::move(value);
        x.level = groups_[parent].level + 1;
        x.parent = parent;
        groups_.push_back(std::move(x));
        groups_[parent].children.push_back(groups_.size() - 1);
        if (!groups_.back().value.empty()) values_[size_t(groups_.back().level)].insert(groups_.back().value);
        return groups_.size() - 1;
    }

    void insert(const Node& n) {
        size_t g = 0;
        for (size_t l = 0; l < levels_.size(); ++l) {
            size_t c = find(g, valueOf(n, l));
            g = c == npos ? addGroup(g, valueOf(n, l)) : c;
        }
        for (size_t x = g; x != npos; x = groups_[x].parent) ++groups_[x].nodes;
        ++groups_[g].direct;
    }

    bool creatable(size_t level) const { return !isZoneLevel(levels_[level]); }

    // Whether one more node fits under group g without a new group above g's level.
    bool hasRoom(size_t g) const {
        const Group& x = groups_[g];
        const size_t level = size_t(x.level);
        if (x.value.empty()) return true; // nodes without the label: no size to keep
        if (level + 1 == levels_.size()) return x.direct < capacity_[level];
        if (!creatable(level + 1)) return true;
        if (!x.children.empty() && hasRoom(x.children.back())) return true;
        return !creatable(level) || int64_t(x.children.size()) < capacity_[level];
    }

    // The group at `level` under `parent` the next node goes to, made when needed.
    size_t chooseChild(size_t parent, size_t level) {
        const auto& kids = groups_[parent].children;
        if (!creatable(level) && !kids.empty()) {
            size_t best = kids.front();
            for (size_t c : kids)
                if (groups_[c].nodes < groups_[best].nodes) best = c;
            return best;
        }
        if (!kids.empty() && hasRoom(kids.back())) return kids.back();
        return addGroup(parent, newValue(parent, level));
    }

    // A new group's name continues the series of the nearest group of that level: under the same
    // parent, else under the nearest ancestor, else anywhere in the pool.
    std::string newValue(size_t parent, size_t level) {
        for (size_t a = parent; a != npos; a = groups_[a].parent) {
            std::string model = lastAtLevel(a, level);
            if (!model.empty()) return nextInSeries(model, values_[level]);
        }
        return nextInSeries(levels_[level].name, values_[level]);
    }

    std::string lastAtLevel(size_t g, size_t level) const {
        const Group& x = groups_[g];
        if (x.level == int(level)) return x.value;
        for (auto it = x.children.rbegin(); it != x.children.rend(); ++it) {
            std::string v = lastAtLevel(*it, level);
            if (!v.empty()) return v;
        }
        return {};
    }

    std::vector<TopologyLevel> levels_;
    std::vector<std::unordered_set<std::string>> values_; // per level: every value in the cluster
    std::vector<Group> groups_;                           // [0] is the root
    std::vector<int64_t> capacity_;                       // per level
};

std::vector<TopologyLevel> labelledLevels(const Cluster& c) {
    std::vector<TopologyLevel> out;
    for (const auto& level : effectiveLevels(c))
        if (std::any_of(c.nodes.begin(), c.nodes.end(),
                        [&](const Node& n) { return n.labels.count(level.nodeLabel) > 0; }))
            out.push_back(level);
    return out;
}

// Whether the cluster's HyperNodes are exactly those its topology labels make.
bool hyperNodesFollowLabels(const Cluster& c) {
    return !c.hyperNodes.empty() && hyperNodesFromLabels(c.nodes, labelledLevels(c)) == c.hyperNodes;
}

bool selectedByTierOne(const Cluster& c, const Node& n) {
    for (const auto& h : c.hyperNodes) {
        if (h.tier != 1) continue;
        for (const auto& m : h.members) {
            if (m.type != HyperNodeMember::Type::Node) continue;
            if (m.match == HyperNodeMember::Match::Exact && m.value == n.name) return true;
            if (m.match == HyperNodeMember::Match::Label && matches(m.selector, n.labels)) return true;
            if (m.match == HyperNodeMember::Match::Regex) {
                try {
                    if (std::regex_search(n.name, std::regex(m.value))) return true;
                } catch (const std::regex_error&) {
                }
            }
        }
    }
    return false;
}

std::set<std::string> nodesWithPods(const Cluster& c) {
    std::set<std::string> out;
    for (const auto& p : c.pods)
        if (!p.nodeName.empty()) out.insert(p.nodeName);
    return out;
}

} // namespace

std::string nodePoolOf(const Node& node) {
    if (!node.pool.empty()) return node.pool;
    for (const char* key : {"gantry.io/pool", "karpenter.sh/nodepool", "cloud.google.com/gke-nodepool",
                            "eks.amazonaws.com/nodegroup", "kubernetes.azure.com/agentpool", "agentpool",
                            "node.kubernetes.io/instance-type", "beta.kubernetes.io/instance-type"}) {
        auto it = node.labels.find(key);
        if (it != node.labels.end() && !it->second.empty()) return it->second;
    }
    return {};
}

std::vector<PoolSummary> nodePools(const Cluster& cluster) {
    std::vector<PoolSummary> out;
    std::map<std::string, size_t> index;
    const auto busy = nodesWithPods(cluster);
    for (const auto& n : cluster.nodes) {
        std::string pool = nodePoolOf(n);
        if (pool.empty()) continue;
        auto [it, inserted] = index.try_emplace(pool, out.size());
        if (inserted) out.push_back({pool, 0, 0, n.gpus.physicalGpus(), n.gpus.model});
        PoolSummary& s = out[it->second];
        ++s.nodes;
        if (!busy.count(n.name)) ++s.removable;
    }
    return out;
}

PoolSummary summaryOf(const Cluster& cluster, const NodeType& type) {
    if (type.templateNode)
        return {type.name, 0, 0, type.templateNode->gpus.physicalGpus(), type.templateNode->gpus.model};
    for (auto& p : nodePools(cluster))
        if (p.name == type.name) return p;
    return {type.name, 0, 0, 0, {}};
}

NodeChange changeNodes(Cluster& cluster, const NodeType& type, int64_t delta) {
    NodeChange change;
    if (delta == 0) return change;
    std::vector<size_t> poolNodes;
    for (size_t i = 0; i < cluster.nodes.size(); ++i)
        if (belongs(cluster.nodes[i], type)) poolNodes.push_back(i);
    if (!type.templateNode && poolNodes.empty()) {
        std::string known;
        for (const auto& p : nodePools(cluster)) known.append(known.empty() ? "" : ", ").append(p.name);
        throw std::invalid_argument(
            "the cluster has no node pool '" + type.name + "'" +
            (known.empty() ? std::string(" (its nodes name no pool)") : " (pools: " + known + ")"));
    }
    const bool rebuildHyperNodes = hyperNodesFollowLabels(cluster);

    if (delta < 0) {
        if (type.templateNode)
            throw std::invalid_argument("nodes of a template can only be added (give a range of 0 or more)");
        const auto busy = nodesWithPods(cluster);
        std::vector<size_t> candidates;
        for (size_t i : poolNodes)
            if (!busy.count(cluster.nodes[i].name)) candidates.push_back(i);
        if (int64_t(candidates.size()) < -delta)
            throw std::invalid_argument("pool '" + type.name + "' has " + std::to_string(poolNodes.size()) +
                                        " nodes, " + std::to_string(candidates.size()) +
                                        " of them without pods: cannot remove " + std::to_string(-delta));
        Layout layout(cluster, poolNodes);
        std::vector<bool> drop(cluster.nodes.size(), false);
        for (int64_t k = 0; k < -delta; ++k) {
            // The last free node of the zone (top level) with the most nodes; any zone when that one
            // has no free node left.
            const std::string top = layout.fullestTop();
            size_t pick = cluster.nodes.size();
            for (auto it = candidates.rbegin(); it != candidates.rend(); ++it)
                if (!drop[*it] && layout.topValueOf(cluster.nodes[*it]) == top) {
                    pick = *it;
                    break;
                }
            if (pick == cluster.nodes.size())
                for (auto it = candidates.rbegin(); it != candidates.rend(); ++it)
                    if (!drop[*it]) {
                        pick = *it;
                        break;
                    }
            drop[pick] = true;
            layout.remove(cluster.nodes[pick]);
        }
        std::set<std::string> gone;
        std::vector<Node> kept;
        kept.reserve(cluster.nodes.size());
        for (size_t i = 0; i < cluster.nodes.size(); ++i) {
            if (drop[i]) {
                change.removed.push_back(cluster.nodes[i].name);
                gone.insert(cluster.nodes[i].name);
            } else {
                kept.push_back(std::move(cluster.nodes[i]));
            }
        }
        cluster.nodes = std::move(kept);
        if (rebuildHyperNodes) {
            cluster.hyperNodes = hyperNodesFromLabels(cluster.nodes, labelledLevels(cluster));
        } else {
            for (auto& h : cluster.hyperNodes)
                h.members.erase(std::remove_if(h.members.begin(), h.members.end(),
                                               [&](const HyperNodeMember& m) {
                                                   return m.type == HyperNodeMember::Type::Node &&
                                                          m.match == HyperNodeMember::Match::Exact &&
                                                          gone.count(m.value);
                                               }),
                                h.members.end());
        }
        return change;
    }

    const Node model = type.templateNode ? *type.templateNode : cluster.nodes[poolNodes.back()];
    std::unordered_set<std::string> names;
    for (const auto& n : cluster.nodes) names.insert(n.name);
    std::optional<Layout> layout;
    if (!type.templateNode) layout.emplace(cluster, poolNodes);
    const bool hostnameIsName = [&] {
        auto it = model.labels.find(kHostname);
        return it == model.labels.end() || it->second == model.name;
    }();
    cluster.nodes.reserve(cluster.nodes.size() + size_t(delta));
    for (int64_t k = 0; k < delta; ++k) {
        Node n = model;
        n.name = nextInSeries(model.name, names);
        names.insert(n.name);
        if (hostnameIsName) n.labels[kHostname] = n.name;
        if (layout) {
            const auto path = layout->place();
            for (size_t l = 0; l < path.size(); ++l) {
                const std::string& label = layout->levels()[l].nodeLabel;
                if (path[l].empty())
                    n.labels.erase(label);
                else
                    n.labels[label] = path[l];
            }
        }
        change.added.push_back(n.name);
        cluster.nodes.push_back(std::move(n));
    }
    if (rebuildHyperNodes) {
        cluster.hyperNodes = hyperNodesFromLabels(cluster.nodes, labelledLevels(cluster));
    } else if (!cluster.hyperNodes.empty()) {
        int64_t outside = 0;
        for (size_t i = cluster.nodes.size() - size_t(delta); i < cluster.nodes.size(); ++i)
            if (!selectedByTierOne(cluster, cluster.nodes[i])) ++outside;
        if (outside > 0)
            change.notes.push_back(std::to_string(outside) + " of the " + std::to_string(delta) +
                                   " added nodes are in no HyperNode: the cluster's HyperNodes were not made "
                                   "from its topology labels, so Gantry cannot extend them");
    }
    return change;
}

} // namespace gantry::plan
