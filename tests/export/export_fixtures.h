#pragma once
// A small GPU cluster designed in C++: H100 and A100 nodes over two zones and four racks, CPU nodes,
// a three-level Volcano queue tree, priority classes and three what-if workloads.
#include "export/export.h"
#include "validation/manifest_validator.h"

#include <QString>
#include <QStringList>

namespace gantry::test {

inline Node gpuNode(const std::string& name, const std::string& model, bool productLabel,
                    const std::string& zone, const std::string& rack) {
    Node n;
    n.name = name;
    n.pool = model.empty() ? "cpu" : model;
    n.gpus.model = model;
    n.gpus.count = model.empty() ? 0 : 8;
    n.allocatable = {{"cpu", 96000}, {"memory", int64_t(1) << 40}};
    if (!model.empty()) {
        n.allocatable.set("nvidia.com/gpu", 8000);
        n.taints.push_back({"nvidia.com/gpu", "present", TaintEffect::NoSchedule});
        if (productLabel) n.labels["nvidia.com/gpu.product"] = model;
    }
    n.capacity = n.allocatable;
    n.labels["topology.kubernetes.io/zone"] = zone;
    n.labels["topology.gantry.io/rack"] = rack;
    return n;
}

inline Queue volcanoQueue(const std::string& name, const std::string& parent, ResourceList deserved,
                          ResourceList capability = {}, ResourceList guarantee = {}) {
    Queue q;
    q.name = name;
    q.parent = parent;
    q.deserved = std::move(deserved);
    q.capability = std::move(capability);
    q.guarantee = std::move(guarantee);
    q.source = SourceRef{"designed.yaml", 1, 1, 0};
    return q;
}

inline Project gpuProject() {
    Project p;
    p.name = "lab";
    Cluster& c = p.cluster;
    c.name = "lab";
    c.topologyLevels = {{"zone", "topology.kubernetes.io/zone"}, {"rack", "topology.gantry.io/rack"}};
    c.nodes = {gpuNode("h100-0", "H100", true, "z1", "r1"),  gpuNode("h100-1", "H100", true, "z1", "r1"),
               gpuNode("h100-2", "H100", true, "z1", "r2"),  gpuNode("h100-3", "H100", true, "z1", "r2"),
               gpuNode("a100-0", "A100", false, "z2", "r3"), gpuNode("a100-1", "A100", false, "z2", "r3"),
               gpuNode("cpu-0", "", false, "z2", "r4"),      gpuNode("cpu-1", "", false, "z2", "r4")};
    const int64_t gpu = 1000, core = 1000, gi = int64_t(1) << 30;
    c.queues = {volcanoQueue("org", "", {{"nvidia.com/gpu", 32 * gpu}, {"cpu", 256 * core}},
                             {{"nvidia.com/gpu", 48 * gpu}}, {{"nvidia.com/gpu", 8 * gpu}}),
                volcanoQueue("team-a", "org",
                             {{"nvidia.com/gpu", 16 * gpu}, {"cpu", 128 * core}, {"memory", 512 * gi}},
                             {{"nvidia.com/gpu", 32 * gpu}}, {{"nvidia.com/gpu", 4 * gpu}}),
                volcanoQueue("team-b", "org", {{"nvidia.com/gpu", 8 * gpu}, {"cpu", 1500}}),
                volcanoQueue("batch", "", {}, {{"nvidia.com/gpu", 8 * gpu}})};
    c.queues[1].weight = 3;
    c.queues[3].dequeueStrategy = "fifo";
    c.priorityClasses = {{"high", 1000, false, "", "urgent training", false, {}},
                         {"low", 10, false, "", "", false, {}}};
    WorkloadTemplate train;
    train.name = "train";
    train.ns = "ml";
    train.queue = "team-a";
    train.priorityClass = "high";
    train.jobs = 4;
    train.replicas = 4;
    train.minMember = 4;
    train.podRequests = {{"cpu", 32 * core}, {"memory", 256 * gi}, {"nvidia.com/gpu", 8 * gpu}};
    train.gpu.count = 8;
    train.networkTopology.mode = NetworkTopologyConstraint::Mode::Hard;
    train.networkTopology.highestTierAllowed = 1;
    train.tolerations.push_back({"nvidia.com/gpu", true, "", TaintEffect::NoSchedule, std::nullopt});
    WorkloadTemplate notebook;
    notebook.name = "notebook";
    notebook.ns = "ml";
    notebook.queue = "team-b";
    notebook.replicas = 1;
    notebook.podRequests = {{"cpu", 4 * core}, {"memory", 16 * gi}};
    notebook.gpu.count = 1;
    notebook.gpu.milliPerGpu = 500;
    notebook.preemptable = false;
    WorkloadTemplate sweep;
    sweep.name = "sweep";
    sweep.ns = "batch";
    sweep.queue = "batch";
    sweep.replicas = 8;
    sweep.minMember = 2;
    sweep.podRequests = {{"cpu", 2 * core}, {"nvidia.com/gpu", gpu}};
    sweep.gpu.count = 1;
    p.workloads = {train, notebook, sweep};
    return p;
}

inline QStringList messages(const Diagnostics& d, Severity severity) {
    QStringList out;
    for (const auto& x : d)
        if (x.severity == severity) out << QString::fromStdString(x.str());
    return out;
}

// The objects of a bundle of one kind, in order.
inline std::vector<Json> objectsOf(const ExportBundle& b, const std::string& kind) {
    std::vector<Json> out;
    for (const auto& o : b.objects)
        if (o.object.value("kind", "") == kind) out.push_back(o.object);
    return out;
}

inline const Json* named(const std::vector<Json>& objects, const std::string& name) {
    for (const auto& o : objects)
        if (o["metadata"]["name"] == name) return &o;
    return nullptr;
}

inline bool hasWarning(const ExportBundle& b, const std::string& text) {
    for (const auto& w : b.warnings)
        if (w.message.find(text) != std::string::npos) return true;
    return false;
}

} // namespace gantry::test
