#include "core/topology_paths.h"

#include "gpumap/gpu_occupancy.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace gantry::studio {

std::vector<TopologyLevel> effectiveLevels(const Cluster& cluster) {
    return cluster.topologyLevels.empty() ? defaultTopologyLevels() : cluster.topologyLevels;
}

std::vector<std::string> nodePath(const Node& node, const std::vector<TopologyLevel>& levels) {
    std::vector<std::string> out;
    out.reserve(levels.size());
    for (const auto& level : levels) {
        auto it = node.labels.find(level.nodeLabel);
        out.push_back(it == node.labels.end() ? std::string() : it->second);
    }
    return out;
}

std::string nodePool(const Node& node) {
    if (!node.pool.empty()) return node.pool;
    for (const char* key : {"karpenter.sh/nodepool", "cloud.google.com/gke-nodepool",
                            "eks.amazonaws.com/nodegroup", "kubernetes.azure.com/agentpool", "agentpool",
                            "node.kubernetes.io/instance-type", "beta.kubernetes.io/instance-type"}) {
        auto it = node.labels.find(key);
        if (it != node.labels.end() && !it->second.empty()) return it->second;
    }
    return {};
}

std::string topologyDescription(const Cluster& cluster, const Node& node) {
    auto levels = effectiveLevels(cluster);
    auto path = nodePath(node, levels);
    std::string out;
    for (size_t i = 0; i < levels.size(); ++i) {
        if (path[i].empty()) continue;
        if (!out.empty()) out += " \u203a ";
        out += levels[i].name + " " + path[i];
    }
    std::string pool = nodePool(node);
    if (!pool.empty()) out += (out.empty() ? "pool " : " · pool ") + pool;
    return out;
}

bool naturalLess(const std::string& a, const std::string& b) {
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (std::isdigit(static_cast<unsigned char>(a[i])) &&
            std::isdigit(static_cast<unsigned char>(b[j]))) {
            size_t i2 = i, j2 = j;
            while (i2 < a.size() && a[i2] == '0') ++i2;
            while (j2 < b.size() && b[j2] == '0') ++j2;
            size_t ie = i2, je = j2;
            while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
            while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
            if (ie - i2 != je - j2) return ie - i2 < je - j2;
            int c = a.compare(i2, ie - i2, b, j2, je - j2);
            if (c != 0) return c < 0;
            i = ie;
            j = je;
        } else {
            if (a[i] != b[j]) return a[i] < b[j];
            ++i;
            ++j;
        }
    }
    return a.size() - i < b.size() - j;
}

bool naturalLessCaseInsensitive(QStringView a, QStringView b) {
    qsizetype i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        QChar x = a[i], y = b[j];
        if (x.isDigit() && y.isDigit()) {
            qsizetype i2 = i, j2 = j;
            while (i2 < a.size() && a[i2] == u'0') ++i2;
            while (j2 < b.size() && b[j2] == u'0') ++j2;
            qsizetype ie = i2, je = j2;
            while (ie < a.size() && a[ie].isDigit()) ++ie;
            while (je < b.size() && b[je].isDigit()) ++je;
            if (ie - i2 != je - j2) return ie - i2 < je - j2;
            int c = a.mid(i2, ie - i2).compare(b.mid(j2, je - j2));
            if (c != 0) return c < 0;
            i = ie;
            j = je;
        } else {
            QChar lx = x.toLower(), ly = y.toLower();
            if (lx != ly) return lx < ly;
            ++i;
            ++j;
        }
    }
    return a.size() - i < b.size() - j;
}

std::vector<int> usedLevels(const Cluster& cluster, const std::vector<TopologyLevel>& levels) {
    std::vector<int> used;
    for (size_t l = 0; l < levels.size(); ++l)
        for (const auto& n : cluster.nodes)
            if (n.labels.count(levels[l].nodeLabel)) {
                used.push_back(int(l));
                break;
            }
    return used;
}

namespace {
struct PathLess {
    bool operator()(const std::vector<std::string>& a, const std::vector<std::string>& b) const {
        for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
            if (a[i] == b[i]) continue;
            if (a[i].empty() != b[i].empty()) return b[i].empty(); // unlabelled last
            return naturalLess(a[i], b[i]);
        }
        return a.size() < b.size();
    }
};
} // namespace

