// fgd: Fragmentation Gradient Descent (Weng et al., USENIX ATC '23) as a node-order plugin. A node
// scores 100 sigmoid(-dF/1000) x fgd.weight, where dF is how much the node's GPU fragmentation
// F_n(M) (docs/fragmentation.md) grows if the task goes there; M is the session's own workload: the
// shapes of its tasks (CPU, GPU milli per device, devices, accepted models) covering 95 %.
//
// The node is read from the cluster state (fragmentation/state_view.h): its idle CPU and the free
// milli of each device, which the state updates as the session allocates, pipelines, evicts and
// discards. The task takes the devices the state gives it (whole GPUs the lowest free, shares the
// tightest fitting device); dF is FGD's, over the device that suits FGD best.
#include "fragmentation/fgd_policies.h"
#include "fragmentation/frag_memo.h"
#include "fragmentation/state_view.h"
#include "profiles/volcano/plugins/arguments.h"
#include "profiles/volcano/plugins/plugins.h"

#include <optional>

namespace gantry::engine::plugins {

namespace {

class Fgd : public Plugin {
  public:
    explicit Fgd(const PluginOption& o) { getInt(o, "fgd.weight", weight_); }

    void onSessionOpen(Session& ssn) override {
        if (weight_ == 0) return;
        s_ = &ssn;
        const auto& st = ssn.state;
        view_.emplace(st);
        shapes_.clear();
        shapes_.reserve(st.shapes.size());
        for (const auto& pod : st.shapes) shapes_.push_back(view_->shape(pod));

        // The workload the session knows: every task, counted by its pod shape.
        std::vector<frag::WeightedShape> counted(shapes_.size());
        for (size_t i = 0; i < shapes_.size(); ++i) counted[i].shape = shapes_[i];
        for (const auto& task : st.tasks) ++counted[task.shape].count;
        std::erase_if(counted, [](const frag::WeightedShape& w) { return w.count == 0; });
        workload_ = frag::targetWorkload(std::span<const frag::WeightedShape>(counted), 0.95);
        memo_.emplace(workload_);

        ssn.self().nodeOrder = [this](uint32_t task, uint32_t node) { return score(task, node); };
    }

  private:
    // The task must fit the node's devices for FGD to rank it; a node where it cannot (the session's
    // scalar GPU count may allow what devices do not) scores 0.
    double score(uint32_t task, uint32_t node) {
        const frag::TaskShape& shape = shapes_[s_->state.tasks[task].shape];
        const frag::NodeState n = view_->node(node);
        if (shape.gpuMilli > 0 && n.gpusWithAtLeast(shape.gpuMilli) < shape.gpuCount) return 0;
        if (n.cpuLeft < shape.cpuMilli) return 0;
        return double(frag::fgdScore(n, shape, *memo_).score * weight_);
    }

    Session* s_ = nullptr;
    int weight_ = 1;
    std::optional<frag::StateView> view_;
    std::vector<frag::TaskShape> shapes_;
    frag::TargetWorkload workload_;
    std::optional<frag::FragMemo> memo_;
};

} // namespace

PluginDescriptor fgdPlugin() {
    PluginTraits t;
    // It looks only at the jobs it is asked about (or at the settled jobs' totals).
    t.allowsSettledJobsOut = [](const PluginOption&) { return true; };
    return {"fgd", [](const PluginOption& option) { return std::make_unique<Fgd>(option); }, std::move(t)};
}

} // namespace gantry::engine::plugins
