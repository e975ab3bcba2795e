#pragma once
// How a node's GPUs are exposed, read into GpuDevices: the NVIDIA device plugin's resources with GPU
// feature discovery's labels (MIG strategies none, single and mixed), or the NVIDIA DRA driver's
// ResourceSlices (whole GPUs, static MIG devices, dynamic MIG partitions).
#include "model/cluster.h"
#include "model/node.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gantry {

// A MIG profile name: "1g.10gb", "1g.10gb+me", "7g.80gb" (a leading "mig-" is dropped).
struct MigProfile {
    int computeSlices = 0; // the "g" count of 7
    double memoryGB = 0;
    bool mediaExtensions = false; // "+me": the one instance of the GPU that holds its media engines
    bool operator==(const MigProfile&) const = default;
};
std::optional<MigProfile> parseMigProfile(std::string_view name);

// The most instances of the profile one GPU holds: min(7 / compute slices, 8 / memory slices), a
// GPU's memory being 8 slices, and one "+me" instance (NVIDIA MIG user guide, "Supported MIG
// Profiles"; the A30's 4 compute slices come out of its memory bound). gpuMemoryGB 0: not known,
// the memory bound is left out.
int migInstancesPerGpu(const MigProfile& profile, double gpuMemoryGB);
// The memory slices (of 8) an instance takes; without the GPU's memory, its compute slices.
int migMemorySlices(const MigProfile& profile, double gpuMemoryGB);
// A GPU's memory in GB as MIG profile names count it: from the bytes known, else from the product
// name ("NVIDIA-A100-SXM4-80GB" -> 80); 0 when neither says.
double gpuMemoryGB(const GpuDevices& gpus);

// "nvidia.com/mig-1g.10gb" -> "1g.10gb"; "" for any other resource.
std::string migProfileOfResource(std::string_view resource);

// The device plugin's view of a node (NVIDIA/k8s-device-plugin internal/lm, mig-strategy.go):
//   none:   nvidia.com/gpu counts whole GPUs;
//   mixed:  nvidia.com/mig-<profile> per MIG type, nvidia.com/gpu the GPUs not in MIG mode, and
//           the label nvidia.com/gpu.count every physical GPU;
//   single: nvidia.com/gpu and gpu.count count MIG instances; gpu.product ends in -MIG-<profile>.
// Fills count, resourceName, model, memoryBytes, physical and mig of `gpus`. *note: why the
// physical count is an estimate, when it is one.
void readDevicePluginGpus(const ResourceList& allocatable, const Labels& labels, GpuDevices& gpus,
                          std::string* note);

// Nodes whose GPUs the NVIDIA DRA driver (gpu.nvidia.com) publishes in ResourceSlices and the device
// plugin does not: their physical GPUs (a GPU split into MIG devices once), model, memory and MIG
// devices per profile. GPU feature discovery's labels on such nodes describe the same GPUs.
void readDraGpus(Cluster& cluster);

// What a pod holds through its allocated claims of the NVIDIA DRA driver's devices on its node:
// whole GPUs by their index among the node's physical GPUs (in the order its slices list them, a
// MIG device standing for its parent), and MIG instances by profile.
struct DraGpuHold {
    std::vector<int32_t> gpus;
    std::vector<std::string> migProfiles;
};
DraGpuHold draGpusHeld(const Cluster& cluster, const Pod& pod);

// The share of a physical GPU a device of the NVIDIA DRA driver is, in MIG compute slices: 7 for a
// whole GPU, its profile's for a MIG device (static or a dynamic partition); 0 for any other device.
int32_t draDeviceComputeSlices(const Device& device, const std::string& driver);
// Whether it is a MIG device (type mig) of the NVIDIA DRA driver.
bool draMigDevice(const Device& device, const std::string& driver);
// The physical GPU a device of the NVIDIA DRA driver is or is part of: its uuid, or its parentUUID
// for a MIG device, else its name; empty for any other device.
std::string draPhysicalGpu(const Device& device, const std::string& driver);

// The NVIDIA DRA driver's name.
inline constexpr std::string_view kNvidiaGpuDriver = "gpu.nvidia.com";

} // namespace gantry