GpuMapLayout buildGpuMapLayout(const Cluster& cluster) {
    GpuMapLayout layout;
    layout.gpuCount.reserve(cluster.nodes.size());
    for (const auto& n : cluster.nodes) layout.gpuCount.push_back(gpuDeviceCount(n));

    // Which labels make sections and which make groups: with three or more topology levels in use
    // (zone > block > rack ...), sections are zone › block and groups are racks; with two, sections
    // are the top level; with one, that level makes the groups. Deeper levels (NVLink domains inside
    // racks) are in the tooltips. Without topology labels: pools, then GPU models.
    auto levels = effectiveLevels(cluster);
    auto used = usedLevels(cluster, levels);
    std::vector<std::string> sectionKeys, sectionNames;
    std::string groupKey, groupName;
    if (used.size() >= 3) {
        for (int k = 0; k < 2; ++k) {
            sectionKeys.push_back(levels[size_t(used[size_t(k)])].nodeLabel);
            sectionNames.push_back(levels[size_t(used[size_t(k)])].name);
        }
        groupKey = levels[size_t(used[2])].nodeLabel;
        groupName = levels[size_t(used[2])].name;
    } else if (used.size() == 2) {
        sectionKeys = {levels[size_t(used[0])].nodeLabel};
        sectionNames = {levels[size_t(used[0])].name};
        groupKey = levels[size_t(used[1])].nodeLabel;
        groupName = levels[size_t(used[1])].name;
    } else if (used.size() == 1) {
        groupKey = levels[size_t(used[0])].nodeLabel;
        groupName = levels[size_t(used[0])].name;
    }
    auto label = [](const Node& n, const std::string& key) {
        auto it = n.labels.find(key);
        return it == n.labels.end() ? std::string() : it->second;
    };

    std::map<std::vector<std::string>, std::vector<int>, PathLess> byPath;
    for (size_t i = 0; i < cluster.nodes.size(); ++i) {
        const auto& node = cluster.nodes[i];
        std::vector<std::string> key;
        if (!groupKey.empty()) {
            std::string section;
            for (size_t k = 0; k < sectionKeys.size(); ++k) {
                std::string v = label(node, sectionKeys[k]);
                if (!section.empty()) section += " \u203a ";
                section += v.empty() ? "no " + sectionNames[k] : sectionNames[k] + " " + v;
            }
            key = {section, label(node, groupKey)};
        } else {
            std::string pool = nodePool(node);
            key = {pool.empty() ? "no pool" : "pool " + pool, node.gpus.model};
        }
        byPath[key].push_back(int(i));
    }

    std::map<std::string, int> sectionIndex;
    for (auto& [key, nodes] : byPath) {
        // CPU-only groups have nothing to draw; the map's note counts those nodes.
        if (std::none_of(nodes.begin(), nodes.end(), [&](int n) { return layout.gpuCount[size_t(n)] > 0; }))
            continue;
        auto [it, inserted] = sectionIndex.emplace(key.front(), int(layout.sections.size()));
        if (inserted) layout.sections.push_back(QString::fromStdString(key.front()));
        std::string title = key[1];
        if (title.empty()) title = groupKey.empty() ? "unknown model" : "no " + groupName;
        layout.groups.push_back(
            GpuMapLayout::Group{QString::fromStdString(title), it->second, std::move(nodes), 0});
    }
    // Sections appear in the order of their first group (byPath is sorted by section first).
    if (layout.sections.size() == 1 && layout.sections.front().isEmpty())
        layout.sections.front() = QStringLiteral("cluster");
    return layout;
}

TopologyTree buildTopologyTree(const Cluster& cluster) {
    TopologyTree tree;
    auto levels = effectiveLevels(cluster);
    auto used = usedLevels(cluster, levels);
    for (int l : used) tree.levels.push_back(levels[size_t(l)]);
    tree.entries.push_back(TopologyTree::Entry{});
    std::map<std::pair<int, std::string>, int> childIndex; // (parent entry, value) -> entry
    for (const auto& node : cluster.nodes) {
        int gpus = gpuDeviceCount(node);
        tree.entries[0].nodes += 1;
        tree.entries[0].gpus += gpus;
        int at = 0;
        bool complete = true;
        for (size_t k = 0; k < tree.levels.size(); ++k) {
            auto it = node.labels.find(tree.levels[k].nodeLabel);
            if (it == node.labels.end()) {
                complete = false;
                continue; // a missing middle level: hang the node on the deepest level it has
            }
            auto [ci, inserted] =
                childIndex.emplace(std::make_pair(at, it->second), int(tree.entries.size()));
            if (inserted) {
                TopologyTree::Entry e;
                e.name = it->second;
                e.level = int(k);
                e.parent = at;
                tree.entries.push_back(e);
                tree.entries[size_t(at)].children.push_back(ci->second);
            }
            at = ci->second;
            tree.entries[size_t(at)].nodes += 1;
            tree.entries[size_t(at)].gpus += gpus;
        }
        if (!complete) ++tree.unplacedNodes;
    }
    for (auto& e : tree.entries)
        std::sort(e.children.begin(), e.children.end(), [&](int a, int b) {
            return naturalLess(tree.entries[size_t(a)].name, tree.entries[size_t(b)].name);
        });
    return tree;
}

} // namespace gantry::studio
