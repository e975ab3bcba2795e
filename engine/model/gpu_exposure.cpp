#include "model/gpu_exposure.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <set>

namespace gantry {

namespace {

constexpr std::string_view kMigResourcePrefix = "nvidia.com/mig-";

std::string labelOr(const Labels& labels, const std::string& key) {
    auto it = labels.find(key);
    return it == labels.end() ? std::string() : it->second;
}

std::optional<int64_t> labelNumber(const Labels& labels, const std::string& key) {
    std::string text = labelOr(labels, key);
    int64_t v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v < 0) return std::nullopt;
    return v;
}

// "NVIDIA-A100-SXM4-80GB" -> 80; 0 when the name holds no "<n>GB".
double memoryGBInName(std::string_view model) {
    for (size_t i = 0; i + 2 <= model.size(); ++i) {
        auto digit = [&](size_t k) { return model[k] >= '0' && model[k] <= '9'; };
        if (!(model[i] == 'G' && model[i + 1] == 'B') || i == 0 || !digit(i - 1)) continue;
        size_t start = i;
        while (start > 0 && digit(start - 1)) --start;
        return std::stod(std::string(model.substr(start, i - start)));
    }
    return 0;
}

// The whole GPUs behind `instances` MIG instances of one profile, at most instancesPerGpu a GPU.
double gpusFor(int64_t instances, int perGpu) {
    return perGpu > 0 ? double(instances) / perGpu : double(instances);
}

} // namespace

std::optional<MigProfile> parseMigProfile(std::string_view name) {
    if (name.starts_with("mig-")) name.remove_prefix(4);
    MigProfile p;
    auto plus = name.find('+'); // "+me", "+gfx": extensions of the same slices
    if (plus != std::string_view::npos) {
        p.mediaExtensions = name.substr(plus) == "+me";
        name = name.substr(0, plus);
    }
    auto g = name.find("g.");
    if (g == std::string_view::npos || !name.ends_with("gb")) return std::nullopt;
    auto [e1, c1] = std::from_chars(name.data(), name.data() + g, p.computeSlices);
    if (c1 != std::errc() || e1 != name.data() + g || p.computeSlices <= 0 || p.computeSlices > 8)
        return std::nullopt;
    std::string_view mem = name.substr(g + 2, name.size() - g - 4);
    if (mem.empty() || mem.find_first_not_of("0123456789.") != std::string_view::npos) return std::nullopt;
    p.memoryGB = std::stod(std::string(mem));
    if (p.memoryGB <= 0) return std::nullopt;
    return p;
}

int migMemorySlices(const MigProfile& profile, double gpuMemoryGB) {
    if (gpuMemoryGB <= 0) return profile.computeSlices;
    return std::clamp(int(std::lround(profile.memoryGB * 8 / gpuMemoryGB)), 1, 8);
}

int migInstancesPerGpu(const MigProfile& profile, double gpuMemoryGB) {
    if (profile.mediaExtensions) return 1;
    int byCompute = std::max(1, 7 / profile.computeSlices);
    if (gpuMemoryGB <= 0) return byCompute;
    return std::max(1, std::min(byCompute, 8 / migMemorySlices(profile, gpuMemoryGB)));
}

double gpuMemoryGB(const GpuDevices& gpus) {
    return gpus.memoryBytes > 0 ? double(gpus.memoryBytes) / 1e9 : memoryGBInName(gpus.model);
}

std::string migProfileOfResource(std::string_view resource) {
    if (!resource.starts_with(kMigResourcePrefix)) return {};
    return std::string(resource.substr(kMigResourcePrefix.size()));
}

