// network-topology-aware: jobs with a networkTopology constraint are placed inside one HyperNode of
// at most highestTierAllowed (soft mode: any tier, the lowest that fits preferred). The gradient
// function lists the eligible HyperNodes tier by tier (lowest first, those with enough idle or
// releasing resources for the job's minimum); HyperNodes and nodes are scored by bin-packing at
// HyperNode level and, for topology jobs, by how close a node is to where the job already runs.
#include "profiles/volcano/plugins/arguments.h"
#include "profiles/volcano/plugins/plugins.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace gantry::engine::plugins {

namespace {

constexpr double kFull = 1.0, kZero = 0.0;

struct HnStatus {
    VResource allocatable, used, idle, futureIdle;
};

class NetworkTopologyAware : public Plugin {
  public:
    explicit NetworkTopologyAware(const PluginOption& o) : option_(o) {
        getInt(o, "weight", weight_);
        if (weight_ < 0) weight_ = 1;
        getInt(o, "hypernode.binpack.cpu", cpu_);
        if (cpu_ < 0) cpu_ = 1;
        getInt(o, "hypernode.binpack.memory", memory_);
        if (memory_ < 0) memory_ = 1;
        getBool(o, "hypernode.binpack.normal-pod.enable", normalEnable_);
        getFloat(o, "hypernode.binpack.normal-pod.fading", fading_);
        if (fading_ < 0) fading_ = 0.8;
        getInt(o, "hypernode.gradient.evict.max-hypernodes", maxEvict_);
        if (maxEvict_ <= 0) maxEvict_ = 8;
    }

    void onSessionOpen(Session& ssn) override {
        s_ = &ssn;
        const auto& st = ssn.state;
        const int D = st.D();
        weights_.assign(size_t(D), -1);
        weights_[kCpu] = cpu_;
        weights_[kMemory] = memory_;
        std::stringstream in(option_.argument("hypernode.binpack.resources").value_or(""));
        std::string name;
        while (std::getline(in, name, ',')) {
            name = trim(name);
            if (name.empty()) continue;
            int w = 1;
            getInt(option_, "hypernode.binpack.resources." + name, w);
            if (w < 0) w = 1;
            if (int d = st.dims.find(name); d >= 0) weights_[size_t(d)] = w;
        }
        if (!st.hyperNodeTiers.empty()) {
            minTier_ = st.hyperNodeTiers.front();
            maxTier_ = st.hyperNodeTiers.back();
        }
        // Each hypernode's status from the sums the state keeps of its nodes' rows (integers, as a
        // walk over the nodes would add them). allocatable, idle and futureIdle name cpu, memory and
        // what some node declares; used names cpu, memory and what some node uses.
        ssn.state.trackHyperNodes();
        cache_.assign(st.hyperNodes.size(), HnStatus{});
        for (size_t h = 0; h < st.hyperNodes.size(); ++h) {
            auto& c = cache_[h];
            c.allocatable = c.used = c.idle = c.futureIdle = VResource(D);
            const size_t row = h * size_t(D);
            const int64_t* al = st.hnAllocatable.data() + row;
            const int64_t* us = st.hnUsed.data() + row;
            const int64_t* id = st.hnIdle.data() + row;
            const int64_t* rl = st.hnReleasing.data() + row;
            const int64_t* pp = st.hnPipelined.data() + row;
            for (int d = 0; d < D; ++d) {
                if (d < 2 || ((st.hnAllocMask[h] >> d) & 1u)) {
                    c.allocatable.set(d, double(al[d]));
                    c.idle.set(d, double(id[d]));
                    c.futureIdle.set(d, double(id[d] + rl[d] - pp[d]));
                }
                if (d < 2 || us[d] != 0) c.used.set(d, double(us[d]));
            }
        }
        auto& self = ssn.self();
        self.hyperNodeOrder = [this](uint32_t job, const std::vector<int32_t>& hns) {
            return hyperNodeOrder(job, hns);
        };
        self.batchNodeOrder = [this](uint32_t task, const uint32_t* nodes, const uint32_t* counts, size_t n,
                                     double* scores) { batch(task, nodes, counts, n, scores); };
        self.hyperNodeGradient = [this](uint32_t job, int32_t hn, Purpose purpose, bool forSubJob) {
            return gradient(job, hn, purpose, forSubJob);
        };
        ssn.addEventHandler([this](uint32_t t) { onEvent(t, +1); }, [this](uint32_t t) { onEvent(t, -1); });
    }

