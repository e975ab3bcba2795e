#pragma once
// The one way a GPU request becomes a fragmentation task shape (gpu_node.h), and the table of GPU
// models that shapes and nodes index. The FGD experiment's trace, the simulator's measure, the fgd
// node-order plugin and the studio's GPU map all go through it, so a request means the same to each.
//
// The shape is the request as asked, never clamped into one that fits (the Alibaba trace's and the
// FGD paper's reading, docs/fragmentation.md):
//   - a task needs a GPU when it asks for at least one device and a positive share of each;
//     otherwise it is CPU-only and carries no model constraint (the authors' converter writes none),
//     so CPU-only tasks of equal CPU are one shape whatever models they name;
//   - more devices than a node has, or more than a whole device (1000 milli) of each, is a shape that
//     node cannot fit: all its free GPU counts as fragmented for it, as for any task it cannot take;
//   - a constraint lists the models it accepts; names no node has are never allowed, so a constraint
//     naming only such models accepts no node. Empty names are no names: a list of none is no
//     constraint.
#include "fragmentation/gpu_node.h"
#include "model/pod.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gantry::frag {

// GPU models of a cluster's nodes in first-seen order; a ModelId indexes it.
class GpuModelTable {
  public:
    // The model's id, added when new. A node naming no model ("") gets -1, and so does every model
    // beyond the first kMaxGpuModels (a ModelSet is a 64-bit mask): such a node counts as naming none.
    ModelId add(const std::string& model);
    ModelId find(std::string_view model) const; // -1 when the table lacks it
    size_t size() const { return names_.size(); }
    const std::string& name(ModelId id) const { return names_[size_t(id)]; }

  private:
    std::vector<std::string> names_;
};

TaskShape taskShape(int64_t cpuMilli, int32_t gpuCount, int32_t milliPerGpu,
                    std::span<const std::string> models, const GpuModelTable& table);

inline TaskShape taskShape(int64_t cpuMilli, const GpuRequest& gpu, const GpuModelTable& table) {
    return taskShape(cpuMilli, gpu.count, gpu.milliPerGpu, gpu.models, table);
}

} // namespace gantry::frag
