#include "gpumap/fragmentation_view.h"

#include "model/gpu_exposure.h"

#include <QObject>
#include <algorithm>
#include <set>
#include <unordered_map>

namespace gantry::studio {
namespace {

frag::TaskShape shapeOf(const ResourceList& requests, const GpuRequest& gpu,
                        const frag::GpuModelTable& models) {
    return frag::taskShape(requests.get(res::Cpu), podGpuRequest(requests, gpu), models);
}

// Marks the free MIG instances whose profile a pod asks for (nvidia.com/mig-<profile>): a what-if
// workload's or a pod of the cluster that is not done.
void markAskedMigSlots(const Project& project, GpuOccupancy& occ) {
    if (occ.migSlots.empty()) return;
    std::set<std::string> asked;
    auto add = [&](const ResourceList& requests) {
        for (const auto& [name, amount] : requests)
            if (amount > 0)
                if (std::string profile = migProfileOfResource(name); !profile.empty()) asked.insert(profile);
    };
    for (const auto& w : project.workloads) add(w.podRequests);
    for (const auto& p : project.cluster.pods)
        if (p.phase != PodPhase::Succeeded && p.phase != PodPhase::Failed) add(p.requests);
    for (auto& slot : occ.migSlots) slot.asked = asked.count(slot.profile) > 0;
}

} // namespace

frag::GpuModelTable gpuModelTable(const Cluster& cluster) {
    frag::GpuModelTable models;
    for (const auto& n : cluster.nodes) models.add(n.gpus.model);
    return models;
}

std::vector<frag::TaskShape> jobMixShapes(const Project& project, const frag::GpuModelTable& models,
                                          QString* basis) {
    std::vector<frag::TaskShape> shapes;
    constexpr size_t Cap = 200000; // the shape distribution, not the exact count, is what matters
    for (const auto& w : project.workloads) {
        auto s = shapeOf(w.podRequests, w.gpu, models);
        size_t pods = size_t(std::max(0, w.jobs)) * size_t(std::max(0, w.replicas));
        for (size_t i = 0; i < pods && shapes.size() < Cap; ++i) shapes.push_back(s);
    }
    size_t fromTemplates = shapes.size();
    for (const auto& p : project.cluster.pods)
        if (p.nodeName.empty() && p.phase == PodPhase::Pending && shapes.size() < Cap)
            shapes.push_back(shapeOf(p.requests, p.gpu, models));
    if (basis) {
        if (fromTemplates && shapes.size() > fromTemplates)
            *basis = QObject::tr("what-if workloads and pending pods");
        else if (fromTemplates)
            *basis = QObject::tr("what-if workloads");
        else if (!shapes.empty())
            *basis = QObject::tr("pending pods");
    }
    if (shapes.empty()) {
        for (const auto& p : project.cluster.pods)
            if (!p.nodeName.empty() && p.phase == PodPhase::Running && shapes.size() < Cap)
                shapes.push_back(shapeOf(p.requests, p.gpu, models));
        if (basis && !shapes.empty()) *basis = QObject::tr("running pods");
    }
    // Fragmentation is about GPU tasks: CPU-only shapes would count every idle GPU as fragmented.
    shapes.erase(std::remove_if(shapes.begin(), shapes.end(),
                                [](const frag::TaskShape& s) { return s.gpuCount == 0; }),
                 shapes.end());
    return shapes;
}

std::vector<int64_t> boundCpuPerNode(const Cluster& cluster) {
    std::unordered_map<std::string, size_t> index;
    for (size_t i = 0; i < cluster.nodes.size(); ++i) index.emplace(cluster.nodes[i].name, i);
    std::vector<int64_t> used(cluster.nodes.size(), 0);
    for (const auto& p : cluster.pods) {
        if (p.nodeName.empty() || p.phase == PodPhase::Succeeded || p.phase == PodPhase::Failed) continue;
        if (auto it = index.find(p.nodeName); it != index.end()) used[it->second] += p.requests.get(res::Cpu);
    }
    return used;
}

FragmentationSummary measureFragmentation(const Project& project, GpuOccupancy& occ,
                                          const std::vector<int64_t>& cpuUsed) {
    FragmentationSummary summary;
    markAskedMigSlots(project, occ);
    const auto& cluster = project.cluster;
    auto models = gpuModelTable(cluster);
    auto shapes = jobMixShapes(project, models, &summary.basis);
    if (shapes.empty()) return summary;
    frag::TargetWorkload workload = frag::targetWorkload(shapes);
    summary.shapes = int(workload.shapes.size());
    frag::GpuPodFloor floor{shapes.front().cpuMilli, 0};
    for (const auto& shape : shapes) floor.cpuMilli = std::min(floor.cpuMilli, shape.cpuMilli);
    occ.idleWhy.assign(occ.usedMilli.size(), frag::IdleClass::None);
    std::vector<frag::NodeState> states;
    states.reserve(cluster.nodes.size());
    for (size_t i = 0; i < cluster.nodes.size(); ++i) {
        const Node& n = cluster.nodes[i];
        frag::NodeState s = frag::makeNode(n.allocatable.get(res::Cpu), n.allocatable.get(res::Memory) >> 20,
                                           occ.gpuCount(int(i)), models.find(n.gpus.model));
        if (i < cpuUsed.size()) s.cpuLeft = std::max<int64_t>(0, s.cpuLeft - cpuUsed[i]);
        for (int g = 0; g < s.gpuCount; ++g)
            s.gpuLeft[size_t(g)] = int16_t(1000 - occ.usedMilli[size_t(occ.gpuIndex(int(i), g))]);
        // Cordoned and not-ready nodes take no new work: all their idle GPU capacity is unusable.
        if (!n.ready || n.unschedulable) s.cpuLeft = 0;
        auto perGpu = frag::gpuFragmentation(s, workload);
        for (int g = 0; g < s.gpuCount; ++g) {
            int left = s.gpuLeft[size_t(g)];
            occ.fragmentation[size_t(occ.gpuIndex(int(i), g))] =
                left > 0 ? float(perGpu[size_t(g)] / left) : 0.f;
        }
        frag::idleClasses(
            s, workload, floor,
            std::span<frag::IdleClass>(occ.idleWhy.data() + occ.gpuIndex(int(i), 0), size_t(s.gpuCount)));
        states.push_back(s);
    }
    auto c = frag::clusterFragmentation(states, workload);
    summary.measured = true;
    summary.overTotalPct = c.fragOverTotalPct();
    summary.overIdlePct = c.fragOverIdlePct();
    return summary;
}

} // namespace gantry::studio