  private:
    void onEvent(uint32_t t, int sign) {
        const int32_t n = s_->state.tasks[t].node;
        if (n < 0) return;
        for (int32_t h : s_->state.nodes[size_t(n)].hyperNodes) {
            if (sign > 0)
                cache_[size_t(h)].used.add(s_->taskRes(t));
            else
                cache_[size_t(h)].used.sub(s_->taskRes(t));
        }
    }

    int weightOf(int d) const { return d < int(weights_.size()) ? weights_[size_t(d)] : -1; }

    double podHyperNodeScore(uint32_t task, int32_t h) const {
        const VResource& req = s_->taskRes(task);
        double total = 0;
        int totalWeight = 0;
        for (int d : req.resourceNames()) {
            const int w = weightOf(d);
            if (w < 0) continue;
            const double alloc = cache_[size_t(h)].allocatable.get(d), used = cache_[size_t(h)].used.get(d);
            const double request = req.get(d);
            if (used + request > alloc) return kZero;
            total += double(w) * ((used + request) / alloc);
            totalWeight += w;
        }
        return totalWeight > 0 ? total / double(totalWeight) : kZero;
    }

    double tierScore(int32_t tier) const {
        if (minTier_ == maxTier_) return kFull;
        if (minTier_ <= tier && tier <= maxTier_)
            return double(maxTier_ - tier) / double(maxTier_ - minTier_);
        return kZero;
    }

    double taskNumScore(int32_t h, uint32_t job) const {
        const auto& tasks = s_->state.jobs[job].tasks;
        if (tasks.empty()) return kZero;
        int n = 0;
        const auto& members = s_->state.hyperNodes[size_t(h)].nodes;
        for (uint32_t t : tasks) {
            const int32_t node = s_->state.tasks[t].node;
            if (node >= 0 && std::binary_search(members.begin(), members.end(), uint32_t(node))) ++n;
        }
        return double(n) / double(tasks.size());
    }

    double scale(double score) const { return 100.0 * double(weight_) * score; }

    std::map<int32_t, double> hyperNodeOrder(uint32_t job, const std::vector<int32_t>& hns) {
        // Requests of all the job's tasks on the weighed resources.
        VResource request(s_->state.D());
        for (uint32_t t : s_->state.jobs[job].tasks) {
            const VResource& r = s_->taskRes(t);
            for (int d : r.resourceNames())
                if (weightOf(d) >= 0) request.set(d, request.get(d) + r.get(d));
        }
        std::vector<int> names = request.resourceNames();
        std::map<int32_t, double> scores;
        for (int32_t h : hns) {
            double total = 0;
            int totalWeight = 0;
            bool over = false;
            for (int d : names) {
                const int w = weightOf(d);
                const double alloc = cache_[size_t(h)].allocatable.get(d),
                             used = cache_[size_t(h)].used.get(d);
                if (used + request.get(d) > alloc) {
                    over = true;
                    break;
                }
                total += double(w) * ((used + request.get(d)) / alloc);
                totalWeight += w;
            }
            scores[h] = over || totalWeight <= 0 ? kZero : total / double(totalWeight);
        }
        double max = -1;
        int atMax = 0;
        for (const auto& [h, sc] : scores) {
            if (sc > max) {
                max = sc;
                atMax = 1;
            } else if (sc == max) {
                ++atMax;
            }
        }
        if (atMax > 1)
            for (auto& [h, sc] : scores)
                if (sc == max) sc += taskNumScore(h, job);
        for (auto& [h, sc] : scores) sc = scale(sc);
        return scores;
    }

