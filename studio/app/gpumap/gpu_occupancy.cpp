#include "gpumap/gpu_occupancy.h"

#include "model/gpu_exposure.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace gantry::studio {

int gpuDeviceCount(const Node& node) {
    if (node.gpus.physical > 0 || !node.gpus.mig.empty()) return node.gpus.physicalGpus();
    if (node.gpus.count > 0) return node.gpus.count;
    int64_t milli = 0;
    for (const auto& [name, amount] : node.allocatable)
        if (isGpuResource(name)) milli += amount;
    return int(milli / 1000);
}

GpuRequest podGpuRequest(const ResourceList& requests, const GpuRequest& gpu) {
    if (gpu.count > 0) return gpu;
    int64_t milli = 0;
    for (const auto& [name, amount] : requests)
        if (isGpuResource(name)) milli += amount;
    GpuRequest stated = gpu;
    if (milli > 0) {
        stated.count = int32_t((milli + 999) / 1000);
        stated.milliPerGpu = milli >= 1000 ? 1000 : int32_t(milli);
    }
    return stated;
}

std::vector<GpuPlacement> placementsFromCluster(const Cluster& cluster, std::vector<std::string>* jobs,
                                                std::vector<std::string>* queues) {
    std::unordered_map<std::string, int> nodeIndex;
    nodeIndex.reserve(cluster.nodes.size());
    for (size_t i = 0; i < cluster.nodes.size(); ++i) nodeIndex.emplace(cluster.nodes[i].name, int(i));
    std::unordered_map<std::string, const PodGroup*> groups;
    for (const auto& g : cluster.podGroups) groups.emplace(g.key(), &g);
    std::unordered_map<std::string, int> jobIndex, queueIndex;
    auto intern = [](std::unordered_map<std::string, int>& index, std::vector<std::string>* names,
                     const std::string& name) {
        auto [it, inserted] = index.emplace(name, int(names->size()));
        if (inserted) names->push_back(name);
        return it->second;
    };

    std::vector<GpuPlacement> out;
    for (const auto& pod : cluster.pods) {
        if (pod.nodeName.empty() || pod.phase == PodPhase::Succeeded || pod.phase == PodPhase::Failed)
            continue;
        auto node = nodeIndex.find(pod.nodeName);
        if (node == nodeIndex.end()) continue;
        GpuRequest gpu = podGpuRequest(pod.requests, pod.gpu);
        std::vector<int32_t> indices = pod.gpuIndices;
        std::vector<std::string> mig;
        for (const auto& [name, amount] : pod.requests)
            if (auto profile = migProfileOfResource(name); !profile.empty())
                for (int64_t i = 0; i < amount / 1000; ++i) mig.push_back(profile);
        // Devices its allocated DRA claims hold on the node.
        DraGpuHold dra = draGpusHeld(cluster, pod);
        if (!dra.gpus.empty()) {
            gpu.count = int32_t(dra.gpus.size());
            gpu.milliPerGpu = 1000;
            indices = dra.gpus;
        }
        mig.insert(mig.end(), dra.migProfiles.begin(), dra.migProfiles.end());
        if (gpu.count <= 0 && mig.empty()) continue;
        GpuPlacement p;
        p.node = node->second;
        p.gpu = gpu;
        p.migProfiles = std::move(mig);
        p.indices = std::move(indices);
        p.cpuMilli = pod.requests.get(res::Cpu);
        std::string job = pod.key();
        std::string queue;
        if (!pod.group.empty()) {
            job = pod.ns + '/' + pod.group;
            if (auto g = groups.find(job); g != groups.end()) queue = g->second->queue;
        } else if (!pod.ownerName.empty()) {
            job = pod.ns + '/' + pod.ownerName;
        }
        p.job = intern(jobIndex, jobs, job);
        p.queue = queue.empty() ? -1 : intern(queueIndex, queues, queue);
        out.push_back(std::move(p));
    }
    return out;
}

