#include "report/cluster_summary.h"

#include "model/gpu_exposure.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace gantry {

std::string shortResources(const ResourceList& list) {
    if (list.empty()) return "-";
    std::string gpu, rest;
    for (const auto& [name, amount] : list) {
        std::string item = name + "=" + formatAmount(name, amount);
        std::string& into = isGpuResource(name) ? gpu : rest;
        into += (into.empty() ? "" : ", ") + item;
    }
    return gpu.empty() ? rest : rest.empty() ? gpu : gpu + ", " + rest;
}

ClusterSummary summarize(const Project& project) {
    const Cluster& c = project.cluster;
    ClusterSummary s;
    s.name = project.name.empty() ? c.name : project.name;
    s.description = project.description;
    s.nodes = int(c.nodes.size());
    std::map<std::pair<std::string, std::string>, GpuModelSummary> models;
    for (const auto& n : c.nodes) {
        if (n.ready) ++s.readyNodes;
        if (n.unschedulable) ++s.unschedulableNodes;
        s.allocatable += n.allocatable;
        // Physical GPUs: a GPU split into MIG instances once, DRA devices as much as the device plugin's.
        const int32_t gpus = n.gpus.physicalGpus();
        s.gpus += gpus;
        std::string model = gpus > 0 ? (n.gpus.model.empty() ? "(unknown model)" : n.gpus.model) : "";
        std::string resource = gpus == 0                  ? ""
                               : n.gpus.exposure == "dra" ? "DRA " + std::string(kNvidiaGpuDriver)
                                                          : n.gpus.resourceName;
        if (gpus > 0 && !n.gpus.mig.empty()) resource += n.gpus.exposure == "dra" ? " (MIG)" : " + MIG";
        auto& m = models[{model, resource}];
        m.model = model;
        m.resource = resource;
        ++m.nodes;
        m.gpusPerNode = std::max(m.gpusPerNode, int(gpus));
        m.gpus += gpus;
        if (n.gpus.memoryBytes > 0) m.memoryBytes = n.gpus.memoryBytes;
        for (const auto& slice : n.gpus.mig) s.migSlices[slice.profile] += slice.count;
    }
    s.deviceClasses = int(c.dra.deviceClasses.size());
    s.resourceSlices = int(c.dra.resourceSlices.size());
    for (const auto& slice : c.dra.resourceSlices) s.draDevices += int64_t(slice.devices.size());
    s.resourceClaims = int(c.dra.resourceClaims.size());
    for (const auto& claim : c.dra.resourceClaims) s.allocatedClaims += claim.allocation ? 1 : 0;
    s.resourceClaimTemplates = int(c.dra.resourceClaimTemplates.size());
    for (auto& [key, m] : models) s.gpuModels.push_back(m);
    std::sort(s.gpuModels.begin(), s.gpuModels.end(), [](const GpuModelSummary& a, const GpuModelSummary& b) {
        if (a.model.empty() != b.model.empty()) return b.model.empty();
        if (a.gpus != b.gpus) return a.gpus > b.gpus;
        return a.model < b.model;
    });

    for (const auto& level : c.topologyLevels) {
        TopologyLevelSummary t{level.name, level.nodeLabel, {}};
        std::map<std::string, int> domains;
        for (const auto& n : c.nodes) {
            auto it = n.labels.find(level.nodeLabel);
            if (it != n.labels.end()) ++domains[it->second];
        }
        t.domains.assign(domains.begin(), domains.end());
        s.topology.push_back(std::move(t));
    }
    std::map<int, int> tiers;
    for (const auto& h : c.hyperNodes) ++tiers[h.tier];
    s.hyperNodesByTier.assign(tiers.begin(), tiers.end());

    // Queue tree: roots are queues with no parent, or whose parent is not a queue (the implicit root).
    std::set<std::string> names;
    for (const auto& q : c.queues) names.insert(q.name);
    std::map<std::string, std::vector<const Queue*>> children;
    std::vector<const Queue*> roots;
    for (const auto& q : c.queues) {
        if (q.parent.empty() || !names.count(q.parent) || q.parent == q.name)
            roots.push_back(&q);
        else
            children[q.parent].push_back(&q);
    }
    std::set<const Queue*> seen;
    std::vector<std::pair<const Queue*, int>> stack;
    for (auto it = roots.rbegin(); it != roots.rend(); ++it) stack.emplace_back(*it, 0);
    while (!stack.empty()) {
        auto [q, depth] = stack.back();
        stack.pop_back();
        if (!seen.insert(q).second) continue;
        s.queueTree.push_back(QueueLine{depth, q});
        auto& kids = children[q->name];
        for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.emplace_back(*it, depth + 1);
    }
    // Queues in a cycle are reachable from no root; list them flat so nothing is hidden.
    for (const auto& q : c.queues)
        if (!seen.count(&q)) s.queueTree.push_back(QueueLine{0, &q});

    s.pods = int(c.pods.size());
    for (const auto& p : c.pods) {
        bool finished = p.phase == PodPhase::Succeeded || p.phase == PodPhase::Failed;
        if (finished)
            ++s.podsFinished;
        else if (!p.nodeName.empty()) {
            ++s.podsBound;
            s.gpusBound += p.gpu.totalMilli();
        } else
            ++s.podsPending;
    }
    s.gpusBound /= 1000;
    s.podGroups = int(c.podGroups.size());
    s.workloadTemplates = int(project.workloads.size());
    for (const auto& w : project.workloads) {
        s.workloadJobs += w.jobs;
        s.workloadPods += int64_t(w.jobs) * w.replicas;
    }
    return s;
}