    void batch(uint32_t task, const uint32_t* nodes, const uint32_t* counts, size_t n, double* scores) {
        const uint32_t job = s_->jobOf(task);
        if (job == UINT32_MAX || !s_->inSession(job)) return;
        const bool topology = s_->state.jobs[job].topology.mode != NetworkTopologyConstraint::Mode::None;
        raw_.assign(n, 0.0);
        if (topology) {
            auto it = s_->taskJobHyperNode.find(task);
            const int32_t allocated = it == s_->taskJobHyperNode.end() ? -1 : it->second;
            if (allocated < 0) return;
            double max = -1;
            uint64_t atMax = 0;
            for (size_t i = 0; i < n; ++i) {
                const int32_t h = s_->lowestHyperNodeOf(nodes[i]);
                double sc = kZero;
                if (h >= 0) {
                    if (h == allocated)
                        sc = kFull;
                    else if (int32_t lca = s_->lcaHyperNode(h, allocated); lca >= 0)
                        sc = tierScore(s_->state.hyperNodes[size_t(lca)].tier);
                }
                raw_[i] = sc;
                if (sc > max) {
                    max = sc;
                    atMax = counts[i];
                } else if (sc == max) {
                    atMax += counts[i];
                }
            }
            if (atMax > 1)
                for (size_t i = 0; i < n; ++i)
                    if (raw_[i] == max) {
                        const int32_t h = s_->lowestHyperNodeOf(nodes[i]);
                        if (h >= 0) raw_[i] += taskNumScore(h, job);
                    }
        } else {
            if (!normalEnable_) return;
            double totalTierWeight = 0;
            for (int32_t tier = minTier_; tier <= maxTier_; ++tier)
                totalTierWeight += std::pow(fading_, double(tier - 1));
            if (totalTierWeight <= 0) return;
            for (size_t i = 0; i < n; ++i) {
                double total = 0;
                const auto& hs = s_->state.nodes[nodes[i]].hyperNodes;
                for (int32_t tier = minTier_; tier <= maxTier_; ++tier) {
                    double sc = kFull;
                    for (int32_t h : hs)
                        if (s_->state.hyperNodes[size_t(h)].tier == tier) {
                            sc = podHyperNodeScore(task, h);
                            break;
                        }
                    total += std::pow(fading_, double(tier - 1)) * sc;
                }
                raw_[i] = total / totalTierWeight;
            }
        }
        for (size_t i = 0; i < n; ++i) scores[i] += scale(raw_[i]);
    }

