// nodeorder: kube-scheduler's score plugins with Volcano's weights (leastrequested 1,
// mostrequested 0, balancedresource 1, nodeaffinity 2, podaffinity 2, tainttoleration 3,
// podtopologyspread 2, imagelocality 1 unless configured). Each plugin scores 0..100 over the
// candidate nodes (normalized where kube-scheduler normalizes) and is multiplied by its weight.
// ImageLocality scores 0: Gantry's model carries no image inventory.
#include "k8s/k8s.h"
#include "profiles/volcano/plugins/arguments.h"
#include "profiles/volcano/plugins/plugins.h"

namespace gantry::engine::plugins {

namespace {

class NodeOrder : public Plugin {
  public:
    explicit NodeOrder(const PluginOption& o) {
        getInt(o, "nodeaffinity.weight", nodeAffinity_);
        getInt(o, "podaffinity.weight", podAffinity_);
        getInt(o, "leastrequested.weight", least_);
        getInt(o, "mostrequested.weight", most_);
        getInt(o, "balancedresource.weight", balanced_);
        getInt(o, "tainttoleration.weight", taint_);
        getInt(o, "imagelocality.weight", image_);
        getInt(o, "podtopologyspread.weight", spread_);
    }

    void onSessionOpen(Session& ssn) override {
        s_ = &ssn;
        const auto& dims = ssn.state.dims;
        leastScorer_.strategy = k8s::FitStrategy::LeastAllocated;
        leastScorer_.resources = {{kCpu, 50}, {kMemory, 50}};
        mostScorer_.strategy = k8s::FitStrategy::MostAllocated;
        mostScorer_.resources = {{kCpu, 1}, {kMemory, 1}};
        balancedDims_ = {kCpu, kMemory, dims.find(std::string(res::NvidiaGpu))};
        ssn.self().batchNodeOrder = [this](uint32_t task, const uint32_t* nodes, const uint32_t*, size_t n,
                                           double* scores) { batch(task, nodes, n, scores); };
        ssn.self().batchNodeOrderAlone = [this](uint32_t task) { return scoresAlone(task); };
    }

  private:
    // The scores batch normalizes over the candidates (node affinity, pod affinity, taints,
    // spread) are the same on every node when the pod asks for none of them and, for taints, no
    // node has a PreferNoSchedule taint.
    bool scoresAlone(uint32_t task) {
        const auto& st = s_->state;
        const auto& pod = st.shapeOf(task);
        if (nodeAffinity_ != 0 && pod.hasPreferredNodeAffinity) return false;
        if (podAffinity_ != 0 && (!pod.podAffinity.preferred.empty() ||
                                  !pod.podAntiAffinity.preferred.empty() || st.podsWithAffinity > 0))
            return false;
        if (spread_ != 0 && !pod.topologySpread.empty()) return false;
        if (taint_ == 0) return true;
        if (preferNoSchedule_ < 0) {
            preferNoSchedule_ = 0;
            for (const auto& c : st.classes)
                for (const auto& t : st.nodes[c.representative].taints)
                    if (t.effect == TaintEffect::PreferNoSchedule) preferNoSchedule_ = 1;
        }
        return preferNoSchedule_ == 0;
    }

    void batch(uint32_t task, const uint32_t* nodes, size_t n, double* scores) {
        const auto& st = s_->state;
        const auto& pod = st.shapeOf(task);
        raw_.resize(n);
        if (least_ != 0)
            for (size_t i = 0; i < n; ++i)
                scores[i] += double(k8s::fitScore(st, leastScorer_, task, nodes[i]) * least_);
        if (most_ != 0)
            for (size_t i = 0; i < n; ++i)
                scores[i] += double(k8s::fitScore(st, mostScorer_, task, nodes[i]) * most_);
        if (balanced_ != 0) {
            bool skip = false;
            for (size_t i = 0; i < n && !skip; ++i) {
                int64_t sc = 0;
                if (!k8s::balancedScore(st, balancedDims_, task, nodes[i], &sc)) skip = true;
                raw_[i] = sc;
            }
            if (!skip)
                for (size_t i = 0; i < n; ++i) scores[i] += double(raw_[i] * balanced_);
        }
        if (nodeAffinity_ != 0 && pod.hasPreferredNodeAffinity) {
            for (size_t i = 0; i < n; ++i)
                raw_[i] = k8s::nodeAffinityScore(pod, st.nodes[nodes[i]], st.nodeName(nodes[i]));
            k8s::defaultNormalize(raw_, false);
            for (size_t i = 0; i < n; ++i) scores[i] += double(raw_[i] * nodeAffinity_);
        }
        if (podAffinity_ != 0 && (!pod.podAffinity.preferred.empty() ||
                                  !pod.podAntiAffinity.preferred.empty() || st.podsWithAffinity > 0)) {
            auto state = k8s::affinityPreScore(st, task);
            if (!state.skip) {
                for (size_t i = 0; i < n; ++i) raw_[i] = k8s::affinityScore(st, state, nodes[i]);
                k8s::affinityNormalize(raw_);
                for (size_t i = 0; i < n; ++i) scores[i] += double(raw_[i] * podAffinity_);
            }
        }
        if (taint_ != 0) {
            for (size_t i = 0; i < n; ++i)
                raw_[i] = k8s::intolerablePreferNoSchedule(pod, st.nodes[nodes[i]]);
            k8s::defaultNormalize(raw_, true);
            for (size_t i = 0; i < n; ++i) scores[i] += double(raw_[i] * taint_);
        }
        if (spread_ != 0 && !pod.topologySpread.empty()) {
            std::vector<uint32_t> list(nodes, nodes + n);
            auto state = k8s::spreadPreScore(st, task, list);
            if (!state.skip) {
                std::vector<bool> ignored(n, false);
                for (size_t i = 0; i < n; ++i) {
                    bool ig = false;
                    raw_[i] = k8s::spreadScore(st, state, nodes[i], &ig);
                    ignored[i] = ig;
                }
                k8s::spreadNormalize(raw_, ignored);
                for (size_t i = 0; i < n; ++i) scores[i] += double(raw_[i] * spread_);
            }
        }
    }

    Session* s_ = nullptr;
    int nodeAffinity_ = 2, podAffinity_ = 2, least_ = 1, most_ = 0, balanced_ = 1, taint_ = 3, image_ = 1,
        spread_ = 2;
    k8s::FitScorer leastScorer_, mostScorer_;
    std::vector<int> balancedDims_;
    std::vector<int64_t> raw_;
    int preferNoSchedule_ = -1; // whether a node has a PreferNoSchedule taint; -1 = not looked yet
};

} // namespace

PluginDescriptor nodeorderPlugin() {
    PluginTraits t;
    // It looks only at the jobs it is asked about (or at the settled jobs' totals).
    t.allowsSettledJobsOut = [](const PluginOption&) { return true; };
    return {"nodeorder", [](const PluginOption& option) { return std::make_unique<NodeOrder>(option); },
            std::move(t)};
}

} // namespace gantry::engine::plugins
