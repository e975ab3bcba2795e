#include "model/layout_hypernodes.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

namespace gantry {

std::vector<HyperNode> hyperNodesFromLabels(const std::vector<Node>& nodes,
                                            const std::vector<TopologyLevel>& given) {
    std::vector<HyperNode> out;
    std::vector<std::pair<std::string, std::string>> levels; // bottom-up (level name, label)
    for (const char* level : {"nvlink", "rack", "block", "zone"})
        for (const auto& l : given)
            if (l.name == level) levels.emplace_back(l.name, l.nodeLabel);
    auto hnName = [](const std::string& level, const std::string& value) {
        return level == "zone" ? "zone-" + value : value;
    };
    std::map<std::string, size_t> index;
    for (size_t t = 0; t < levels.size(); ++t) {
        const auto& [level, label] = levels[t];
        for (const auto& node : nodes) {
            auto it = node.labels.find(label);
            if (it == node.labels.end()) continue;
            std::string name = hnName(level, it->second);
            auto [pos, inserted] = index.try_emplace(name, out.size());
            if (inserted) {
                HyperNode h;
                h.name = name;
                h.tier = int32_t(t + 1);
                h.tierName = level;
                h.source = node.source;
                if (t == 0) {
                    HyperNodeMember m;
                    m.type = HyperNodeMember::Type::Node;
                    m.match = HyperNodeMember::Match::Label;
                    m.selector.matchLabels[label] = it->second;
                    h.members.push_back(m);
                }
                out.push_back(std::move(h));
            }
            if (t == 0) continue;
            // Member: the node's HyperNode at the nearest lower level the node carries; a node with no
            // lower level (an H100 rack next to NVL72 racks) is a member itself, by this level's label.
            auto& members = out[pos->second].members;
            HyperNodeMember member{HyperNodeMember::Type::Node, HyperNodeMember::Match::Label, "", {}};
            member.selector.matchLabels[label] = it->second;
            for (size_t lower = t; lower-- > 0;) {
                auto below = node.labels.find(levels[lower].second);
                if (below == node.labels.end()) continue;
                member = HyperNodeMember{HyperNodeMember::Type::HyperNode,
                                         HyperNodeMember::Match::Exact,
                                         hnName(levels[lower].first, below->second),
                                         {}};
                break;
            }
            if (std::find(members.begin(), members.end(), member) == members.end()) members.push_back(member);
        }
    }
    return out;
}

} // namespace gantry
