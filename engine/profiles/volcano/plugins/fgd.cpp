// fgd: Fragmentation Gradient Descent (Weng et al., USENIX ATC '23) as a node-order plugin. A node
// scores 100 sigmoid(-dF/1000) x fgd.weight, where dF is how much the node's GPU fragmentation
// F_n(M) (docs/fragmentation.md) grows if the task goes there; M is the session's own workload: the
// shapes of its tasks (CPU, GPU milli per device, devices, accepted models) covering 95 %.
//
// The session counts GPUs per node as one scalar; fragmentation needs devices, so the plugin keeps
// which devices each task holds: tasks already on a node take the tightest devices when the session
// opens, and every allocation takes the devices FGD prefers (released on deallocation). Nodes the
// session treats as one equivalence class are scored by their representative, which is exact when
// tasks take whole GPUs; with GPU sharing, nodes of equal free milli but different device layouts
// may be told apart only when the session evaluates nodes one by one.
#include "fragmentation/frag_memo.h"
#include "fragmentation/placement.h"
#include "fragmentation/task_shape.h"
#include "profiles/volcano/plugins/arguments.h"
#include "profiles/volcano/plugins/plugins.h"

#include <algorithm>
#include <unordered_map>

namespace gantry::engine::plugins {

namespace {

class Fgd : public Plugin {
  public:
    explicit Fgd(const PluginOption& o) { getInt(o, "fgd.weight", weight_); }

    void onSessionOpen(Session& ssn) override {
        s_ = &ssn;
        const auto& st = ssn.state;
        models_ = {};
        nodes_.assign(st.nodes.size(), frag::NodeState{});
        for (uint32_t n = 0; n < st.nodes.size(); ++n) {
            const auto& gpus = st.nodes[n].gpus;
            const frag::ModelId model = models_.add(gpus.model);
            const int64_t cpu = st.nodeRow(st.allocatable, n)[kCpu];
            nodes_[n] = frag::makeNode(cpu, INT64_MAX / 4,
                                       std::min<int32_t>(gpus.count, frag::kMaxGpusPerNode), model);
        }
        shapes_.assign(st.shapes.size(), frag::TaskShape{});
        for (size_t i = 0; i < st.shapes.size(); ++i) shapes_[i] = shapeOf(st.shapes[i]);

        // The workload the session knows, and the tasks already holding resources on nodes.
        std::vector<frag::TaskShape> all;
        all.reserve(st.tasks.size());
        held_.clear();
        for (uint32_t t = 0; t < st.tasks.size(); ++t) {
            const auto& rec = st.tasks[t];
            all.push_back(shapes_[rec.shape]);
            if (rec.node >= 0 && occupiesNode(rec.status)) {
                auto& node = nodes_[size_t(rec.node)];
                const auto& shape = shapes_[rec.shape];
                frag::GpuSet gpus = frag::pickTightestGpus(node, shape);
                frag::place(node, shape, 0, gpus);
                held_[t] = {rec.node, gpus};
            }
        }
        workload_ = frag::targetWorkload(all, 0.95);
        memo_ = std::make_unique<frag::FragMemo>(workload_);

        if (weight_ != 0)
            ssn.self().nodeOrder = [this](uint32_t task, uint32_t node) { return score(task, node); };
        ssn.addEventHandler([this](uint32_t t) { onAllocate(t); }, [this](uint32_t t) { onDeallocate(t); });
    }

  private:
    frag::TaskShape shapeOf(const PodShape& pod) const {
        return frag::taskShape(pod.request.empty() ? 0 : pod.request[size_t(kCpu)], pod.gpu, models_);
    }

    const frag::TaskShape& taskShape(uint32_t task) const { return shapes_[s_->state.tasks[task].shape]; }

    // The task must fit the node's devices for FGD to rank it; a node where it cannot (the session's
    // scalar GPU count may allow what devices do not) scores 0.
    double score(uint32_t task, uint32_t node) {
        const frag::TaskShape& shape = taskShape(task);
        const frag::NodeState& n = nodes_[node];
        if (shape.gpuMilli > 0 && n.gpusWithAtLeast(shape.gpuMilli) < shape.gpuCount) return 0;
        if (n.cpuLeft < shape.cpuMilli) return 0;
        return double(frag::fgdScore(n, shape, *memo_).score * weight_);
    }

    void onAllocate(uint32_t task) {
        const int32_t node = s_->state.tasks[task].node;
        if (node < 0) return;
        frag::NodeState& n = nodes_[size_t(node)];
        const frag::TaskShape& shape = taskShape(task);
        frag::GpuSet gpus = 0;
        if (shape.gpuMilli > 0 && n.gpusWithAtLeast(shape.gpuMilli) >= shape.gpuCount)
            gpus = frag::fgdScore(n, shape, *memo_).gpus;
        frag::place(n, shape, 0, gpus);
        held_[task] = {node, gpus};
    }

    void onDeallocate(uint32_t task) {
        // The node as allocated: some statements reset the task before they announce the release.
        auto it = held_.find(task);
        if (it == held_.end()) return;
        const auto [node, gpus] = it->second;
        frag::NodeState& n = nodes_[size_t(node)];
        const frag::TaskShape& shape = taskShape(task);
        n.cpuLeft += shape.cpuMilli;
        for (int g = 0; g < n.gpuCount; ++g)
            if (gpus >> g & 1) n.gpuLeft[g] = int16_t(n.gpuLeft[g] + shape.gpuMilli);
        if (int cls = frag::affinityClass(shape); cls >= 0 && gpus != 0 && n.affinity[cls] > 0)
            --n.affinity[cls];
        held_.erase(it);
    }

    Session* s_ = nullptr;
    int weight_ = 1;
    frag::GpuModelTable models_;
    std::vector<frag::NodeState> nodes_;
    std::vector<frag::TaskShape> shapes_;
    std::unordered_map<uint32_t, std::pair<int32_t, frag::GpuSet>> held_; // task -> node, devices
    frag::TargetWorkload workload_;
    std::unique_ptr<frag::FragMemo> memo_;
};

} // namespace

std::unique_ptr<Plugin> makeFgd(const PluginOption& option) {
    return std::make_unique<Fgd>(option);
}

} // namespace gantry::engine::plugins