void readDevicePluginGpus(const ResourceList& allocatable, const Labels& labels, GpuDevices& gpus,
                          std::string* note) {
    const std::string strategy = labelOr(labels, "nvidia.com/mig.strategy");
    const std::string product = labelOr(labels, "nvidia.com/gpu.product");
    // Mixed: one resource per MIG profile; the GPUs not in MIG mode stay nvidia.com/gpu.
    int64_t migInstances = 0;
    for (const auto& [name, amount] : allocatable) {
        std::string profile = migProfileOfResource(name);
        if (profile.empty() || amount < 1000) continue;
        gpus.mig.push_back(MigSlices{profile, int32_t(amount / 1000)});
        migInstances += amount / 1000;
    }
    const double gpuGB = gpuMemoryGB(gpus); // the model is gpu.product's here
    if (!gpus.mig.empty()) {
        // gpu.count counts every physical GPU of the model, MIG-enabled ones included.
        if (auto n = labelNumber(labels, "nvidia.com/gpu.count"); n && *n > 0) {
            gpus.physical = int32_t(std::max<int64_t>(*n, gpus.count));
        } else {
            double whole = 0;
            for (const auto& s : gpus.mig)
                if (auto p = parseMigProfile(s.profile))
                    whole += gpusFor(s.count, migInstancesPerGpu(*p, gpuGB));
            gpus.physical = gpus.count + int32_t(std::ceil(whole - 1e-9));
            if (note)
                *note = "label nvidia.com/gpu.count is missing: " + std::to_string(gpus.physical) +
                        " physical GPUs estimated from " + std::to_string(migInstances) + " MIG instances";
        }
        if (gpus.physical == gpus.count) gpus.physical = 0;
        return;
    }
    // Single: nvidia.com/gpu counts instances of the one profile named in the product.
    auto mig = product.rfind("-MIG-");
    if (strategy == "single" && mig != std::string::npos && gpus.count > 0) {
        std::string profile = product.substr(mig + 5);
        gpus.model = product.substr(0, mig);
        gpus.exposure = "mig-single";
        gpus.mig.push_back(MigSlices{profile, gpus.count});
        auto p = parseMigProfile(profile);
        int perGpu = p ? migInstancesPerGpu(*p, memoryGBInName(gpus.model)) : 1;
        gpus.physical = int32_t(std::ceil(gpusFor(gpus.count, perGpu) - 1e-9));
        gpus.memoryBytes = 0; // gpu.memory is the instance's there, not the GPU's
        if (gpus.physical == gpus.count) gpus.physical = 0;
    }
}

namespace {

const DeviceAttribute* attribute(const Device& d, const std::string& driver, const std::string& name) {
    auto it = d.attributes.find(name);
    if (it == d.attributes.end()) it = d.attributes.find(driver + "/" + name);
    return it == d.attributes.end() ? nullptr : &it->second;
}

std::string text(const Device& d, const std::string& driver, const std::string& name) {
    const auto* a = attribute(d, driver, name);
    return a ? a->text : std::string();
}

} // namespace

int32_t draDeviceComputeSlices(const Device& device, const std::string& driver) {
    if (driver != kNvidiaGpuDriver) return 0;
    const std::string type = text(device, driver, "type");
    if (type == "gpu") return 7;
    if (type != "mig") return 0;
    const auto profile = parseMigProfile(text(device, driver, "profile"));
    return profile ? std::min(profile->computeSlices, 7) : 0;
}

bool draMigDevice(const Device& device, const std::string& driver) {
    return driver == kNvidiaGpuDriver && text(device, driver, "type") == "mig";
}

std::string draPhysicalGpu(const Device& device, const std::string& driver) {
    if (driver != kNvidiaGpuDriver) return {};
    const std::string type = text(device, driver, "type");
    if (type != "gpu" && type != "mig") return {};
    std::string id = text(device, driver, type == "gpu" ? "uuid" : "parentUUID");
    return id.empty() ? device.name : id;
}