    // hyperNodeGradientFn: breadth-first from the search root; eligible HyperNodes grouped by tier.
    std::vector<std::vector<int32_t>> gradient(uint32_t job, int32_t hn, Purpose purpose, bool forSubJob) {
        const auto& js = s_->jobs[job];
        if (!js.hardTopology) return {{hn}};
        const auto& st = s_->state;
        const int32_t highest = js.highestTierAllowed;
        const int32_t allocated = forSubJob ? js.subJobAllocatedHyperNode : js.allocatedHyperNode;
        VResource minResource(st.D());
        if (forSubJob) {
            for (uint32_t t : st.jobs[job].tasks)
                if (st.tasks[t].status == TaskStatus::Pending) minResource.add(s_->taskRes(t));
        } else if (st.jobs[job].hasMinResources) {
            minResource = st.jobs[job].minResources;
        }
        int32_t root = hn;
        if (allocated >= 0) {
            // The highest ancestor of the allocated hypernode still within the allowed tier.
            int32_t highestAllowed = -1;
            for (int32_t a = allocated; a >= 0; a = st.hyperNodes[size_t(a)].parent) {
                if (st.hyperNodes[size_t(a)].tier > highest) break;
                highestAllowed = a;
            }
            if (highestAllowed < 0) return {};
            const int32_t lca = s_->lcaHyperNode(hn, highestAllowed);
            if (lca == highestAllowed)
                root = hn;
            else if (lca == hn)
                root = highestAllowed;
            else
                return {};
        }
        if (childrenByName_.empty()) {
            childrenByName_.resize(st.hyperNodes.size());
            for (size_t h = 0; h < st.hyperNodes.size(); ++h) {
                auto& children = childrenByName_[h] = st.hyperNodes[h].children;
                std::sort(children.begin(), children.end(), [&](int32_t a, int32_t b) {
                    return st.hyperNodes[size_t(a)].name < st.hyperNodes[size_t(b)].name;
                });
            }
            seen_.assign(st.hyperNodes.size(), 0);
        }
        // Visit order, then the eligible ones grouped by tier (lowest first) in that order.
        const uint32_t stamp = ++visit_;
        seen_[size_t(root)] = stamp;
        queue_.assign(1, root);
        found_.clear();
        for (size_t head = 0; head < queue_.size(); ++head) {
            const int32_t cur = queue_[head];
            if (eligible(cur, highest, allocated, minResource, purpose)) found_.push_back(cur);
            for (int32_t c : childrenByName_[size_t(cur)])
                if (seen_[size_t(c)] != stamp) {
                    seen_[size_t(c)] = stamp;
                    queue_.push_back(c);
                }
        }
        auto tierOf = [&](int32_t h) { return st.hyperNodes[size_t(h)].tier; };
        std::stable_sort(found_.begin(), found_.end(),
                         [&](int32_t a, int32_t b) { return tierOf(a) < tierOf(b); });
        std::vector<std::vector<int32_t>> out;
        for (size_t i = 0; i < found_.size(); ++i) {
            if (i == 0 || tierOf(found_[i]) != tierOf(found_[i - 1])) out.emplace_back();
            out.back().push_back(found_[i]);
        }
        if (purpose != Purpose::Evict) return out;
        std::vector<std::vector<int32_t>> capped;
        int remaining = maxEvict_;
        for (auto it = out.rbegin(); it != out.rend() && remaining > 0; ++it) {
            if (int(it->size()) <= remaining) {
                capped.push_back(*it);
                remaining -= int(it->size());
            } else {
                capped.emplace_back(it->end() - remaining, it->end());
                remaining = 0;
            }
        }
        return capped;
    }

    bool eligible(int32_t h, int32_t highest, int32_t allocated, const VResource& min,
                  Purpose purpose) const {
        if (s_->state.hyperNodes[size_t(h)].tier > highest) return false;
        if (allocated >= 0) return true;
        const auto& c = cache_[size_t(h)];
        if (purpose == Purpose::Evict) return min.lessEqual(c.allocatable, Missing::Zero);
        return min.lessEqual(c.idle, Missing::Zero) || min.lessEqual(c.futureIdle, Missing::Zero);
    }

    PluginOption option_;
    Session* s_ = nullptr;
    int weight_ = 1, cpu_ = 1, memory_ = 1, maxEvict_ = 8;
    bool normalEnable_ = true;
    double fading_ = 0.8;
    std::vector<int> weights_;
    int32_t minTier_ = 1, maxTier_ = 1;
    std::vector<HnStatus> cache_;
    std::vector<double> raw_;
    // gradient's breadth-first walk: children by name (made at the first walk), visit stamps, scratch.
    std::vector<std::vector<int32_t>> childrenByName_;
    std::vector<uint32_t> seen_;
    uint32_t visit_ = 0;
    std::vector<int32_t> queue_, found_;
};

} // namespace

PluginDescriptor networkTopologyAwarePlugin() {
    PluginTraits t;
    // It reads the nodes (hypernode sums, the event's node) and jobs with pending pods: the one
    // being scored or allocated, which is listed. Preempt takes no topology job as a preemptor,
    // reclaim and victim order read no topology, and topology jobs are never parked.
    t.allowsSettledJobsOut = [](const PluginOption&) { return true; };
    return {"network-topology-aware",
            [](const PluginOption& option) { return std::make_unique<NetworkTopologyAware>(option); },
            std::move(t)};
}

} // namespace gantry::engine::plugins
