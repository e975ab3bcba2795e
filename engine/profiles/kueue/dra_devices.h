#pragma once
// The published devices Kueue's DRA charge reads (pkg/dra/counters.go, claims.go): devices that pass
// CEL selectors, the largest counter they consume. Kueue never picks a device: it charges what any
// device that could serve the request would cost at most.
#include "k8s/dra_cel.h"
#include "model/dra.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gantry::engine::kueue {

// One published device and the driver of its slice.
struct PublishedDevice {
    const std::string* driver = nullptr;
    const Device* device = nullptr;
};

class DraDevices {
  public:
    explicit DraDevices(const std::vector<ResourceSlice>& slices) : slices_(slices) {}

    // The devices of the driver's complete pools, each at its highest generation
    // (groupSlicesByPool).
    std::vector<PublishedDevice> completePools(const std::string& driver) const;
    // Every device of the given drivers' slices (every driver: empty), pools as they are.
    std::vector<PublishedDevice> all(const std::vector<std::string>& drivers) const;
    // Whether the device passes every selector: false with *error set on a CEL runtime error.
    // Selectors outside the CEL Gantry reads match nothing.
    bool passes(const PublishedDevice& d, const std::vector<std::string>& selectors, std::string* error);

  private:
    const std::vector<ResourceSlice>& slices_;
    std::map<std::string, std::optional<k8s::DeviceSelector>> compiled_;
};

} // namespace gantry::engine::kueue
