// deviceshare: GPUs as devices rather than a count. A pod asking for GPUs fits a node only when
// the node has that many devices each with the share it asks for free (a half-GPU pod needs one
// device at least half free; 8 whole GPUs need 8 idle devices), and only when the node's GPU model
// is one the pod allows. Upstream's plugin does this for its GPU-sharing and GPU-number modes
// (deviceshare.GPUSharingEnable / GPUNumberEnable); Gantry reads the shares from the pods' GPU
// requests (model/pod.h) and keeps the devices in the cluster state, so the arguments only say
// whether the check runs: with both switched off the plugin does nothing, as upstream's.
#include "profiles/volcano/plugins/arguments.h"
#include "profiles/volcano/plugins/plugins.h"

namespace gantry::engine::plugins {

namespace {

class DeviceShare : public Plugin {
  public:
    explicit DeviceShare(const PluginOption& o) {
        bool sharing = false, number = false;
        getBool(o, "deviceshare.GPUSharingEnable", sharing);
        getBool(o, "deviceshare.GPUNumberEnable", number);
        // Neither written: Gantry checks devices (the plugin is listed to model GPU sharing).
        const bool given =
            o.argument("deviceshare.GPUSharingEnable") || o.argument("deviceshare.GPUNumberEnable");
        enabled_ = !given || sharing || number;
    }

    void onSessionOpen(Session& ssn) override {
        if (!enabled_) return;
        s_ = &ssn;
        model_ = ssn.reasonId("node(s) had no GPU of an allowed model");
        devices_ = ssn.reasonId("Insufficient GPU devices");
        ssn.self().predicate = [this](uint32_t task, uint32_t node, FitResult& out) {
            const auto& st = s_->state;
            if (st.shapeOf(task).gpu.count <= 0) return;
            if (!st.gpuModelAllowed(task, node) || st.gpuCount(node) == 0) {
                out.add(Code::UnschedulableAndUnresolvable, model_);
                return;
            }
            if (!st.gpusFit(task, node)) out.add(Code::Unschedulable, devices_);
        };
    }

  private:
    Session* s_ = nullptr;
    bool enabled_ = true;
    uint32_t model_ = 0, devices_ = 0;
};

} // namespace

PluginDescriptor devicesharePlugin() {
    PluginTraits t;
    // It looks only at the jobs it is asked about (or at the settled jobs' totals).
    t.allowsSettledJobsOut = [](const PluginOption&) { return true; };
    return {"deviceshare", [](const PluginOption& option) { return std::make_unique<DeviceShare>(option); },
            std::move(t)};
}

} // namespace gantry::engine::plugins
