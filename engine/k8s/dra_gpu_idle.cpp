// The GPUs behind the NVIDIA DRA driver's devices, as the ledger stands: what allocated claims hold
// and why the free ones are free. A fixed device (a whole GPU, a static MIG instance) is free when
// no claim holds it; a dynamically partitioned GPU has the compute slices its allocated partitions
// leave, usable when a partition some pod asks for still fits its counters.
#include "k8s/dra_allocator.h"
#include "model/gpu_exposure.h"

#include <algorithm>
#include <map>

namespace gantry::engine::k8s {

void DraAllocator::indexGpus() {
    gpuSlices_.assign(devices_.size(), 0);
    asked_.assign(devices_.size(), -1);
    std::map<std::pair<uint32_t, std::string>, uint32_t> byId; // (pool, physical GPU) -> index
    for (uint32_t d = 0; d < devices_.size(); ++d) {
        const Device& dev = device(d);
        gpuSlices_[d] = int8_t(draDeviceComputeSlices(dev, driverOf(d)));
        if (gpuSlices_[d] == 0) continue;
        const auto [at, fresh] = byId.try_emplace({devices_[d].pool, draPhysicalGpu(dev, driverOf(d))},
                                                  uint32_t(physicalGpus_.size()));
        if (fresh) physicalGpus_.emplace_back();
        PhysicalGpu& gpu = physicalGpus_[at->second];
        gpu.devices.push_back(d);
        gpu.partitioned = gpu.partitioned || !dev.consumesCounters.empty();
        if (draMigDevice(dev, driverOf(d))) {
            migDevices_ = true;
            gpu.migDevices = true;
        }
    }
}

bool DraAllocator::askedFor(uint32_t d) const {
    int8_t& known = asked_[d];
    if (known >= 0) return known == 1;
    known = 0;
    // Each distinct claim spec once (the pods of one template share it), listed on the first ask.
    if (askedSpecs_.empty()) {
        std::map<const DeviceClaimSpec*, const std::string*> specs;
        for (const auto& [pod, used] : pods_)
            for (const auto& claim : used.claims)
                if (claim.spec) specs.try_emplace(claim.spec, &claim.key);
        askedSpecs_.assign(specs.begin(), specs.end());
    }
    std::string error;
    for (const auto& [spec, key] : askedSpecs_)
        for (const auto& request : spec->requests)
            for (const auto& choice : request.choices)
                if (selectable(d, choice, *key, &error)) {
                    known = 1;
                    return true;
                }
    return false;
}

ClaimGpus DraAllocator::gpus() const {
    ClaimGpus out;
    out.held = gpuMilliInUse_;
    out.mig = migDevices_;
    for (const auto& gpu : physicalGpus_) {
        if (!gpu.partitioned) {
            for (uint32_t d : gpu.devices) {
                if (!available(d)) continue;
                (askedFor(d) ? out.usable : gpu.migDevices ? out.layout : out.scattered) += gpuMilli(d);
            }
            continue;
        }
        int used = 0; // compute slices of the partitions (or the whole GPU) allocated
        for (uint32_t d : gpu.devices)
            if (exclusiveUses_[d] > 0 || !capacityUsed_[d].empty()) used += gpuSlices_[d];
        const int free = std::max(0, 7 - used);
        if (free == 0) continue;
        bool asked = false;
        for (uint32_t d : gpu.devices) asked = asked || (askedFor(d) && available(d));
        (asked ? out.usable : used == 0 ? out.scattered : out.layout) += int64_t(free) * 1000 / 7;
    }
    return out;
}

} // namespace gantry::engine::k8s