void readDraGpus(Cluster& cluster) {
    struct Seen {
        std::set<std::string> gpus;    // uuids (or names) of whole-GPU devices
        std::set<std::string> parents; // parentUUIDs of MIG devices
        std::map<std::string, int32_t> mig;
        std::string model;
        int64_t memoryBytes = 0;
    };
    std::map<std::string, Seen> byNode;
    for (const auto& slice : cluster.dra.resourceSlices) {
        if (slice.driver != kNvidiaGpuDriver || slice.nodeName.empty()) continue;
        Seen& seen = byNode[slice.nodeName];
        for (const auto& d : slice.devices) {
            std::string type = text(d, slice.driver, "type");
            std::string product = text(d, slice.driver, "productName");
            if (seen.model.empty()) seen.model = product;
            if (type == "gpu") {
                std::string uuid = text(d, slice.driver, "uuid");
                seen.gpus.insert(uuid.empty() ? d.name : uuid);
                if (auto m = d.capacity.find("memory"); m != d.capacity.end() && !seen.memoryBytes)
                    seen.memoryBytes = m->second / 1000;
            } else if (type == "mig") {
                std::string parent = text(d, slice.driver, "parentUUID");
                seen.parents.insert(parent.empty() ? d.name : parent);
                std::string profile = text(d, slice.driver, "profile");
                if (!profile.empty()) ++seen.mig[profile];
            }
        }
    }
    for (auto& n : cluster.nodes) {
        auto it = byNode.find(n.name);
        if (it == byNode.end() || n.gpus.count > 0 || !n.gpus.mig.empty()) continue;
        const Seen& seen = it->second;
        std::set<std::string> physical = seen.gpus;
        physical.insert(seen.parents.begin(), seen.parents.end());
        if (physical.empty()) continue;
        n.gpus.exposure = "dra";
        n.gpus.count = 0; // nothing asks for them by an extended resource of the node
        n.gpus.physical = int32_t(physical.size());
        if (!seen.model.empty()) n.gpus.model = seen.model;
        if (seen.memoryBytes) n.gpus.memoryBytes = seen.memoryBytes;
        n.gpus.mig.clear();
        for (const auto& [profile, count] : seen.mig) n.gpus.mig.push_back(MigSlices{profile, count});
    }
}

DraGpuHold draGpusHeld(const Cluster& cluster, const Pod& pod) {
    DraGpuHold hold;
    if (pod.resourceClaims.empty() || pod.nodeName.empty()) return hold;
    // The node's physical GPUs in slice order, and its devices by (pool, name).
    std::map<std::string, int32_t> gpuIndex;                              // uuid (or device name) -> index
    std::map<std::pair<std::string, std::string>, const Device*> devices; // (pool, device)
    for (const auto& slice : cluster.dra.resourceSlices) {
        if (slice.driver != kNvidiaGpuDriver || slice.nodeName != pod.nodeName) continue;
        for (const auto& d : slice.devices) {
            devices[{slice.pool, d.name}] = &d;
            const std::string type = text(d, slice.driver, "type");
            std::string id =
                type == "gpu" ? text(d, slice.driver, "uuid") : text(d, slice.driver, "parentUUID");
            if (type != "gpu" && type != "mig") continue;
            if (id.empty()) id = d.name;
            gpuIndex.try_emplace(id, int32_t(gpuIndex.size()));
        }
    }
    for (const auto& ref : pod.resourceClaims) {
        const std::string name =
            !ref.resourceClaimName.empty() ? ref.resourceClaimName : ref.generatedClaimName;
        for (const auto& claim : cluster.dra.resourceClaims) {
            if (claim.ns != pod.ns || claim.name != name || !claim.allocation) continue;
            for (const auto& a : claim.allocation->devices) {
                auto it = devices.find({a.pool, a.device});
                if (a.driver != kNvidiaGpuDriver || it == devices.end()) continue;
                const Device& d = *it->second;
                const std::string type = text(d, a.driver, "type");
                if (type == "gpu") {
                    std::string uuid = text(d, a.driver, "uuid");
                    hold.gpus.push_back(gpuIndex[uuid.empty() ? d.name : uuid]);
                } else if (type == "mig") {
                    hold.migProfiles.push_back(text(d, a.driver, "profile"));
                }
            }
        }
    }
    return hold;
}

} // namespace gantry
