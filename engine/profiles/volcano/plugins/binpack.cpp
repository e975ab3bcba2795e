// binpack: best fit. For each resource the task requests and the plugin weighs, the node scores
// (used + request) / allocatable times the resource's weight; the weighted mean is scaled to
// 0..100 and multiplied by binpack.weight. A node where any weighed request would not fit scores 0.
#include "profiles/volcano/plugins/arguments.h"
#include "profiles/volcano/plugins/plugins.h"

#include <utility>

namespace gantry::engine::plugins {

namespace {

class Binpack : public Plugin {
  public:
    explicit Binpack(const PluginOption& o) {
        getInt(o, "binpack.weight", weight_);
        getInt(o, "binpack.cpu", cpu_);
        if (cpu_ < 0) cpu_ = 1;
        getInt(o, "binpack.memory", memory_);
        if (memory_ < 0) memory_ = 1;
        const std::string list = o.argument("binpack.resources").value_or("");
        for (size_t from = 0; from <= list.size();) {
            size_t comma = list.find(',', from);
            if (comma == std::string::npos) comma = list.size();
            std::string name = trim(list.substr(from, comma - from));
            from = comma + 1;
            if (name.empty()) continue;
            int w = 1;
            getInt(o, "binpack.resources." + name, w);
            if (w < 0) w = 1;
            resources_.emplace_back(std::move(name), w);
        }
    }

    void onSessionOpen(Session& ssn) override {
        s_ = &ssn;
        const auto& dims = ssn.state.dims;
        weights_.assign(size_t(dims.size()), -1); // -1 = not weighed
        for (const auto& [name, w] : resources_)
            if (int d = dims.find(name); d >= 0) weights_[size_t(d)] = w;
        weights_[kCpu] = cpu_;
        weights_[kMemory] = memory_;
        if (weight_ != 0)
            ssn.self().nodeOrder = [this](uint32_t task, uint32_t node) { return score(task, node); };
    }

  private:
    double score(uint32_t task, uint32_t node) const {
        const auto& st = s_->state;
        const VResource& req = s_->taskRes(task);
        const int64_t* alloc = st.nodeRow(st.allocatable, node);
        const int64_t* used = st.nodeRow(st.used, node);
        double score = 0;
        int weightSum = 0;
        int names[kMaxDims]; // scored per candidate node: no allocation
        const int count = req.resourceNames(names);
        for (int i = 0; i < count; ++i) {
            const int d = names[i];
            const double request = req.get(d);
            if (request == 0) continue;
            if (d >= int(weights_.size()) || weights_[size_t(d)] < 0) continue;
            const int w = weights_[size_t(d)];
            const double capacity = double(alloc[d]);
            if (capacity != 0 && w != 0) {
                const double finallyUsed = request + double(used[d]);
                if (finallyUsed > capacity) return 0;
                score += finallyUsed * double(w) / capacity;
            }
            weightSum += w;
        }
        if (weightSum > 0) score /= double(weightSum);
        score *= double(100 * int64_t(weight_));
        return score;
    }

    Session* s_ = nullptr;
    int weight_ = 1, cpu_ = 1, memory_ = 1;
    std::vector<std::pair<std::string, int>> resources_; // binpack.resources with their weights
    std::vector<int> weights_;
};

} // namespace

PluginDescriptor binpackPlugin() {
    PluginTraits t;
    // It looks only at the jobs it is asked about (or at the settled jobs' totals).
    t.allowsSettledJobsOut = [](const PluginOption&) { return true; };
    return {"binpack", [](const PluginOption& option) { return std::make_unique<Binpack>(option); },
            std::move(t)};
}

} // namespace gantry::engine::plugins