namespace {

// The devices whole-GPU pods can have: with MIG, the GPUs not in MIG mode come first (the device
// plugin's nvidia.com/gpu under the mixed strategy); the partitioned ones follow.
int wholeGpus(const Node& node) {
    if (node.gpus.mig.empty()) return gpuDeviceCount(node);
    return node.gpus.exposure.empty() ? std::min(node.gpus.count, node.gpus.physicalGpus()) : 0;
}

// The MIG instances of each node laid out on its partitioned GPUs, largest first, each on the first
// GPU with compute slices left; the instances pods hold (a device plugin's nvidia.com/mig-<profile>
// request) are the first of their profile.
void layOutMig(const Cluster& cluster, const std::vector<GpuPlacement>& placements, GpuOccupancy& occ) {
    bool any = false;
    for (const auto& n : cluster.nodes) any = any || !n.gpus.mig.empty();
    if (!any) return;
    // Who holds instances of which profile on each node.
    std::vector<std::map<std::string, std::vector<const GpuPlacement*>>> holders(cluster.nodes.size());
    for (const auto& p : placements) {
        if (p.node < 0 || size_t(p.node) >= cluster.nodes.size()) continue;
        const auto& gpus = cluster.nodes[size_t(p.node)].gpus;
        for (const auto& profile : p.migProfiles) holders[size_t(p.node)][profile].push_back(&p);
        // Under the single strategy nvidia.com/gpu is an instance of the node's one profile.
        if (gpus.exposure == "mig-single")
            for (int32_t i = 0; i < p.gpu.count; ++i)
                holders[size_t(p.node)][gpus.mig.front().profile].push_back(&p);
    }
    occ.migOffset.assign(occ.usedMilli.size() + 1, 0);
    std::vector<std::vector<MigSlot>> perGpu(occ.usedMilli.size());
    for (size_t n = 0; n < cluster.nodes.size(); ++n) {
        const auto& gpus = cluster.nodes[n].gpus;
        if (gpus.mig.empty()) continue;
        const int first = occ.gpuOffset[n] + wholeGpus(cluster.nodes[n]), end = occ.gpuOffset[n + 1];
        std::vector<MigSlot> instances;
        const double memoryGB = gpuMemoryGB(gpus);
        for (const auto& slice : gpus.mig) {
            auto p = parseMigProfile(slice.profile);
            auto& held = holders[n][slice.profile];
            for (int32_t i = 0; i < slice.count; ++i) {
                MigSlot s{slice.profile, int8_t(p ? p->computeSlices : 1),
                          int8_t(p ? migMemorySlices(*p, memoryGB) : 1), -1, -1};
                if (size_t(i) < held.size()) {
                    s.job = held[size_t(i)]->job;
                    s.queue = held[size_t(i)]->queue;
                }
                instances.push_back(std::move(s));
            }
        }
        std::stable_sort(instances.begin(), instances.end(), [](const MigSlot& a, const MigSlot& b) {
            return a.computeSlices > b.computeSlices;
        });
        // Compute slices (7) and memory slices (8) left on each partitioned GPU.
        std::vector<std::pair<int, int>> left(size_t(std::max(0, end - first)), {7, 8});
        for (auto& s : instances) {
            for (int g = first; g < end; ++g) {
                auto& [compute, memory] = left[size_t(g - first)];
                if (compute < s.computeSlices || memory < s.memorySlices) continue;
                compute -= s.computeSlices;
                memory -= s.memorySlices;
                if (s.job >= 0) {
                    const int milli = s.computeSlices * 1000 / 7;
                    occ.usedMilli[size_t(g)] = uint16_t(std::min(1000, occ.usedMilli[size_t(g)] + milli));
                    occ.allocatedMilli += milli;
                    occ.job[size_t(g)] = s.job;
                    occ.queue[size_t(g)] = s.queue;
                }
                perGpu[size_t(g)].push_back(std::move(s));
                break;
            }
        }
    }
    for (size_t g = 0; g < perGpu.size(); ++g) {
        occ.migOffset[g] = int32_t(occ.migSlots.size());
        for (auto& s : perGpu[g]) occ.migSlots.push_back(std::move(s));
    }
    occ.migOffset.back() = int32_t(occ.migSlots.size());
}

} // namespace

GpuOccupancy buildOccupancy(const Cluster& cluster, const std::vector<GpuPlacement>& placements,
                            std::vector<std::string> jobs, std::vector<std::string> queues) {
    GpuOccupancy occ;
    occ.jobs = std::move(jobs);
    occ.queues = std::move(queues);
    occ.gpuOffset.resize(cluster.nodes.size() + 1);
    int32_t total = 0;
    for (size_t i = 0; i < cluster.nodes.size(); ++i) {
        occ.gpuOffset[i] = total;
        total += gpuDeviceCount(cluster.nodes[i]);
    }
    occ.gpuOffset.back() = total;
    occ.totalGpus = total;
    occ.usedMilli.assign(size_t(total), 0);
    occ.job.assign(size_t(total), -1);
    occ.queue.assign(size_t(total), -1);
    occ.holders.assign(size_t(total), 0);
    occ.fragmentation.assign(size_t(total), std::numeric_limits<float>::quiet_NaN());
    std::vector<uint16_t> jobShare(size_t(total), 0); // share of the recorded holder

    auto take = [&](int g, int milli, const GpuPlacement& p) {
        auto& used = occ.usedMilli[size_t(g)];
        used = uint16_t(std::min(1000, used + milli));
        occ.allocatedMilli += milli;
        if (occ.holders[size_t(g)] < 255) ++occ.holders[size_t(g)];
        if (milli > jobShare[size_t(g)]) {
            jobShare[size_t(g)] = uint16_t(milli);
            occ.job[size_t(g)] = p.job;
            occ.queue[size_t(g)] = p.queue;
        }
    };

    // Known device indices first, so the free-device search below sees them taken.
    std::vector<const GpuPlacement*> rest;
    for (const auto& p : placements) {
        if (p.node < 0 || size_t(p.node) >= cluster.nodes.size()) continue;
        int first = occ.gpuOffset[size_t(p.node)], count = occ.gpuCount(p.node);
        if (!p.indices.empty()) {
            for (int32_t i : p.indices)
                if (i >= 0 && i < count) take(first + i, p.gpu.milliPerGpu, p);
        } else {
            rest.push_back(&p);
        }
    }
    for (const auto* p : rest) {
        if (cluster.nodes[size_t(p->node)].gpus.exposure == "mig-single") continue; // instances: layOutMig
        int first = occ.gpuOffset[size_t(p->node)], count = wholeGpus(cluster.nodes[size_t(p->node)]);
        int share = std::clamp<int>(p->gpu.milliPerGpu, 1, 1000);
        for (int k = 0; k < p->gpu.count; ++k) {
            int best = -1;
            for (int i = 0; i < count; ++i) {
                int used = occ.usedMilli[size_t(first + i)];
                if (used + share > 1000) continue;
                if (share == 1000) {
                    best = i; // whole GPU: lowest free device
                    break;
                }
                if (best < 0 || used > occ.usedMilli[size_t(first + best)]) best = i; // shares: best fit
            }
            if (best < 0) {
                occ.unplacedMilli += share;
                continue;
            }
            take(first + best, share, *p);
        }
    }
    layOutMig(cluster, placements, occ);
    return occ;
}

} // namespace gantry::studio