namespace {

std::string pad(std::string s, size_t width) {
    if (s.size() < width) s.resize(width, ' ');
    return s;
}

std::string rpad(const std::string& s, size_t width) {
    return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string queueDetails(const Queue& q) {
    std::string out;
    auto add = [&](const std::string& part) { out += (out.empty() ? "" : "  ") + part; };
    if (q.kind != Queue::Kind::Queue) add(std::string("[") + toString(q.kind) + "]");
    if (q.weight != 1) add("weight " + std::to_string(q.weight));
    if (q.priority != 0) add("priority " + std::to_string(q.priority));
    if (q.state != QueueState::Open) add(toString(q.state));
    if (!q.reclaimable) add("not reclaimable");
    if (!q.guarantee.empty()) add("guarantee " + shortResources(q.guarantee));
    if (!q.deserved.empty()) add("deserved " + shortResources(q.deserved));
    if (!q.capability.empty()) add("capability " + shortResources(q.capability));
    for (const auto& g : q.resourceGroups)
        for (const auto& f : g.flavors) {
            std::string quota;
            for (const auto& r : f.resources) {
                std::string item = r.resource + "=" + formatAmount(r.resource, r.nominal);
                if (r.borrowingLimit) item += " (borrow " + formatAmount(r.resource, *r.borrowingLimit) + ")";
                if (r.lendingLimit) item += " (lend " + formatAmount(r.resource, *r.lendingLimit) + ")";
                quota += (quota.empty() ? "" : ", ") + item;
            }
            add("flavor " + f.flavor + ": " + quota);
        }
    if (!q.guaranteed.empty()) add("guaranteed " + shortResources(q.guaranteed));
    if (!q.max.empty()) add("max " + shortResources(q.max));
    if (q.maxApplications) add("max apps " + std::to_string(q.maxApplications));
    return out;
}

std::string bytesText(int64_t b) {
    return b > 0 ? formatAmount(res::Memory, b) : "-";
}

} // namespace

std::string formatSummary(const Project& project, const ClusterSummary& s, const std::string& origin) {
    const Cluster& c = project.cluster;
    std::ostringstream o;
    o << (s.name.empty() ? "(unnamed cluster)" : s.name) << "\n";
    if (!origin.empty()) o << "  " << origin << "\n";
    if (!s.description.empty()) o << "  " << s.description << "\n";

    o << "\nNodes: " << s.nodes << " (" << s.readyNodes << " ready, " << s.unschedulableNodes
      << " unschedulable)\n";
    o << "  allocatable: " << shortResources(s.allocatable) << "\n";
    o << "\nGPUs: " << s.gpus << "\n";
    o << "  " << pad("MODEL", 28) << rpad("NODES", 6) << rpad("GPUS/NODE", 11) << rpad("GPUS", 7)
      << "  MEMORY/GPU\n";
    for (const auto& m : s.gpuModels)
        o << "  " << pad(m.model.empty() ? "(no GPU)" : m.model, 28) << rpad(std::to_string(m.nodes), 6)
          << rpad(std::to_string(m.gpusPerNode), 11) << rpad(std::to_string(m.gpus), 7) << "  "
          << bytesText(m.memoryBytes) << "\n";
    if (!s.migSlices.empty()) {
        o << "  MIG instances offered:";
        for (const auto& [profile, n] : s.migSlices) o << " " << profile << " x" << n;
        o << "\n";
    }
    if (s.deviceClasses || s.resourceSlices || s.resourceClaims || s.resourceClaimTemplates)
        o << "\nDRA: " << s.deviceClasses << " device classes, " << s.resourceSlices << " resource slices ("
          << s.draDevices << " devices), " << s.resourceClaims << " claims (" << s.allocatedClaims
          << " allocated), " << s.resourceClaimTemplates << " claim templates\n";

    o << "\nTopology:";
    if (s.topology.empty() && s.hyperNodesByTier.empty() && c.kueueTopologies.empty()) o << " none";
    o << "\n";
    for (const auto& t : s.topology) {
        int covered = 0;
        for (const auto& [v, n] : t.domains) covered += n;
        o << "  " << pad(t.name, 8) << pad(t.nodeLabel, 30) << t.domains.size() << " domains over " << covered
          << " nodes";
        if (!t.domains.empty() && t.domains.size() <= 4) {
            o << ":";
            for (const auto& [v, n] : t.domains) o << " " << v << " (" << n << ")";
        }
        o << "\n";
    }
    if (!s.hyperNodesByTier.empty()) {
        o << "  HyperNodes: " << c.hyperNodes.size() << " (";
        for (size_t i = 0; i < s.hyperNodesByTier.size(); ++i)
            o << (i ? ", " : "") << "tier " << s.hyperNodesByTier[i].first << ": "
              << s.hyperNodesByTier[i].second;
        o << ")\n";
    }
    for (const auto& t : c.kueueTopologies) {
        o << "  Kueue Topology " << t.name << ":";
        for (const auto& l : t.levels) o << " " << l;
        o << "\n";
    }

    o << "\nQueues: " << c.queues.size() << "\n";
    for (const auto& line : s.queueTree) {
        std::string details = queueDetails(*line.queue);
        o << "  " << std::string(size_t(line.depth) * 2, ' ') << line.queue->name
          << (details.empty() ? "" : "  " + details) << "\n";
    }
    for (const auto& lq : c.localQueues)
        o << "  LocalQueue " << lq.ns << "/" << lq.name << " -> " << lq.clusterQueue << "\n";
    if (!c.resourceFlavors.empty()) {
        o << "  ResourceFlavors:";
        for (const auto& f : c.resourceFlavors) o << " " << f.name;
        o << "\n";
    }

    o << "\nPriority classes: " << c.priorityClasses.size() << "\n";
    std::vector<const PriorityClass*> pcs;
    for (const auto& p : c.priorityClasses) pcs.push_back(&p);
    std::stable_sort(pcs.begin(), pcs.end(), [](auto* a, auto* b) { return a->value > b->value; });
    for (const auto* p : pcs) {
        o << "  " << pad(p->name, 24) << rpad(std::to_string(p->value), 11);
        if (p->workload) o << "  (Kueue workload)";
        if (p->globalDefault) o << "  (default)";
        if (p->preemptionPolicy == "Never") o << "  (never preempts)";
        o << "\n";
    }

    o << "\nPods: " << s.pods << " (" << s.podsBound << " bound, " << s.podsPending << " pending";
    if (s.podsFinished) o << ", " << s.podsFinished << " finished";
    o << ")";
    if (s.podsBound) o << "; bound pods hold " << s.gpusBound << " of " << s.gpus << " GPUs";
    o << "\nPodGroups: " << s.podGroups << "\n";
    if (s.workloadTemplates)
        o << "Workloads: " << s.workloadTemplates << " templates, " << s.workloadJobs << " jobs, "
          << s.workloadPods << " pods\n";
    for (const auto& w : project.workloads)
        o << "  " << pad(w.name, 20) << pad(w.queue.empty() ? "-" : w.queue, 14) << w.jobs << " x "
          << w.replicas << " pods of " << shortResources(w.podRequests)
          << (w.gpu.milliPerGpu < 1000 && w.gpu.count
                  ? " (" + std::to_string(w.gpu.milliPerGpu) + "m of a GPU)"
                  : "")
          << "\n";

    const SchedulerConf& conf = project.volcano;
    o << "\nPolicy: target " << toString(project.target) << "; Volcano actions";
    for (size_t i = 0; i < conf.actions.size(); ++i) o << (i ? ", " : " ") << conf.actions[i];
    o << "; plugins";
    bool first = true;
    for (const auto& tier : conf.tiers)
        for (const auto& p : tier.plugins) o << (first ? " " : ", ") << p.name, first = false;
    o << "\n";
    // The other schedulers' own policies, when the project has them.
    if (const auto& k = project.kueue) {
        o << "Kueue: fairSharing " << (k->fairSharing ? "on" : "off") << "; admissionFairSharing ";
        if (k->admissionFairSharing)
            o << "usageHalfLifeTime " << k->admissionFairSharing->usageHalfLifeSeconds << "s";
        else
            o << "off";
        o << "; waitForPodsReady " << (k->waitForPodsReady ? "on" : "off") << "; "
          << k->transformations.size() << " transformations\n";
    }
    if (const auto& y = project.cluster.yunikorn) {
        auto flag = [](const std::optional<bool>& v) { return !v ? "default" : *v ? "on" : "off"; };
        o << "YuniKorn: partition " << y->name << "; node sort "
          << (y->nodeSortPolicy.empty() ? "default (fair)" : y->nodeSortPolicy) << "; preemption "
          << flag(y->preemptionEnabled) << "; placement rules";
        for (size_t i = 0; i < y->placementRules.size(); ++i)
            o << (i ? ", " : " ") << y->placementRules[i].name
              << (y->placementRules[i].value.empty() ? "" : " " + y->placementRules[i].value);
        if (y->placementRules.empty()) o << " none";
        o << "\n";
    }
    return o.str();
}

nlohmann::ordered_json summaryJson(const ClusterSummary& s, size_t warnings) {
    using J = nlohmann::ordered_json;
    J byModel = J::object(), mig = J::object();
    for (const auto& m : s.gpuModels)
        if (m.gpus > 0) byModel[m.model] = byModel.value(m.model, int64_t(0)) + m.gpus;
    for (const auto& [profile, n] : s.migSlices) mig[profile] = n;
    J out;
    out["name"] = s.name;
    out["nodes"] = {{"total", s.nodes}, {"ready", s.readyNodes}, {"unschedulable", s.unschedulableNodes}};
    out["gpus"] = {{"total", s.gpus}, {"by_model", byModel}, {"mig", mig}};
    out["dra"] = {{"device_classes", s.deviceClasses},
                  {"resource_slices", s.resourceSlices},
                  {"devices", s.draDevices},
                  {"resource_claims", s.resourceClaims},
                  {"allocated_claims", s.allocatedClaims},
                  {"resource_claim_templates", s.resourceClaimTemplates}};
    out["pods"] = {
        {"total", s.pods}, {"bound", s.podsBound}, {"pending", s.podsPending}, {"finished", s.podsFinished}};
    out["queues"] = s.queueTree.size();
    out["pod_groups"] = s.podGroups;
    out["warnings"] = warnings;
    return out;
}

} // namespace gantry
