#include "profiles/kueue/tas.h"

#include <algorithm>
#include <climits>
#include <functional>

namespace gantry::engine::kueue {

namespace {

constexpr const char* kHostname = "kubernetes.io/hostname";

// Pods of the request that fit the capacity (resources the pod does not ask for are not limiting).
int32_t countIn(const std::vector<int64_t>& request, const std::vector<int64_t>& capacity) {
    int64_t n = INT32_MAX;
    for (size_t d = 0; d < request.size(); ++d) {
        if (request[d] <= 0) continue;
        const int64_t cap = d < capacity.size() ? capacity[d] : 0;
        n = std::min<int64_t>(n, cap <= 0 ? 0 : cap / request[d]);
    }
    return int32_t(n);
}

struct DomainState {
    int32_t podCount = 0;
    int32_t sliceCount = 0;
};

} // namespace

TasIndex::TasIndex(const World& w, const ClusterState& st) : w_(w), st_(st) {
    trees_.resize(w.flavors.size());
    nodeUsed_.assign(st.nodes.size() * size_t(st.D()), 0);
    for (uint32_t n = 0; n < st.nodes.size(); ++n) {
        const int64_t* r = st.nodeRow(st.k8sRequested, n);
        std::copy(r, r + st.D(), nodeUsed_.begin() + ptrdiff_t(size_t(n) * size_t(st.D())));
    }
    for (size_t f = 0; f < w.flavors.size(); ++f) {
        const Flavor& fl = w.flavors[f];
        if (fl.topology < 0) continue;
        FlavorTree& t = trees_[f];
        t.topology = fl.topology;
        t.levels = w.topologies[size_t(fl.topology)].levels;
        t.lowestIsNode = !t.levels.empty() && t.levels.back() == kHostname;
        t.perLevel.resize(t.levels.size());
        std::map<std::vector<std::string>, int> index;
        for (uint32_t id = 0; id < st.nodes.size(); ++id) {
            const uint32_t n = st.nodeByRank[id];
            const NodeRec& node = st.nodes[n];
            if (node.unschedulable) continue;
            bool match = true;
            for (const auto& [k, v] : fl.nodeLabels) {
                auto it = node.labels.find(k);
                if (it == node.labels.end() || it->second != v) match = false;
            }
            std::vector<std::string> values;
            for (const auto& level : t.levels) {
                auto it = node.labels.find(level);
                if (it == node.labels.end()) {
                    match = false;
                    break;
                }
                values.push_back(it->second);
            }
            if (!match) continue;
            int parent = -1;
            std::vector<std::string> path;
            for (size_t l = 0; l < t.levels.size(); ++l) {
                path.push_back(values[l]);
                auto [it, inserted] = index.try_emplace(path, int(t.domains.size()));
                if (inserted) {
                    Domain d;
                    d.values = path;
                    d.parent = parent;
                    t.domains.push_back(d);
                    t.perLevel[l].push_back(it->second);
                    if (parent >= 0) t.domains[size_t(parent)].children.push_back(it->second);
                    if (l + 1 == t.levels.size()) {
                        t.leaves.push_back(it->second);
                        t.leafByValues[path] = it->second;
                        if (t.lowestIsNode) t.leafByValues[{values.back()}] = it->second;
                    }
                }
                parent = it->second;
            }
            Domain& leaf = t.domains[size_t(parent)];
            leaf.nodes.push_back(int(n));
            leaf.node = int(n);
        }
        t.tasUsage.assign(t.domains.size(), std::vector<int64_t>(size_t(st.D()), 0));
    }
}

bool TasIndex::hasLevel(int flavor, const KueueTopologyRequest& r) const {
    const FlavorTree& t = trees_[size_t(flavor)];
    if (t.topology < 0) return false;
    auto has = [&](const std::string& l) {
        return std::find(t.levels.begin(), t.levels.end(), l) != t.levels.end();
    };
    std::string key;
    if (!r.required.empty())
        key = r.required;
    else if (!r.preferred.empty())
        key = r.preferred;
    else if (!r.sliceRequired.empty())
        key = t.levels.front();
    else if (r.unconstrained)
        key = t.levels.back();
    else
        return false;
    if (!has(key)) return false;
    return r.sliceRequired.empty() || has(r.sliceRequired);
}

int TasIndex::leafOf(const FlavorTree& t, const std::vector<std::string>& values) const {
    auto it = t.leafByValues.find(values);
    return it == t.leafByValues.end() ? -1 : it->second;
}

void TasIndex::leafFree(const FlavorTree& t, int leaf, bool simulateEmpty, std::vector<int64_t>& free) const {
    const int D = st_.D();
    free.assign(size_t(D), 0);
    for (int n : t.domains[size_t(leaf)].nodes) {
        const int64_t* a = st_.nodeRow(st_.allocatable, uint32_t(n));
        for (int d = 0; d < D; ++d) free[size_t(d)] += a[d] - nodeUsed_[size_t(n) * size_t(D) + size_t(d)];
    }
    if (!simulateEmpty)
        for (int d = 0; d < D; ++d) free[size_t(d)] -= t.tasUsage[size_t(leaf)][size_t(d)];
}

const std::vector<uint8_t>& TasIndex::eligibleLeaves(const FlavorTree& t, int flavor,
                                                     uint32_t shapeIndex) const {
    auto [it, fresh] = eligible_.try_emplace({flavor, shapeIndex});
    if (!fresh) return it->second;
    const PodShape& shape = st_.shapes[shapeIndex];
    std::vector<Toleration> tolerations = shape.tolerations;
    const auto& flTol = w_.flavors[size_t(flavor)].tolerations;
    tolerations.insert(tolerations.end(), flTol.begin(), flTol.end());
    it->second.assign(t.domains.size(), 1);
    if (!t.lowestIsNode) return it->second;
    for (int leaf : t.leaves) {
        const int n = t.domains[size_t(leaf)].node;
        const NodeRec& node = st_.nodes[size_t(n)];
        if (firstUntoleratedTaint(node.taints, tolerations) ||
            !matchesNodeSelectorAndAffinity(shape.nodeSelector, shape.nodeAffinity, node.labels,
                                            st_.nodeName(uint32_t(n))))
            it->second[size_t(leaf)] = 0;
    }
    return it->second;
}

std::string TasIndex::place(const FlavorTree& t, const TasRequest& r, bool simulateEmpty,
                            const std::map<int, std::vector<int64_t>>& assumed,
                            KueueTopologyAssignment* out) const {
    const PodShape& shape = st_.shapes[r.shape];
    const std::vector<int64_t>& request = shape.request;
    const std::string& topoName = w_.topologies[size_t(t.topology)].name;
    int32_t sliceSize = 1;
    if (!r.topology.sliceRequired.empty()) {
        if (r.topology.sliceSize <= 0) return "slice topology requested, but slice size not provided";
        sliceSize = r.topology.sliceSize;
    }
    const bool required = !r.topology.required.empty();
    const bool sliceOnly =
        r.topology.required.empty() && r.topology.preferred.empty() && !r.topology.sliceRequired.empty();
    const bool unconstrained = r.topology.unconstrained || r.implied || sliceOnly;
    std::string key;
    if (required)
        key = r.topology.required;
    else if (!r.topology.preferred.empty())
        key = r.topology.preferred;
    else if (sliceOnly)
        key = t.levels.front();
    else if (r.topology.unconstrained || r.implied)
        key = t.levels.back();
    else
        return "topology level not specified";
    auto levelIdx = [&](const std::string& k) {
        auto it = std::find(t.levels.begin(), t.levels.end(), k);
        return it == t.levels.end() ? -1 : int(it - t.levels.begin());
    };
    const int requested = levelIdx(key);
    if (requested < 0) return "no requested topology level: " + key;
    const std::string sliceKey =
        r.topology.sliceRequired.empty() ? t.levels.back() : r.topology.sliceRequired;
    const int sliceLevel = levelIdx(sliceKey);
    if (sliceLevel < 0) return "no requested topology level for slices: " + sliceKey;
    if (requested > sliceLevel)
        return "podset slice topology " + sliceKey + " is above the podset topology " + key;
    const bool leastFree = unconstrained; // TASProfileMixed: least free capacity for unconstrained requests

    // Phase 1: pods (and slices) each domain can hold.
    std::vector<DomainState> ds(t.domains.size());
    const std::vector<uint8_t>& eligible = eligibleLeaves(t, r.flavor, r.shape);
    std::vector<int64_t>& free = scratch_;
    for (int leaf : t.leaves) {
        if (!eligible[size_t(leaf)]) continue;
        leafFree(t, leaf, simulateEmpty, free);
        if (auto it = assumed.find(leaf); it != assumed.end())
            for (size_t i = 0; i < free.size(); ++i) free[i] -= it->second[i];
        ds[size_t(leaf)].podCount = countIn(request, free);
    }
    std::function<void(int, int)> roll = [&](int dom, int level) {
        const Domain& d = t.domains[size_t(dom)];
        DomainState& s = ds[size_t(dom)];
        if (d.children.empty()) {
            if (level == sliceLevel) s.sliceCount = s.podCount / sliceSize;
            return;
        }
        int32_t pods = 0, slices = 0;
        for (int c : d.children) {
            roll(c, level + 1);
            pods += ds[size_t(c)].podCount;
            slices += ds[size_t(c)].sliceCount;
        }
        s.podCount = pods;
        s.sliceCount = level == sliceLevel ? pods / sliceSize : slices;
    };
    for (int root : t.perLevel[0]) roll(root, 0);

    auto compareValues = [&](int a, int b) {
        const Domain& x = t.domains[size_t(a)];
        const Domain& y = t.domains[size_t(b)];
        if (t.lowestIsNode && x.parent == y.parent) return x.values.back() < y.values.back();
        return x.values < y.values;
    };
    auto sorted = [&](std::vector<int> domains) {
        std::sort(domains.begin(), domains.end(), [&](int a, int b) {
            const DomainState &x = ds[size_t(a)], &y = ds[size_t(b)];
            if (x.sliceCount != y.sliceCount)
                return leastFree ? x.sliceCount < y.sliceCount : x.sliceCount > y.sliceCount;
            if (x.podCount != y.podCount) return x.podCount < y.podCount;
            return compareValues(a, b);
        });
        return domains;
    };
    auto bestFit = [&](const std::vector<int>& domains, size_t from, int32_t needed, bool slices) {
        int best = domains[from];
        int32_t bestCount = INT32_MAX;
        bool found = false;
        for (size_t i = from; i < domains.size(); ++i) {
            const int32_t c = slices ? ds[size_t(domains[i])].sliceCount : ds[size_t(domains[i])].podCount;
            if (c >= needed && c < bestCount) {
                best = domains[i];
                bestCount = c;
                found = true;
            }
        }
        return found ? best : domains[from];
    };
    const int32_t count = r.count;
    const int32_t slicesNeeded = count / sliceSize;
    auto notFit = [&](int32_t fit, int32_t total) {
        const char* unit = sliceSize == 1 ? "pod" : "slice";
        if (fit == 0)
            return "topology \"" + topoName + "\" doesn't allow to fit any of " + std::to_string(total) +
                   " " + unit + "(s)";
        return "topology \"" + topoName + "\" allows to fit only " + std::to_string(fit) + " out of " +
               std::to_string(total) + " " + unit + "(s)";
    };

    // Phase 2a: the level and the domains that take every pod.
    std::vector<int> fit;
    int fitLevel = requested;
    std::string failure;
    std::function<bool(int)> findLevel = [&](int level) -> bool {
        if (t.perLevel[size_t(level)].empty()) {
            failure = "no topology domains at level: " + t.levels[size_t(level)];
            return false;
        }
        std::vector<int> s = sorted(t.perLevel[size_t(level)]);
        int top = s[0];
        if (!leastFree && ds[size_t(top)].sliceCount >= slicesNeeded) top = bestFit(s, 0, slicesNeeded, true);
        if (leastFree) {
            for (int c : s)
                if (ds[size_t(c)].sliceCount >= slicesNeeded) {
                    fit = {c};
                    fitLevel = level;
                    return true;
                }
            if (required) {
                failure = notFit(ds[size_t(s.back())].podCount, slicesNeeded);
                return false;
            }
        }
        if (ds[size_t(top)].sliceCount < slicesNeeded) {
            if (required) {
                failure = notFit(ds[size_t(top)].sliceCount, slicesNeeded);
                return false;
            }
            if (level > 0 && !unconstrained) return findLevel(level - 1);
            int32_t remaining = slicesNeeded;
            for (size_t i = 0; remaining > 0 && i < s.size(); ++i) {
                int d = s[i];
                if (!leastFree && ds[size_t(d)].sliceCount >= remaining) d = bestFit(s, i, remaining, true);
                fit.push_back(d);
                remaining -= ds[size_t(d)].sliceCount;
            }
            if (remaining > 0) {
                failure = notFit(slicesNeeded - remaining, slicesNeeded);
                return false;
            }
            fitLevel = level;
            return true;
        }
        fit = {top};
        fitLevel = level;
        return true;
    };
    if (!findLevel(requested)) return failure;

    // Phase 2b: down the tree, as few domains as possible at each level.
    auto minimize = [&](std::vector<int> domains, int32_t total, int32_t size, bool slices) {
        std::vector<int> result;
        int32_t remaining = slices ? total / size : total;
        for (size_t i = 0; i < domains.size(); ++i) {
            int d = domains[i];
            DomainState* s = &ds[size_t(d)];
            const int32_t have = slices ? s->sliceCount : s->podCount;
            if (!leastFree && have >= remaining) {
                d = bestFit(domains, i, remaining, slices);
                s = &ds[size_t(d)];
            }
            const int32_t got = slices ? s->sliceCount : s->podCount;
            if (got >= remaining) {
                if (slices) {
                    s->podCount = remaining * size;
                    s->sliceCount = remaining;
                } else {
                    s->podCount = remaining;
                }
                result.push_back(d);
                return result;
            }
            if (slices) s->podCount = s->sliceCount * size;
            remaining -= got;
            result.push_back(d);
        }
        return result;
    };
    fit = minimize(fit, count, sliceSize, true);
    int level = fitLevel;
    const int last = int(t.levels.size()) - 1;
    for (; level < std::min(last, sliceLevel); ++level) {
        std::vector<int> lower;
        for (int d : fit)
            for (int c : t.domains[size_t(d)].children) lower.push_back(c);
        fit = minimize(sorted(lower), count, sliceSize, true);
    }
    for (; level < last; ++level) {
        const int32_t size = level >= sliceLevel ? 1 : sliceSize;
        std::vector<int> next;
        for (int d : fit) {
            auto part =
                minimize(sorted(t.domains[size_t(d)].children), ds[size_t(d)].podCount, size, size > 1);
            next.insert(next.end(), part.begin(), part.end());
        }
        fit = next;
    }
    std::sort(fit.begin(), fit.end(), compareValues);
    const size_t from = t.lowestIsNode ? t.levels.size() - 1 : 0;
    out->levels.assign(t.levels.begin() + ptrdiff_t(from), t.levels.end());
    out->domains.clear();
    for (int d : fit) {
        if (ds[size_t(d)].podCount == 0) continue;
        const auto& values = t.domains[size_t(d)].values;
        out->domains.push_back({std::vector<std::string>(values.begin() + ptrdiff_t(from), values.end()),
                                ds[size_t(d)].podCount});
    }
    return {};
}

TasResult TasIndex::find(const std::vector<TasRequest>& requests, bool simulateEmpty) const {
    TasResult result;
    std::vector<int> flavors;
    for (const auto& r : requests)
        if (std::find(flavors.begin(), flavors.end(), r.flavor) == flavors.end()) flavors.push_back(r.flavor);
    std::sort(flavors.begin(), flavors.end(),
              [&](int a, int b) { return w_.flavors[size_t(a)].name < w_.flavors[size_t(b)].name; });
    for (int f : flavors) {
        const FlavorTree& t = trees_[size_t(f)];
        std::map<int, std::vector<int64_t>> assumed;
        for (const auto& r : requests) {
            if (r.flavor != f) continue;
            KueueTopologyAssignment a;
            std::string why = t.topology < 0 ? "no topology" : place(t, r, simulateEmpty, assumed, &a);
            if (!why.empty()) {
                result.failure = why;
                result.failedPodSet = r.podSet;
                result.failedFlavor = f;
                return result;
            }
            const auto& req = st_.shapes[r.shape].request;
            for (const auto& d : a.domains) {
                const int leaf = leafOf(t, d.values);
                if (leaf < 0) continue;
                auto& u = assumed[leaf];
                u.resize(req.size(), 0);
                for (size_t i = 0; i < req.size(); ++i) u[i] += req[i] * d.count;
            }
            result.assignments.emplace_back(r.podSet, std::move(a));
        }
    }
    return result;
}

void TasIndex::addUsage(int flavor, const KueueTopologyAssignment& a, uint32_t shape, int sign) {
    if (flavor < 0 || size_t(flavor) >= trees_.size() || shape == UINT32_MAX) return;
    FlavorTree& t = trees_[size_t(flavor)];
    if (t.topology < 0) return;
    const auto& req = st_.shapes[shape].request;
    for (const auto& d : a.domains) {
        const int leaf = leafOf(t, d.values);
        if (leaf < 0) continue;
        auto& u = t.tasUsage[size_t(leaf)];
        for (size_t i = 0; i < req.size() && i < u.size(); ++i) u[i] += sign * req[i] * d.count;
    }
}

bool TasIndex::fits(const std::vector<std::pair<int, KueueTopologyAssignment>>& placements,
                    const std::vector<uint32_t>& shapes, const std::vector<int>& flavors) const {
    for (size_t p = 0; p < placements.size(); ++p) {
        const FlavorTree& t = trees_[size_t(flavors[p])];
        const auto& req = st_.shapes[shapes[p]].request;
        for (const auto& d : placements[p].second.domains) {
            const int leaf = leafOf(t, d.values);
            if (leaf < 0) return false;
            leafFree(t, leaf, false, scratch_);
            if (countIn(req, scratch_) < d.count) return false;
        }
    }
    return true;
}

void TasIndex::refreshNodeUsage(const std::vector<uint8_t>& tasTasks) {
    const int D = st_.D();
    for (uint32_t n = 0; n < st_.nodes.size(); ++n) {
        const int64_t* r = st_.nodeRow(st_.k8sRequested, n);
        std::copy(r, r + D, nodeUsed_.begin() + ptrdiff_t(size_t(n) * size_t(D)));
        for (uint32_t task : st_.nodeTasks[n]) {
            if (task >= tasTasks.size() || !tasTasks[task] || !st_.tasks[task].inK8sView) continue;
            const auto& req = st_.shapeOf(task).request;
            for (int d = 0; d < D; ++d) nodeUsed_[size_t(n) * size_t(D) + size_t(d)] -= req[size_t(d)];
        }
    }
}

} // namespace gantry::engine::kueue
