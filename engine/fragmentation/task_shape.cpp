#include "fragmentation/task_shape.h"

#include <algorithm>

namespace gantry::frag {

ModelId GpuModelTable::add(const std::string& model) {
    if (model.empty()) return -1;
    if (ModelId id = find(model); id >= 0) return id;
    if (names_.size() >= size_t(kMaxGpuModels)) return -1;
    names_.push_back(model);
    return ModelId(names_.size() - 1);
}

ModelId GpuModelTable::find(std::string_view model) const {
    auto it = std::find(names_.begin(), names_.end(), model);
    return it == names_.end() ? ModelId(-1) : ModelId(it - names_.begin());
}

TaskShape taskShape(int64_t cpuMilli, int32_t gpuCount, int32_t milliPerGpu,
                    std::span<const std::string> models, const GpuModelTable& table) {
    TaskShape s;
    s.cpuMilli = cpuMilli;
    if (gpuCount <= 0 || milliPerGpu <= 0) return s;
    s.gpuCount = gpuCount;
    s.gpuMilli = milliPerGpu;
    for (const auto& m : models) {
        if (m.empty()) continue;
        s.models.any = false;
        if (!s.gpuSpec.empty()) s.gpuSpec += '|';
        s.gpuSpec += m;
        if (ModelId id = table.find(m); id >= 0) s.models.mask |= uint64_t(1) << id;
    }
    return s;
}

} // namespace gantry::frag
